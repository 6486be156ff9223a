package project

import (
	"bufio"
	"bytes"
	"context"
	"fmt"
	"os/exec"
	"strconv"
	"strings"
)

// LastChanged returns, for each path under root that git history knows,
// the commit time (Unix seconds) of the last commit that touched it, read
// with one `git log`. Commit times, unlike file modification times, are the
// same in every clone. It returns an empty map, not an error, when root is
// not a git work tree or git is not installed; callers treat unknown as 0.
func LastChanged(ctx context.Context, root string, want map[string]bool) (map[string]int64, error) {
	out := map[string]int64{}
	if _, err := exec.LookPath("git"); err != nil {
		return out, nil
	}
	cmd := exec.CommandContext(ctx, "git", "-C", root, "log", "--no-merges", "--no-renames", "--relative",
		"--format=format:%x01%ct", "--name-only", "-z", "HEAD", "--", ".")
	var stderr bytes.Buffer
	cmd.Stderr = &stderr
	stdout, err := cmd.StdoutPipe()
	if err != nil {
		return nil, fmt.Errorf("project: git log: %w", err)
	}
	if err := cmd.Start(); err != nil {
		return out, nil
	}
	sc := bufio.NewScanner(stdout)
	sc.Buffer(make([]byte, 1<<16), 1<<24)
	sc.Split(splitNUL)
	var when int64
	remaining := len(want)
	for sc.Scan() {
		tok := sc.Text()
		// A record is "\x01TIME\n" followed by NUL-separated names; the
		// first name follows the newline of the header in the same token.
		if rest, ok := strings.CutPrefix(strings.TrimLeft(tok, "\n"), "\x01"); ok {
			head, name, _ := strings.Cut(rest, "\n")
			if t, err := strconv.ParseInt(strings.TrimSpace(head), 10, 64); err == nil {
				when = t
			}
			tok = name
		}
		if tok == "" {
			continue
		}
		if _, seen := out[tok]; !seen && (want == nil || want[tok]) {
			out[tok] = when
			remaining--
			if want != nil && remaining == 0 {
				break
			}
		}
	}
	_ = cmd.Process.Kill()
	_ = cmd.Wait()
	if err := sc.Err(); err != nil {
		return nil, fmt.Errorf("project: git log: %w", err)
	}
	return out, nil
}

func splitNUL(data []byte, atEOF bool) (int, []byte, error) {
	if i := bytes.IndexByte(data, 0); i >= 0 {
		return i + 1, data[:i], nil
	}
	if atEOF && len(data) > 0 {
		return len(data), data, nil
	}
	return 0, nil, nil
}
