// Package history reads a repository's git history as commits: who, when,
// what was said and what changed, file by file. It is the commits source
// of retrieval (DESIGN §6): read with one `git log` per update, and only
// the commits since the last one read.
package history

import (
	"bytes"
	"context"
	"errors"
	"fmt"
	"os/exec"
	"strconv"
	"strings"
)

// Commit is one commit.
type Commit struct {
	SHA     string
	Author  string
	Email   string
	Time    int64 // the commit time, Unix seconds: the same in every clone
	Message string
	Files   []File // the files it changed under the folder read (Log)
	// Insertions and Deletions are the lines added and removed over the
	// text files of Files.
	Insertions, Deletions int
}

// File is one file a commit changed.
type File struct {
	Path string // slash path relative to the folder read (Log): the project root
	// Added and Deleted are its lines added and removed; -1 for a binary
	// file, whose lines git does not count.
	Added, Deleted int
}

// ErrNotRepository is returned by Head, and Log, for a directory outside
// any git work tree or a repository without commits, or when git is not
// installed.
var ErrNotRepository = errors.New("history: not a git repository (or git is not installed)")

// ErrRewritten is returned by Log when since is no longer in the history
// of head (a rebase, a reset): the caller reads the whole history again.
var ErrRewritten = errors.New("history: the last commit read is no longer in the history of HEAD")

// format is what Log asks git for: a record separator, then the hash,
// author, email, commit time and message, each ended by NUL; --numstat -z
// then lists "added TAB deleted TAB path NUL" for each file.
const format = "--format=%x1e%H%x00%an%x00%ae%x00%ct%x00%B%x00"

// Tip is where a history is read back from: the commit HEAD names, and
// where the folder the history is read for is in its repository.
type Tip struct {
	SHA string // HEAD's commit hash
	// Prefix is the folder's path from the top of the work tree, with a
	// trailing slash ("services/billing/"); "" at the top, and in a bare
	// repository.
	Prefix string
}

// Head returns HEAD's commit in root's repository, and root's place in
// it, with one `git rev-parse`. ErrNotRepository says there is none: git
// is not installed, root is in no git work tree, or the repository has no
// commit yet.
func Head(ctx context.Context, root string) (Tip, error) {
	if _, err := exec.LookPath("git"); err != nil {
		return Tip{}, ErrNotRepository
	}
	out, err := exec.CommandContext(ctx, "git", "-C", root, "rev-parse", "--show-prefix", "--verify", "--quiet", "HEAD").Output()
	if ctx.Err() != nil {
		return Tip{}, ctx.Err()
	}
	// The prefix's line (empty at the top), then the hash's.
	text := strings.TrimSuffix(string(out), "\n")
	i := strings.LastIndexByte(text, '\n')
	if err != nil || i < 0 || !isHash(text[i+1:]) {
		return Tip{}, ErrNotRepository
	}
	return Tip{SHA: text[i+1:], Prefix: text[:i]}, nil
}

// Log returns the commits of head (as Head gives it; the zero Tip reads
// Head first) that are not in since's history (all of them when since is
// empty), newest first, without merge commits. The history is root's,
// which may be a folder inside a larger repository (a project found by
// its .ctxpack): only the commits that changed a file under root, and only
// those files, their paths relative to root. At the top of the work tree
// every commit is root's, empty ones too. It runs git; ErrNotRepository
// and ErrRewritten say why it could not.
func Log(ctx context.Context, root, since string, head Tip) ([]Commit, error) {
	if head == (Tip{}) {
		var err error
		if head, err = Head(ctx, root); err != nil {
			return nil, err
		}
	}
	if !isHash(head.SHA) {
		return nil, fmt.Errorf("history: %q is not a commit hash", head.SHA)
	}
	rng := head.SHA
	if since != "" {
		if !isHash(since) {
			return nil, fmt.Errorf("history: %q is not a commit hash", since)
		}
		if err := exec.CommandContext(ctx, "git", "-C", root, "merge-base", "--is-ancestor", since, head.SHA).Run(); err != nil {
			if ctx.Err() != nil {
				return nil, ctx.Err()
			}
			return nil, ErrRewritten
		}
		rng = since + ".." + head.SHA
	}
	out, err := run(ctx, logArgs(root, head, rng))
	if err != nil {
		return nil, err
	}
	return Parse(out)
}

