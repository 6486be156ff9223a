package main

import (
	"errors"
	"fmt"
	"io/fs"
	"os"
	"path/filepath"
	"strings"
)

// buildTree makes dst a checkout of base that shares gitDir's objects and
// keeps no ref but HEAD, so that git log there sees the history up to
// base and nothing after it. It returns false, doing nothing, when dst
// exists; a half-built tree (dst.partial) from an interrupted run is
// removed and built again.
func buildTree(gitDir, dst, base string) (bool, error) {
	if _, err := os.Stat(dst); err == nil {
		return false, nil
	} else if !errors.Is(err, fs.ErrNotExist) {
		return false, err
	}
	src, err := filepath.Abs(gitDir)
	if err != nil {
		return false, err
	}
	tmp := dst + ".partial"
	if err := os.RemoveAll(tmp); err != nil {
		return false, err
	}
	if err := os.MkdirAll(filepath.Dir(dst), 0o755); err != nil {
		return false, err
	}
	if _, err := git(filepath.Dir(dst), "clone", "-q", "--shared", "--no-checkout", src, tmp); err != nil {
		return false, err
	}
	if _, err := git(tmp, "checkout", "-q", "--detach", base); err != nil {
		return false, err
	}
	if err := dropRefs(tmp); err != nil {
		return false, err
	}
	if err := checkTree(tmp, base); err != nil {
		return false, err
	}
	return true, os.Rename(tmp, dst)
}

// dropRefs deletes every ref of the work tree at dir (branches, tags,
// remote-tracking refs, packed refs) and the reflogs, leaving a detached
// HEAD.
func dropRefs(dir string) error {
	out, err := git(dir, "for-each-ref", "--format=%(refname)")
	if err != nil {
		return err
	}
	for _, r := range strings.Fields(string(out)) {
		if _, err := git(dir, "update-ref", "--no-deref", "-d", r); err != nil {
			return err
		}
	}
	gitDir := filepath.Join(dir, ".git")
	for _, f := range []string{"packed-refs", "logs", "FETCH_HEAD", "ORIG_HEAD"} {
		if err := os.RemoveAll(filepath.Join(gitDir, f)); err != nil {
			return err
		}
	}
	return nil
}

// checkTree verifies that the tree at dir is at base and has no refs.
func checkTree(dir, base string) error {
	out, err := git(dir, "rev-parse", "HEAD")
	if err != nil {
		return err
	}
	if got := strings.TrimSpace(string(out)); got != base {
		return fmt.Errorf("%s: HEAD is %s, want %s", dir, got, base)
	}
	out, err = git(dir, "for-each-ref")
	if err != nil {
		return err
	}
	if len(strings.TrimSpace(string(out))) > 0 {
		return fmt.Errorf("%s: refs left after deleting them all:\n%s", dir, out)
	}
	return nil
}
