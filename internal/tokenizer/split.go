package tokenizer

import (
	"sync"
	"unicode"
	"unicode/utf8"
)

// Before the byte-pair merge, a text is split into pieces by a regular
// expression. The functions here split exactly as tiktoken's patterns do,
// written out by hand: no regexp engine, and ASCII costs a table lookup per
// byte. The patterns are
//
//	cl100k_base: (?i:'s|'t|'re|'ve|'m|'ll|'d)|[^\r\n\p{L}\p{N}]?\p{L}+|\p{N}{1,3}| ?[^\s\p{L}\p{N}]+[\r\n]*|\s*[\r\n]+|\s+(?!\S)|\s+
//
//	o200k_base: [^\r\n\p{L}\p{N}]?[\p{Lu}\p{Lt}\p{Lm}\p{Lo}\p{M}]*[\p{Ll}\p{Lm}\p{Lo}\p{M}]+(?i:'s|'t|'re|'ve|'m|'ll|'d)?|[^\r\n\p{L}\p{N}]?[\p{Lu}\p{Lt}\p{Lm}\p{Lo}\p{M}]+[\p{Ll}\p{Lm}\p{Lo}\p{M}]*(?i:'s|'t|'re|'ve|'m|'ll|'d)?|\p{N}{1,3}| ?[^\s\p{L}\p{N}]+[\r\n/]*|\s*[\r\n]+|\s+(?!\S)|\s+
//
// matched as a backtracking engine (regexp2, fancy_regex) matches them: the
// first alternative that matches wins, and greedy quantifiers give back
// characters one at a time. Some consequences the code relies on:
//
//   - Every character starts a match, so the pieces tile the text.
//   - \s*[\r\n]+ ends just after the last \r or \n of the run of white space
//     it starts in.
//   - \s+(?!\S) takes a whole run of white space at the end of the text, and
//     otherwise all of the run but its last character (which then prefixes
//     the next piece), and fails on a run of one character.
//   - In o200k_base, X*Y+ over the overlapping classes X and Y (Lm, Lo and
//     M are in both) backtracks to the last Y in the run of X when no Y
//     follows the run.
//   - (?i) lets 's also match 'S and 'ſ (U+017F LATIN SMALL LETTER LONG S,
//     which case-folds to s); no other non-ASCII letter folds to one of
//     s, t, r, e, v, m, l, d.
//
// The character classes come from Go's unicode tables, as regexp2's do: \s
// is unicode.IsSpace (the White_Space property, the same set as .NET's
// [\f\n\r\t\v\x85\p{Z}]), \p{L} is unicode.L, and so on.

// Character class bits. A rune's class is the set of the pattern classes it
// belongs to.
const (
	cLetter  = 1 << iota // \p{L}
	cNumber              // \p{N}
	cSpace               // \s
	cUpper               // [\p{Lu}\p{Lt}\p{Lm}\p{Lo}\p{M}]
	cLower               // [\p{Ll}\p{Lm}\p{Lo}\p{M}]
	cPrefix              // [^\r\n\p{L}\p{N}]
	cPunct               // [^\s\p{L}\p{N}]
	cNewline             // [\r\n]
)

// bmpClasses holds the class of every rune of the Basic Multilingual Plane.
var (
	bmpOnce    sync.Once
	bmpClasses *[1 << 16]uint8
)

// loadClasses builds bmpClasses once.
func loadClasses() *[1 << 16]uint8 {
	bmpOnce.Do(func() {
		t := new([1 << 16]uint8)
		set := func(tab *unicode.RangeTable, bit uint8) {
			for _, r := range tab.R16 {
				for c := uint32(r.Lo); c <= uint32(r.Hi); c += uint32(r.Stride) {
					t[c] |= bit
				}
			}
		}
		set(unicode.L, cLetter)
		set(unicode.N, cNumber)
		set(unicode.White_Space, cSpace)
		for _, tab := range []*unicode.RangeTable{unicode.Lu, unicode.Lt, unicode.Lm, unicode.Lo, unicode.M} {
			set(tab, cUpper)
		}
		for _, tab := range []*unicode.RangeTable{unicode.Ll, unicode.Lm, unicode.Lo, unicode.M} {
			set(tab, cLower)
		}
		t['\r'] |= cNewline
		t['\n'] |= cNewline
		for c := range t {
			if t[c]&(cLetter|cNumber|cNewline) == 0 {
				t[c] |= cPrefix
			}
			if t[c]&(cLetter|cNumber|cSpace) == 0 {
				t[c] |= cPunct
			}
		}
		bmpClasses = t
	})
	return bmpClasses
}

