package cli

import (
	"bytes"
	"database/sql"
	"encoding/json"
	"errors"
	"flag"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"runtime/debug"
	"slices"
	"strconv"
	"strings"
	"testing"

	"github.com/ctxpack/ctxpack/internal/fakesecrets"

	"github.com/ctxpack/ctxpack/internal/pgtest"
	"github.com/rogpeppe/go-internal/testscript"
	_ "modernc.org/sqlite" // for damagepage
)

var update = flag.Bool("update", false, "rewrite the expected output in testdata/script")

func TestMain(m *testing.M) {
	testscript.Main(m, map[string]func(){
		"ctxpack": func() { os.Exit(Main()) },
	})
}

// TestScripts runs the CLI scripts in testdata/script: each is a small
// project and the commands to run on it, with their expected output.
func TestScripts(t *testing.T) {
	files, err := filepath.Glob("testdata/script/*.txtar")
	if err != nil || len(files) == 0 {
		t.Fatalf("no scripts in testdata/script (%v)", err)
	}
	scriptT = t
	testscript.Run(t, testscript.Params{
		Dir:                 "testdata/script",
		RequireExplicitExec: true,
		RequireUniqueNames:  true,
		UpdateScripts:       *update,
		Cmds:                scriptCmds,
		Setup: func(env *testscript.Env) error {
			env.Setenv("GOROOT_SRC", filepath.Join(goroot(), "src"))
			examples, err := filepath.Abs(filepath.Join("..", "..", "examples"))
			if err != nil {
				return err
			}
			env.Setenv("EXAMPLES", examples)
			// BINDIR holds the ctxpack command alone: a script that sets
			// PATH to exclude the system's tools keeps it on PATH.
			bin, err := exec.LookPath("ctxpack")
			if err != nil {
				return err
			}
			env.Setenv("BINDIR", filepath.Dir(bin))
			tokref, err := filepath.Abs(tokrefDir)
			if err != nil {
				return err
			}
			env.Setenv("TOKREF", tokref) // the reference packages (npm ci --prefix testdata/tokref)
			env.Setenv("FAKE_AWS_KEY", fakesecrets.Value("aws-access-key-id", 1))
			env.Setenv("FAKE_TOKEN", fakesecrets.Value("generic-api-key", 1))
			return nil
		},
		// [cgo]: built with cgo, so the chunker is tree-sitter's; digests,
		// which cover the chunker, differ without it. [ci]: CI is "true",
		// where a script that needs a tool fails rather than skips
		// ("[!exec:git] [!ci] skip"). [pg]: CTXPACK_TEST_POSTGRES names a
		// server (pgstore). [tokref]: testdata/tokref's packages
		// are installed.
		Condition: func(cond string) (bool, error) {
			if cond == "ci" {
				return os.Getenv("CI") == "true", nil
			}
			if cond == "pg" { // a PostgreSQL server for pgstore
				return os.Getenv(pgtest.Env) != "", nil
			}
			if cond == "tokref" { // the reference packages are installed
				_, err := os.Stat(filepath.Join(tokrefDir, "node_modules", "@lenml", "tokenizer-llama3", "models", "tokenizer.json"))
				return err == nil, nil
			}
			if cond != "cgo" {
				return false, fmt.Errorf("unknown condition %q", cond)
			}
			bi, ok := debug.ReadBuildInfo()
			return ok && slices.Contains(bi.Settings, debug.BuildSetting{Key: "CGO_ENABLED", Value: "1"}), nil
		},
	})
}

// cmdMkfifo makes named pipes: mkfifo PATH...
func cmdMkfifo(ts *testscript.TestScript, neg bool, args []string) {
	if neg || len(args) == 0 {
		ts.Fatalf("usage: mkfifo PATH...")
	}
	for _, a := range args {
		ts.Check(mkfifo(ts.MkAbs(a)))
	}
}

// cmdSparse makes a file of SIZE bytes that takes no room on disk:
// sparse PATH SIZE (a number of bytes, or with a K, M or G suffix).
func cmdSparse(ts *testscript.TestScript, neg bool, args []string) {
	if neg || len(args) != 2 {
		ts.Fatalf("usage: sparse PATH SIZE")
	}
	mult := int64(1)
	num := args[1]
	if i := strings.IndexAny(num, "KMG"); i == len(num)-1 {
		mult = map[byte]int64{'K': 1 << 10, 'M': 1 << 20, 'G': 1 << 30}[num[i]]
		num = num[:i]
	}
	n, err := strconv.ParseInt(num, 10, 64)
	ts.Check(err)
	p := ts.MkAbs(args[0])
	ts.Check(os.WriteFile(p, nil, 0o644))
	ts.Check(os.Truncate(p, n*mult))
}

func goroot() string {
	if r := os.Getenv("GOROOT"); r != "" {
		return r
	}
	return filepath.Clean(filepath.Join(filepath.Dir(os.Args[0]), "..", ".."))
}

// scriptCmds are the scripts' own commands, for what a txtar file cannot
// hold.
// scriptT is TestScripts' test, for what outlives one script: the
// databases pgstore makes are dropped when it ends.
var scriptT testing.TB

