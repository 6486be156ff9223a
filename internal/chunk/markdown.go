package chunk

import (
	"bytes"
	"strings"
)

// mdLine is one line of a Markdown file.
type mdLine struct {
	start, end int  // the line, without its line end
	next       int  // the start of the next line
	code       bool // a fence line or inside a fenced code block, or frontmatter
	block      int  // for code: the fenced block's number from 1, or 0 for frontmatter
	heading    bool
}

// markdownLines splits src into lines and marks fenced code and ATX
// headings. YAML frontmatter at the start is marked as code.
func markdownLines(src []byte) []mdLine {
	var lines []mdLine
	for s := 0; s < len(src); {
		e := bytes.IndexByte(src[s:], '\n')
		next := len(src)
		if e < 0 {
			e = len(src)
		} else {
			e += s
			next = e + 1
		}
		end := e
		if end > s && src[end-1] == '\r' {
			end--
		}
		lines = append(lines, mdLine{start: s, end: end, next: next})
		s = next
	}
	i := 0
	if len(lines) > 0 && string(src[lines[0].start:lines[0].end]) == "---" {
		for j := 1; j < len(lines); j++ {
			t := string(src[lines[j].start:lines[j].end])
			if t == "---" || t == "..." {
				for k := 0; k <= j; k++ {
					lines[k].code = true
				}
				i = j + 1
				break
			}
		}
	}
	var fence byte
	fenceLen, block := 0, 0
	for ; i < len(lines); i++ {
		l := &lines[i]
		text := src[l.start:l.end]
		ind := 0
		for ind < len(text) && ind < 4 && text[ind] == ' ' {
			ind++
		}
		t := text[ind:]
		if fence != 0 {
			l.code, l.block = true, block
			if ind < 4 {
				n := 0
				for n < len(t) && t[n] == fence {
					n++
				}
				if n >= fenceLen && isSpace(t[n:]) {
					fence = 0
				}
			}
			continue
		}
		if ind >= 4 {
			continue
		}
		if len(t) >= 3 && (t[0] == '`' || t[0] == '~') {
			n := 0
			for n < len(t) && t[n] == t[0] {
				n++
			}
			if n >= 3 && (t[0] == '~' || bytes.IndexByte(t[n:], '`') < 0) {
				fence, fenceLen = t[0], n
				block++
				l.code, l.block = true, block
				continue
			}
		}
		n := 0
		for n < len(t) && t[n] == '#' {
			n++
		}
		if n >= 1 && n <= 6 && (n == len(t) || t[n] == ' ' || t[n] == '\t') {
			l.heading = true
		}
	}
	return lines
}

// markdownOutline makes one section per ATX heading (outside fenced code);
// the text before the first heading is the preamble.
func markdownOutline(src []byte) outline {
	lines := markdownLines(src)
	o := outline{markdown: true}
	for _, l := range lines {
		if !l.heading {
			continue
		}
		if len(o.units) == 0 && l.start > 0 {
			o.units = append(o.units, unit{start: 0, doc: 0, decl: 0, end: l.start, kind: KindPreamble})
		}
		if n := len(o.units); n > 0 {
			o.units[n-1].end = l.start
		}
		o.units = append(o.units, unit{
			start: l.start, doc: l.start, decl: l.start, end: len(src),
			sig: span{l.start, l.end}, kind: KindSection, symbol: headingText(src[l.start:l.end]),
		})
	}
	return o
}

// headingText normalizes an ATX heading line: "## Rounding".
func headingText(line []byte) string {
	t := strings.TrimSpace(string(line))
	n := 0
	for n < len(t) && t[n] == '#' {
		n++
	}
	marks, rest := t[:n], strings.TrimSpace(t[n:])
	// A closing sequence of #s preceded by a space is not part of the text.
	if k := strings.TrimRight(rest, "#"); k != rest && (k == "" || strings.HasSuffix(k, " ") || strings.HasSuffix(k, "\t")) {
		rest = strings.TrimSpace(k)
	}
	rest = collapseSpace([]byte(rest))
	if rest == "" {
		return marks
	}
	return marks + " " + rest
}

// markdownLevels: the summary is the lead paragraph (the first paragraph
// before any heading) and every heading line; the detailed level is the
// lead paragraph and every heading with its first paragraph.
func (o *outline) markdownLevels(src []byte) (summary, detailed string) {
	lines := markdownLines(src)
	var lead []string
	var heads []int // indexes into lines
	for i, l := range lines {
		if l.heading {
			heads = append(heads, i)
		}
	}
	first := len(lines)
	if len(heads) > 0 {
		first = heads[0]
	}
	skipFront := 0
	for skipFront < first && lines[skipFront].code && lines[skipFront].block == 0 {
		skipFront++ // frontmatter
	}
	if p := paragraph(src, lines, skipFront, first); p != "" {
		lead = append(lead, p)
	}
	var sb strings.Builder
	for _, p := range lead {
		sb.WriteString(p)
		sb.WriteString("\n\n")
	}
	for _, h := range heads {
		sb.Write(bytes.TrimSpace(src[lines[h].start:lines[h].end]))
		sb.WriteByte('\n')
	}
	if len(heads) == 0 && len(lead) == 0 {
		return "", ""
	}
	summary = strings.TrimSuffix(sb.String(), "\n") + "\n"
	if len(heads) == 0 {
		if len(summary) >= len(src) {
			summary = ""
		}
		return summary, ""
	}

	sb.Reset()
	for _, p := range lead {
		sb.WriteString(p)
		sb.WriteString("\n\n")
	}
	for k, h := range heads {
		end := len(lines)
		if k+1 < len(heads) {
			end = heads[k+1]
		}
		sb.Write(bytes.TrimSpace(src[lines[h].start:lines[h].end]))
		sb.WriteByte('\n')
		if p := paragraph(src, lines, h+1, end); p != "" {
			sb.WriteByte('\n')
			sb.WriteString(p)
			sb.WriteByte('\n')
		}
		if k+1 < len(heads) {
			sb.WriteByte('\n')
		}
	}
	detailed = sb.String()
	if len(summary) >= len(src) {
		summary = ""
	}
	if len(detailed) >= len(src) || detailed == summary {
		detailed = ""
	}
	return summary, detailed
}

// paragraph returns the first paragraph in lines[from:to]: the first run
// of non-blank lines, or a whole fenced code block; "" if there is none.
func paragraph(src []byte, lines []mdLine, from, to int) string {
	i := from
	for i < to && isSpace(src[lines[i].start:lines[i].end]) && !lines[i].code {
		i++
	}
	if i >= to {
		return ""
	}
	j := i + 1
	if lines[i].code {
		for j < to && lines[j].code && lines[j].block == lines[i].block {
			j++
		}
	} else {
		for j < to && !lines[j].code && !lines[j].heading && !isSpace(src[lines[j].start:lines[j].end]) {
			j++
		}
	}
	if j <= i {
		return ""
	}
	return strings.TrimRight(string(src[lines[i].start:lines[j-1].end]), " \t\r\n")
}