// astralClass returns the class of a rune above U+FFFF.
func astralClass(r rune) uint8 {
	var c uint8
	switch {
	case unicode.Is(unicode.L, r):
		c = cLetter
		if unicode.In(r, unicode.Lu, unicode.Lt, unicode.Lm, unicode.Lo) {
			c |= cUpper
		}
		if unicode.In(r, unicode.Ll, unicode.Lm, unicode.Lo) {
			c |= cLower
		}
		return c
	case unicode.Is(unicode.N, r):
		return cNumber
	case unicode.Is(unicode.M, r):
		c = cUpper | cLower
	}
	if unicode.Is(unicode.White_Space, r) {
		return c | cSpace | cPrefix
	}
	return c | cPrefix | cPunct
}

// splitter finds the pieces of valid UTF-8 text.
type splitter struct {
	bmp *[1 << 16]uint8
	// o200k selects o200k_base's pattern; otherwise cl100k_base's.
	o200k bool
	// oneDigit makes cl100k_base's \p{N}{1,3} a single \p{N}, as in
	// qwen3's pattern.
	oneDigit bool
	// onig gives runes above U+FFFF Oniguruma's classes where they differ
	// from Go's (onig.go); bmp must then be loadOnigClasses'.
	onig bool
}

// class returns the class and the length of the rune that starts s[i].
func (sp *splitter) class(s string, i int) (uint8, int) {
	if c := s[i]; c < utf8.RuneSelf {
		return sp.bmp[c], 1
	}
	return sp.classSlow(s, i)
}

// classSlow is class for a rune that is not ASCII.
func (sp *splitter) classSlow(s string, i int) (uint8, int) {
	r, n := utf8.DecodeRuneInString(s[i:])
	if r <= 0xFFFF {
		return sp.bmp[r], n
	}
	if sp.onig {
		if c, ok := onigClasses(r); ok {
			return cl100kClassOf(r, c), n
		}
	}
	return astralClass(r), n
}

// next returns the end of the piece that starts at s[i], i < len(s).
func (sp *splitter) next(s string, i int) int {
	if sp.o200k {
		return sp.nextO200k(s, i)
	}
	return sp.nextCl100k(s, i)
}

// nextCl100k is next for cl100k_base. It decides on ASCII where it can and
// leaves the rest to slowCl100k.
func (sp *splitter) nextCl100k(s string, i int) int {
	b := s[i]
	if b >= utf8.RuneSelf {
		return sp.slowCl100k(s, i)
	}
	c := sp.bmp[b]
	switch {
	case c&cLetter != 0:
		return sp.run(s, i+1, cLetter)
	case b == '\'' && contraction(s, i) > i:
		return contraction(s, i)
	case i+1 >= len(s):
		return i + 1
	case s[i+1] >= utf8.RuneSelf:
		return sp.slowCl100k(s, i)
	case c&cNumber != 0:
		return sp.digits(s, i+1)
	case c&cPrefix != 0 && sp.bmp[s[i+1]]&cLetter != 0:
		return sp.run(s, i+2, cLetter)
	case c&cPunct != 0:
		return newlines(s, sp.run(s, i+1, cPunct))
	case b == ' ' && sp.bmp[s[i+1]]&cPunct != 0:
		return newlines(s, sp.run(s, i+2, cPunct))
	}
	return sp.space(s, i)
}

