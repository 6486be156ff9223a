package pgtest

import (
	"context"
	"database/sql"
	"fmt"
	"go/parser"
	"go/token"
	"io/fs"
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"testing"

	_ "github.com/jackc/pgx/v5/stdlib" // the database/sql driver the store uses
)

// recorder is a testing.TB that records Fatalf and Skip instead of
// ending the test.
type recorder struct {
	testing.TB
	fatal, skip string
}

func (r *recorder) Helper()                      {}
func (r *recorder) Fatalf(f string, args ...any) { r.fatal = fmt.Sprintf(f, args...) }
func (r *recorder) Skip(args ...any)             { r.skip = fmt.Sprint(args...) }

// TestMissing: without PostgreSQL a test is skipped, except when CI is
// "true": then it fails.
func TestMissing(t *testing.T) {
	for _, tc := range []struct {
		ci        string
		wantFatal bool
	}{
		{"true", true},
		{"", false},
		{"false", false},
		{"1", false}, // .ci/run sets CI=true; nothing else counts
	} {
		t.Run("CI="+tc.ci, func(t *testing.T) {
			t.Setenv("CI", tc.ci)
			r := &recorder{TB: t}
			missing(r, "pgtest: no server: "+hint)
			got := r.skip
			if tc.wantFatal {
				got = r.fatal
			}
			if got == "" || (r.fatal != "") == (r.skip != "") {
				t.Fatalf("fatal %q, skip %q: want exactly one, the %s", r.fatal, r.skip, map[bool]string{true: "fatal", false: "skip"}[tc.wantFatal])
			}
			for _, want := range []string{Env, "scripts/pgcluster start", ".ci/run"} {
				if !strings.Contains(got, want) {
					t.Errorf("message %q does not name %q", got, want)
				}
			}
		})
	}
}

func TestUniqueName(t *testing.T) {
	seen := map[string]bool{}
	for range 1000 {
		n := uniqueName("ctxpack_test_")
		if seen[n] {
			t.Fatalf("%s twice", n)
		}
		seen[n] = true
		if len(n) > 63 { // PostgreSQL's NAMEDATALEN-1
			t.Fatalf("%s is longer than an identifier may be", n)
		}
		if !strings.Contains(n, "_"+strconv.Itoa(os.Getpid())+"_") {
			t.Fatalf("%s does not carry the process id", n)
		}
	}
}

func open(t *testing.T, dsn string) *sql.DB {
	t.Helper()
	db, err := sql.Open("pgx", dsn)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { db.Close() })
	return db
}

// TestDSN: each call gives a database of its own, empty, UTF8 with the C
// collation, that the test can write to, dropped when the test ends.
func TestDSN(t *testing.T) {
	var names [2]string
	ok := t.Run("fresh", func(t *testing.T) {
		for i := range names {
			db := open(t, DSN(t))
			ctx := context.Background()
			var tables int
			var enc, collate string
			err := db.QueryRowContext(ctx, `SELECT current_database(), pg_encoding_to_char(encoding), datcollate,
				(SELECT count(*) FROM pg_class c JOIN pg_namespace n ON n.oid = c.relnamespace
				 WHERE n.nspname NOT IN ('pg_catalog', 'information_schema') AND n.nspname NOT LIKE 'pg_toast%')
				FROM pg_database WHERE datname = current_database()`).Scan(&names[i], &enc, &collate, &tables)
			if err != nil {
				t.Fatal(err)
			}
			if tables != 0 || enc != "UTF8" || collate != "C" {
				t.Errorf("database %s: %d relations, encoding %s, collation %s; want 0, UTF8, C", names[i], tables, enc, collate)
			}
			if _, err := db.ExecContext(ctx, "CREATE TABLE t (k text PRIMARY KEY)"); err != nil {
				t.Fatal(err)
			}
			if _, err := db.ExecContext(ctx, "INSERT INTO t VALUES ('b'), ('B'), ('a')"); err != nil {
				t.Fatal(err)
			}
			var order string
			if err := db.QueryRowContext(ctx, "SELECT string_agg(k, '' ORDER BY k) FROM t").Scan(&order); err != nil {
				t.Fatal(err)
			}
			if order != "Bab" {
				t.Errorf("ORDER BY gives %q, want byte order %q", order, "Bab")
			}
		}
		if names[0] == names[1] {
			t.Errorf("two calls gave one database, %s", names[0])
		}
	})
	if !ok || names[1] == "" {
		return // the subtest failed or was skipped, and says why
	}
	// The subtest has ended: its databases are dropped.
	db := open(t, os.Getenv(Env))
	for _, name := range names {
		var n int
		if err := db.QueryRow("SELECT count(*) FROM pg_database WHERE datname = $1", name).Scan(&n); err != nil {
			t.Fatal(err)
		}
		if n != 0 {
			t.Errorf("database %s is still there after its test ended", name)
		}
	}
}

// TestCluster: committed rows survive a crash (Kill) and a fast shutdown
// (Stop); while the server is down, connections fail; Start brings it
// back on the same port.
func TestCluster(t *testing.T) {
	c := StartCluster(t)
	url := c.URL("postgres")
	if _, err := open(t, url).Exec("CREATE TABLE t (n int PRIMARY KEY)"); err != nil {
		t.Fatal(err)
	}
	for i, tc := range []struct {
		name string
		down func()
	}{
		{"kill", c.Kill},
		{"stop", c.Stop},
		{"kill again", c.Kill},
	} {
		t.Run(tc.name, func(t *testing.T) {
			db := open(t, url)
			if _, err := db.Exec("INSERT INTO t VALUES ($1)", i); err != nil {
				t.Fatal(err)
			}
			tc.down()
			if err := db.Ping(); err == nil {
				t.Fatal("the server answers while down")
			}
			c.Start()
			db = open(t, url)
			var n, sum int
			if err := db.QueryRow("SELECT count(*), coalesce(sum(n), 0) FROM t").Scan(&n, &sum); err != nil {
				t.Fatal(err)
			}
			if n != i+1 || sum != i*(i+1)/2 {
				t.Errorf("%d rows summing to %d after %s and Start; want %d rows summing to %d", n, sum, tc.name, i+1, i*(i+1)/2)
			}
		})
	}
}

// TestOnlyTestsImport: pgtest stays out of ctxpack's binary and library.
func TestOnlyTestsImport(t *testing.T) {
	const self = `"github.com/ctxpack/ctxpack/internal/pgtest"`
	fset := token.NewFileSet()
	err := filepath.WalkDir("../..", func(p string, d fs.DirEntry, err error) error {
		if err != nil {
			return err
		}
		if d.IsDir() && (d.Name() == "testdata" || d.Name() == "node_modules" || strings.HasPrefix(d.Name(), ".") && p != "../..") {
			return filepath.SkipDir
		}
		if d.IsDir() || !strings.HasSuffix(p, ".go") || strings.HasSuffix(p, "_test.go") {
			return nil
		}
		f, err := parser.ParseFile(fset, p, nil, parser.ImportsOnly)
		if err != nil {
			return err
		}
		for _, imp := range f.Imports {
			if imp.Path.Value == self {
				t.Errorf("%s imports internal/pgtest, which only tests may import", p)
			}
		}
		return nil
	})
	if err != nil {
		t.Fatal(err)
	}
}
