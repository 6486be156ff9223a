package embed

import (
	"strings"
	"unicode"
	"unicode/utf8"
)

// Character classes of identifier splitting.
const (
	clSep = iota
	clLower
	clUpper
	clDigit
	clMark
	clUnder
)

func charClass(r rune) int {
	switch {
	case r == '_':
		return clUnder
	case r == utf8.RuneError:
		return clSep
	case unicode.IsUpper(r) || unicode.IsTitle(r):
		return clUpper
	case unicode.IsLetter(r):
		return clLower
	case unicode.IsDigit(r):
		return clDigit
	case unicode.IsMark(r):
		return clMark
	}
	return clSep
}

// forEachWord calls f with each word of text and its pieces. A word is a
// maximal run of letters, digits, combining marks and underscores. Its
// pieces are what it is cut into at underscores, between a lower-case
// letter or digit and an upper-case letter (camelCase), before the last
// upper-case letter of a run followed by a lower-case one (HTTPServer →
// HTTP, Server), and between letters and digits. Neither is lower-cased.
func forEachWord(text string, f func(word string, pieces []string)) {
	var pieces []string
	start := -1
	for i := 0; i <= len(text); {
		r, size := rune(-1), 1
		if i < len(text) {
			r, size = utf8.DecodeRuneInString(text[i:])
		}
		if r >= 0 && charClass(r) != clSep {
			if start < 0 {
				start = i
			}
			i += size
			continue
		}
		if start >= 0 {
			w := text[start:i]
			pieces = splitWord(w, pieces[:0])
			f(w, pieces)
			start = -1
		}
		i += size
	}
}

// splitWord appends the pieces of the word w to out.
func splitWord(w string, out []string) []string {
	start := -1
	prev := clSep
	var prevStart int // where the previous rune starts
	for i, r := range w {
		c := charClass(r)
		if c == clMark && prev != clSep && prev != clUnder {
			continue // a mark belongs to the letter before it
		}
		cut := false
		switch {
		case c == clUnder:
			if start >= 0 {
				out = append(out, w[start:i])
				start = -1
			}
			prev = c
			continue
		case start < 0:
		case c == clUpper && (prev == clLower || prev == clDigit):
			cut = true
		case c == clLower && prev == clUpper && prevStart > start:
			// HTTPServer: the S starts the next piece.
			out = append(out, w[start:prevStart])
			start = prevStart
		case (c == clDigit) != (prev == clDigit) && prev != clUnder:
			cut = true
		}
		if cut {
			out = append(out, w[start:i])
			start = -1
		}
		if start < 0 {
			start = i
		}
		prev, prevStart = c, i
	}
	if start >= 0 {
		out = append(out, w[start:])
	}
	return out
}

// wordTokens calls f with the lower-cased lookup forms of text's words for
// a vocabulary: a word found whole stands for itself, else each of its
// pieces found does (see forEachWord).
func wordTokens(text string, has func(string) bool, f func(tok string)) {
	forEachWord(text, func(word string, pieces []string) {
		lw := strings.ToLower(word)
		if has(lw) {
			f(lw)
			return
		}
		if len(pieces) == 1 && pieces[0] == word {
			return
		}
		for _, p := range pieces {
			if lp := strings.ToLower(p); has(lp) {
				f(lp)
			}
		}
	})
}
