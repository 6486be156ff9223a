// Package pack is ctxpack's engine: it takes the parts a collector found and
// fits them to a token budget, exactly and deterministically, saying why
// every part is in, reduced or out.
//
// The pipeline is order → dedup → group → allocate → fit → render → verify:
//
//   - order: scores are quantized to 1e-6 and parts sorted by the total
//     order: pinned first, priority desc, score desc, path asc, sequence
//     asc, byte offset asc, key asc.
//   - dedup: a part whose content id equals an earlier part's, or whose word
//     shingles resemble an earlier part's above the threshold (0.8: shared
//     shingles over all the shingles of the two, so a part contained in a
//     bigger one is not a copy of it), is dropped with the key it
//     duplicates; with Options.ShowCopies it is shown as one line naming
//     the part it repeats instead. The EditDistance strategy
//     (sources mode) compares texts by normalized edit distance instead,
//     most relevant first, and knows what parts are beyond their text
//     (DedupKeys).
//   - group: parts are grouped by document; groups are ordered by their
//     best part.
//   - allocate and fit: a policy with WaterFill entitles each bucket to a
//     part of the budget by what its parts need, and with Cut the item cap
//     cuts a part over its bucket's cap, with a note, before fitting. The
//     packing strategy (greedy, interleaved, score, relevance)
//     orders the parts; the overflow strategy (degrade, drop, truncate,
//     error, allow) and the budget policy (buckets with shares, a per-item
//     cap) turn that order into one sequence of steps — add a part at a
//     level, raise a part one level — that does not depend on the budget.
//     The context for budget B is the longest prefix of that sequence that
//     fits in B. Because the sequence is the same for every budget, raising
//     the budget never drops a part nor lowers its level, and the budget at
//     which each left-out part would enter is known and reported. A part
//     that does not fit is skipped by placing smaller later parts before it
//     in the sequence, within half its size (see fill).
//   - render and verify: the chosen parts are rendered in render order and
//     the whole output is counted with the tokenizer; the count, never an
//     estimate, is checked against the budget.
//
// Every plan names the chunker of the build (chunkid.Name, such as
// "go/parser+tree-sitter v2"; "go/parser+heuristics v2" built without
// cgo), which gave code parts their chunks and levels, and its digest
// covers that name and the content (see Digest):
//
//	digest = "sha256:" + hex(SHA-256("ctxpack digest v1\n" + "chunker " + chunker + "\n" + content))
//
// so the same build gives the same digest for the same content, and two
// builds that chunk differently never share a digest.
//
// A part may give its intermediate levels lazily, through Part.More: the
// engine calls it, at most once, only when the sequence reaches the part's
// upgrade steps, so a large pack pays for the levels of the parts it
// raises, not of every part. A part may also give its full text through
// a Part.Loader instead of holding it: the engine loads it each time it
// needs it (to deduplicate, measure, derive More's levels or render) and
// keeps none, so a pack of many files holds their lengths, not their
// texts. AssembleTo writes the output as it renders it when nothing can
// be taken out afterwards (overflow allow, any format but json), so that
// with Loaders its memory is that of a few parts, not of the output.
//
// Assemble is deterministic: the output depends only on the parts' content
// and the options (and the plan on this build's chunker), never on the
// order of the input slice, map order, goroutine scheduling or the clock. It is safe for concurrent use when the
// tokenizer is.
package pack
