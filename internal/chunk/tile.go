package chunk

import (
	"bytes"
	"strconv"
	"strings"
	"unicode/utf8"
)

// tiler turns units into chunks that tile the source.
type tiler struct {
	src      []byte
	max, min int
}

// A piece is a chunk before merging and numbering.
type piece struct {
	start, end   int
	kind, symbol string
	split        bool // one part of a unit split at line boundaries: never merged
}

// chunks tiles t.src with units (sorted and disjoint; any that are not are
// left out, their bytes going to their neighbours).
func (t *tiler) chunks(units []unit) []Chunk {
	if len(t.src) == 0 {
		return nil
	}
	var ps []piece
	t.tile(&ps, units, 0, len(t.src), nil)
	ps = t.merge(ps)
	out := make([]Chunk, len(ps))
	line := 1
	for i, p := range ps {
		end := line + bytes.Count(t.src[p.start:p.end-1], []byte{'\n'})
		out[i] = Chunk{Seq: i, Start: p.start, End: p.end, StartLine: line, EndLine: end, Kind: p.kind, Symbol: p.symbol}
		line = end
		if t.src[p.end-1] == '\n' {
			line++
		}
	}
	return out
}

// tile appends the pieces of src[lo:hi]. Each unit's piece runs from its
// cut (see cut) to the next unit's cut; the last one runs to hi. The bytes
// before the first unit's cut are a piece of head (a container's header)
// when head is not nil, and belong to the first unit otherwise.
func (t *tiler) tile(ps *[]piece, units []unit, lo, hi int, head *unit) {
	valid := make([]unit, 0, len(units))
	prev := lo
	for _, u := range units {
		if u.start >= prev && u.end > u.start && u.end <= hi {
			valid = append(valid, u)
			prev = u.end
		}
	}
	if len(valid) == 0 {
		if head != nil {
			t.lines(ps, lo, hi, head.kind, head.symbol)
		} else {
			t.lines(ps, lo, hi, KindBlock, "")
		}
		return
	}
	cuts := make([]int, len(valid)+1)
	cuts[0] = lo
	if head != nil {
		cuts[0] = t.cut(valid[0].start, lo)
		if cuts[0] > lo {
			t.lines(ps, lo, cuts[0], head.kind, head.symbol)
		}
	}
	for i := 1; i < len(valid); i++ {
		cuts[i] = t.cut(valid[i].start, valid[i-1].end)
	}
	cuts[len(valid)] = hi
	for i := range valid {
		t.emit(ps, &valid[i], cuts[i], cuts[i+1])
	}
}

// cut returns where the piece of a unit starting at start begins: at the
// start of its line when only white space precedes it there and the
// previous unit (ending at prevEnd) ended on an earlier line; else at start.
func (t *tiler) cut(start, prevEnd int) int {
	i := bytes.LastIndexByte(t.src[prevEnd:start], '\n')
	if i < 0 {
		return start
	}
	if ls := prevEnd + i + 1; isSpace(t.src[ls:start]) {
		return ls
	}
	return start
}

// emit appends the piece src[s:e] of unit u: whole if it is small enough,
// else split into its members (a container) or at line boundaries.
func (t *tiler) emit(ps *[]piece, u *unit, s, e int) {
	switch {
	case e-s <= t.max:
		*ps = append(*ps, piece{start: s, end: e, kind: u.kind, symbol: u.symbol})
	case len(u.members) > 0:
		t.tile(ps, u.members, s, e, u)
	default:
		t.lines(ps, s, e, u.kind, u.symbol)
	}
}

// lines appends src[s:e] as one piece if it fits, else as parts of about
// equal size cut at line boundaries, preferring blank lines; a line longer
// than t.max is cut at a UTF-8 character boundary. Parts after the first
// have " (part N)" added to a non-empty symbol.
func (t *tiler) lines(ps *[]piece, s, e int, kind, symbol string) {
	if e-s <= t.max {
		*ps = append(*ps, piece{start: s, end: e, kind: kind, symbol: symbol})
		return
	}
	for n := 1; s < e; n++ {
		c := e
		if e-s > t.max {
			c = t.splitPoint(s, e)
		}
		sym := symbol
		if n > 1 && symbol != "" {
			sym = symbol + " (part " + strconv.Itoa(n) + ")"
		}
		*ps = append(*ps, piece{start: s, end: c, kind: kind, symbol: sym, split: true})
		s = c
	}
}

// splitPoint returns where to end the next part of src[s:e], which is
// longer than t.max: the line start in (s, s+max] nearest the size that
// would make the remaining parts equal, a line start after a blank line
// when one is within a quarter of that size of it.
func (t *tiler) splitPoint(s, e int) int {
	n := (e - s + t.max - 1) / t.max
	target := s + (e-s+n-1)/n
	limit := s + t.max
	best, bestBlank := -1, -1
	dist := func(c int) int {
		if c > target {
			return c - target
		}
		return target - c
	}
	for i := s; i < limit; {
		j := bytes.IndexByte(t.src[i:limit], '\n')
		if j < 0 {
			break
		}
		c := i + j + 1 // a line start
		if c > s && c < e {
			if best < 0 || dist(c) < dist(best) {
				best = c
			}
			if blankBefore(t.src, s, c) && (bestBlank < 0 || dist(c) < dist(bestBlank)) {
				bestBlank = c
			}
		}
		i = c
	}
	if bestBlank >= 0 && dist(bestBlank) <= (target-s)/4 {
		return bestBlank
	}
	if best >= 0 {
		return best
	}
	// One line longer than max: cut at a character boundary.
	c := limit
	for k := 0; k < utf8.UTFMax && c-k > s; k++ {
		if utf8.RuneStart(t.src[c-k]) {
			return c - k
		}
	}
	return c
}

// blankBefore reports whether the line before line start c (> lo) is blank.
func blankBefore(src []byte, lo, c int) bool {
	p := bytes.LastIndexByte(src[lo:c-1], '\n') + 1 + lo
	return isSpace(src[p : c-1])
}

// merge merges runs of adjacent pieces of one kind that are each smaller
// than t.min, until a merged piece reaches t.min.
func (t *tiler) merge(ps []piece) []piece {
	out := ps[:0]
	for i := 0; i < len(ps); {
		p := ps[i]
		i++
		if p.split || p.end-p.start >= t.min {
			out = append(out, p)
			continue
		}
		syms := []string{}
		if p.symbol != "" {
			syms = append(syms, p.symbol)
		}
		for i < len(ps) && p.end-p.start < t.min {
			q := ps[i]
			if q.split || q.kind != p.kind || q.end-q.start >= t.min {
				break
			}
			p.end = q.end
			if q.symbol != "" && (len(syms) == 0 || syms[len(syms)-1] != q.symbol) {
				syms = append(syms, q.symbol)
			}
			i++
		}
		p.symbol = strings.Join(syms, ", ")
		out = append(out, p)
	}
	return out
}
