// Package app is ctxpack's facade: the one gateway through which the
// command line (internal/cli), the MCP server (internal/mcpserver) and the
// public library (package app) reach the rest. It decides what a
// request leaves open, once for every front end (the budget, the format,
// the tokenizer, which mode a target means, the rules of each mode), asks
// the mode's collector (internal/collect/...) for parts and hands them to
// the engine (internal/pack); it speaks its own types, so that a front end
// needs no other package. A Project is opened once (its root found by walking up, like
// git, and its .ctxpack/config.yaml read); each call assembles a context
// for one Request.
//
// Three promises hold for every Result:
//
//   - Deterministic: the same request over the same files gives
//     byte-identical output from any build with the same chunker, on any
//     machine, any GOMAXPROCS and any file creation order. The chunker is
//     tree-sitter's in a cgo build and heuristics without cgo; they chunk
//     and summarize code differently, so every Plan names its chunker
//     (Plan.Chunker) and its Digest covers it.
//   - Within budget, exactly: the rendered content, counted by the named
//     tokenizer, never exceeds the budget (unless the allow overflow
//     strategy was asked for, which flags it instead).
//   - Auditable: every part carries why it is in, reduced or out.
//
// Around the assembly: Allocation is a request's budget arithmetic and
// Allocation.Record the budget record of a Result, which AppendRecord
// keeps in .ctxpack/records.jsonl (Records reads them back); Score breaks
// one file's relevance to a task into its factors; Summarize gives a file
// at a level. Retrieve caches its Results in .ctxpack/cache/assemblies/,
// keyed by the query, the state root and every option: a cache can never
// change an answer (Request.NoCache bypasses it). Only records hold the
// clock's time, never a Result.
package app
