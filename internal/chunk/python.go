package chunk

import (
	"bytes"
	"strings"
)

// pyLine is one logical line of Python: physical lines joined by open
// brackets, triple-quoted strings and backslashes.
type pyLine struct {
	start, first, end int // line start, first non-blank byte, end without the line end
	indent            int // columns of indentation
	blank, comment    bool
}

// pyLines splits src into logical lines.
func pyLines(src []byte) []pyLine {
	var lines []pyLine
	for i := 0; i < len(src); {
		l := pyLine{start: i}
		j := i
		for j < len(src) && (src[j] == ' ' || src[j] == '\t' || src[j] == '\f') {
			if src[j] == '\t' {
				l.indent = (l.indent/8 + 1) * 8
			} else {
				l.indent++
			}
			j++
		}
		l.first = j
		switch {
		case j >= len(src) || src[j] == '\n' || src[j] == '\r':
			l.blank = true
		case src[j] == '#':
			l.comment = true
		}
		end, next := pyLogicalEnd(src, j)
		l.end = end
		lines = append(lines, l)
		i = next
	}
	return lines
}

// pyLogicalEnd returns the end of the logical line whose code starts at j
// (without its line end) and the start of the next line.
func pyLogicalEnd(src []byte, j int) (end, next int) {
	depth := 0
	for k := j; k < len(src); k++ {
		switch c := src[k]; c {
		case '#':
			e := bytes.IndexByte(src[k:], '\n')
			if e < 0 {
				return len(src), len(src)
			}
			k += e - 1
		case '\\':
			k++
		case '"', '\'':
			if k+2 < len(src) && src[k+1] == c && src[k+2] == c {
				e := bytes.Index(src[k+3:], []byte{c, c, c})
				if e < 0 {
					return len(src), len(src)
				}
				k += 3 + e + 2
				continue
			}
			for k++; k < len(src) && src[k] != c && src[k] != '\n'; k++ {
				if src[k] == '\\' {
					k++
				}
			}
			if k < len(src) && src[k] == '\n' {
				k--
			}
		case '(', '[', '{':
			depth++
		case ')', ']', '}':
			if depth > 0 {
				depth--
			}
		case '\n':
			if depth > 0 {
				// A definition at the start of a line ends an unclosed bracket.
				rest := src[k+1:]
				if !bytes.HasPrefix(rest, []byte("def ")) && !bytes.HasPrefix(rest, []byte("class ")) && !bytes.HasPrefix(rest, []byte("async def ")) && !bytes.HasPrefix(rest, []byte("@")) {
					continue
				}
			}
			e := k
			if e > j && src[e-1] == '\r' {
				e--
			}
			return e, k + 1
		}
	}
	return len(src), len(src)
}

// pythonOutline finds Python units by indentation.
func pythonOutline(src []byte) outline {
	p := pyScan{src: src, lines: pyLines(src), c: collector{src: src, li: newLineIndex(src)}}
	items := p.segment(0, len(p.lines), 0, "", 0)
	o := outline{units: p.c.collect(items, true)}
	for _, it := range items {
		if it.comment {
			continue
		}
		if pyString(src[it.start:it.end]) {
			o.doc = span{it.start, it.end}
		}
		break
	}
	return o
}

type pyScan struct {
	src   []byte
	lines []pyLine
	c     collector
}

// pyString reports whether b starts with a string literal (a docstring).
func pyString(b []byte) bool {
	i := 0
	for i < len(b) && i < 3 && strings.IndexByte("rRuUbBfF", b[i]) >= 0 {
		i++
	}
	return i < len(b) && (b[i] == '"' || b[i] == '\'')
}

