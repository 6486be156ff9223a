//go:build !cgo

package chunk

func hasGrammar(string) bool { return false }

func treeSitterOutline(string, []byte) (outline, bool) { return outline{}, false }
