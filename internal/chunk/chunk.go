package chunk

import (
	"bytes"
	"strings"

	"github.com/ctxpack/ctxpack/internal/chunk/chunkid"
)

// Chunk is one syntactic unit of a file.
type Chunk struct {
	Seq                int    // 0-based order in the file
	Start, End         int    // byte offsets [Start, End) into the source
	StartLine, EndLine int    // 1-based inclusive
	Kind               string // one of the Kind* constants
	Symbol             string // the unit's name ("(*Server).ServeHTTP", "Invoice.total", "## Rounding"); "" if none
}

// The kinds of chunk. A chunk made of several merged units has their kind;
// units are merged only with units of the same kind.
const (
	KindPreamble  = "preamble"  // package clause, imports, header comments before the first unit
	KindFunction  = "function"  // a function, or a function prototype (C, C++)
	KindMethod    = "method"    // a function inside a class, impl or interface, or a Go method
	KindClass     = "class"     // a class, record or object, or the header of one split by members
	KindType      = "type"      // a type definition: Go type, struct, union, typedef, type alias
	KindInterface = "interface" // an interface, protocol or Rust trait
	KindEnum      = "enum"      // an enumeration
	KindImpl      = "impl"      // a Rust impl block
	KindModule    = "module"    // a namespace, Rust mod, TypeScript namespace, extern "C" block
	KindMacro     = "macro"     // a C #define or a Rust macro_rules!
	KindVariable  = "variable"  // a top-level var, let, static or assignment
	KindConstant  = "constant"  // a top-level const
	KindSection   = "section"   // a Markdown heading and the text up to the next heading
	KindBlock     = "block"     // a blank-line block, or top-level code that is not a definition
)

// The size limits of a chunk, in bytes. A unit larger than MaxChunkBytes is
// split: a class, impl, interface or namespace into its header and its
// members, anything else at line boundaries. Adjacent units of one kind that
// are each smaller than MinChunkBytes are merged until the merged chunk
// reaches MinChunkBytes.
const (
	MaxChunkBytes = 8 << 10
	MinChunkBytes = 256
)

// Version identifies the chunking and level-extraction rules, and Backend
// names the parsers this build uses (chunkid holds both); an index records
// both.
const (
	Version = chunkid.Version
	Backend = chunkid.Backend
)

// Name names this build's chunker (chunkid.Name).
func Name() string { return chunkid.Name() }

// maxSyntaxBytes is the largest input handed to go/parser (tree-sitter
// takes at most 1 MiB); larger inputs are chunked by the heuristics, which
// run in linear time.
const maxSyntaxBytes = 4 << 20

// Split chunks src, the contents of the file at path (the path chooses the
// language; see Language). The chunks tile src: the first starts at 0,
// each starts where the previous one ends, the last ends at len(src), and
// none is empty. An empty src has no chunks. See the package documentation
// for how units are found.
func Split(path string, src []byte) []Chunk {
	return splitWith(path, src, MaxChunkBytes, MinChunkBytes)
}

// splitWith is Split with other size limits, for tests.
func splitWith(path string, src []byte, maxBytes, minBytes int) []Chunk {
	if len(src) == 0 {
		return nil
	}
	o := parse(Language(path), path, src)
	t := tiler{src: src, max: maxBytes, min: minBytes}
	return t.chunks(o.units)
}

// Levels returns the extractive summary and detailed levels of a source
// file (DESIGN §3); the package documentation describes both. A level is ""
// when it cannot be made better than the level below it.
func Levels(path string, src []byte) (summary, detailed string) {
	if len(src) == 0 {
		return "", ""
	}
	o := parse(Language(path), path, src)
	return o.levels(src)
}

// parse finds the units of src.
func parse(lang, path string, src []byte) outline {
	switch {
	case lang == "markdown":
		return markdownOutline(src)
	case lang == "go" && len(src) <= maxSyntaxBytes:
		if o, ok := goOutline(src); ok {
			return o
		}
		return heuristicOutline("go", src)
	case len(src) <= maxSyntaxBytes && hasGrammar(lang):
		if lang == "c" && looksLikeCPP(path, src) {
			lang = "cpp"
		}
		if o, ok := treeSitterOutline(lang, src); ok {
			return o
		}
	}
	return heuristicOutline(lang, src)
}

// looksLikeCPP reports whether a .h file holds C++: whether its first
// 64 KiB use a construct C does not have.
func looksLikeCPP(path string, src []byte) bool {
	if !strings.HasSuffix(strings.ToLower(path), ".h") {
		return false
	}
	head := src[:min(len(src), 64<<10)]
	for _, w := range []string{"namespace ", "template <", "template<", "public:", "private:", "protected:", "std::", "\nclass ", "\n  class ", "\n    class ", "extern \"C++\""} {
		if bytes.Contains(head, []byte(w)) {
			return true
		}
	}
	return bytes.HasPrefix(head, []byte("class "))
}
