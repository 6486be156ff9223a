package store

import (
	"bytes"
	"context"
	"database/sql"
	"errors"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/ctxpack/ctxpack/internal/history"
)

func TestOpenCreates(t *testing.T) {
	root := t.TempDir()
	p := DefaultPath(root)
	if want := filepath.Join(root, ".ctxpack", "sources.db"); p != want {
		t.Fatalf("DefaultPath = %s, want %s", p, want)
	}
	s := openAt(t, p, Options{})
	if s.Path() != p {
		t.Errorf("Path = %s, want %s", s.Path(), p)
	}
	if _, err := os.Stat(p); err != nil {
		t.Fatal(err)
	}
	var mode string
	if err := s.db.QueryRow(`PRAGMA journal_mode`).Scan(&mode); err != nil || mode != "wal" {
		t.Errorf("journal_mode = %q, %v; want wal", mode, err)
	}
	// Opened again, it is the same store.
	mustAddMemory(t, s, Memory{Content: "kept", Importance: -1})
	s.Close()
	s2 := openAt(t, p, Options{})
	if ms, err := s2.Memories(context.Background(), ""); err != nil || len(ms) != 1 {
		t.Fatalf("after reopening: %v, %v", ms, err)
	}
}

func TestReadOnlyMissing(t *testing.T) {
	ctx := context.Background()
	p := filepath.Join(t.TempDir(), "sub", "sources.db")
	s := openAt(t, p, Options{ReadOnly: true})
	if _, err := os.Stat(filepath.Dir(p)); !errors.Is(err, os.ErrNotExist) {
		t.Fatalf("a read-only open created %s: %v", filepath.Dir(p), err)
	}
	// Every read is empty.
	if ms, err := s.Memories(ctx, ""); err != nil || ms != nil {
		t.Errorf("Memories = %v, %v", ms, err)
	}
	if es, err := s.Experiences(ctx, ExperienceFilter{}); err != nil || es != nil {
		t.Errorf("Experiences = %v, %v", es, err)
	}
	if vs, err := s.Values(ctx, ""); err != nil || vs != nil {
		t.Errorf("Values = %v, %v", vs, err)
	}
	if h, err := s.SearchMemories(ctx, "anything", 5); err != nil || h != nil {
		t.Errorf("SearchMemories = %v, %v", h, err)
	}
	if h, err := s.SearchExperiences(ctx, "anything", ExperienceQuery{Domain: "debugging", K: 5}); err != nil || h != nil {
		t.Errorf("SearchExperiences = %v, %v", h, err)
	}
	if h, err := s.SearchValues(ctx, "anything", 5); err != nil || h != nil {
		t.Errorf("SearchValues = %v, %v", h, err)
	}
	if h, err := s.SearchCommits(ctx, "anything", 5); err != nil || h != nil {
		t.Errorf("SearchCommits = %v, %v", h, err)
	}
	if c, err := s.Counts(ctx); err != nil || c != (Counts{}) {
		t.Errorf("Counts = %v, %v", c, err)
	}
	if p, err := s.DeriveValues(ctx, DeriveOptions{}); err != nil || p != nil {
		t.Errorf("DeriveValues = %v, %v", p, err)
	}
	if _, err := s.Memory(ctx, 1); !errors.Is(err, ErrNotFound) {
		t.Errorf("Memory(1) = %v, want ErrNotFound", err)
	}
	empty := openTest(t)
	want, _ := empty.StateRoot(ctx)
	if r, err := s.StateRoot(ctx); err != nil || r != want {
		t.Errorf("StateRoot = %s, %v; want the empty store's %s", r, err, want)
	}
	assertWritesRefused(t, s)
	if _, err := os.Stat(filepath.Dir(p)); !errors.Is(err, os.ErrNotExist) {
		t.Fatalf("a read-only store created %s: %v", filepath.Dir(p), err)
	}
}

