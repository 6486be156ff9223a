package index

import (
	"context"
	"errors"
	"os"
	"path/filepath"
	"runtime"
	"strings"
	"testing"
	"time"

	"github.com/ctxpack/ctxpack/internal/project"
	"github.com/google/go-cmp/cmp"
)

var smallProject = map[string]string{
	"server.go":           "package web\n\n// HTTPServer serves requests.\ntype HTTPServer struct{ addr string }\n\nfunc (s *HTTPServer) ServeHTTP(w Writer, r *Request) {\n\thandleRequest(w, r)\n}\n\nfunc handleRequest(w Writer, r *Request) {\n\tw.Write(r.Body)\n}\n",
	"billing/invoice.go":  "package billing\n\n// Invoice is a bill.\ntype Invoice struct{ total int64 }\n\n// RoundTotal rounds the invoice total after currency conversion.\nfunc RoundTotal(inv *Invoice, rate float64) int64 {\n\treturn int64(float64(inv.total) * rate)\n}\n",
	"billing/currency.go": "package billing\n\nfunc convertCurrency(amount int64, rate float64) int64 {\n\treturn int64(float64(amount) * rate)\n}\n",
	"README.md":           "# Shop\n\nAn example shop.\n\n## Billing\n\nInvoices are rounded to the cent.\n",
	"notes.txt":           "first block about tokens\n\nsecond block about budgets\n",
	"image.png":           "\x89PNG\r\n\x1a\n\x00\x00binary",
	".gitignore":          "build/\n",
	"build/out.go":        "package out\n\nfunc Generated() {}\n",
}

func TestUpdateAndSearch(t *testing.T) {
	dir := t.TempDir()
	writeTree(t, dir, smallProject)
	db := filepath.Join(dir, ".ctxpack", "index.db")
	ix, st := build(t, dir, db, Options{})
	if st.Rebuilt.Reason != Missing {
		t.Errorf("Rebuilt = %v, want missing", st.Rebuilt)
	}
	// README.md, notes.txt, three .go files; image.png skipped; build/
	// ignored; .gitignore hidden (the zero WalkOptions leave those out).
	if st.Files != 5 || st.Skipped != 1 || st.Added != 5 || !st.Wrote {
		t.Errorf("stats %+v", st)
	}
	if ix.State().Reason != Current {
		t.Errorf("state after update: %v", ix.State())
	}
	hits, err := ix.Search(context.Background(), "HTTPServer", 3, SearchOptions{})
	if err != nil {
		t.Fatal(err)
	}
	if len(hits) == 0 || hits[0].Path != "server.go" {
		t.Fatalf("hits %+v", hits)
	}
	if !strings.Contains(hits[0].Why(), "httpserver") {
		t.Errorf("why %q", hits[0].Why())
	}
	hits, err = ix.Search(context.Background(), "round the invoice total", 10, SearchOptions{Files: true})
	if err != nil {
		t.Fatal(err)
	}
	if len(hits) == 0 || hits[0].Path != "billing/invoice.go" {
		t.Fatalf("hits %+v", hits)
	}
	seen := map[string]bool{}
	for _, h := range hits {
		if seen[h.Path] {
			t.Errorf("files mode returned %s twice", h.Path)
		}
		seen[h.Path] = true
	}
	for _, q := range []string{"", "!!", "a b c", "zzzunknown"} {
		hits, err := ix.Search(context.Background(), q, 10, SearchOptions{})
		if err != nil || len(hits) != 0 {
			t.Errorf("Search(%q) = %v, %v; want no hits", q, hits, err)
		}
	}

	// No change: nothing is read or written.
	st2, err := ix.Update(context.Background(), os.DirFS(dir), nil)
	if err != nil {
		t.Fatal(err)
	}
	if st2.Wrote || st2.Unchanged != 5 || st2.StateRoot != st.StateRoot || st2.Files != 5 || st2.Rebuilt.Reason != Current {
		t.Errorf("no-change update: %+v", st2)
	}
}

