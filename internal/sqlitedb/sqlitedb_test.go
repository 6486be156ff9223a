package sqlitedb

import (
	"bytes"
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"testing"
)

func TestDSN(t *testing.T) {
	for _, tc := range []struct {
		opt  Options
		want string
	}{
		{Options{}, "file:///d/x.db?_pragma=busy_timeout%2810000%29"},
		{Options{ReadOnly: true, Pragmas: []string{"cache_size(-32000)"}},
			"file:///d/x.db?_pragma=busy_timeout%2810000%29&_pragma=cache_size%28-32000%29&mode=ro"},
		{Options{Pragmas: []string{"journal_mode(WAL)", "synchronous(NORMAL)"}, ImmediateTx: true},
			"file:///d/x.db?_pragma=busy_timeout%2810000%29&_pragma=journal_mode%28WAL%29&_pragma=synchronous%28NORMAL%29&_txlock=immediate"},
	} {
		if got := DSN("/d/x.db", tc.opt); got != tc.want {
			t.Errorf("DSN(%+v) = %q, want %q", tc.opt, got, tc.want)
		}
	}
}

func TestIsSQLiteFile(t *testing.T) {
	dir := t.TempDir()
	for _, tc := range []struct {
		name, content string // content "-" means no file
		want          bool
	}{
		{"missing", "-", true},
		{"empty", "", true},
		{"db", "SQLite format 3\x00rest", true},
		{"short", "SQLite", false},
		{"text", "hello, world, not a database", false},
	} {
		p := filepath.Join(dir, tc.name)
		if tc.content != "-" {
			if err := os.WriteFile(p, []byte(tc.content), 0o666); err != nil {
				t.Fatal(err)
			}
		}
		if got, err := IsSQLiteFile(p); err != nil || got != tc.want {
			t.Errorf("IsSQLiteFile(%s) = %v, %v; want %v", tc.name, got, err, tc.want)
		}
	}
}

func TestStat(t *testing.T) {
	p := filepath.Join(t.TempDir(), "a", "b", "x.db")
	if fi, err := Stat(p, true); fi != nil || err != nil {
		t.Fatalf("Stat(missing, read-only) = %v, %v; want nil, nil", fi, err)
	}
	if _, err := os.Stat(filepath.Dir(p)); !os.IsNotExist(err) {
		t.Fatalf("Stat read-only created %s", filepath.Dir(p))
	}
	if fi, err := Stat(p, false); fi != nil || err != nil {
		t.Fatalf("Stat(missing) = %v, %v; want nil, nil", fi, err)
	}
	if fi, err := os.Stat(filepath.Dir(p)); err != nil || !fi.IsDir() {
		t.Fatalf("Stat did not create %s: %v", filepath.Dir(p), err)
	}
}

// TestIsCorrupt: SQLite's errors for a damaged file and for a file that
// is not a database are corruption, wrapped or not; others are not.
func TestIsCorrupt(t *testing.T) {
	dir := t.TempDir()
	query := func(name string, content []byte) error {
		p := filepath.Join(dir, name)
		if content != nil {
			if err := os.WriteFile(p, content, 0o666); err != nil {
				t.Fatal(err)
			}
		}
		db, err := Open(p, Options{MaxOpenConns: 1})
		if err != nil {
			t.Fatal(err)
		}
		defer db.Close()
		_, err = db.Exec(`SELECT count(*) FROM sqlite_schema`)
		return err
	}
	notADB := query("text.db", bytes.Repeat([]byte("not a database; "), 512))
	// A database whose schema page is overwritten after its header.
	good := filepath.Join(dir, "good.db")
	db, err := Open(good, Options{MaxOpenConns: 1})
	if err != nil {
		t.Fatal(err)
	}
	if _, err := db.Exec(`CREATE TABLE t (x TEXT); INSERT INTO t VALUES ('a')`); err != nil {
		t.Fatal(err)
	}
	db.Close()
	data, err := os.ReadFile(good)
	if err != nil {
		t.Fatal(err)
	}
	copy(data[100:], bytes.Repeat([]byte{0xde, 0xad}, 200))
	damaged := query("damaged.db", data)

	for _, tc := range []struct {
		name string
		err  error
		want bool
	}{
		{"nil", nil, false},
		{"another error", errors.New("disk full"), false},
		{"not a database", notADB, true},
		{"damaged", damaged, true},
		{"wrapped", fmt.Errorf("index: search: %w", damaged), true},
		{"a healthy database", query("fresh.db", nil), false},
	} {
		if got := IsCorrupt(tc.err); got != tc.want {
			t.Errorf("%s: IsCorrupt(%v) = %v, want %v", tc.name, tc.err, got, tc.want)
		}
	}
}
