package artifact

import (
	"strings"
)

// Text returns the artifact at level l (a level below Meta is Meta, above
// Full is Full):
//
//   - Meta: the frontmatter as "key: value" lines: title, status, the links
//     (specs, decisions, norms, tasks: ids joined by ", "), paths,
//     superseded_by, then every other field in file order. Empty fields are
//     left out; id and type are not shown (the renderer's header shows
//     them).
//   - Summary: Meta, a blank line, and the body's first section: the text
//     before the first heading when it is not blank, else the first heading
//     and what follows it up to the next heading.
//   - Detailed: Summary, then each later heading with its first paragraph
//     (a fenced code block counts as one paragraph), separated by blank
//     lines.
//   - Full: Meta, a blank line, and the whole body.
//
// Headings are ATX headings ("#" to "######") outside fenced code blocks;
// setext headings are read as text. Line ends become "\n"; blank lines at
// the start and end of the body and of each extract are dropped. The text
// is "" (nothing to show) or ends with exactly one "\n". Meta is a prefix of
// Summary, Summary a prefix of Detailed and of Full, and every line of
// Detailed is a line of Full, in the same order.
func (a *Artifact) Text(l Level) string {
	var b strings.Builder
	a.writeMeta(&b)
	if l <= Meta {
		return b.String()
	}
	d := scanBody(a.Body)
	if l >= Full {
		d.block(&b, 0, len(d.lines))
		return b.String()
	}
	next := 0 // the first heading not shown yet
	switch {
	case !d.blank(0, d.end(-1)):
		d.block(&b, 0, d.end(-1)) // the lead, before the first heading
	case len(d.headings) > 0:
		d.block(&b, d.headings[0], d.end(0))
		next = 1
	}
	if l == Summary {
		return b.String()
	}
	for k := next; k < len(d.headings); k++ {
		d.block(&b, d.headings[k], d.paragraphEnd(k))
	}
	return b.String()
}

// writeMeta writes the meta level.
func (a *Artifact) writeMeta(b *strings.Builder) {
	field := func(k, v string) {
		if v = oneLine(v); v != "" {
			b.WriteString(k)
			b.WriteString(": ")
			b.WriteString(v)
			b.WriteByte('\n')
		}
	}
	field("title", a.Title)
	field("status", a.Status)
	field("specs", strings.Join(a.Links.Specs, ", "))
	field("decisions", strings.Join(a.Links.Decisions, ", "))
	field("norms", strings.Join(a.Links.Norms, ", "))
	field("tasks", strings.Join(a.Links.Tasks, ", "))
	field("paths", strings.Join(a.Paths, ", "))
	field("superseded_by", a.SupersededBy)
	for _, f := range a.Extra {
		if k := oneLine(f.Key); k != "" {
			field(k, f.Value)
		}
	}
}

// body is a Markdown body split into lines, with its structure.
type body struct {
	lines    []string
	headings []int  // indices of ATX headings outside fenced code
	inFence  []bool // whether each line belongs to a fenced code block
	// fenceStart marks the opening line of each fenced code block.
	fenceStart []bool
}

// scanBody splits s into lines and finds the headings and fenced code.
func scanBody(s string) *body {
	lines := strings.Split(s, "\n")
	for i, ln := range lines {
		lines[i] = strings.TrimRight(ln, "\r")
	}
	d := &body{lines: lines, inFence: make([]bool, len(lines)), fenceStart: make([]bool, len(lines))}
	var fenceChar byte
	fenceLen := 0
	for i, ln := range lines {
		if fenceLen > 0 {
			d.inFence[i] = true
			if c, n, info := fence(ln); c == fenceChar && n >= fenceLen && strings.TrimSpace(info) == "" {
				fenceLen = 0
			}
			continue
		}
		if c, n, info := fence(ln); n > 0 && !(c == '`' && strings.Contains(info, "`")) {
			fenceChar, fenceLen = c, n
			d.inFence[i], d.fenceStart[i] = true, true
			continue
		}
		if isHeading(ln) {
			d.headings = append(d.headings, i)
		}
	}
	return d
}

// end returns the index where the section of heading k ends (the next
// heading or the end of the body); k = -1 is the lead before any heading.
func (d *body) end(k int) int {
	if k+1 < len(d.headings) {
		return d.headings[k+1]
	}
	return len(d.lines)
}

// paragraphEnd returns the end of heading k and its first paragraph: the
// fenced code block that follows it, or else the first run of lines after
// it that are not blank (blank lines inside fenced code do not end it), up
// to the next heading.
func (d *body) paragraphEnd(k int) int {
	limit := d.end(k)
	i := d.headings[k] + 1
	for i < limit && isBlank(d.lines[i]) && !d.inFence[i] {
		i++
	}
	if i < limit && d.fenceStart[i] {
		// A paragraph that opens with fenced code is that code block.
		for i++; i < limit && d.inFence[i] && !d.fenceStart[i]; i++ {
		}
		return i
	}
	for i < limit && (!isBlank(d.lines[i]) || d.inFence[i]) {
		i++
	}
	return i
}

// blank reports whether lines [lo, hi) are all blank.
func (d *body) blank(lo, hi int) bool {
	for _, ln := range d.lines[lo:hi] {
		if !isBlank(ln) {
			return false
		}
	}
	return true
}

// block writes lines [lo, hi) without their leading and trailing blank
// lines, after a blank line when b already holds text.
func (d *body) block(b *strings.Builder, lo, hi int) {
	for lo < hi && isBlank(d.lines[lo]) {
		lo++
	}
	for hi > lo && isBlank(d.lines[hi-1]) {
		hi--
	}
	if lo == hi {
		return
	}
	if b.Len() > 0 {
		b.WriteByte('\n')
	}
	for _, ln := range d.lines[lo:hi] {
		b.WriteString(ln)
		b.WriteByte('\n')
	}
}

func isBlank(s string) bool { return strings.TrimSpace(s) == "" }

// indent strips up to three leading spaces, as CommonMark allows before a
// heading or a fence; ok is false when the line is indented further.
func indent(s string) (rest string, ok bool) {
	n := 0
	for n < len(s) && s[n] == ' ' {
		n++
	}
	if n > 3 {
		return s, false
	}
	return s[n:], true
}

// isHeading reports whether s is an ATX heading: up to three spaces, one
// to six '#', then the end of the line, a space or a tab.
func isHeading(s string) bool {
	s, ok := indent(s)
	if !ok {
		return false
	}
	n := 0
	for n < len(s) && s[n] == '#' {
		n++
	}
	return n >= 1 && n <= 6 && (n == len(s) || s[n] == ' ' || s[n] == '\t')
}

// fence reports a code fence line: its character ('`' or '~'), its length
// (0 when s is not a fence) and the text after it.
func fence(s string) (c byte, n int, info string) {
	s, ok := indent(s)
	if !ok || len(s) < 3 || (s[0] != '`' && s[0] != '~') {
		return 0, 0, ""
	}
	c = s[0]
	for n < len(s) && s[n] == c {
		n++
	}
	if n < 3 {
		return 0, 0, ""
	}
	return c, n, s[n:]
}