// TestIncremental checks that an index updated through changes answers
// like one built from scratch on the final tree, row for row.
func TestIncremental(t *testing.T) {
	dir := t.TempDir()
	files := genProject(1, 300)
	writeTree(t, dir, files)
	ix, _ := build(t, dir, filepath.Join(t.TempDir(), "inc.db"), Options{})
	queries := []string{"invoice total", "RoundingCurrency", "parse_request", "merkle root state", "ledger"}
	for round := range 3 {
		var touched []string
		files, touched = mutate(uint64(round), files)
		syncTree(t, dir, files, touched, epoch.Add(time.Duration(round+1)*time.Minute))
		st, err := ix.Update(context.Background(), os.DirFS(dir), nil)
		if err != nil {
			t.Fatal(err)
		}
		if st.Added == 0 || st.Changed == 0 || st.Removed == 0 || st.Touched == 0 {
			t.Errorf("round %d: want every kind of change, got %+v", round, st)
		}
		clean, cst := build(t, dir, filepath.Join(t.TempDir(), "clean.db"), Options{})
		if st.StateRoot != cst.StateRoot {
			t.Errorf("round %d: state root %s, clean build %s", round, st.StateRoot, cst.StateRoot)
		}
		if d := cmp.Diff(dump(t, clean, false), dump(t, ix, false)); d != "" {
			t.Errorf("round %d: rows differ (-clean +incremental):\n%s", round, d)
		}
		if d := cmp.Diff(answers(t, clean, queries), answers(t, ix, queries)); d != "" {
			t.Errorf("round %d: answers differ (-clean +incremental):\n%s", round, d)
		}
	}
}

// TestWorkersAgree checks that the index does not depend on parallelism:
// byte for byte the same rows, ids included, with GOMAXPROCS 1 and 8 and
// with 1 and 8 workers.
func TestWorkersAgree(t *testing.T) {
	dir := t.TempDir()
	writeTree(t, dir, genProject(2, 200))
	q := []string{"invoice", "BalanceLedger"}
	var want, wantAnswers string
	for _, c := range []struct{ procs, workers int }{{1, 0}, {8, 0}, {2, 1}, {2, 8}} {
		prev := runtime.GOMAXPROCS(c.procs)
		ix, _ := build(t, dir, filepath.Join(t.TempDir(), "i.db"), Options{Workers: c.workers})
		runtime.GOMAXPROCS(prev)
		got, gotAnswers := dump(t, ix, true), answers(t, ix, q)
		if want == "" {
			want, wantAnswers = got, gotAnswers
			continue
		}
		if d := cmp.Diff(want, got); d != "" {
			t.Errorf("GOMAXPROCS %d, workers %d: rows differ from GOMAXPROCS 1:\n%s", c.procs, c.workers, d)
		}
		if d := cmp.Diff(wantAnswers, gotAnswers); d != "" {
			t.Errorf("GOMAXPROCS %d, workers %d: answers differ from GOMAXPROCS 1:\n%s", c.procs, c.workers, d)
		}
	}
}

