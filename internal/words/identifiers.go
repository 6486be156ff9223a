package words

import (
	"slices"
	"strings"
)

// Identifiers returns the distinct identifiers of at least minLen bytes
// in text, sorted bytewise. Any byte but an ASCII letter, digit or
// underscore (a hyphen, a non-ASCII letter, invalid UTF-8) ends an
// identifier, and a run that starts with a digit (10px, 0xff, 1_000)
// holds none.
func Identifiers(text string, minLen int) []string {
	var out []string
	for i := 0; i < len(text); {
		if !isIdentByte(text[i]) {
			i++
			continue
		}
		j := i + 1
		for j < len(text) && isIdentByte(text[j]) {
			j++
		}
		if !isDigitByte(text[i]) && j-i >= minLen {
			out = append(out, text[i:j])
		}
		i = j
	}
	slices.Sort(out)
	return slices.Compact(out)
}

// IdentifierLine returns the 1-based line of text on which name first
// stands as a whole identifier (not inside a longer one); 0 when it does
// not.
func IdentifierLine(text, name string) int {
	if name == "" {
		return 0
	}
	for off := 0; ; {
		i := strings.Index(text[off:], name)
		if i < 0 {
			return 0
		}
		i += off
		end := i + len(name)
		if (i == 0 || !isIdentByte(text[i-1])) && (end == len(text) || !isIdentByte(text[end])) {
			return strings.Count(text[:i], "\n") + 1
		}
		off = i + 1
	}
}

func isIdentByte(c byte) bool {
	return 'a' <= c && c <= 'z' || 'A' <= c && c <= 'Z' || c == '_' || isDigitByte(c)
}

func isDigitByte(c byte) bool { return '0' <= c && c <= '9' }
