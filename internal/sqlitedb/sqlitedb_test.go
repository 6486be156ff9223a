package sqlitedb

import (
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