func assertWritesRefused(t *testing.T, s *Store) {
	t.Helper()
	ctx := context.Background()
	_, err1 := s.AddMemory(ctx, Memory{Content: "x", Importance: -1})
	_, err2 := s.AddExperience(ctx, exp("debugging", "x"))
	_, err3 := s.AddValue(ctx, Value{Text: "x", Axis: AxisFull})
	_, err4 := s.SyncCommits(ctx, t.TempDir())
	_, err5 := s.RemoveMemory(ctx, 1)
	_, err6 := s.RemoveExperience(ctx, 1)
	_, err7 := s.RemoveValue(ctx, 1)
	for i, err := range []error{err1, err2, err3, err4, err5, err6, err7} {
		if !errors.Is(err, ErrReadOnly) {
			t.Errorf("write %d: %v, want ErrReadOnly", i, err)
		}
	}
}

func TestReadOnlyExisting(t *testing.T) {
	ctx := context.Background()
	p := filepath.Join(t.TempDir(), "sources.db")
	w := openAt(t, p, Options{Now: testNow})
	m := mustAddMemory(t, w, Memory{Content: "the deploy needs VPN", Importance: -1})
	s := openAt(t, p, Options{ReadOnly: true})
	got, err := s.Memory(ctx, m.ID)
	if err != nil || got != m {
		t.Fatalf("Memory = %+v, %v; want %+v", got, err, m)
	}
	if h, err := s.SearchMemories(ctx, "deploy", 5); err != nil || len(h) != 1 {
		t.Fatalf("SearchMemories = %v, %v", h, err)
	}
	assertWritesRefused(t, s)
	// A write through the other handle is seen.
	mustAddMemory(t, w, Memory{Content: "second", Importance: -1})
	if c, err := s.Counts(ctx); err != nil || c.Memories != 2 {
		t.Fatalf("Counts = %+v, %v", c, err)
	}
}

func TestNewerFormatRefused(t *testing.T) {
	p := filepath.Join(t.TempDir(), "sources.db")
	s := openAt(t, p, Options{})
	if _, err := s.db.Exec(`UPDATE meta SET value = '99' WHERE key = 'format_version'`); err != nil {
		t.Fatal(err)
	}
	s.Close()
	before := readFile(t, p)
	for _, ro := range []bool{false, true} {
		_, err := Open(p, Options{ReadOnly: ro})
		if err == nil || !strings.Contains(err.Error(), "format 99, newer") || !strings.Contains(err.Error(), p) {
			t.Errorf("ReadOnly %v: Open = %v, want a newer-format error naming the path", ro, err)
		}
	}
	if !bytes.Equal(before, readFile(t, p)) {
		t.Error("the file changed")
	}
}

func TestForeignFilesRefused(t *testing.T) {
	dir := t.TempDir()
	// An SQLite database with a table of its own.
	foreign := filepath.Join(dir, "foreign.db")
	db, err := sql.Open("sqlite", foreign)
	if err != nil {
		t.Fatal(err)
	}
	if _, err := db.Exec(`CREATE TABLE notes (body TEXT); INSERT INTO notes VALUES ('mine')`); err != nil {
		t.Fatal(err)
	}
	db.Close()
	// An SQLite database with a meta table that is not a store's: the
	// code index's, say.
	index := filepath.Join(dir, "index.db")
	db, err = sql.Open("sqlite", index)
	if err != nil {
		t.Fatal(err)
	}
	if _, err := db.Exec(`CREATE TABLE meta (key TEXT PRIMARY KEY, value TEXT NOT NULL); INSERT INTO meta VALUES ('format_version', '2')`); err != nil {
		t.Fatal(err)
	}
	db.Close()
	text := filepath.Join(dir, "notes.txt")
	if err := os.WriteFile(text, []byte("not a database at all, but long enough to have a header\n"), 0o666); err != nil {
		t.Fatal(err)
	}
	for _, c := range []struct{ path, want string }{
		{foreign, "not a sources store"},
		{index, "not a sources store"},
		{text, "not an SQLite database"},
		{dir, "is a directory"},
	} {
		for _, ro := range []bool{false, true} {
			var before []byte
			if c.path != dir {
				before = readFile(t, c.path)
			}
			_, err := Open(c.path, Options{ReadOnly: ro})
			if err == nil || !strings.Contains(err.Error(), c.want) || !strings.Contains(err.Error(), c.path) || !strings.HasPrefix(err.Error(), "store: ") {
				t.Errorf("Open(%s, ReadOnly %v) = %v, want an error with %q naming the path", filepath.Base(c.path), ro, err, c.want)
			}
			if c.path != dir && !bytes.Equal(before, readFile(t, c.path)) {
				t.Errorf("Open(%s, ReadOnly %v) changed the file", filepath.Base(c.path), ro)
			}
		}
	}
	entries, _ := os.ReadDir(dir)
	if len(entries) != 3 {
		t.Errorf("the directory holds %d files, want the 3 it had (no -wal or -shm left)", len(entries))
	}
}

