package main

import (
	"bytes"
	"fmt"
	"os"
	"os/exec"
	"regexp"
	"slices"
	"strconv"
	"strings"
)

// git runs git in dir (a bare repository or a work tree) with the user's
// and the system's configuration ignored, so that no setting changes what
// a diff or a log prints, and returns its standard output.
func git(dir string, args ...string) ([]byte, error) {
	cmd := exec.Command("git", append([]string{"-C", dir, "-c", "core.quotepath=off"}, args...)...)
	cmd.Env = append(os.Environ(), "GIT_CONFIG_NOSYSTEM=1", "GIT_CONFIG_GLOBAL="+os.DevNull, "LC_ALL=C", "GIT_TERMINAL_PROMPT=0")
	var stderr bytes.Buffer
	cmd.Stderr = &stderr
	out, err := cmd.Output()
	if err != nil {
		return nil, fmt.Errorf("git -C %s %s: %w: %s", dir, strings.Join(args, " "), err, strings.TrimSpace(stderr.String()))
	}
	return out, nil
}

// commit is one commit of a repository's history.
type commit struct {
	Hash    string
	Parents []string
	Message string
}

// listCommits returns the commits reachable from rev, newest first.
func listCommits(dir, rev string) ([]commit, error) {
	out, err := git(dir, "log", "-z", "--format=%H%x1f%P%x1f%B", rev, "--")
	if err != nil {
		return nil, err
	}
	var cs []commit
	for rec := range strings.SplitSeq(string(out), "\x00") {
		rec = strings.TrimLeft(rec, "\n")
		if rec == "" {
			continue
		}
		f := strings.SplitN(rec, "\x1f", 3)
		if len(f) != 3 {
			return nil, fmt.Errorf("git log in %s: unexpected record %.60q", dir, rec)
		}
		cs = append(cs, commit{Hash: f[0], Parents: strings.Fields(f[1]), Message: f[2]})
	}
	return cs, nil
}

// change is one file a commit changes.
type change struct {
	Status byte // A added, M modified, D deleted, T type changed
	Path   string
}

// changes returns the files that differ between parent and c, without
// rename detection (a rename is a deletion and an addition).
func changes(dir, parent, c string) ([]change, error) {
	out, err := git(dir, "diff-tree", "-r", "-z", "--no-renames", "--name-status", parent, c)
	if err != nil {
		return nil, err
	}
	f := strings.Split(strings.TrimSuffix(string(out), "\x00"), "\x00")
	if len(f) == 1 && f[0] == "" {
		return nil, nil
	}
	if len(f)%2 != 0 {
		return nil, fmt.Errorf("git diff-tree %s %s: odd output", parent, c)
	}
	var cs []change
	for i := 0; i < len(f); i += 2 {
		if f[i] == "" {
			return nil, fmt.Errorf("git diff-tree %s %s: empty status", parent, c)
		}
		cs = append(cs, change{Status: f[i][0], Path: f[i+1]})
	}
	return cs, nil
}

// hunkHeader is "@@ -OLD[,N] +NEW[,M] @@".
var hunkHeader = regexp.MustCompile(`^@@ -(\d+)(?:,(\d+))? \+(\d+)(?:,(\d+))? @@`)

// preimageLines reads a zero-context diff of one file and returns the
// parent-side lines its hunks remove, and for a hunk that only inserts,
// the line it inserts after (line 1 for an insertion at the top, which
// has no line before it), sorted and without repeats.
func preimageLines(diff string) ([]int, error) {
	var out []int
	for l := range strings.SplitSeq(diff, "\n") {
		if !strings.HasPrefix(l, "@@ ") {
			continue
		}
		m := hunkHeader.FindStringSubmatch(l)
		if m == nil {
			return nil, fmt.Errorf("bad hunk header %q", l)
		}
		start, _ := strconv.Atoi(m[1])
		n := 1
		if m[2] != "" {
			n, _ = strconv.Atoi(m[2])
		}
		if n == 0 {
			out = append(out, max(start, 1))
			continue
		}
		for i := range n {
			out = append(out, start+i)
		}
	}
	slices.Sort(out)
	return slices.Compact(out), nil
}

// goldLines returns the parent-side lines the change from parent to c
// touches in file.
func goldLines(dir, parent, c, file string) ([]int, error) {
	out, err := git(dir, "diff", "-U0", "--no-renames", "--no-ext-diff", "--no-textconv", "--no-color", parent, c, "--", file)
	if err != nil {
		return nil, err
	}
	ls, err := preimageLines(string(out))
	if err != nil {
		return nil, fmt.Errorf("diff of %s in %s: %w", file, c, err)
	}
	return ls, nil
}

// treeBytes returns the total size of the blobs of rev's tree.
func treeBytes(dir, rev string) (int64, error) {
	out, err := git(dir, "ls-tree", "-r", "-l", "-z", rev)
	if err != nil {
		return 0, err
	}
	var total int64
	for rec := range strings.SplitSeq(string(out), "\x00") {
		// "MODE TYPE HASH SIZE\tPATH"; SIZE is "-" for submodules.
		meta, _, ok := strings.Cut(rec, "\t")
		f := strings.Fields(meta)
		if !ok || len(f) != 4 || f[1] != "blob" {
			continue
		}
		n, err := strconv.ParseInt(f[3], 10, 64)
		if err == nil {
			total += n
		}
	}
	return total, nil
}