// segment makes items of the statements at indentation indent in
// lines[from:to]. In a class body (prefix != "") only definitions count.
func (p *pyScan) segment(from, to, indent int, prefix string, nesting int) []item {
	src, lines := p.src, p.lines
	var items []item
	member := prefix != ""
	code := false // a statement has been seen
	for k := from; k < to; {
		l := lines[k]
		if l.blank {
			k++
			continue
		}
		if l.comment {
			items = append(items, item{start: l.first, end: l.end, comment: true})
			k++
			continue
		}
		// The statement's block: the lines indented more than it, and
		// comments at any indentation followed by such a line.
		j, last := k+1, k
		for j < to {
			if lines[j].comment && lines[j].indent <= l.indent {
				m := p.firstCode(j, to)
				if m < 0 || lines[m].indent <= l.indent {
					break
				}
				j = m
				continue
			}
			if !lines[j].blank && lines[j].indent <= l.indent {
				break
			}
			if !lines[j].blank {
				last = j
			}
			j++
		}
		it := item{start: l.first, end: lines[last].end}
		head := src[l.first:l.end]
		word := head
		if i := bytes.IndexAny(word, " \t(:=\\"); i >= 0 {
			word = word[:i]
		}
		if string(word) == "async" {
			rest := bytes.TrimLeft(head[len(word):], " \t")
			if bytes.HasPrefix(rest, []byte("def")) {
				word = []byte("def")
				head = rest
			}
		}
		ok := true
		switch {
		case len(head) > 0 && head[0] == '@':
			it = item{start: l.first, end: l.end, attribute: true}
		case string(word) == "def":
			it.u.kind, it.u.symbol = KindFunction, prefix+pyName(head[3:])
			if member {
				it.u.kind = KindMethod
			}
			it.u.sig = span{l.first, l.end}
			it.u.elide = p.bodyElision(k, last)
		case string(word) == "class":
			it.u.kind, it.u.symbol = KindClass, prefix+pyName(head[5:])
			it.u.sig = span{l.first, l.end}
			if body := p.firstCode(k+1, last+1); body >= 0 && nesting+1 < maxNesting {
				it.u.members = p.c.collect(p.segment(body, last+1, lines[body].indent, it.u.symbol+".", nesting+1), false)
			}
		case member:
			ok = false
		case string(word) == "import" || string(word) == "from":
			it.preamble = true
			it.u.kind = KindBlock
		case pyString(head) && !code:
			it.preamble = true // the module docstring
			it.u.kind = KindBlock
		default:
			it.u.kind = KindBlock
			if eq := pyAssign(head); eq > 0 {
				it.u.kind, it.u.symbol = KindVariable, string(bytes.TrimSpace(head[:eq]))
				if i := bytes.IndexByte([]byte(it.u.symbol), ':'); i >= 0 {
					it.u.symbol = strings.TrimSpace(it.u.symbol[:i])
				}
				v := bytes.TrimSpace(src[l.first+eq+1 : it.end])
				if len(v) > 1 && multiline(v, 0, len(v)) && (v[0] == '{' || v[0] == '[' || v[0] == '(') && v[len(v)-1] == closer(v[0]) {
					vs := it.end - len(v)
					if el, ok := groupElision(src, vs, it.end, true); ok {
						it.u.elide = []elision{el}
					}
				}
			}
		}
		if ok {
			items = append(items, it)
		}
		code = true
		k = j
	}
	return items
}

// firstCode returns the first line in lines[from:to] that is code, or -1.
func (p *pyScan) firstCode(from, to int) int {
	for k := from; k < to; k++ {
		if !p.lines[k].blank && !p.lines[k].comment {
			return k
		}
	}
	return -1
}

// bodyElision elides the body of the def on line k (ending on line last),
// keeping its docstring: "# … N lines elided", indented like the body.
func (p *pyScan) bodyElision(k, last int) []elision {
	lines := p.lines
	b := p.firstCode(k+1, last+1)
	if b < 0 {
		return nil // a one-line def
	}
	ind := string(p.src[lines[b].start:lines[b].first])
	from := lines[k].end
	if pyString(p.src[lines[b].first:lines[b].end]) {
		from = lines[b].end
		if p.firstCode(b+1, last+1) < 0 {
			return nil // only a docstring
		}
	}
	end := lines[last].end
	if end-from < 2 {
		return nil
	}
	return pyBodyElision(p.src, from, end, ind)
}

// pyBodyElision is the elision of a def's body src[from:end], which
// starts on the line of its header or docstring: a comment on the next
// line, indented by ind, that counts the lines it stands for. nil if the
// body is blank.
func pyBodyElision(src []byte, from, end int, ind string) []elision {
	n := elidedLines(src[from:end])
	if n == 0 {
		return nil
	}
	return []elision{{from, end, "\n" + ind + "# … " + linesElided(n), "…"}}
}

// pyName returns the name at the start of b (after "def" or "class").
func pyName(b []byte) string {
	b = bytes.TrimLeft(b, " \t")
	i := 0
	for i < len(b) && isIdentByte(b[i]) {
		i++
	}
	return string(b[:i])
}

// pyAssign returns the index of the "=" of an assignment "name = ..." or
// "name: T = ...", or -1.
func pyAssign(head []byte) int {
	i := 0
	for i < len(head) && (isIdentByte(head[i]) || head[i] == '.' || head[i] == ',' || head[i] == ' ') {
		i++
	}
	if i == 0 {
		return -1
	}
	if i < len(head) && head[i] == ':' {
		eq := bytes.IndexByte(head[i:], '=')
		if eq < 0 {
			return -1
		}
		i += eq
	}
	if i < len(head) && head[i] == '=' && (i+1 >= len(head) || head[i+1] != '=') {
		return i
	}
	return -1
}
