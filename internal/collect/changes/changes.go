// Package changes turns a repository's changes into parts for a pack or
// a retrieval: the work tree's diff (against HEAD, or what a branch
// changed since it left a base) one part per file, and the most recent
// commits one part per commit. It reads git (internal/history); it never
// renders, fits or allocates: the engine ranks and fits these parts with
// the rest.
//
// Each part has three levels: meta (one line: the file and its counts, or
// the commit's hash, date and subject), summary (a diff's hunk headers; a
// commit's subject and files) and full (the file's unified diff; the
// commit's whole message and files). A diff part scores 1 (the work in
// progress is what a task is most likely about); the i-th newest commit
// 0.9 × 0.5^(i/10). Diff parts are shown in section 1 and commits in
// section 2, after the files (section 0).
//
// Contracts:
//
//   - Determinism. The parts depend only on the repository's state: its
//     refs, its commits and the work tree's files. Commit dates are commit
//     times in UTC.
//   - Auditability. Every part says in Via why it is there (which diff,
//     which commit); a file whose diff is over Request.MaxPatchBytes is
//     shown by its counts only, with a warning saying so.
//   - Failures. Outside a git work tree, or with an unknown base, Collect
//     fails with an error that says so (history.ErrNotRepository,
//     history.ErrUnknownRef).
package changes

import (
	"context"
	"fmt"
	"math"
	"strings"
	"time"

	"github.com/ctxpack/ctxpack/internal/history"
	"github.com/ctxpack/ctxpack/internal/pack"
	"github.com/ctxpack/ctxpack/internal/project"
	"github.com/ctxpack/ctxpack/internal/rank"
)

// The sections the parts are shown in, after the files' (0).
const (
	DiffSection = 1
	LogSection  = 2
)

// DefaultMaxPatchBytes is the largest diff of one file shown whole.
const DefaultMaxPatchBytes = 1 << 20

// Request says which changes to collect.
type Request struct {
	Root string // the project root, in a git work tree
	// Diff asks for the work tree's changes, staged or not, against HEAD;
	// with DiffBase, against the merge base of DiffBase and HEAD.
	Diff     bool
	DiffBase string
	// Log is how many of the newest commits to show; 0 is none.
	Log int
	// MaxPatchBytes is the largest diff of one file shown; 0 is
	// DefaultMaxPatchBytes.
	MaxPatchBytes int
	// Keep, when set, says which changed files to show (a pack's
	// selection); the diffs of the others are left out, and counted in
	// Collection.Outside.
	Keep func(path string) bool
}

// Collection is what Collect found.
type Collection struct {
	Parts []pack.Part
	// StateRoot is the Merkle root (project.StateRoot) over the parts'
	// keys and texts: it changes whenever a part would.
	StateRoot string
	Warnings  []string
	// Diffs is the number of diff parts; Outside the number of changed
	// files Request.Keep left out.
	Diffs, Outside int
}

// Collect reads the changes req asks for.
func Collect(ctx context.Context, req Request) (*Collection, error) {
	if req.Log < 0 {
		return nil, fmt.Errorf("changes: %d commits asked for; 0 or more", req.Log)
	}
	c := &Collection{}
	var inputs []project.Input
	add := func(p pack.Part) {
		full := p.Text[pack.Full]
		inputs = append(inputs, project.Input{Path: p.Key, CID: project.ContentID(full)})
		c.Parts = append(c.Parts, p)
	}
	if req.Diff || req.DiffBase != "" {
		ch, err := history.Diff(ctx, req.Root, req.DiffBase)
		if err != nil {
			return nil, err
		}
		against := "HEAD " + short(ch.Base)
		heading := "Changes against HEAD (" + short(ch.Base) + "), staged and not"
		if req.DiffBase != "" {
			against = "the merge base of " + req.DiffBase + " and HEAD, " + short(ch.Base)
			heading = "Changes since " + req.DiffBase + " (merge base " + short(ch.Base) + "), committed and not"
		}
		limit := req.MaxPatchBytes
		if limit <= 0 {
			limit = DefaultMaxPatchBytes
		}
		for _, f := range ch.Files {
			if req.Keep != nil && !req.Keep(f.Path) {
				c.Outside++
				continue
			}
			c.Diffs++
			p, warning := diffPart(f, against, heading, limit)
			if warning != "" {
				c.Warnings = append(c.Warnings, warning)
			}
			add(p)
		}
	}
	if req.Log > 0 {
		commits, err := history.Recent(ctx, req.Root, req.Log)
		if err != nil {
			return nil, err
		}
		for i, cm := range commits {
			add(commitPart(cm, i, len(commits)))
		}
	}
	c.StateRoot = project.StateRoot(inputs)
	return c, nil
}

