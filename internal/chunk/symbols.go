package chunk

import "strings"

// SymbolNames returns the names the units of a chunk's Symbol define: the
// last identifier of "(*T).M", "Invoice.total" or "Money::new", for each
// of the ", "-separated symbols of a merged chunk, without the " (part N)"
// of a split unit. Markdown headings, "…" and anything else that is not
// an identifier give no name.
func SymbolNames(symbol string) []string {
	var out []string
	for s := range strings.SplitSeq(symbol, ", ") {
		if i := strings.Index(s, " (part "); i >= 0 {
			s = s[:i]
		}
		if i := strings.LastIndexAny(s, ".:)"); i >= 0 {
			s = s[i+1:]
		}
		if isIdentifier(s) && s != "…" {
			out = append(out, s)
		}
	}
	return out
}

// isIdentifier reports whether s is one identifier: identifier bytes, not
// starting with a digit.
func isIdentifier(s string) bool {
	if s == "" || s[0] >= '0' && s[0] <= '9' {
		return false
	}
	for i := 0; i < len(s); i++ {
		if !isIdentByte(s[i]) {
			return false
		}
	}
	return true
}
