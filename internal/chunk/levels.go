package chunk

import (
	"bytes"
	"strings"
	"unicode/utf8"
)

// maxSigBytes bounds one signature line of the summary.
const maxSigBytes = 200

// levels renders the summary and detailed levels of an outline.
func (o *outline) levels(src []byte) (summary, detailed string) {
	if o.markdown {
		return o.markdownLevels(src)
	}
	var b strings.Builder
	if !o.doc.empty() {
		b.Write(bytes.TrimRight(src[o.doc.start:o.doc.end], " \t\r\n"))
		b.WriteByte('\n')
	}
	symbols := 0
	var list func(units []unit, depth int)
	list = func(units []unit, depth int) {
		for i := range units {
			u := &units[i]
			if u.kind == KindPreamble || u.kind == KindBlock {
				continue
			}
			if symbols == 0 && b.Len() > 0 {
				b.WriteByte('\n')
			}
			symbols++
			b.WriteString(strings.Repeat("  ", depth))
			b.WriteString(u.kind)
			b.WriteString(": ")
			b.WriteString(signature(src, u))
			b.WriteByte('\n')
			list(u.members, depth+1)
		}
	}
	list(o.units, 0)
	if b.Len() > 0 && b.Len() < len(src) {
		summary = b.String()
	}
	if symbols == 0 {
		return summary, ""
	}

	b.Reset()
	elided := false
	pos := 0
	for i := range o.units {
		u := &o.units[i]
		if u.start < pos || u.end > len(src) {
			continue
		}
		b.Write(src[pos:u.start])
		if render(&b, src, u) {
			elided = true
		}
		pos = u.end
	}
	b.Write(src[pos:])
	if elided && b.Len() < len(src) {
		detailed = b.String()
	}
	return summary, detailed
}

// render writes src[u.start:u.end] with u's elisions applied and its
// members rendered the same way; it reports whether anything was elided.
func render(b *strings.Builder, src []byte, u *unit) bool {
	elided := false
	pos := u.start
	ei, mi := 0, 0
	for ei < len(u.elide) || mi < len(u.members) {
		if mi < len(u.members) && (ei >= len(u.elide) || u.members[mi].start < u.elide[ei].start) {
			m := &u.members[mi]
			mi++
			if m.start < pos || m.end > u.end {
				continue
			}
			b.Write(src[pos:m.start])
			if render(b, src, m) {
				elided = true
			}
			pos = m.end
			continue
		}
		e := u.elide[ei]
		ei++
		if e.start < pos || e.end > u.end || len(e.with) >= e.end-e.start {
			continue // a span no longer than its comment is kept
		}
		b.Write(src[pos:e.start])
		b.WriteString(e.with)
		pos = e.end
		elided = true
	}
	b.Write(src[pos:u.end])
	return elided
}

// signature returns u's signature on one line: white space collapsed, a
// trailing "{" dropped, at most maxSigBytes long.
func signature(src []byte, u *unit) string {
	s := u.sigText
	if s == "" && !u.sig.empty() && u.sig.end <= len(src) {
		e := min(u.sig.end, u.sig.start+8*maxSigBytes)
		s = collapseSpace(src[u.sig.start:e])
		if (u.kind == KindVariable || u.kind == KindConstant) && len(u.elide) > 0 {
			// A value elided on the signature's line: "RATES = { … }".
			if el := u.elide[0]; el.start >= u.sig.start && el.start <= u.sig.end && el.end <= len(src) {
				rest := src[el.end:]
				rest = rest[:lineLen(rest)]
				sep := ""
				if el.start > u.sig.start && isBlank(src[el.start-1]) {
					sep = " "
				}
				s = collapseSpace(src[u.sig.start:min(el.start, e)]) + sep + el.short + collapseSpace(rest)
			}
		}
	}
	s = strings.TrimSpace(strings.TrimSuffix(strings.TrimSpace(s), "{"))
	if s == "" {
		s = u.symbol
	}
	if len(s) > maxSigBytes {
		c := maxSigBytes
		for c > 0 && !utf8.RuneStart(s[c]) {
			c--
		}
		s = s[:c] + "…"
	}
	return s
}

// collapseSpace returns b with each run of white space replaced by one
// space and the ends trimmed.
func collapseSpace(b []byte) string {
	var sb strings.Builder
	sb.Grow(len(b))
	space := false
	for _, c := range b {
		switch c {
		case ' ', '\t', '\n', '\r', '\f', '\v':
			space = true
			continue
		}
		if space && sb.Len() > 0 {
			sb.WriteByte(' ')
		}
		space = false
		sb.WriteByte(c)
	}
	return sb.String()
}
