package pack

import (
	"bytes"
	"cmp"
	"fmt"
	"path"
	"slices"
	"strconv"
	"strings"

	"github.com/ctxpack/ctxpack/internal/chunk"
)

// Transform changes the full text of every part that has a path before
// anything is measured, deduplicated or rendered, so that every count is
// of the text emitted. It applies to the full level only (a part's own
// text: a file, or a chunk's lines), never to the lower levels, which are
// extracts, nor to a part the item cap cut. The plan lists what it did to
// each part shown (render.PlanPart.Transforms) and sums it in a warning.
// The zero value changes nothing.
type Transform struct {
	// RemoveComments removes the comments of the languages chunk.Comments
	// knows (Go, Python, the C family), by their lexical rules, so that
	// a comment marker in a string is left alone; a line left blank by it
	// goes too, and code before a comment loses the blanks before it. A
	// part in any other language is left as it is, and the warning names
	// how many were, by extension.
	RemoveComments bool
	// RemoveEmptyLines removes every line that is empty or only blanks
	// (after the comments, when both are asked for).
	RemoveEmptyLines bool
	// LineNumbers starts every line with its number in the file, right
	// aligned to the widest number of the part, and ": " (Repomix's
	// form): a part whose lines start at 120 starts at 120, and removed
	// lines leave their numbers out.
	LineNumbers bool
}

func (t Transform) any() bool { return t.RemoveComments || t.RemoveEmptyLines || t.LineNumbers }

// transformNote is what a transform did to one text.
type transformNote struct {
	comments int // lines removed whole with their comments
	partly   int // lines that kept their code and lost a comment
	empty    int // blank lines removed
	numbered bool
	unknown  bool // comments asked for, and the language's are not known
}

// strings is the note as the plan lists it.
func (n transformNote) strings() []string {
	var out []string
	if n.comments > 0 || n.partly > 0 {
		out = append(out, fmt.Sprintf("comments removed: %d %s whole, %d in part", n.comments, plural(n.comments, "line"), n.partly))
	}
	if n.unknown {
		out = append(out, "comments left: the language's comment syntax is not known")
	}
	if n.empty > 0 {
		out = append(out, fmt.Sprintf("empty lines removed: %d", n.empty))
	}
	if n.numbered {
		out = append(out, "line numbers added")
	}
	return out
}

// apply transforms text, whose first line is line first of the file at
// p.
func (t *Transform) apply(p string, first int, text string) (string, transformNote) {
	var note transformNote
	var spans [][2]int
	if t.RemoveComments {
		var known bool
		spans, known = chunk.Comments(p, []byte(text))
		note.unknown = !known
	}
	if len(spans) == 0 && !t.RemoveEmptyLines && !t.LineNumbers {
		return text, note
	}
	first = max(first, 1)
	width := 0
	if t.LineNumbers {
		last := first + strings.Count(text, "\n")
		if strings.HasSuffix(text, "\n") {
			last--
		}
		width = len(strconv.Itoa(last))
		note.numbered = true
	}
	var b strings.Builder
	b.Grow(len(text) + len(text)/8)
	var buf []byte
	si := 0 // the first span that may reach this line or a later one
	for ls, n := 0, first; ls < len(text); n++ {
		le := strings.IndexByte(text[ls:], '\n')
		nl := ""
		if le < 0 {
			le = len(text)
		} else {
			le += ls
			nl = "\n"
		}
		line := text[ls:le]
		next := le + len(nl)
		for si < len(spans) && spans[si][1] <= ls {
			si++
		}
		hit, pos := false, ls
		buf = buf[:0]
		for k := si; k < len(spans) && spans[k][0] < max(le, ls+1); k++ {
			s0, s1 := max(spans[k][0], ls), min(spans[k][1], le)
			if s1 > s0 || spans[k][0] <= ls && spans[k][1] > le {
				hit = true
				buf = append(buf, text[pos:s0]...)
				pos = max(pos, s1)
				switch {
				case strings.TrimRight(text[pos:le], "\r") == "":
					// The comment ends the line: the blanks before it go
					// too (never blanks of a string, which cannot end
					// where a comment starts).
					buf = bytes.TrimRight(buf, " \t")
				case len(buf) > 0 && !isBlankByte(buf[len(buf)-1]) && !isBlankByte(text[pos]):
					buf = append(buf, ' ') // a comment between two tokens parts them, as a space
				}
			}
		}
		if hit {
			buf = append(buf, text[pos:le]...)
			kept := string(buf)
			if blank(kept) {
				ls = next
				if !blank(line) {
					note.comments++
				}
				continue
			}
			note.partly++
			line = kept
		}
		ls = next
		if t.RemoveEmptyLines && blank(line) {
			note.empty++
			continue
		}
		if t.LineNumbers {
			s := strconv.Itoa(n)
			b.WriteString(strings.Repeat(" ", width-len(s)))
			b.WriteString(s)
			b.WriteString(": ")
		}
		b.WriteString(line)
		b.WriteString(nl)
	}
	return b.String(), note
}

func isBlankByte(c byte) bool { return c == ' ' || c == '\t' }

// blank reports whether s is empty or only spaces, tabs and carriage
// returns (a form feed or a vertical tab is kept: it may be code, or
// a page break someone put there).
func blank(s string) bool { return strings.TrimLeft(s, " \t\r") == "" }

// transformWarnings sums the notes of the parts shown (by path) in
// warnings: the lines removed, and the parts whose comments were left for
// want of their language's syntax, by extension.
func transformWarnings(t Transform, notes []transformNote, paths []string) []string {
	if !t.RemoveComments && !t.RemoveEmptyLines {
		return nil
	}
	var parts, lines, empty, eparts int
	unknown := map[string]int{}
	for i, n := range notes {
		if n.comments > 0 || n.partly > 0 {
			parts++
			lines += n.comments
		}
		if n.empty > 0 {
			eparts++
			empty += n.empty
		}
		if n.unknown {
			ext := path.Ext(paths[i])
			if ext == "" {
				ext = path.Base(paths[i])
			}
			unknown[ext]++
		}
	}
	var out []string
	if t.RemoveComments {
		w := fmt.Sprintf("comments removed from %d %s: %d %s removed whole", parts, plural(parts, "part"), lines, plural(lines, "line"))
		if len(unknown) > 0 {
			type kv struct {
				ext string
				n   int
			}
			var list []kv
			total := 0
			for k, v := range unknown {
				list = append(list, kv{k, v})
				total += v
			}
			slices.SortFunc(list, func(a, b kv) int { return cmp.Or(cmp.Compare(b.n, a.n), cmp.Compare(a.ext, b.ext)) })
			var names []string
			for i, e := range list {
				if i == 6 {
					names = append(names, "…")
					break
				}
				names = append(names, fmt.Sprintf("%s %d", e.ext, e.n))
			}
			w += fmt.Sprintf("; %d %s left as they were, their language's comments not known (%s)", total, plural(total, "part"), strings.Join(names, ", "))
		}
		out = append(out, w)
	}
	if t.RemoveEmptyLines {
		out = append(out, fmt.Sprintf("empty lines removed: %d in %d %s", empty, eparts, plural(eparts, "part")))
	}
	return out
}

// transformed returns the item's text t at level l as shown: transformed
// when l is its full level, it has a transform and the item cap did not
// cut it.
func (it *item) transformed(l Level, t string) (string, transformNote) {
	if it.tf == nil || l != Full || it.cut != "" && l == it.start {
		return t, transformNote{}
	}
	return it.tf.apply(it.Path, it.Lines[0], t)
}
