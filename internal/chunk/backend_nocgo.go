//go:build !cgo

package chunk

// Backend names the parsers of this build: go/parser for Go and the
// heuristics for every other language (built without cgo).
const Backend = "go/parser+heuristics"

func hasGrammar(string) bool { return false }

func treeSitterOutline(string, []byte) (outline, bool) { return outline{}, false }
