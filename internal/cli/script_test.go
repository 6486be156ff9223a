package cli

import (
	"flag"
	"fmt"
	"math/rand/v2"
	"os"
	"path/filepath"
	"runtime/debug"
	"slices"
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
			env.Setenv("FAKE_AWS_KEY", fakeAWSKey())
			env.Setenv("FAKE_TOKEN", fakeToken())
			return nil
		},
		Cmds: map[string]func(ts *testscript.TestScript, neg bool, args []string){
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

// fakeAWSKey is an AWS-style access key id from a fixed seed, its prefix
// put together.
func fakeAWSKey() string {
	r := rand.New(rand.NewPCG(15, 1))
	b := []byte("AK" + "IA")
	for range 16 {
		b = append(b, "ABCDEFGHIJKLMNOPQRSTUVWXYZ234567"[r.IntN(32)])
	}
	return string(b)
}

// fakeToken is 24 random letters and digits from a fixed seed.
func fakeToken() string {
	r := rand.New(rand.NewPCG(15, 2))
	const alnum = "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789"
	b := make([]byte, 24)
	for i := range b {
		b[i] = alnum[r.IntN(len(alnum))]
	}
	return string(b)
}

func goroot() string {
	if r := os.Getenv("GOROOT"); r != "" {
		return r
	}
	return filepath.Clean(filepath.Join(filepath.Dir(os.Args[0]), "..", ".."))
}
