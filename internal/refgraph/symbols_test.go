package refgraph

// isIdent is whether s is an identifier by the scanner's bytes.
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
