//go:build !cgo

package chunkid

// Backend names the parsers of this build: go/parser for Go and the
// heuristics for every other language (built without cgo).
const Backend = "go/parser+heuristics"