// counts is a file's "+A −D", or "binary".
func counts(added, deleted int) string {
	if added < 0 {
		return "binary"
	}
	return fmt.Sprintf("+%d −%d", added, deleted)
}

func diffPart(f history.FileDiff, against, heading string, limit int) (pack.Part, string) {
	meta := f.Path + ": " + counts(f.Added, f.Deleted) + " lines against " + against
	full, warning := f.Patch, ""
	if len(full) > limit {
		warning = fmt.Sprintf("the diff of %s is %s, over the %s shown of one file: shown by its counts only",
			project.ShowPath(f.Path), project.HumanBytes(int64(len(full))), project.HumanBytes(int64(limit)))
		full = meta + "\n[ctxpack: diff not shown: " + project.HumanBytes(int64(len(f.Patch))) + "]\n"
	}
	text := map[pack.Level]string{pack.Meta: meta, pack.Full: full}
	if hunks := hunkHeaders(full); hunks != "" && len(hunks) < len(full) {
		text[pack.Summary] = meta + "\n" + hunks
	}
	return pack.Part{
		Key: "diff:" + f.Path, Source: "diff", Type: "diff", Label: f.Path, Doc: "diff:" + f.Path,
		Lang: "diff", Text: text,
		Score: 1, Components: map[string]float64{"diff": 1},
		Section: DiffSection, Heading: heading,
		Via:       []string{"changed: " + counts(f.Added, f.Deleted) + " against " + against},
		SelfNoted: true,
	}, warning
}

// hunkHeaders returns the "@@" lines of a unified diff.
func hunkHeaders(patch string) string {
	var b strings.Builder
	for line := range strings.Lines(patch) {
		if strings.HasPrefix(line, "@@") {
			b.WriteString(line)
		}
	}
	return b.String()
}

func commitPart(c history.Commit, i, n int) pack.Part {
	date := time.Unix(c.Time, 0).UTC().Format(time.RFC3339)
	subject, _, _ := strings.Cut(c.Message, "\n")
	var files strings.Builder
	for _, f := range c.Files {
		fmt.Fprintf(&files, "%s (%s)\n", f.Path, counts(f.Added, f.Deleted))
	}
	meta := short(c.SHA) + " " + date + " " + subject
	full := "commit " + c.SHA + "\nAuthor: " + c.Author + "\nDate: " + date + "\n\n" + c.Message + "\n"
	if files.Len() > 0 {
		full += "\nFiles changed:\n" + files.String()
	}
	text := map[pack.Level]string{pack.Meta: meta, pack.Full: full}
	if summary := meta + "\n" + files.String(); len(summary) < len(full) && files.Len() > 0 {
		text[pack.Summary] = summary
	}
	score := rank.Round(0.9 * math.Pow(0.5, float64(i)/10))
	return pack.Part{
		Key: "commit:" + c.SHA, Source: "commit", Type: "commit", Label: short(c.SHA) + " " + subject, Doc: "commit:" + c.SHA,
		Text: text, Score: score, Components: map[string]float64{"log_recency": score},
		Section: LogSection, Heading: fmt.Sprintf("Recent commits (the %d newest)", n),
		Via:       []string{fmt.Sprintf("recent commit %d of %d", i+1, n)},
		SelfNoted: true,
		Changed:   c.Time,
	}
}

// short is a commit hash's first 12 digits.
func short(sha string) string { return sha[:min(12, len(sha))] }
