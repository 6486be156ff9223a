package chunk

import "bytes"

// textOutline makes one block per run of non-blank lines.
func textOutline(src []byte) outline {
	var o outline
	start := -1
	for s := 0; s < len(src); {
		e := bytes.IndexByte(src[s:], '\n')
		next := len(src)
		if e >= 0 {
			next = s + e + 1
		}
		blank := isSpace(src[s:next])
		switch {
		case !blank && start < 0:
			start = s
		case blank && start >= 0:
			o.units = append(o.units, unit{start: start, doc: start, decl: start, end: s, kind: KindBlock})
			start = -1
		}
		s = next
	}
	if start >= 0 {
		o.units = append(o.units, unit{start: start, doc: start, decl: start, end: len(src), kind: KindBlock})
	}
	return o
}
