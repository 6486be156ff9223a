package artifact

import (
	"fmt"

	"github.com/ctxpack/ctxpack/internal/pack"
)

// Type is an artifact's kind.
type Type string

// The artifact types and the folders they live in (under .ctxpack/ or
// .contextia/).
const (
	Identity Type = "identity" // system/identity.md
	Task     Type = "task"     // work/tasks/TASK-*.md
	Spec     Type = "spec"     // system/specs/SPEC-*.md
	Decision Type = "decision" // system/rationale/DEC-*.md
	Norm     Type = "norm"     // system/norms/NORM-*.md
)

// Statuses an artifact can have.
const (
	Draft      = "draft"
	Current    = "current"
	InProgress = "in_progress"
	Done       = "done"
	Deprecated = "deprecated"
	Superseded = "superseded"
)

// Links are an artifact's outgoing links, in frontmatter order.
type Links struct {
	Specs     []string
	Decisions []string
	Norms     []string
	Tasks     []string
}

// Field is one frontmatter field as written: its key, its value rendered
// compactly on one line ("a, b" for a list), and its 1-based line in the
// file.
type Field struct {
	Key   string
	Value string
	Line  int
}

// Artifact is one Markdown artifact with YAML frontmatter.
type Artifact struct {
	ID           string
	Type         Type
	Title        string
	Status       string
	Links        Links
	Paths        []string // globs of code the artifact governs
	SupersededBy string
	// Extra holds the frontmatter fields this package does not know, in
	// file order; they are kept and shown at the meta level.
	Extra []Field

	Path  string // slash path relative to the project root
	Lines int    // lines in the file
	// Line gives the 1-based line of a known field ("id", "links.specs",
	// "paths"…) and of each link target ("links.specs[SPEC-X]") in the
	// file, for findings; 0 when absent.
	Line map[string]int
	// Body is the Markdown after the frontmatter.
	Body string
	// CID is "sha256:" + hex of the file's text.
	CID string
}

// Level is how much of an artifact is shown, as DESIGN §3 defines it: the
// engine's level (pack.Level), one type for every part.
type Level = pack.Level

// The levels of an artifact.
const (
	Meta     = pack.Meta     // the frontmatter, as compact "key: value" lines
	Summary  = pack.Summary  // meta and the body's first Markdown section
	Detailed = pack.Detailed // meta and every heading with its first paragraph
	Full     = pack.Full     // meta and the whole body
)

// ParseError is a problem with one artifact file, with where it is.
type ParseError struct {
	Path string
	Line int // 1-based; 0 when the problem is the whole file
	Msg  string
}

func (e *ParseError) Error() string {
	if e.Line > 0 {
		return fmt.Sprintf("artifact: %s:%d: %s", e.Path, e.Line, e.Msg)
	}
	return fmt.Sprintf("artifact: %s: %s", e.Path, e.Msg)
}

// Set is every artifact of a project.
type Set struct {
	Dir  string               // ".ctxpack" or ".contextia"
	ByID map[string]*Artifact // the first artifact of each id, by path order
	List []*Artifact          // every readable artifact, sorted by path
	// Problems are the files that could not be read as artifacts and the
	// ids that more than one file claims, each with where it is.
	Problems []*ParseError
}

// Part is the artifact as a part of the engine, at every level it has
// (Text), keyed by its id, its type as the part's type and its path: how
// links mode and retrieval mode show an artifact. The identity has no
// label. The caller sets how the part ranks (its score, priority,
// section, bucket) and how it was reached (Via).
func (a *Artifact) Part() pack.Part {
	text := make(map[pack.Level]string, 4)
	for l := pack.Meta; l <= pack.Full; l++ {
		text[l] = a.Text(l)
	}
	label := a.ID
	if a.Type == Identity {
		label = ""
	}
	return pack.Part{
		Key: a.ID, Source: "artifact", Type: string(a.Type), Label: label, Path: a.Path,
		Lines: [2]int{1, max(1, a.Lines)}, Lang: "markdown", Text: text, Whole: "ctxpack show " + a.ID,
	}
}
