package chunk

import (
	"bytes"
	"sort"
	"strconv"
)

// An outline is what a front end (go/parser, tree-sitter, the heuristics,
// Markdown, blank-line blocks) finds in a file: the file's doc comment and
// its units in order. Split tiles the file from the units; Levels renders
// the outline.
type outline struct {
	doc   span   // the file's doc comment; empty if none
	units []unit // top-level units, sorted and disjoint
	// markdown makes Levels render headings instead of signatures.
	markdown bool
}

type span struct{ start, end int }

func (s span) empty() bool { return s.end <= s.start }

// A unit is one syntactic unit.
type unit struct {
	start int // first byte: leading comments (free ones too) and attributes included
	doc   int // first byte of the doc comments and attributes directly above decl; decl if none
	decl  int // first byte of the declaration itself
	end   int // one past the declaration, with a comment that ends its last line
	sig   span
	// sigText, when set, is shown instead of the text of sig.
	sigText string
	kind    string
	// symbol is the unit's name, qualified by its container's for members.
	symbol string
	// members are the units inside a container (class body, impl,
	// namespace), sorted and disjoint, within [decl, end).
	members []unit
	// elide are the spans the detailed level replaces (bodies), sorted,
	// disjoint, within [decl, end) and outside members.
	elide []elision
}

// An elision is a span of a unit the detailed level replaces: with is
// what it shows instead, a comment in the file's language that says how
// many lines it stands for ("{ /* … 12 lines elided */ }", Python's
// "# … 12 lines elided"), never text that reads as real code; short is
// the one-line form the summary's signatures show ("{ … }"). The
// detailed level keeps a span whose comment would not be shorter than it
// (a one-line body) as it is.
type elision struct {
	start, end int
	with       string
	short      string
}

// An item is one element of a list of siblings (top-level declarations, a
// class's members) as a front end sees it, before comments are attached.
type item struct {
	start, end int
	comment    bool // a comment: attached to the next item, or to the previous one if it shares its last line
	attribute  bool // an attribute or decorator on its own (Rust #[...]): attached like a doc comment
	preamble   bool // an import or package clause: joins the preamble while it is open
	// cont marks the rest of a declaration the parser split, as C macros
	// make tree-sitter do ("f(void) __THROW __nonnull ((1));"): it
	// joins the unit before it.
	cont bool
	// u is the unit of an item that is neither a comment nor an
	// attribute: kind, symbol, sig, members, elide. A preamble item with
	// no kind is left out once the preamble has closed.
	u unit
}

// lineIndex finds the line of a byte offset.
type lineIndex []int // offsets of the line starts

func newLineIndex(src []byte) lineIndex {
	li := lineIndex{0}
	for i := 0; ; {
		j := bytes.IndexByte(src[i:], '\n')
		if j < 0 {
			return li
		}
		i += j + 1
		li = append(li, i)
	}
}

// line returns the 0-based line of offset off.
func (li lineIndex) line(off int) int {
	return sort.SearchInts(li, off+1) - 1
}

// endLine returns the 0-based line of the last byte before off (the line a
// span ending at off ends on).
func (li lineIndex) endLine(off int) int {
	if off <= 0 {
		return 0
	}
	return li.line(off - 1)
}

// collector attaches comments to the units they belong to.
type collector struct {
	src []byte
	li  lineIndex
}

