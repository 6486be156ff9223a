package refgraph

import "strings"

// symbolNames calls add with the defined name of each unit a chunk symbol
// names: the last component of "(*T).M", "Invoice.total" or
// "Money::new", for each of the ", "-separated symbols of a merged chunk,
// without the " (part N)" of a split unit. Markdown headings, "…" and
// anything else that is not an identifier are skipped.
func symbolNames(sym string, add func(string)) {
	for s := range strings.SplitSeq(sym, ", ") {
		if i := strings.Index(s, " (part "); i >= 0 {
			s = s[:i]
		}
		if i := strings.LastIndexAny(s, ".:)"); i >= 0 {
			s = s[i+1:]
		}
		if isIdent(s) && s != "…" {
			add(s)
		}
	}
}

func isIdent(s string) bool {
	if s == "" || !identStart[s[0]] {
		return false
	}
	for i := 1; i < len(s); i++ {
		if !identByte[s[i]] {
			return false
		}
	}
	return true
}
