package cli

import (
	"encoding/json"
	"io/fs"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/ctxpack/ctxpack/internal/cli/cmdutil"
)

// readmeCommands returns the `go run ./cmd/ctxpack ARGS` lines of the
// README's sh blocks, each as its arguments.
func readmeCommands(t *testing.T) [][]string {
	t.Helper()
	data, err := os.ReadFile("../../README.md")
	if err != nil {
		t.Fatal(err)
	}
	var cmds [][]string
	inSh := false
	for line := range strings.SplitSeq(string(data), "\n") {
		switch trimmed := strings.TrimSpace(line); {
		case strings.HasPrefix(trimmed, "```"):
			inSh = !inSh && trimmed == "```sh"
		case inSh && strings.HasPrefix(trimmed, "go run ./cmd/ctxpack "):
			cmds = append(cmds, strings.Fields(strings.TrimPrefix(trimmed, "go run ./cmd/ctxpack ")))
		}
	}
	return cmds
}

// TestReadmeMainCommand runs the README's main-job command (the first
// `go run ./cmd/ctxpack` of its sh blocks) as written, on a copy of the
// folder its -C names, and checks that it gives the task's context, within
// the budget it names, with nothing on standard error.
func TestReadmeMainCommand(t *testing.T) {
	cmds := readmeCommands(t)
	if len(cmds) == 0 {
		t.Fatal("README.md has no `go run ./cmd/ctxpack ...` line in a sh block")
	}
	args := append([]string(nil), cmds[0]...)
	task, src, dir := "", "", ""
	for i, a := range args {
		switch {
		case a == "-C" && i+1 < len(args):
			src = filepath.Join("..", "..", filepath.FromSlash(args[i+1]))
			dir = filepath.Join(t.TempDir(), filepath.Base(args[i+1]))
			copyExample(t, src, dir)
			args[i+1] = dir
		case a == "context" && i+1 < len(args):
			task = args[i+1]
		}
	}
	if task == "" {
		t.Fatalf("README's main command %q is not `context TARGET`", strings.Join(cmds[0], " "))
	}
	ios, out, errOut := cmdutil.Test("")
	if code := Run(t.Context(), args, ios); code != 0 || errOut.Len() > 0 {
		t.Fatalf("ctxpack %s: exit %d, stderr:\n%s", strings.Join(cmds[0], " "), code, errOut)
	}
	if !strings.Contains(out.String(), task) {
		t.Errorf("ctxpack %s: the output does not name %s:\n%s", strings.Join(cmds[0], " "), task, out)
	}
	if src != "" {
		leftUntracked(t, src, dir)
	}
	ios, out, errOut = cmdutil.Test("")
	if code := Run(t.Context(), append(args, "--format", "json", "--no-record"), ios); code != 0 {
		t.Fatalf("the same with --format json: exit %d, stderr:\n%s", code, errOut)
	}
	var plan struct {
		Budget      int  `json:"budget"`
		TotalTokens int  `json:"total_tokens"`
		Exceeded    bool `json:"exceeded"`
	}
	if err := json.Unmarshal(out.Bytes(), &plan); err != nil {
		t.Fatal(err)
	}
	if plan.Exceeded || plan.Budget == 0 || plan.TotalTokens > plan.Budget {
		t.Errorf("the plan: %d tokens of a budget of %d, exceeded %v", plan.TotalTokens, plan.Budget, plan.Exceeded)
	}
}

// leftUntracked fails the test for every file the command wrote in dir, a
// copy of src, that git would show as untracked in a clone: a file src
// does not have that the .ctxpack/.gitignore committed in src does not
// ignore. (Without that file, the command's own writes it.)
func leftUntracked(t *testing.T, src, dir string) {
	t.Helper()
	data, err := os.ReadFile(filepath.Join(src, ".ctxpack", ".gitignore"))
	if err != nil {
		t.Errorf("%s/.ctxpack/.gitignore is not committed: the README's command writes it, and git status shows it in a clone", filepath.ToSlash(src))
	}
	var ignored []string // patterns of .ctxpack/.gitignore: /name* or /dir/
	for line := range strings.SplitSeq(string(data), "\n") {
		if line = strings.TrimSpace(line); line != "" && !strings.HasPrefix(line, "#") {
			ignored = append(ignored, strings.TrimPrefix(line, "/"))
		}
	}
	err = filepath.WalkDir(dir, func(p string, d fs.DirEntry, err error) error {
		if err != nil || d.IsDir() {
			return err
		}
		rel, _ := filepath.Rel(dir, p)
		rel = filepath.ToSlash(rel)
		if _, err := os.Stat(filepath.Join(src, filepath.FromSlash(rel))); err == nil {
			return nil
		}
		inState, ok := strings.CutPrefix(rel, ".ctxpack/")
		for _, pat := range ignored {
			if ok && (strings.HasSuffix(pat, "/") && strings.HasPrefix(inState, pat) ||
				strings.HasSuffix(pat, "*") && strings.HasPrefix(inState, strings.TrimSuffix(pat, "*")) || inState == pat) {
				return nil
			}
		}
		t.Errorf("the README's command wrote %s, which git would show as untracked in a clone", rel)
		return nil
	})
	if err != nil {
		t.Fatal(err)
	}
}
