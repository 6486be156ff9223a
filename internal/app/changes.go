package app

import (
	"context"
	"errors"
	"fmt"
	"slices"

	"github.com/ctxpack/ctxpack/internal/collect/changes"
	"github.com/ctxpack/ctxpack/internal/history"
	"github.com/ctxpack/ctxpack/internal/pack"
	"github.com/ctxpack/ctxpack/internal/project"
)

// MaxLog is the most commits Request.Log may ask for.
const MaxLog = 1000

// wantsChanges says whether req asks for the repository's changes.
func wantsChanges(req Request) bool { return req.Diff || req.DiffBase != "" || req.Log != 0 }

// addChanges adds the changes req asks for (Request.Diff, DiffBase, Log:
// internal/collect/changes) to an assembly's parts: they are shown in
// sections after the rest, and the state root becomes the root over the
// assembly's own (under "files") and the changes' (under "changes"), so
// a new commit or edit changes it. keep, when set, says which changed
// files a pack's selection (its paths, globs and list) takes: the diff of
// any other is left out, and a warning counts them. Without a request for
// changes, parts and o are as they were.
func (p *Project) addChanges(ctx context.Context, req Request, parts []pack.Part, o *pack.Options, keep func(path string) bool) ([]pack.Part, error) {
	if !wantsChanges(req) {
		return parts, nil
	}
	if req.Log < 0 || req.Log > MaxLog {
		return nil, &InputError{Field: "log", Msg: fmt.Sprintf("must be a number of commits from 1 to %d, not %d", MaxLog, req.Log)}
	}
	c, err := changes.Collect(ctx, changes.Request{Root: p.Root, Diff: req.Diff, DiffBase: req.DiffBase, Log: req.Log, Keep: keep})
	switch {
	case errors.Is(err, history.ErrNotRepository):
		return nil, &InputError{Field: changesFlag(req), Msg: "the project (" + project.ShowPath(p.Root) + ") is not in a git work tree with a commit, or git is not installed"}
	case errors.Is(err, history.ErrUnknownRef):
		return nil, &InputError{Field: "diff-base", Msg: fmt.Sprintf("%q is no branch, tag or commit of the repository ('git branch -a' lists the branches)", req.DiffBase)}
	case err != nil:
		return nil, err
	}
	if c.Outside > 0 {
		c.Warnings = append(c.Warnings, fmt.Sprintf("the diffs of %d changed %s outside the pack's selection left out", c.Outside, plural(c.Outside, "file", "files")))
	}
	if c.Diffs == 0 && c.Outside == 0 && (req.Diff || req.DiffBase != "") {
		c.Warnings = append(c.Warnings, "no changes to show: the work tree has none against the base asked for (untracked files are not changes)")
	}
	o.Sectioned = true
	o.StateRoot = project.StateRoot([]project.Input{{Path: "files", CID: o.StateRoot}, {Path: "changes", CID: c.StateRoot}})
	if len(c.Warnings) > 0 {
		o.Warnings = append(o.Warnings, c.Warnings...)
		slices.Sort(o.Warnings)
	}
	return append(parts, c.Parts...), nil
}

// changesFlag names the option of req that asked for changes, for errors.
func changesFlag(req Request) string {
	switch {
	case req.DiffBase != "":
		return "diff-base"
	case req.Diff:
		return "diff"
	}
	return "log"
}
