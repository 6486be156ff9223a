package fakesecrets

import (
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"slices"
	"strings"
)

// Write writes p's files under dir, which it creates; shell scripts are
// executable.
func (p Project) Write(dir string) error {
	paths := make([]string, 0, len(p.Files))
	for path := range p.Files {
		paths = append(paths, path)
	}
	slices.Sort(paths)
	for _, path := range paths {
		full := filepath.Join(dir, filepath.FromSlash(path))
		if err := os.MkdirAll(filepath.Dir(full), 0o755); err != nil {
			return fmt.Errorf("fakesecrets: %w", err)
		}
		mode := os.FileMode(0o644)
		if strings.HasSuffix(path, ".sh") {
			mode = 0o755
		}
		if err := os.WriteFile(full, []byte(p.Files[path]), mode); err != nil {
			return fmt.Errorf("fakesecrets: %w", err)
		}
	}
	return nil
}

// Commit makes dir a git repository with one commit of everything in it,
// with p's commit message, by a fixed author at a fixed time, so that the
// commit id is the same on every run. The user's git configuration is
// not read.
func (p Project) Commit(dir string) error {
	env := append(os.Environ(),
		"GIT_CONFIG_GLOBAL="+os.DevNull, "GIT_CONFIG_NOSYSTEM=1",
		"GIT_AUTHOR_NAME=Dana Ledger", "GIT_AUTHOR_EMAIL=dana@acme.io", "GIT_AUTHOR_DATE=2024-11-05T10:00:00+00:00",
		"GIT_COMMITTER_NAME=Dana Ledger", "GIT_COMMITTER_EMAIL=dana@acme.io", "GIT_COMMITTER_DATE=2024-11-05T10:00:00+00:00",
	)
	for _, args := range [][]string{
		{"init", "-q", "-b", "main"},
		{"add", "-A"},
		{"-c", "commit.gpgsign=false", "commit", "-q", "-F", "-"},
	} {
		cmd := exec.Command("git", append([]string{"-C", dir}, args...)...)
		cmd.Env = env
		cmd.Stdin = strings.NewReader(p.CommitMessage)
		if out, err := cmd.CombinedOutput(); err != nil {
			return fmt.Errorf("fakesecrets: git %s: %v: %s", strings.Join(args, " "), err, out)
		}
	}
	return nil
}
