package tokenizer

import (
	"sync"
	"unicode"
	"unicode/utf8"
)

// DeepSeek-V3's pre-tokenizer is a sequence of three Splits, each with the
// behaviour Isolated: a match is a piece, and so is each run of text between
// matches. Each Split cuts the pieces of the one before, and a regular
// expression sees only the piece it cuts (its lookahead stops at the
// piece's end):
//
//  1. \p{N}{1,3}
//  2. [\x{4e00}-\x{9fa5}\x{3040}-\x{309f}\x{30a0}-\x{30ff}]+
//  3. [!"#$%&'()*+,\-./:;<=>?@\[\\\]^_`{|}~][A-Za-z]+|[^\r\n\p{L}\p{P}\p{S}]?[\p{L}\p{M}]+| ?[\p{P}\p{S}]+[\r\n]*|\s*[\r\n]+|\s+(?!\S)|\s+
//
// matched as Oniguruma (Hugging Face's regex engine) matches them: leftmost
// match, first alternative that matches, greedy quantifiers giving back one
// character at a time. A piece of 1 (digits) has no character that 2 or 3
// can match, so it is left whole.

// DeepSeek's character class bits.
const (
	dsL     = 1 << iota // \p{L}
	dsM                 // \p{M}
	dsP                 // \p{P}
	dsS                 // \p{S}
	dsN                 // \p{N}
	dsSpace             // \s
	dsCJK               // stage 2's class
)

var (
	dsOnce    sync.Once
	dsClasses *[1 << 16]uint8
)

// loadDSClasses builds dsClasses once.
func loadDSClasses() *[1 << 16]uint8 {
	dsOnce.Do(func() {
		t := new([1 << 16]uint8)
		for r := range rune(1 << 16) {
			t[r] = dsClassOf(r)
		}
		dsClasses = t
	})
	return dsClasses
}

// dsClassOf returns the DeepSeek class of any rune.
func dsClassOf(r rune) uint8 {
	var c uint8
	if o, ok := onigClasses(r); ok {
		for _, m := range [...][2]uint8{{onigL, dsL}, {onigM, dsM}, {onigN, dsN}, {onigP, dsP}, {onigS, dsS}, {onigSpace, dsSpace}} {
			if o&m[0] != 0 {
				c |= m[1]
			}
		}
		return c | dsCJKBit(r)
	}
	switch {
	case unicode.Is(unicode.L, r):
		c = dsL
	case unicode.Is(unicode.M, r):
		c = dsM
	case unicode.Is(unicode.P, r):
		c = dsP
	case unicode.Is(unicode.S, r):
		c = dsS
	case unicode.Is(unicode.N, r):
		c = dsN
	}
	if unicode.Is(unicode.White_Space, r) {
		c |= dsSpace
	}
	return c | dsCJKBit(r)
}

// dsCJKBit returns dsCJK if r is in the second Split's class.
func dsCJKBit(r rune) uint8 {
	if r >= 0x4e00 && r <= 0x9fa5 || r >= 0x3040 && r <= 0x309f || r >= 0x30a0 && r <= 0x30ff {
		return dsCJK
	}
	return 0
}

// dsSplitter cuts valid text into DeepSeek-V3's pieces.
type dsSplitter struct {
	tab *[1 << 16]uint8
}

// class returns the class and the length of the rune at s[i].
func (d *dsSplitter) class(s string, i int) (uint8, int) {
	if c := s[i]; c < utf8.RuneSelf {
		return d.tab[c], 1
	}
	r, n := utf8.DecodeRuneInString(s[i:])
	if r <= 0xFFFF {
		return d.tab[r], n
	}
	return dsClassOf(r), n
}

// split appends the ends of the pieces of s[lo:] to ends.
func (d *dsSplitter) split(s string, lo int, ends []int32) []int32 {
	gap := lo
	for i := lo; i < len(s); {
		c, n := d.class(s, i)
		if c&dsN == 0 {
			i += n
			continue
		}
		if gap < i {
			ends = d.cjk(s, gap, i, ends)
		}
		j := i + n
		for k := 1; k < 3 && j < len(s); k++ {
			c, n := d.class(s, j)
			if c&dsN == 0 {
				break
			}
			j += n
		}
		ends = append(ends, int32(j))
		i, gap = j, j
	}
	if gap < len(s) {
		ends = d.cjk(s, gap, len(s), ends)
	}
	return ends
}