func TestStates(t *testing.T) {
	ctx := context.Background()
	dir := t.TempDir()
	writeTree(t, dir, smallProject)
	db := filepath.Join(t.TempDir(), "x", "index.db")

	// Read-only and missing: nothing is created, search says why.
	ro, state, err := Open(db, Options{ReadOnly: true})
	if err != nil || state.Reason != Missing {
		t.Fatalf("read-only open of a missing index: %v, %v", state, err)
	}
	var nc *NotCurrentError
	if _, err := ro.Search(ctx, "x", 1, SearchOptions{}); !errors.As(err, &nc) {
		t.Errorf("search on a missing index: %v", err)
	}
	if _, err := ro.Update(ctx, os.DirFS(dir), nil); err == nil {
		t.Error("read-only update succeeded")
	}
	if _, err := os.Stat(filepath.Dir(db)); !errors.Is(err, os.ErrNotExist) {
		t.Errorf("read-only open created files: %v", err)
	}

	ix, _ := build(t, dir, db, Options{})
	want := answers(t, ix, []string{"invoice"})
	ix.Close()

	reopen := func() (*Index, State) {
		t.Helper()
		ix, st, err := Open(db, Options{Now: testNow})
		if err != nil {
			t.Fatal(err)
		}
		t.Cleanup(func() { ix.Close() })
		return ix, st
	}
	tamper := func(q string) {
		t.Helper()
		sdb := openDB(t, db)
		if _, err := sdb.Exec(q); err != nil {
			t.Fatal(err)
		}
		sdb.Close()
	}
	rebuilds := func(reason Reason) {
		t.Helper()
		ix, st := reopen()
		if st.Reason != reason {
			t.Fatalf("state %v, want %v", st, reason)
		}
		if reason != Current {
			if _, err := ix.Search(ctx, "x", 1, SearchOptions{}); !errors.As(err, &nc) {
				t.Errorf("search on a %v index: %v", reason, err)
			}
		}
		us, err := ix.Update(ctx, os.DirFS(dir), nil)
		if err != nil {
			t.Fatal(err)
		}
		if us.Rebuilt.Reason != reason {
			t.Errorf("Rebuilt = %v, want %v", us.Rebuilt, reason)
		}
		if d := cmp.Diff(want, answers(t, ix, []string{"invoice"})); d != "" {
			t.Errorf("answers after a rebuild from %v (-want +got):\n%s", st.Reason, d)
		}
	}
	rebuilds(Current)

	tamper(`UPDATE meta SET value = '99' WHERE key = 'format_version'`)
	rebuilds(VersionMismatch)
	_, st := reopen()
	if st.Reason != Current {
		t.Errorf("after rebuild: %v", st)
	}

	tamper(`UPDATE meta SET value = 'chunk.version=0' WHERE key = 'options'`)
	tamper(`UPDATE meta SET value = 'sha256:0' WHERE key = 'options_hash'`)
	_, st = reopen()
	if st.Reason != OptionsMismatch || !strings.Contains(st.Detail, "chunk.version 0 → ") {
		t.Errorf("state %v", st)
	}
	rebuilds(OptionsMismatch)

	tamper(`DELETE FROM meta WHERE key = 'state_root'`)
	rebuilds(Corrupt)

	// Not a database at all: reported, never replaced.
	junk := filepath.Join(t.TempDir(), "junk.db")
	if err := os.WriteFile(junk, []byte("precious data, not an index\n"), 0o666); err != nil {
		t.Fatal(err)
	}
	jx, st, err := Open(junk, Options{})
	if err != nil {
		t.Fatal(err)
	}
	defer jx.Close()
	if st.Reason != Corrupt {
		t.Errorf("junk file: %v", st)
	}
	if _, err := jx.Update(ctx, os.DirFS(dir), nil); err == nil || !strings.Contains(err.Error(), "not an SQLite database") {
		t.Errorf("update over a junk file: %v", err)
	}
	if data, _ := os.ReadFile(junk); string(data) != "precious data, not an index\n" {
		t.Error("junk file was changed")
	}

	// Another application's database: reported, never replaced.
	other := filepath.Join(t.TempDir(), "app.db")
	odb := openDB(t, other)
	if _, err := odb.Exec(`CREATE TABLE users (name TEXT)`); err != nil {
		t.Fatal(err)
	}
	odb.Close()
	ox, st, err := Open(other, Options{})
	if err != nil {
		t.Fatal(err)
	}
	defer ox.Close()
	if st.Reason != Corrupt {
		t.Errorf("foreign database: %v", st)
	}
	if _, err := ox.Update(ctx, os.DirFS(dir), nil); err == nil || !strings.Contains(err.Error(), "not a ctxpack index") {
		t.Errorf("update over a foreign database: %v", err)
	}
}

