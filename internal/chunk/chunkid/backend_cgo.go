//go:build cgo

package chunkid

// Backend names the parsers of this build: go/parser for Go, tree-sitter
// for Python, JavaScript, TypeScript, Java, Rust, C and C++, and the
// heuristics for the other languages.
const Backend = "go/parser+tree-sitter"
