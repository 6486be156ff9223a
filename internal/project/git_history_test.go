package project

import (
	"context"
	"os"
	"os/exec"
	"path/filepath"
	"testing"
)

func TestLastChanged(t *testing.T) {
	if _, err := exec.LookPath("git"); err != nil {
		t.Skip("git is not installed")
	}
	dir := t.TempDir()
	run := func(env []string, args ...string) {
		t.Helper()
		cmd := exec.Command("git", args...)
		cmd.Dir = dir
		cmd.Env = append(os.Environ(), "GIT_CONFIG_GLOBAL=/dev/null", "GIT_CONFIG_NOSYSTEM=1",
			"GIT_AUTHOR_NAME=a", "GIT_AUTHOR_EMAIL=a@b", "GIT_COMMITTER_NAME=a", "GIT_COMMITTER_EMAIL=a@b")
		cmd.Env = append(cmd.Env, env...)
		if out, err := cmd.CombinedOutput(); err != nil {
			t.Fatalf("git %v: %v\n%s", args, err, out)
		}
	}
	write := func(name, text string) {
		t.Helper()
		p := filepath.Join(dir, name)
		if err := os.MkdirAll(filepath.Dir(p), 0o755); err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(p, []byte(text), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	run(nil, "init", "-q")
	write("a.txt", "a\n")
	write("sub/b.txt", "b\n")
	write("sub/c d.txt", "c\n")
	run(nil, "add", ".")
	run([]string{"GIT_COMMITTER_DATE=1700000000 +0000"}, "commit", "-qm", "one")
	write("sub/b.txt", "b2\n")
	run(nil, "add", ".")
	run([]string{"GIT_COMMITTER_DATE=1700086400 +0000"}, "commit", "-qm", "two")

	got, err := LastChanged(context.Background(), dir, nil)
	if err != nil {
		t.Fatal(err)
	}
	want := map[string]int64{"a.txt": 1700000000, "sub/b.txt": 1700086400, "sub/c d.txt": 1700000000}
	for k, v := range want {
		if got[k] != v {
			t.Errorf("%s: %d, want %d", k, got[k], v)
		}
	}
	// From a subdirectory, paths are relative to it.
	got, err = LastChanged(context.Background(), filepath.Join(dir, "sub"), map[string]bool{"b.txt": true})
	if err != nil {
		t.Fatal(err)
	}
	if len(got) != 1 || got["b.txt"] != 1700086400 {
		t.Errorf("from sub: %v", got)
	}
	// Not a repository: empty, no error.
	got, err = LastChanged(context.Background(), t.TempDir(), nil)
	if err != nil || len(got) != 0 {
		t.Errorf("outside a repository: %v, %v", got, err)
	}
}
