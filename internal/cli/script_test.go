package cli

import (
	"flag"
	"fmt"
	"os"
	"path/filepath"
	"runtime/debug"
	"slices"
	"strconv"
	"strings"
	"testing"

	"github.com/rogpeppe/go-internal/testscript"
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
	testscript.Run(t, testscript.Params{
		Dir:                 "testdata/script",
		RequireExplicitExec: true,
		RequireUniqueNames:  true,
		UpdateScripts:       *update,
		Setup: func(env *testscript.Env) error {
			env.Setenv("GOROOT_SRC", filepath.Join(goroot(), "src"))
			examples, err := filepath.Abs(filepath.Join("..", "..", "examples"))
			if err != nil {
				return err
			}
			env.Setenv("EXAMPLES", examples)
			return nil
		},
		Cmds: map[string]func(ts *testscript.TestScript, neg bool, args []string){
			"mkfifo": cmdMkfifo,
			"sparse": cmdSparse,
		},
		// [cgo]: built with cgo, so the chunker is tree-sitter's; digests,
		// which cover the chunker, differ without it.
		Condition: func(cond string) (bool, error) {
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