func TestEmptyFileBecomesStore(t *testing.T) {
	p := filepath.Join(t.TempDir(), "sources.db")
	if err := os.WriteFile(p, nil, 0o666); err != nil {
		t.Fatal(err)
	}
	// Read-only, an empty file is an empty store, left empty.
	ro := openAt(t, p, Options{ReadOnly: true})
	if ms, err := ro.Memories(context.Background(), ""); err != nil || ms != nil {
		t.Fatalf("Memories = %v, %v", ms, err)
	}
	ro.Close()
	if b := readFile(t, p); len(b) != 0 {
		t.Fatal("a read-only open wrote the empty file")
	}
	s := openAt(t, p, Options{})
	mustAddMemory(t, s, Memory{Content: "x", Importance: -1})
}

func TestCounts(t *testing.T) {
	s := openTest(t)
	fill(t, s, 1, 7, 5, 3, 2)
	c, err := s.Counts(context.Background())
	if err != nil || c != (Counts{7, 5, 3, 2}) {
		t.Fatalf("Counts = %+v, %v", c, err)
	}
}

func TestStateRoot(t *testing.T) {
	ctx := context.Background()
	root := func(s *Store) string {
		t.Helper()
		r, err := s.StateRoot(ctx)
		if err != nil {
			t.Fatal(err)
		}
		if !strings.HasPrefix(r, "sha256:") || len(r) != len("sha256:")+64 {
			t.Fatalf("StateRoot = %q", r)
		}
		return r
	}
	g := newGen(3)
	commits := []history.Commit{g.commit(0), g.commit(1), g.commit(2)}
	build := func(order []int) *Store {
		s := openTest(t)
		mustAddMemory(t, s, Memory{Content: "one", Importance: -1})
		mustAddExperience(t, s, exp("debugging", "two"))
		mustAddValue(t, s, Value{Text: "three", Axis: AxisFull, Tags: []string{"b", "a"}})
		var cs []history.Commit
		for _, i := range order {
			cs = append(cs, commits[i])
		}
		if err := s.write(ctx, func(tx conn) error { _, err := s.insertCommits(ctx, tx, cs); return err }); err != nil {
			t.Fatal(err)
		}
		return s
	}
	a, b := build([]int{0, 1, 2}), build([]int{2, 0, 1})
	ra := root(a)
	if rb := root(b); ra != rb {
		t.Fatalf("same rows, commits inserted in another order: %s != %s", ra, rb)
	}
	empty := root(openTest(t))
	if ra == empty {
		t.Fatal("a store with rows has the empty store's root")
	}
	m := mustAddMemory(t, a, Memory{Content: "four", Importance: -1})
	added := root(a)
	if added == ra {
		t.Fatal("adding a memory did not change the root")
	}
	if _, err := a.RemoveMemory(ctx, m.ID); err != nil {
		t.Fatal(err)
	}
	if r := root(a); r != ra {
		t.Fatalf("removing the added memory: %s, want the root before it %s", r, ra)
	}
	if _, err := a.RemoveValue(ctx, 1); err != nil {
		t.Fatal(err)
	}
	if r := root(a); r == ra || r == added {
		t.Fatal("removing a value did not change the root")
	}
	// A memory with other content but the same id gives another root.
	c, d := openTest(t), openTest(t)
	mustAddMemory(t, c, Memory{Content: "x", Importance: -1})
	mustAddMemory(t, d, Memory{Content: "y", Importance: -1})
	if root(c) == root(d) {
		t.Fatal("different content, same root")
	}
}

func readFile(t *testing.T, p string) []byte {
	t.Helper()
	b, err := os.ReadFile(p)
	if err != nil {
		t.Fatal(err)
	}
	return b
}