// slowCl100k is nextCl100k for any rune.
func (sp *splitter) slowCl100k(s string, i int) int {
	c, n := sp.class(s, i)
	// (?i:'s|'t|'re|'ve|'m|'ll|'d)
	if s[i] == '\'' {
		if j := contraction(s, i); j > i {
			return j
		}
	}
	// [^\r\n\p{L}\p{N}]?\p{L}+
	if c&cLetter != 0 {
		return sp.run(s, i+n, cLetter)
	}
	if c&cPrefix != 0 && i+n < len(s) {
		if c2, n2 := sp.class(s, i+n); c2&cLetter != 0 {
			return sp.run(s, i+n+n2, cLetter)
		}
	}
	// \p{N}{1,3}
	if c&cNumber != 0 {
		return sp.digits(s, i+n)
	}
	// ?[^\s\p{L}\p{N}]+[\r\n]*
	if j := sp.punct(s, i, c, n); j > i {
		return newlines(s, j)
	}
	return sp.space(s, i)
}

// nextO200k is next for o200k_base. It decides on ASCII where it can and
// leaves the rest to slowO200k.
func (sp *splitter) nextO200k(s string, i int) int {
	b := s[i]
	if b >= utf8.RuneSelf {
		return sp.slowO200k(s, i)
	}
	c := sp.bmp[b]
	p := i // where the letters start
	switch {
	case c&cLetter != 0:
	case i+1 >= len(s):
		return i + 1
	case s[i+1] >= utf8.RuneSelf:
		return sp.slowO200k(s, i)
	case c&cNumber != 0:
		return sp.digits(s, i+1)
	case c&cPrefix != 0 && sp.bmp[s[i+1]]&cLetter != 0:
		p = i + 1
	case c&cPunct != 0:
		return punctTail(s, sp.run(s, i+1, cPunct))
	case b == ' ' && sp.bmp[s[i+1]]&cPunct != 0:
		return punctTail(s, sp.run(s, i+2, cPunct))
	default:
		return sp.space(s, i)
	}
	// U*L+ or U+L*: with ASCII, U is [A-Z] and L is [a-z].
	j := p
	for j < len(s) && s[j]-'A' < 26 {
		j++
	}
	for j < len(s) && s[j]-'a' < 26 {
		j++
	}
	if j < len(s) && s[j] >= utf8.RuneSelf {
		return sp.slowO200k(s, i) // a letter or mark may follow
	}
	return contractionOpt(s, j)
}

// slowO200k is nextO200k for any rune.
func (sp *splitter) slowO200k(s string, i int) int {
	c, n := sp.class(s, i)
	// \p{N}{1,3} (no earlier alternative can start with a number)
	if c&cNumber != 0 {
		return sp.digits(s, i+n)
	}
	// The two alternatives for words.
	if c&(cUpper|cLower) != 0 || c&cPrefix != 0 && i+n < len(s) {
		if j := sp.word(s, i, c, n); j > i {
			return j
		}
	}
	// ?[^\s\p{L}\p{N}]+[\r\n/]*
	if j := sp.punct(s, i, c, n); j > i {
		return punctTail(s, j)
	}
	return sp.space(s, i)
}

// newlines matches cl100k_base's [\r\n]* at s[i] and returns its end.
func newlines(s string, i int) int {
	for i < len(s) && (s[i] == '\r' || s[i] == '\n') {
		i++
	}
	return i
}

// punctTail matches o200k_base's [\r\n/]* at s[i] and returns its end.
func punctTail(s string, i int) int {
	for i < len(s) && (s[i] == '\r' || s[i] == '\n' || s[i] == '/') {
		i++
	}
	return i
}