func TestSkippedAndStatus(t *testing.T) {
	ctx := context.Background()
	dir := t.TempDir()
	files := map[string]string{
		"a.go":      "package a\n\nfunc Alpha() {}\n",
		"b.go":      "package a\n\nfunc Beta() {}\n",
		"big.txt":   strings.Repeat("word ", 100),
		"blob.bin":  "a\x00b",
		"keep/c.md": "# Gamma\n",
	}
	writeTree(t, dir, files)
	db := filepath.Join(dir, ".ctxpack", "index.db")
	ix, st := build(t, dir, db, Options{Walk: project.WalkOptions{MaxFileBytes: 200}})
	if st.Files != 3 || st.Skipped != 2 {
		t.Fatalf("stats %+v", st)
	}
	s, err := ix.Status(ctx, os.DirFS(dir))
	if err != nil {
		t.Fatal(err)
	}
	want := []string{"big.txt: too large (500 B > 200 B limit)", "blob.bin: binary"}
	var got []string
	for _, sk := range s.Skipped {
		got = append(got, sk.Path+": "+sk.Reason)
	}
	if d := cmp.Diff(want, got); d != "" {
		t.Errorf("skipped (-want +got):\n%s", d)
	}
	if s.FormatVersion != FormatVersion || s.StateRoot != st.StateRoot || s.Files != 3 || s.Chunks == 0 || !s.Stale.Empty() {
		t.Errorf("status %+v", s)
	}

	// Touch one file, change one, add one, remove one.
	writeFile(t, dir, "a.go", files["a.go"], epoch.Add(time.Minute))
	writeFile(t, dir, "b.go", "package a\n\nfunc BetaTwo() {}\n", epoch.Add(time.Minute))
	writeFile(t, dir, "d.go", "package a\n\nfunc Delta() {}\n", epoch)
	os.Remove(filepath.Join(dir, "keep", "c.md"))
	s, err = ix.Status(ctx, os.DirFS(dir))
	if err != nil {
		t.Fatal(err)
	}
	wantStale := &Stale{Added: []string{"d.go"}, Changed: []string{"a.go", "b.go"}, Removed: []string{"keep/c.md"}}
	if d := cmp.Diff(wantStale, s.Stale); d != "" {
		t.Errorf("stale (-want +got):\n%s", d)
	}
	st, err = ix.Update(ctx, os.DirFS(dir), nil)
	if err != nil {
		t.Fatal(err)
	}
	if st.Added != 1 || st.Changed != 1 || st.Touched != 1 || st.Removed != 1 || st.Unchanged != 0 {
		t.Errorf("stats %+v", st)
	}
	hits, err := ix.Search(ctx, "BetaTwo", 1, SearchOptions{})
	if err != nil || len(hits) != 1 || hits[0].Path != "b.go" {
		t.Errorf("search after update: %+v, %v", hits, err)
	}

	// A limit raised lets the large file in, incrementally.
	ix.Close()
	ix, st = build(t, dir, db, Options{})
	if st.Rebuilt.Reason != Current || st.Added != 1 || st.Skipped != 1 {
		t.Errorf("after raising the limit: %+v", st)
	}
}

// TestRacyFiles checks that a file changed right before an update is read
// again by the next one even when its size and mtime look the same.
func TestRacyFiles(t *testing.T) {
	ctx := context.Background()
	dir := t.TempDir()
	now := epoch.Add(time.Hour)
	writeFile(t, dir, "a.go", "package a\n\nfunc Old() {}\n", now.Add(-time.Second))
	ix, _ := build(t, dir, filepath.Join(t.TempDir(), "i.db"), Options{Now: func() time.Time { return now }})
	// Same size, same mtime, new content.
	writeFile(t, dir, "a.go", "package a\n\nfunc New() {}\n", now.Add(-time.Second))
	st, err := ix.Update(ctx, os.DirFS(dir), nil)
	if err != nil {
		t.Fatal(err)
	}
	if st.Changed != 1 {
		t.Errorf("racy file not read again: %+v", st)
	}
	hits, _ := ix.Search(ctx, "New", 1, SearchOptions{})
	if len(hits) != 1 {
		t.Errorf("new content not indexed")
	}
}

func TestExclude(t *testing.T) {
	dir := t.TempDir()
	writeTree(t, dir, map[string]string{"a.go": "package a\n", "idx/x.db": "x", "idx/y": "y"})
	_, st := build(t, dir, filepath.Join(dir, "idx", "x.db"), Options{Exclude: []string{"idx"}})
	if st.Files != 1 {
		t.Errorf("stats %+v", st)
	}
}

func TestSearchOrder(t *testing.T) {
	dir := t.TempDir()
	same := "package p\n\nfunc Shared() {}\n"
	writeTree(t, dir, map[string]string{"b/x.go": same, "a/x.go": same, "c/x.go": same})
	ix, _ := build(t, dir, filepath.Join(t.TempDir(), "i.db"), Options{})
	hits, err := ix.Search(context.Background(), "shared", 2, SearchOptions{})
	if err != nil {
		t.Fatal(err)
	}
	if len(hits) != 2 || hits[0].Path != "a/x.go" || hits[1].Path != "b/x.go" || hits[0].Score != hits[1].Score {
		t.Errorf("ties not broken by path: %+v", hits)
	}
}
