// Package chunkid names the chunker of this build, without the chunker:
// its Version and Backend, and the Name plans carry. The engine and the
// facade read it here, so that they do not link the parsers (tree-sitter
// is cgo) to learn a name.
package chunkid

import "strconv"

// Version identifies the chunking and level-extraction rules. It changes
// whenever chunk.Split or chunk.Levels can return something different for
// the same input, so an index can tell that its chunks are stale. Backend
// names the parsers this build uses; an index records both.
const Version = 2

// Name names this build's chunker, Backend and Version, as plans and
// ctxpack version show it: "go/parser+tree-sitter v2" built with cgo,
// "go/parser+heuristics v2" without. It never holds a newline.
func Name() string { return Backend + " v" + strconv.Itoa(Version) }
