// Package ctxpack assembles the context an AI coding agent sees for a piece
// of work: it decides what goes in, fits it to a token budget exactly, gives
// the same answer every time, and says why each piece is there.
//
// The command-line tool and the MCP server are thin layers over this
// package. A Project is opened once (its root found by walking up, like
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
package ctxpack
