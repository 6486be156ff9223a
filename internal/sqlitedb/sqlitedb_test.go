package sqlitedb

import (
	"bytes"
	"context"
	"database/sql"
	"errors"
	"fmt"
	"io/fs"
	"os"
	"path/filepath"
	"strings"
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

// TestSetAsideStaleWAL: a write-ahead log left by a crash is the
// database's own and stays, to be replayed; one beside a database restored
// from an older backup is moved aside, whole, and the database opens whole.
func TestSetAsideStaleWAL(t *testing.T) {
	ctx := context.Background()
	exec := func(db *sql.DB, q string, args ...any) {
		t.Helper()
		if _, err := db.Exec(q, args...); err != nil {
			t.Fatal(err)
		}
	}
	count := func(p string) int {
		t.Helper()
		db, err := Open(p, Options{MaxOpenConns: 1})
		if err != nil {
			t.Fatal(err)
		}
		defer db.Close()
		if err := QuickCheck(ctx, db); err != nil {
			t.Fatalf("%s is damaged: %v", p, err)
		}
		var n int
		if err := db.QueryRow(`SELECT count(*) FROM t`).Scan(&n); err != nil {
			t.Fatal(err)
		}
		return n
	}
	copyFile := func(from, to string) {
		t.Helper()
		data, err := os.ReadFile(from)
		if err == nil {
			err = os.WriteFile(to, data, 0o666)
		}
		if err != nil {
			t.Fatal(err)
		}
	}
	// crashed writes rows while a reader holds the log, and copies the
	// database and its log as a crash would leave them into dir.
	crashed := func(p, dir string, rows int) {
		t.Helper()
		reader, err := Open(p, Options{MaxOpenConns: 1})
		if err != nil {
			t.Fatal(err)
		}
		defer reader.Close()
		tx, err := reader.Begin()
		if err != nil {
			t.Fatal(err)
		}
		defer tx.Rollback()
		var n int
		if err := tx.QueryRow(`SELECT count(*) FROM t`).Scan(&n); err != nil {
			t.Fatal(err)
		}
		w, err := Open(p, Options{MaxOpenConns: 1})
		if err != nil {
			t.Fatal(err)
		}
		defer w.Close()
		for i := range rows {
			exec(w, `INSERT INTO t VALUES (?)`, strings.Repeat(fmt.Sprint(i), 300))
		}
		copyFile(p+"-wal", filepath.Join(dir, "db-wal"))
	}

	dir := t.TempDir()
	p := filepath.Join(dir, "db")
	db, err := Open(p, Options{MaxOpenConns: 1, Pragmas: []string{"journal_mode(WAL)"}})
	if err != nil {
		t.Fatal(err)
	}
	exec(db, `CREATE TABLE t (x TEXT)`)
	exec(db, `INSERT INTO t VALUES ('first')`)
	db.Close()
	backup := filepath.Join(dir, "backup")
	copyFile(p, backup)

	// A crash: the database as it was, its log with 50 rows.
	crashDir := t.TempDir()
	copyFile(p, filepath.Join(crashDir, "db"))
	crashed(p, crashDir, 50)
	if st, err := SetAsideStaleWAL(ctx, filepath.Join(crashDir, "db")); st != nil || err != nil {
		t.Fatalf("a crash's log: %+v, %v", st, err)
	}
	if n := count(filepath.Join(crashDir, "db")); n != 51 {
		t.Errorf("after a crash: %d rows, want 51", n)
	}

	// The database grows; then the backup comes back beside a log of the
	// grown one.
	db, err = Open(p, Options{MaxOpenConns: 1})
	if err != nil {
		t.Fatal(err)
	}
	for i := range 200 {
		exec(db, `INSERT INTO t VALUES (?)`, strings.Repeat(fmt.Sprint(i), 100))
	}
	db.Close()
	restoreDir := t.TempDir()
	crashed(p, restoreDir, 50)
	restored := filepath.Join(restoreDir, "db")
	copyFile(backup, restored)
	wal, err := os.ReadFile(restored + "-wal")
	if err != nil {
		t.Fatal(err)
	}
	st, err := SetAsideStaleWAL(ctx, restored)
	if err != nil || st == nil || st.MovedTo != restored+"-wal.stale-1" || st.Damage == "" {
		t.Fatalf("a restored backup's log: %+v, %v", st, err)
	}
	if moved, err := os.ReadFile(st.MovedTo); err != nil || !bytes.Equal(moved, wal) {
		t.Errorf("the log moved aside differs: %v", err)
	}
	if _, err := os.Stat(restored + "-wal"); !errors.Is(err, fs.ErrNotExist) {
		t.Errorf("the log is still there: %v", err)
	}
	if n := count(restored); n != 1 {
		t.Errorf("the restored backup has %d rows, want 1", n)
	}
	if st, err := SetAsideStaleWAL(ctx, restored); st != nil || err != nil {
		t.Errorf("again: %+v, %v", st, err)
	}
}