// collect turns items into units: a comment that has code before it on its
// line belongs to the unit before it; other comments and attributes belong
// to the next item (those directly above it, with no blank line between,
// are its doc); comments after the last item belong to it. At the top level
// (top), the leading items that are imports or package clauses, with the
// comments before them, form one preamble unit.
func (c *collector) collect(items []item, top bool) []unit {
	var units []unit
	pending, docStart, docEnd := -1, -1, -1
	lastEnd := -1
	for _, it := range items {
		if it.end <= it.start || it.start < lastEnd && lastEnd >= 0 {
			continue // a front end's mistake; the tiler covers the bytes
		}
		if it.comment || it.attribute {
			if it.comment && pending < 0 && len(units) > 0 && !isSpace(c.src[c.li[c.li.line(it.start)]:it.start]) {
				// Code before it on its line: it ends that line, which
				// belongs to the unit before.
				units[len(units)-1].end = it.end
				lastEnd = it.end
				continue
			}
			if pending < 0 {
				pending = it.start
			}
			if docStart < 0 || c.li.line(it.start)-c.li.endLine(docEnd) > 1 {
				docStart = it.start
			}
			docEnd = it.end
			lastEnd = it.end
			continue
		}
		if it.cont && pending < 0 && len(units) > 0 {
			units[len(units)-1].end = it.end
			lastEnd = it.end
			continue
		}
		preambleOpen := len(units) == 0 || len(units) == 1 && units[0].kind == KindPreamble
		if it.u.kind == "" && !(top && it.preamble && preambleOpen) {
			// Only ever part of the preamble (an #if line): the comments
			// before it go on to the next unit, as gap bytes do.
			docStart = -1
			lastEnd = it.end
			continue
		}
		u := it.u
		u.decl, u.end = it.start, it.end
		u.start, u.doc = it.start, it.start
		if pending >= 0 {
			u.start = pending
			if docStart >= 0 && c.li.line(it.start)-c.li.endLine(docEnd) <= 1 {
				u.doc = docStart
			}
		}
		if u.sig.empty() {
			u.sig = span{u.decl, u.decl + lineLen(c.src[u.decl:u.end])}
		}
		pending, docStart, docEnd = -1, -1, -1
		lastEnd = it.end
		if top && it.preamble && preambleOpen {
			if len(units) == 0 {
				u.kind, u.symbol, u.members, u.elide = KindPreamble, "", nil, nil
				u.doc = u.decl
				units = append(units, u)
			} else {
				units[0].end = u.end
			}
			continue
		}
		units = append(units, u)
	}
	if pending >= 0 && len(units) > 0 {
		units[len(units)-1].end = lastEnd
	}
	return units
}

// lineLen returns the length of the first line of b, without its newline.
func lineLen(b []byte) int {
	if i := bytes.IndexByte(b, '\n'); i >= 0 {
		if i > 0 && b[i-1] == '\r' {
			return i - 1
		}
		return i
	}
	return len(b)
}

// isSpace reports whether b is all ASCII white space.
func isSpace(b []byte) bool {
	for _, c := range b {
		switch c {
		case ' ', '\t', '\n', '\r', '\f', '\v':
		default:
			return false
		}
	}
	return true
}

// multiline reports whether src[s:e] spans more than one line.
func multiline(src []byte, s, e int) bool {
	return bytes.IndexByte(src[s:e], '\n') >= 0
}

// bodyElision is the elision of a brace-delimited body src[s:e]
// ("{ /* … 12 lines elided */ }"): nil if the body is short and on one
// line, so it stays, or blank.
func bodyElision(src []byte, s, e int) []elision {
	if e-s < 2 || !multiline(src, s, e) && e-s <= 80 {
		return nil
	}
	el, ok := groupElision(src, s, e, false)
	if !ok {
		return nil
	}
	return []elision{el}
}

// groupElision is the elision of the bracketed group src[s:e] (a body or
// a literal: "{…}", "[…]", "(…)"), its brackets kept and what is between
// them replaced by a comment that counts its lines: "/* … N lines elided
// */" on one line, or, where comments start with "#" (hash: Python), the
// comment ending the opening bracket's line and the closing bracket on
// the next, indented as it was. ok is false when there is nothing but
// white space between the brackets.
func groupElision(src []byte, s, e int, hash bool) (el elision, ok bool) {
	open, close := string(src[s]), string(src[e-1])
	n := elidedLines(src[s+1 : e-1])
	if n == 0 {
		return elision{}, false
	}
	el = elision{start: s, end: e, short: open + " … " + close}
	if !hash {
		el.with = open + " /* … " + linesElided(n) + " */ " + close
	} else {
		ls := bytes.LastIndexByte(src[:e-1], '\n') + 1
		ind := src[ls : e-1]
		if !isSpace(ind) || ls <= s {
			ind = nil
		}
		el.with = open + "  # … " + linesElided(n) + "\n" + string(ind) + close
	}
	return el, true
}

// elidedLines is the number of lines b spans once the white space at
// its ends is trimmed: 0 if it is blank.
func elidedLines(b []byte) int {
	b = bytes.TrimSpace(b)
	if len(b) == 0 {
		return 0
	}
	return bytes.Count(b, []byte{'\n'}) + 1
}

// linesElided is "1 line elided" or "N lines elided".
func linesElided(n int) string {
	if n == 1 {
		return "1 line elided"
	}
	return strconv.Itoa(n) + " lines elided"
}
