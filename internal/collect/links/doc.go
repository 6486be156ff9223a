// Package links is links mode's collector (DESIGN §4): a task's closure
// over the artifact graph as parts for the engine.
//
// Collect follows the task's frontmatter links (internal/graph) and makes
// one part per artifact reached, at every level the artifact has, with
// the chain of ids that reached it, plus one part listing the paths globs
// of the artifacts reached (with how many files each matches), plus the
// code: the files the globs govern (artifact.Governs, as ctxpack check
// reads them), listed through Code (the facade gives pack mode's file
// parts) and ranked by how well the task's title and body match them
// (Match: BM25 over those files alone, so the ranking needs no index and
// covers every file the globs govern). It decides only what links mode
// knows: the render sections (identity → norms → decisions → specs → task
// → code paths → code), the fitting priorities (identity and the task
// pinned; specs the task links, then transitive specs, norms, decisions;
// the code in a bucket with no share, so that it gets what the artifacts
// leave once each is whole), and that the engine must not deduplicate
// (Options). It renders, fits and allocates nothing: that is
// internal/pack's.
//
// Explain reads an assembled plan back against the closure to say why an
// artifact is in the context, or why not; ExplainCode does the same for a
// file of the code.
//
// Everything is a pure function of the artifact set, the files Code lists
// and the request: the same inputs give the same parts in the same order.
package links