// cjk is the second Split, on s[lo:hi].
func (d *dsSplitter) cjk(s string, lo, hi int, ends []int32) []int32 {
	gap := lo
	for i := lo; i < hi; {
		c, n := d.class(s, i)
		if c&dsCJK == 0 {
			i += n
			continue
		}
		j := i + n
		for j < hi {
			c, n := d.class(s, j)
			if c&dsCJK == 0 {
				break
			}
			j += n
		}
		if gap < i {
			ends = d.words(s, gap, i, ends)
		}
		ends = d.words(s, i, j, ends)
		i, gap = j, j
	}
	if gap < hi {
		ends = d.words(s, gap, hi, ends)
	}
	return ends
}

// words is the third Split, on s[lo:hi].
func (d *dsSplitter) words(s string, lo, hi int, ends []int32) []int32 {
	s = s[:hi]
	gap := lo
	for i := lo; i < hi; {
		j := d.match(s, i)
		if j == i {
			_, n := d.class(s, i)
			i += n
			continue
		}
		if gap < i {
			ends = append(ends, int32(i))
		}
		ends = append(ends, int32(j))
		i, gap = j, j
	}
	if gap < hi {
		ends = append(ends, int32(hi))
	}
	return ends
}

// match returns the end of the third expression's match at s[i], or i.
func (d *dsSplitter) match(s string, i int) int {
	b := s[i]
	c, n := d.class(s, i)
	// [!"#$%&'()*+,\-./:;<=>?@\[\\\]^_`{|}~][A-Za-z]+
	if b < utf8.RuneSelf && c&(dsP|dsS) != 0 && i+1 < len(s) && isASCIILetter(s[i+1]) {
		j := i + 2
		for j < len(s) && isASCIILetter(s[j]) {
			j++
		}
		return j
	}
	// [^\r\n\p{L}\p{P}\p{S}]?[\p{L}\p{M}]+
	if c&(dsL|dsP|dsS) == 0 && b != '\r' && b != '\n' && i+n < len(s) {
		if c2, n2 := d.class(s, i+n); c2&(dsL|dsM) != 0 {
			return d.run(s, i+n+n2, dsL|dsM)
		}
	}
	if c&(dsL|dsM) != 0 {
		return d.run(s, i+n, dsL|dsM)
	}
	// ?[\p{P}\p{S}]+[\r\n]*
	if b == ' ' && i+1 < len(s) {
		if c2, n2 := d.class(s, i+1); c2&(dsP|dsS) != 0 {
			return newlines(s, d.run(s, i+1+n2, dsP|dsS))
		}
	}
	if c&(dsP|dsS) != 0 {
		return newlines(s, d.run(s, i+n, dsP|dsS))
	}
	// \s*[\r\n]+|\s+(?!\S)|\s+
	if c&dsSpace != 0 {
		return d.space(s, i)
	}
	return i
}

func isASCIILetter(b byte) bool { return b|0x20 >= 'a' && b|0x20 <= 'z' }

// run returns the end of the run of runes with a class in bits from s[i].
func (d *dsSplitter) run(s string, i int, bits uint8) int {
	for i < len(s) {
		c, n := d.class(s, i)
		if c&bits == 0 {
			break
		}
		i += n
	}
	return i
}

// space matches \s*[\r\n]+|\s+(?!\S)|\s+ at s[i], which is white space
// (see splitter.space).
func (d *dsSplitter) space(s string, i int) int {
	j, last, newline := i, i, -1
	for j < len(s) {
		c, n := d.class(s, j)
		if c&dsSpace == 0 {
			break
		}
		if s[j] == '\r' || s[j] == '\n' {
			newline = j
		}
		last = j
		j += n
	}
	switch {
	case newline >= 0:
		return newline + 1
	case j == len(s) || last == i:
		return j
	default:
		return last
	}
}
