package app

import (
	"fmt"
	"github.com/ctxpack/ctxpack/internal/render"

	"github.com/ctxpack/ctxpack/internal/check"
	"github.com/ctxpack/ctxpack/internal/graph"
	"github.com/ctxpack/ctxpack/internal/history"
	"github.com/ctxpack/ctxpack/internal/index"
	"github.com/ctxpack/ctxpack/internal/project"
	"github.com/ctxpack/ctxpack/internal/record"
)

// The types and values the front ends show from the layers below, by the
// facade's names, so that a front end needs no package but this one.

type (
	// Finding is one finding of check.
	Finding = check.Finding
	// CheckSummary counts a check's findings.
	CheckSummary = check.Summary
	// ConfigError is a configuration file that cannot be read as one.
	ConfigError = project.ConfigError

	// IndexStats is what an index update did.
	IndexStats = index.Stats
	// IndexProgress is the progress of an index update or embedding.
	IndexProgress = index.Progress
	// EmbedStats is what computing the index's vectors did.
	EmbedStats = index.EmbedStats
	// LanguageCount is the number of indexed files of a language.
	LanguageCount = index.LanguageCount
)

// The states of an index that index --status tells apart.
const (
	IndexCurrent = index.Current // up to date with its format and options
	IndexMissing = index.Missing // not there
)

// DefaultIndexWait is how long an index update waits for another one of
// the same index.
const DefaultIndexWait = index.DefaultLockTimeout

// ErrNotRepository is the error of reading commits outside a git
// repository.
var ErrNotRepository = history.ErrNotRepository

// RecordsPath is where the budget records are, relative to the root.
const RecordsPath = record.RelPath

// RelevanceMinimum is the least relevance of a part that counts as
// relevant in a budget record's efficiency.
const RelevanceMinimum = record.IncludeMinimum

// Graph draws what artifact id's links reach, as Context follows them to
// linkDepth links (0: no limit): a Mermaid flowchart (format "mermaid")
// or Graphviz dot ("dot"). Artifacts left out for their status or for
// being missing are drawn dashed.
func (p *Project) Graph(id, format string, linkDepth int) (string, error) {
	var draw func(*graph.Closure) string
	switch format {
	case "mermaid":
		draw = graph.Mermaid
	case "dot":
		draw = graph.Dot
	default:
		return "", fmt.Errorf("ctxpack: graph draws mermaid or dot (got %q)", format)
	}
	set, err := p.artifacts()
	if err != nil {
		return "", err
	}
	c, err := graph.Traverse(set, id, graph.Options{MaxDepth: linkDepth})
	if err != nil {
		return "", err
	}
	return draw(c), nil
}

// Dropped is a part an assembly left out, with its reason.
type Dropped = render.Dropped

// ReasonTree starts the reason of a part shown only as a line of the
// directory tree (render.Tree).
const ReasonTree = render.ReasonTree

// Thousands writes n with a comma between groups of three digits
// (render.Thousands): 61200 is "61,200".
func Thousands(n int) string { return render.Thousands(n) }
