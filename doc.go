// Package ctxpack assembles the context an AI coding agent sees for a piece
// of work: it decides what goes in, fits it to a token budget exactly, gives
// the same answer every time, and says why each piece is there.
//
// This package is ctxpack's whole library API, kept to a handful of names
// as go/format keeps its own: Open a Project, ask it for the Context of a
// target (a task id, a path of the project or free text) or a Pack of
// paths under a Request, and read the Result: the rendered output and its
// Plan. Everything else — the index, the store of memories, the evidence
// workspace, the MCP server — is reached through the ctxpack command,
// whose front ends and this package share one facade (internal/app), so
// the same request gives the same answer from each.
//
// Three promises hold for every Result:
//
//   - Deterministic: the same request over the same files gives
//     byte-identical output from any build with the same chunker, on any
//     machine, any GOMAXPROCS and any file creation order. The chunker is
//     tree-sitter's in a cgo build and heuristics without cgo; they chunk
//     and summarize code differently, so every Plan names its chunker and
//     its Digest covers it.
//   - Within budget, exactly: the rendered content, counted by the named
//     tokenizer, never exceeds the budget (unless the allow overflow
//     strategy was asked for, which flags it instead).
//   - Auditable: every part carries why it is in, reduced or out.
//
// A Project is safe for one goroutine at a time; open one per goroutine.
package ctxpack
