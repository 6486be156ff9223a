package tokenizer

import "unicode/utf8"

// tallyFlush is the length of joined pending text past which a Tally
// counts what it can of it (up to its last safe boundary).
const tallyFlush = 1 << 20

// A Tally counts a text given piece by piece exactly as Count counts the
// whole, while holding only the text since the last point where counts
// add up: for o200k_base and cl100k_base, a safe boundary (see
// CountParallel and SafeBoundary); for approx, a position after an ASCII
// byte (U+FFFD repair, whose length approx counts, never crosses one).
// Pieces that join at such a point are never held together, so writing a
// large output piece by piece through a Tally needs memory for about
// one piece, not for the output. For other tokenizers a Tally holds the
// whole text and counts it at the end.
//
// The zero Tally is not ready: use NewTally. A Tally is not safe for
// concurrent use.
type Tally struct {
	tok   Tokenizer
	bpe   bool
	total int // tokens (bpe, other) or repaired bytes (approx) of the text counted

	// The pending text, not counted yet: one piece given as is (one,
	// with its count oneN, -1 if unknown), or pieces joined in buf.
	one  string
	oneN int
	buf  []byte
}

// NewTally returns a Tally that counts with t.
func NewTally(t Tokenizer) *Tally {
	_, bpe := t.(*bpe)
	return &Tally{tok: t, bpe: bpe, oneN: -1}
}

// Add appends piece to the text. n is piece's own count, t.Count(piece),
// when the caller has it already, or -1; a known count is used only where
// it adds up exactly.
func (c *Tally) Add(piece string, n int) {
	if piece == "" {
		return
	}
	switch {
	case c.bpe:
		c.addBPE(piece, n)
	case c.isApprox():
		c.buf = append(c.buf, piece...)
		// Count the bytes up to the last ASCII byte; keep the rest,
		// which may be the start of a character the next piece ends.
		i := len(c.buf) - 1
		for i >= 0 && c.buf[i] >= utf8.RuneSelf {
			i--
		}
		if i >= 0 {
			c.total += len(ToValidUTF8(string(c.buf[:i+1])))
			c.buf = append(c.buf[:0], c.buf[i+1:]...)
		}
	default:
		c.buf = append(c.buf, piece...)
	}
}

func (c *Tally) isApprox() bool {
	_, ok := c.tok.(Approx)
	return ok
}

func (c *Tally) addBPE(piece string, n int) {
	last := byte(0)
	switch {
	case c.one != "":
		last = c.one[len(c.one)-1]
	case len(c.buf) > 0:
		last = c.buf[len(c.buf)-1]
	default:
		c.one, c.oneN = piece, n
		return
	}
	if last == '\n' && safeStart(piece[0]) {
		c.flush()
		c.one, c.oneN = piece, n
		return
	}
	// The pieces join: hold them together.
	if c.one != "" {
		c.buf = append(c.buf, c.one...)
		c.one, c.oneN = "", -1
	}
	c.buf = append(c.buf, piece...)
	if len(c.buf) > tallyFlush {
		if cut := lastSafeCut(c.buf); cut > 0 {
			c.total += c.tok.Count(string(c.buf[:cut]))
			c.buf = append(c.buf[:0], c.buf[cut:]...)
		}
	}
}

// flush counts the pending text.
func (c *Tally) flush() {
	if c.one != "" {
		if c.oneN < 0 {
			c.oneN = c.tok.Count(c.one)
		}
		c.total += c.oneN
		c.one, c.oneN = "", -1
	}
	if len(c.buf) > 0 {
		c.total += c.tok.Count(string(c.buf))
		c.buf = c.buf[:0]
	}
}

// Total returns the count of the text added so far: exactly
// Count(concatenation of every piece).
func (c *Tally) Total() int {
	switch {
	case c.bpe:
		c.flush()
		return c.total
	case c.isApprox():
		return (c.total + len(ToValidUTF8(string(c.buf))) + 3) / 4
	}
	return c.tok.Count(string(c.buf))
}

// lastSafeCut returns the last safe boundary strictly inside b (see
// safeCut), or 0 when there is none.
func lastSafeCut(b []byte) int {
	for i := len(b) - 1; i > 0; i-- {
		if b[i-1] != '\n' {
			continue
		}
		if safeStart(b[i]) {
			return i
		}
	}
	return 0
}

// safeStart reports whether a piece can start at byte c after a '\n'
// whatever came before: c is not white space, not '/' and not the start
// of a multi-byte character (which could be Unicode white space).
func safeStart(c byte) bool {
	switch {
	case c == ' ' || c == '\t' || c == '\n' || c == '\r' || c == '\v' || c == '\f' || c == '/':
		return false
	case c >= 0x80:
		return false
	}
	return true
}
