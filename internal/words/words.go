// Package words cuts text into code-aware words, and words into the parts
// an identifier is made of: the one rule that lexical search (lexical.Terms)
// and static embeddings (embed) share.
//
// A word is a maximal run of letters, digits (Unicode Nd), combining marks
// and underscores, with single hyphens joining two such runs (kebab-case).
// Its parts are what it is cut into at underscores and hyphens, between a
// lower-case letter or digit and an upper-case letter (camelCase → camel,
// Case), before the last upper-case letter of a run that is followed by a
// lower-case one (HTTPServer → HTTP, Server), and between letters and
// digits (utf8 → utf, 8). A combining mark belongs to what it follows.
// Invalid UTF-8 separates words. Nothing is lower-cased.
//
// Identifiers and IdentifierLine read names as most programming languages
// write them, by a rule of their own: an identifier is a maximal run of
// ASCII letters, digits and underscores that does not start with a digit.
// Evidence deps looks them up as definitions' names in the repository
// index, which Each's words (kebab-case and Unicode letters kept whole)
// would not match.
//
// Every function depends on its input alone and keeps no state.
package words

import (
	"unicode"
	"unicode/utf8"
)

// Character classes.
const (
	sep   = iota // ends a word
	lower        // lower-case letters, and letters without case
	upper
	digit
	mark  // combining marks: part of a word, never a boundary
	under // '_' (and a joining '-'): inside a word, cut there
)

func classOf(r rune) int {
	if r < utf8.RuneSelf {
		switch {
		case 'a' <= r && r <= 'z':
			return lower
		case 'A' <= r && r <= 'Z':
			return upper
		case '0' <= r && r <= '9':
			return digit
		case r == '_':
			return under
		}
		return sep
	}
	switch {
	case r == utf8.RuneError:
		return sep
	case unicode.IsUpper(r) || unicode.IsTitle(r):
		return upper
	case unicode.IsLetter(r):
		return lower
	case unicode.IsDigit(r):
		return digit
	case unicode.IsMark(r):
		return mark
	}
	return sep
}

var asciiClass = func() (t [utf8.RuneSelf]int) {
	for c := range t {
		t[c] = classOf(rune(c))
	}
	return t
}()

// Each calls f with each word of text, in order: underscores and joining
// hyphens included.
func Each(text string, f func(word string)) {
	start := -1
	prev := sep
	for i := 0; i < len(text); {
		c := text[i]
		var cl, n int
		if c < utf8.RuneSelf {
			cl, n = asciiClass[c], 1
		} else {
			r, size := utf8.DecodeRuneInString(text[i:])
			cl, n = classOf(r), size
		}
		if c == '-' && prev != sep && prev != under && i+1 < len(text) && isWordStart(text[i+1:]) {
			cl = under // a hyphen between two word characters joins them
		}
		switch {
		case cl != sep && start < 0:
			start = i
		case cl == sep && start >= 0:
			f(text[start:i])
			start = -1
		}
		prev = cl
		i += n
	}
	if start >= 0 {
		f(text[start:])
	}
}

// isWordStart reports whether s starts with a letter, digit or mark.
func isWordStart(s string) bool {
	c := s[0]
	if c < utf8.RuneSelf {
		cl := asciiClass[c]
		return cl != sep && cl != under
	}
	r, _ := utf8.DecodeRuneInString(s)
	return classOf(r) != sep
}

// Split appends the parts of word (as Each gives it) to out, in order and
// in their case; a word of underscores and hyphens alone has none.
func Split(word string, out []string) []string {
	start := -1 // start of the current part
	prev := sep // class of the previous rune
	prevStart := 0
	emit := func(end int) {
		if start >= 0 && end > start {
			out = append(out, word[start:end])
		}
		start = -1
	}
	for i := 0; i < len(word); {
		var cl, n int
		if c := word[i]; c < utf8.RuneSelf {
			cl, n = asciiClass[c], 1
			if c == '-' {
				cl = under
			}
		} else {
			r, size := utf8.DecodeRuneInString(word[i:])
			cl, n = classOf(r), size
		}
		switch cl {
		case under, sep:
			emit(i)
		case mark:
			if start < 0 {
				start = i
			}
			i += n
			continue // a mark continues what it follows
		default:
			switch {
			case start < 0:
				start = i
			case cl == upper && (prev == lower || prev == digit):
				emit(i) // camelCase, v2Beta
				start = i
			case cl == lower && prev == upper && prevStart > start:
				// HTTPServer: the last upper-case letter starts the new part.
				emit(prevStart)
				start = prevStart
			case cl == digit && (prev == lower || prev == upper),
				cl != digit && prev == digit:
				emit(i)
				start = i
			}
		}
		prevStart = i
		prev = cl
		i += n
	}
	emit(len(word))
	return out
}