// logArgs are the arguments of the git log of rev that Log and Recent
// read: Log's format, root's files named from root. --relative keeps the
// files under root, named from it; below the top, the pathspec also
// leaves out the commits that changed none of them (at the top it would
// leave out the empty commits, which are root's).
func logArgs(root string, head Tip, rev ...string) []string {
	args := []string{"-C", root, "-c", "core.quotePath=false", "log", "--no-merges", "--no-renames", "--no-color",
		"--relative", format, "--numstat", "-z"}
	args = append(append(args, rev...), "--")
	if head.Prefix != "" {
		args = append(args, ".")
	}
	return args
}

// Parse reads the output of `git log` in Log's format. A message that
// holds the record separator is read whole: a record starts only where a
// commit hash and NUL follow the separator.
func Parse(data []byte) ([]Commit, error) {
	pieces := bytes.Split(data, []byte{0x1e})
	if len(bytes.TrimSpace(pieces[0])) != 0 {
		return nil, fmt.Errorf("history: git log: output before the first commit: %.40q", pieces[0])
	}
	var records [][]byte
	for _, p := range pieces[1:] {
		if i := bytes.IndexByte(p, 0); i > 0 && isHash(string(p[:i])) || len(records) == 0 {
			records = append(records, p)
			continue
		}
		last := len(records) - 1
		records[last] = append(append(records[last], 0x1e), p...)
	}
	out := make([]Commit, 0, len(records))
	for _, r := range records {
		c, err := parseRecord(r)
		if err != nil {
			return nil, err
		}
		out = append(out, c)
	}
	return out, nil
}

// parseRecord reads one commit: five NUL-ended fields, then its files.
func parseRecord(r []byte) (Commit, error) {
	var f [5]string
	for i := range f {
		j := bytes.IndexByte(r, 0)
		if j < 0 {
			return Commit{}, fmt.Errorf("history: git log: a commit record ends after %d of its 5 fields: %.60q", i, r)
		}
		f[i], r = string(r[:j]), r[j+1:]
	}
	if !isHash(f[0]) {
		return Commit{}, fmt.Errorf("history: git log: %.60q is not a commit hash", f[0])
	}
	t, err := strconv.ParseInt(f[3], 10, 64)
	if err != nil {
		return Commit{}, fmt.Errorf("history: git log: commit %s: time %q: %w", f[0], f[3], err)
	}
	c := Commit{SHA: f[0], Author: f[1], Email: f[2], Time: t, Message: strings.TrimRight(f[4], " \t\r\n")}
	// The files follow a NUL and a newline; each ends with a NUL.
	for _, e := range bytes.Split(bytes.TrimLeft(r, "\x00\n"), []byte{0}) {
		if len(e) == 0 {
			continue
		}
		file, err := parseNumstat(string(e))
		if err != nil {
			return Commit{}, fmt.Errorf("history: git log: commit %s: %w", c.SHA, err)
		}
		c.Files = append(c.Files, file)
		c.Insertions += max(file.Added, 0)
		c.Deletions += max(file.Deleted, 0)
	}
	return c, nil
}

// parseNumstat reads "added TAB deleted TAB path"; "-" counts are a
// binary file's.
func parseNumstat(e string) (File, error) {
	a, rest, ok1 := strings.Cut(e, "\t")
	d, path, ok2 := strings.Cut(rest, "\t")
	if !ok1 || !ok2 || path == "" {
		return File{}, fmt.Errorf("file entry %.60q is not ADDED TAB DELETED TAB PATH", e)
	}
	count := func(s string) (int, error) {
		if s == "-" {
			return -1, nil
		}
		n, err := strconv.Atoi(s)
		if err != nil || n < 0 {
			return 0, fmt.Errorf("file entry %.60q: %q is not a line count", e, s)
		}
		return n, nil
	}
	added, err := count(a)
	if err != nil {
		return File{}, err
	}
	deleted, err := count(d)
	if err != nil {
		return File{}, err
	}
	return File{Path: path, Added: added, Deleted: deleted}, nil
}

// isHash reports whether s is a full SHA-1 or SHA-256 commit hash.
func isHash(s string) bool {
	if len(s) != 40 && len(s) != 64 {
		return false
	}
	for i := 0; i < len(s); i++ {
		if c := s[i]; !('0' <= c && c <= '9' || 'a' <= c && c <= 'f') {
			return false
		}
	}
	return true
}