var scriptCmds = map[string]func(ts *testscript.TestScript, neg bool, args []string){
	// pgstore VAR sets VAR to the URL of a new, empty PostgreSQL database
	// on the test server (pgtest.DSN); a script that uses it starts with
	// "[!pg] [!ci] skip", so that it fails rather than skips under CI.
	"pgstore": func(ts *testscript.TestScript, neg bool, args []string) {
		if neg || len(args) != 1 {
			ts.Fatalf("usage: pgstore VAR")
		}
		if os.Getenv(pgtest.Env) == "" {
			ts.Fatalf("%s is not set: .ci/run starts a server; locally, export %s=$(scripts/pgcluster start /tmp/pg)", pgtest.Env, pgtest.Env)
		}
		ts.Setenv(args[0], pgtest.DSN(scriptT))
	},
	"mkfifo": cmdMkfifo,
	"sparse": cmdSparse,
	// fakerecords FILE N SIZE writes N budget records of SIZE bytes each
	// (a line, its newline included) to FILE: a log grown by earlier runs.
	"fakerecords": func(ts *testscript.TestScript, neg bool, args []string) {
		if neg || len(args) != 3 {
			ts.Fatalf("usage: fakerecords FILE N SIZE")
		}
		n, err := strconv.Atoi(args[1])
		ts.Check(err)
		size, err := strconv.Atoi(args[2])
		ts.Check(err)
		head := `{"timestamp":"2026-01-01T00:00:00Z","mode":"pack","target":"`
		tail := "\"}\n"
		line := head + strings.Repeat("x", size-len(head)-len(tail)) + tail
		ts.Check(os.WriteFile(ts.MkAbs(args[0]), []byte(strings.Repeat(line, n)), 0o644))
	},
	// sizeatmost FILE BYTES fails when FILE is larger than BYTES.
	"sizeatmost": func(ts *testscript.TestScript, neg bool, args []string) {
		if neg || len(args) != 2 {
			ts.Fatalf("usage: sizeatmost FILE BYTES")
		}
		most, err := strconv.ParseInt(args[1], 10, 64)
		ts.Check(err)
		fi, err := os.Stat(ts.MkAbs(args[0]))
		ts.Check(err)
		if fi.Size() > most {
			ts.Fatalf("%s has %d bytes, more than %d", args[0], fi.Size(), most)
		}
	},
	// fakesecret FILE: write a Go file that holds $FAKE_AWS_KEY (or,
	// for a .env, API_TOKEN=$FAKE_TOKEN), made at run time, so no
	// script holds a secret-looking literal.
	"fakesecret": func(ts *testscript.TestScript, neg bool, args []string) {
		if neg || len(args) != 1 {
			ts.Fatalf("usage: fakesecret FILE")
		}
		text := "package deploy\n\n// deployKey signs the release uploads.\nconst deployKey = \"" + ts.Getenv("FAKE_AWS_KEY") + "\"\n"
		if filepath.Base(args[0]) == ".env" {
			text = "API_TOKEN=" + ts.Getenv("FAKE_TOKEN") + "\n"
		}
		ts.Check(os.MkdirAll(filepath.Dir(ts.MkAbs(args[0])), 0o755))
		ts.Check(os.WriteFile(ts.MkAbs(args[0]), []byte(text), 0o644))
	},
	// mkfile PATH CONTENT writes CONTENT to PATH, making its folders; both
	// take Go's escapes (\n, \t, \r, \x1b), so that a name can hold what
	// a txtar file name cannot.
	"mkfile": func(ts *testscript.TestScript, neg bool, args []string) {
		if neg || len(args) != 2 {
			ts.Fatalf("usage: mkfile PATH CONTENT")
		}
		var unq [2]string
		for i, a := range args {
			u, err := strconv.Unquote(`"` + a + `"`)
			ts.Check(err)
			unq[i] = u
		}
		p := ts.MkAbs(unq[0])
		ts.Check(os.MkdirAll(filepath.Dir(p), 0o777))
		ts.Check(os.WriteFile(p, []byte(unq[1]), 0o666))
	},
	// damagepage DB TABLE overwrites the root page of the table (or index)
	// TABLE in the closed SQLite database DB with garbage, as a disk or a
	// crash could: SQLite then reports it damaged when it reads the table,
	// and only then.
	"damagepage": func(ts *testscript.TestScript, neg bool, args []string) {
		if neg || len(args) != 2 {
			ts.Fatalf("usage: damagepage DB TABLE")
		}
		p := ts.MkAbs(args[0])
		db, err := sql.Open("sqlite", "file:"+p+"?mode=ro")
		ts.Check(err)
		var pageSize, root int64
		err = db.QueryRow(`PRAGMA page_size`).Scan(&pageSize)
		if err == nil {
			err = db.QueryRow(`SELECT rootpage FROM sqlite_schema WHERE name = ?`, args[1]).Scan(&root)
		}
		ts.Check(errors.Join(err, db.Close()))
		f, err := os.OpenFile(p, os.O_RDWR, 0)
		ts.Check(err)
		_, err = f.WriteAt(bytes.Repeat([]byte{0xde, 0xad, 0xbe, 0xef}, int(pageSize/4)), (root-1)*pageSize)
		ts.Check(errors.Join(err, f.Close()))
	},
	// keepwal DB OUT COMMAND ARGS... runs the command while holding a read
	// transaction on the SQLite database DB, so that no checkpoint can
	// empty its write-ahead log, and copies the log, with the command's
	// writes in it, to OUT: what a crash would leave beside DB.
	"keepwal": func(ts *testscript.TestScript, neg bool, args []string) {
		if neg || len(args) < 3 {
			ts.Fatalf("usage: keepwal DB OUT COMMAND ARGS...")
		}
		db, err := sql.Open("sqlite", "file:"+ts.MkAbs(args[0]))
		ts.Check(err)
		defer db.Close()
		tx, err := db.Begin()
		ts.Check(err)
		defer tx.Rollback()
		var n int
		ts.Check(tx.QueryRow(`SELECT count(*) FROM sqlite_schema`).Scan(&n))
		ts.Check(ts.Exec(args[2], args[3:]...))
		wal, err := os.ReadFile(ts.MkAbs(args[0]) + "-wal")
		ts.Check(err)
		ts.Check(os.WriteFile(ts.MkAbs(args[1]), wal, 0o666))
	},
	// sqlitecheck DB fails unless PRAGMA quick_check finds the SQLite
	// database DB whole.
	"sqlitecheck": func(ts *testscript.TestScript, neg bool, args []string) {
		if neg || len(args) != 1 {
			ts.Fatalf("usage: sqlitecheck DB")
		}
		db, err := sql.Open("sqlite", "file:"+ts.MkAbs(args[0])+"?mode=ro")
		ts.Check(err)
		defer db.Close()
		var res string
		ts.Check(db.QueryRow(`PRAGMA quick_check`).Scan(&res))
		if res != "ok" {
			ts.Fatalf("%s is damaged: %s", args[0], res)
		}
	},
	// jsonrpc ID OUT writes the JSON-RPC response with id ID, among the
	// lines of the last command's standard output, to OUT.
	"jsonrpc": func(ts *testscript.TestScript, neg bool, args []string) {
		if neg || len(args) != 2 {
			ts.Fatalf("usage: jsonrpc ID OUT")
		}
		for _, line := range strings.Split(ts.ReadFile("stdout"), "\n") {
			var msg struct{ ID json.RawMessage }
			if json.Unmarshal([]byte(line), &msg) == nil && string(msg.ID) == args[0] {
				ts.Check(os.WriteFile(ts.MkAbs(args[1]), []byte(line), 0o666))
				return
			}
		}
		ts.Fatalf("no response with id %s in stdout", args[0])
	},
	// jsontext RESPONSE OUT writes the text of the first content of the
	// tool result in the JSON-RPC response RESPONSE to OUT.
	"jsontext": func(ts *testscript.TestScript, neg bool, args []string) {
		if neg || len(args) != 2 {
			ts.Fatalf("usage: jsontext RESPONSE OUT")
		}
		var msg struct {
			Result struct{ Content []struct{ Text string } }
		}
		ts.Check(json.Unmarshal([]byte(ts.ReadFile(args[0])), &msg))
		if len(msg.Result.Content) == 0 {
			ts.Fatalf("%s: no content", args[0])
		}
		ts.Check(os.WriteFile(ts.MkAbs(args[1]), []byte(msg.Result.Content[0].Text), 0o666))
	},
	// atmost N fails unless the last command's standard output starts
	// with a number of at most N (ctxpack tokens prints COUNT<TAB>PATH).
	"atmost": func(ts *testscript.TestScript, neg bool, args []string) {
		if neg || len(args) != 1 {
			ts.Fatalf("usage: atmost N")
		}
		limit, err := strconv.Atoi(args[0])
		ts.Check(err)
		field, _, _ := strings.Cut(strings.TrimSpace(ts.ReadFile("stdout")), "\t")
		n, err := strconv.Atoi(field)
		ts.Check(err)
		if n > limit {
			ts.Fatalf("%d, more than %d", n, limit)
		}
	},
	// sizeratio A B MAX fails unless file A is at most MAX times the size
	// of file B.
	"sizeratio": func(ts *testscript.TestScript, neg bool, args []string) {
		if neg || len(args) != 3 {
			ts.Fatalf("usage: sizeratio A B MAX")
		}
		max, err := strconv.ParseFloat(args[2], 64)
		ts.Check(err)
		a, b := len(ts.ReadFile(args[0])), len(ts.ReadFile(args[1]))
		if b == 0 || float64(a) > max*float64(b) {
			ts.Fatalf("%s is %d bytes, %s %d: more than %g times", args[0], a, args[1], b, max)
		}
		ts.Logf("%s is %d bytes, %s %d: %.2f times", args[0], a, args[1], b, float64(a)/float64(b))
	},
}
