package index

import (
	"strings"
	"unicode"
	"unicode/utf8"
)

// MaxTermBytes is the longest term Terms emits; longer words (hashes,
// base64, minified code) are split into their parts, and the whole word,
// or a part, that is still longer is left out.
const MaxTermBytes = 64

// Terms returns the code-aware search terms of text, in the order they
// occur, repeats included, so that their counts are term frequencies.
//
// A word is a maximal run of letters, digits (Unicode Nd), combining marks
// and underscores, with single hyphens joining two such runs (kebab-case).
// Each word gives its whole form first, then its parts when it has more
// than one: it is cut at underscores and hyphens, between a lower-case
// letter or digit and an upper-case letter (camelCase → camel case), before
// the last upper-case letter of a run that is followed by a lower-case one
// (HTTPServer → http server), and between letters and digits (utf8 → utf
// 8). The whole form is the parts joined without separators, so
// max_file_bytes, maxFileBytes and max-file-bytes all give
// "maxfilebytes". Every term is lower-cased with strings.ToLower; terms of
// a single ASCII byte and terms longer than MaxTermBytes are left out.
//
// Every term is non-empty, lower case, and holds no ASCII byte other than
// a letter or a digit, so that SQLite's FTS5 "ascii" tokenizer reads a
// space-separated list of terms back as the same terms. Terms depends on
// its input alone. Invalid UTF-8 separates words.
func Terms(text string) []string {
	var out []string
	forEachWord(text, func(word string) { out = appendWordTerms(out, word) })
	return out
}

// QueryTerms returns the distinct terms of a query, in order of first
// occurrence: Terms with repeats removed.
func QueryTerms(query string) []string {
	all := Terms(query)
	seen := make(map[string]bool, len(all))
	out := all[:0]
	for _, t := range all {
		if !seen[t] {
			seen[t] = true
			out = append(out, t)
		}
	}
	return out
}

// appendTermsText appends the terms of text to b, each followed by a
// space: the form stored in the full-text index.
func appendTermsText(b []byte, text string) []byte {
	forEachWord(text, func(word string) {
		var buf [16]string
		for _, t := range appendWordTerms(buf[:0], word) {
			b = append(b, t...)
			b = append(b, ' ')
		}
	})
	return b
}

// Character classes.
const (
	sep   = iota // ends a word
	lower        // lower-case letters, and letters without case
	upper
	digit
	mark  // combining marks: part of a word, never a boundary
	under // '_' and '-': inside a word, cut there
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

// forEachWord calls f with each word of text (see Terms), underscores and
// hyphens included.
func forEachWord(text string, f func(word string)) {
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
	cl := classOf(r)
	return cl != sep
}

var asciiClass = func() (t [utf8.RuneSelf]int) {
	for c := range t {
		t[c] = classOf(rune(c))
	}
	return t
}()

// appendWordTerms appends the terms of one word: its whole form, then its
// parts when there are several.
func appendWordTerms(out []string, word string) []string {
	var parts [32]string
	ps := splitWord(word, parts[:0])
	if len(ps) == 0 {
		return out
	}
	if len(ps) == 1 {
		return appendTerm(out, ps[0])
	}
	out = appendTerm(out, strings.Join(ps, ""))
	for _, p := range ps {
		out = appendTerm(out, p)
	}
	return out
}

func appendTerm(out []string, t string) []string {
	if len(t) > MaxTermBytes || len(t) == 1 && t[0] < utf8.RuneSelf {
		return out
	}
	return append(out, t)
}

// splitWord cuts a word into lower-cased parts at underscores, hyphens,
// case changes and letter-digit changes.
func splitWord(word string, out []string) []string {
	start := -1 // start of the current part
	prev := sep // class of the previous rune
	prevStart := 0
	emit := func(end int) {
		if start >= 0 && end > start {
			out = append(out, lowerString(word[start:end]))
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

// lowerString lower-cases s, without allocating when it is already lower
// case ASCII.
func lowerString(s string) string {
	for i := 0; i < len(s); i++ {
		c := s[i]
		if c >= utf8.RuneSelf || 'A' <= c && c <= 'Z' {
			return strings.ToLower(s)
		}
	}
	return s
}
