// Package links is links mode's collector (DESIGN §4): a task's closure
// over the artifact graph as parts for the engine.
//
// Collect follows the task's frontmatter links (internal/graph) and makes
// one part per artifact reached, at every level the artifact has, with
// the chain of ids that reached it, plus one part listing the code globs
// of the specs reached. It decides only what links mode knows: the render
// sections (identity → norms → decisions → specs → task → code paths),
// the fitting priorities (identity and the task pinned; specs the task
// links, then transitive specs, norms, decisions), and that the engine
// must neither deduplicate artifacts nor divide the budget (Options). It
// renders, fits and allocates nothing: that is internal/pack's.
//
// Explain reads an assembled plan back against the closure to say why an
// artifact is in the context, or why not.
//
// Everything is a pure function of the artifact set and the request:
// the same inputs give the same parts in the same order.
package links