// word matches o200k_base's first two alternatives at s[i], whose rune has
// class c and length n, and returns the end of the match, or i if neither
// matches. With U = [\p{Lu}\p{Lt}\p{Lm}\p{Lo}\p{M}],
// L = [\p{Ll}\p{Lm}\p{Lo}\p{M}] and C the contractions, they are
//
//	[^\r\n\p{L}\p{N}]?U*L+C? | [^\r\n\p{L}\p{N}]?U+L*C?
func (sp *splitter) word(s string, i int, c uint8, n int) int {
	// The optional prefix is tried first taken, then not.
	starts := [2]int{i, -1}
	if c&cPrefix != 0 {
		starts = [2]int{i + n, i}
	}
	var upEnd [2]int // where U* ends for each start
	for k, p := range starts {
		if p < 0 {
			break
		}
		// U*, remembering where its last rune that is also in L ends.
		j, lastLower := p, -1
		var cj uint8
		for j < len(s) {
			var nj int
			cj, nj = sp.class(s, j)
			if cj&cUpper == 0 {
				break
			}
			j += nj
			if cj&cLower != 0 {
				lastLower = j
			}
		}
		upEnd[k] = j
		if j < len(s) && cj&cLower != 0 {
			// L+ right after U*.
			return contractionOpt(s, sp.run(s, j, cLower))
		}
		if lastLower >= 0 {
			// U* gives back runes until L+ matches the last rune of
			// the run that is in L.
			return contractionOpt(s, lastLower)
		}
	}
	// Second alternative: U+ then L*, which is empty here, since no rune
	// of L follows the run of U (the first alternative would have matched).
	for k, p := range starts {
		if p >= 0 && upEnd[k] > p {
			return contractionOpt(s, upEnd[k])
		}
	}
	return i
}

// contractionOpt matches an optional contraction at s[i] and returns its end.
func contractionOpt(s string, i int) int {
	if i < len(s) && s[i] == '\'' {
		return contraction(s, i)
	}
	return i
}

// contraction matches (?i:'s|'t|'re|'ve|'m|'ll|'d) at s[i] == '\” and
// returns the end of the match, or i if there is none.
func contraction(s string, i int) int {
	if i+1 >= len(s) {
		return i
	}
	switch s[i+1] | 0x20 { // ASCII lower case
	case 's', 't', 'm', 'd':
		return i + 2
	case 'r', 'v':
		if i+2 < len(s) && s[i+2]|0x20 == 'e' {
			return i + 3
		}
	case 'l':
		if i+2 < len(s) && s[i+2]|0x20 == 'l' {
			return i + 3
		}
	case 0xC5 | 0x20: // ſ, U+017F, is C5 BF
		if s[i+1] == 0xC5 && i+2 < len(s) && s[i+2] == 0xBF {
			return i + 3
		}
	}
	return i
}

// run returns the end of the run of runes of class bit that starts at s[i].
func (sp *splitter) run(s string, i int, bit uint8) int {
	for i < len(s) {
		if c := s[i]; c < utf8.RuneSelf {
			if sp.bmp[c]&bit == 0 {
				return i
			}
			i++
			continue
		}
		c, n := sp.class(s, i)
		if c&bit == 0 {
			return i
		}
		i += n
	}
	return i
}

// digits returns the end of \p{N}{1,3} given the end i of its first rune.
func (sp *splitter) digits(s string, i int) int {
	if sp.oneDigit {
		return i
	}
	for k := 1; k < 3 && i < len(s); k++ {
		if b := s[i]; b < utf8.RuneSelf {
			if b-'0' >= 10 {
				break
			}
			i++
			continue
		}
		c, n := sp.class(s, i)
		if c&cNumber == 0 {
			break
		}
		i += n
	}
	return i
}

// punct matches " ?[^\s\p{L}\p{N}]+" at s[i], whose rune has class c and
// length n, and returns its end, or i if it does not match.
func (sp *splitter) punct(s string, i int, c uint8, n int) int {
	if c&cPunct != 0 {
		return sp.run(s, i+n, cPunct)
	}
	if s[i] == ' ' && i+1 < len(s) {
		if c2, n2 := sp.class(s, i+1); c2&cPunct != 0 {
			return sp.run(s, i+1+n2, cPunct)
		}
	}
	return i
}

// space matches "\s*[\r\n]+|\s+(?!\S)|\s+" at s[i], which is white space.
func (sp *splitter) space(s string, i int) int {
	j, last, newline := i, i, -1
	for j < len(s) {
		c, n := sp.class(s, j)
		if c&cSpace == 0 {
			break
		}
		if c&cNewline != 0 {
			newline = j
		}
		last = j
		j += n
	}
	switch {
	case newline >= 0: // \s*[\r\n]+
		return newline + 1
	case j == len(s) || last == i: // \s+(?!\S) at the end, or \s+
		return j
	default: // \s+(?!\S) without the last rune
		return last
	}
}
