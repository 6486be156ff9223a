package history

import (
	"bytes"
	"context"
	"errors"
	"fmt"
	"os/exec"
	"slices"
	"strings"
)

// Recent returns the n newest commits of HEAD that changed a file under
// root (all of them at the top of the work tree), newest first, without
// merge commits: Log's commits, at most n of them.
func Recent(ctx context.Context, root string, n int) ([]Commit, error) {
	if n <= 0 {
		return nil, fmt.Errorf("history: %d commits asked for; at least 1", n)
	}
	head, err := Head(ctx, root)
	if err != nil {
		return nil, err
	}
	out, err := run(ctx, logArgs(root, head, fmt.Sprintf("--max-count=%d", n), head.SHA))
	if err != nil {
		return nil, err
	}
	return Parse(out)
}

// FileDiff is one file's changes in a diff.
type FileDiff struct {
	Path string // slash path relative to the folder read
	// Added and Deleted are its lines added and removed; -1 for a binary
	// file.
	Added, Deleted int
	// Patch is the file's unified diff, from its "diff --git" line on.
	Patch string
}

// ErrUnknownRef is the error of a Diff against a base git cannot resolve.
var ErrUnknownRef = errors.New("history: no such branch, tag or commit")

// Changes are the changes a Diff found.
type Changes struct {
	// Base is the commit the work tree was compared with: HEAD's, or the
	// merge base of HEAD and the base asked for.
	Base  string
	Files []FileDiff // in git's order: by path
}

// Diff returns the changes of root's work tree, staged or not, to the
// files under root: against HEAD when base is "", else against the merge
// base of base (a branch, tag or commit) and HEAD, which is what a branch
// changed since it left base, committed or not. Untracked files are not
// changes. ErrNotRepository and ErrUnknownRef say why it could not.
func Diff(ctx context.Context, root, base string) (*Changes, error) {
	head, err := Head(ctx, root)
	if err != nil {
		return nil, err
	}
	from := head.SHA
	if base != "" {
		if strings.HasPrefix(base, "-") {
			return nil, fmt.Errorf("%w: %q (a name cannot start with -)", ErrUnknownRef, base)
		}
		out, err := run(ctx, []string{"-C", root, "rev-parse", "--verify", "--quiet", "--end-of-options", base + "^{commit}"})
		if err != nil {
			if ctx.Err() != nil {
				return nil, ctx.Err()
			}
			return nil, fmt.Errorf("%w: %q", ErrUnknownRef, base)
		}
		commit := strings.TrimSpace(string(out))
		out, err = run(ctx, []string{"-C", root, "merge-base", commit, head.SHA})
		if err != nil {
			return nil, fmt.Errorf("history: %q and HEAD have no common ancestor: %w", base, err)
		}
		from = strings.TrimSpace(string(out))
	}
	common := []string{"-C", root, "-c", "core.quotePath=false", "diff", "--no-color", "--no-ext-diff", "--no-renames", "--no-textconv", "--relative", "--ignore-submodules"}
	stat, err := run(ctx, append(append(slices.Clone(common), "--numstat", "-z", from, "--"), pathspec(head)...))
	if err != nil {
		return nil, err
	}
	patch, err := run(ctx, append(append(slices.Clone(common), from, "--"), pathspec(head)...))
	if err != nil {
		return nil, err
	}
	var files []FileDiff
	for _, e := range bytes.Split(stat, []byte{0}) {
		if len(e) == 0 {
			continue
		}
		f, err := parseNumstat(string(e))
		if err != nil {
			return nil, fmt.Errorf("history: git diff: %w", err)
		}
		files = append(files, FileDiff{Path: f.Path, Added: f.Added, Deleted: f.Deleted})
	}
	blocks := splitPatch(string(patch))
	if len(blocks) != len(files) {
		return nil, fmt.Errorf("history: git diff listed %d files and gave %d patches", len(files), len(blocks))
	}
	for i := range files {
		files[i].Patch = blocks[i]
	}
	return &Changes{Base: from, Files: files}, nil
}

// splitPatch cuts a diff into its files' blocks, each from its "diff --git"
// line to the next.
func splitPatch(patch string) []string {
	var blocks []string
	for patch != "" {
		next := strings.Index(patch[1:], "\ndiff --git ")
		if next < 0 {
			blocks = append(blocks, patch)
			break
		}
		blocks = append(blocks, patch[:next+2])
		patch = patch[next+2:]
	}
	return blocks
}

// pathspec keeps a diff below the top of the work tree to root's files.
func pathspec(head Tip) []string {
	if head.Prefix != "" {
		return []string{"."}
	}
	return nil
}

// run runs git with args and returns its standard output; a failure's
// error carries what git said.
func run(ctx context.Context, args []string) ([]byte, error) {
	cmd := exec.CommandContext(ctx, "git", args...)
	var stdout, stderr bytes.Buffer
	cmd.Stdout, cmd.Stderr = &stdout, &stderr
	if err := cmd.Run(); err != nil {
		if ctx.Err() != nil {
			return nil, ctx.Err()
		}
		return nil, fmt.Errorf("history: git %s: %w: %s", subcommand(args), err, strings.TrimSpace(stderr.String()))
	}
	return stdout.Bytes(), nil
}

// subcommand is the git command args run: the first argument after the
// options and their values.
func subcommand(args []string) string {
	for i := 0; i < len(args); i++ {
		switch {
		case args[i] == "-C" || args[i] == "-c":
			i++
		case !strings.HasPrefix(args[i], "-"):
			return args[i]
		}
	}
	return ""
}
