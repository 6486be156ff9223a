package storecmd

import (
	"bytes"
	"fmt"
	"strconv"
	"strings"
	"unicode/utf8"
)

// field is one "name: value" line of show.
type field struct{ name, value string }

// formatFields formats fields as "name: value" lines, the values aligned
// one space after the longest name; a value's further lines are indented
// to its first's column, and no line ends in a space.
func formatFields(fields []field) string {
	width := 0
	for _, f := range fields {
		width = max(width, len(f.name)+1)
	}
	var b strings.Builder
	for _, f := range fields {
		lines := strings.Split(f.value, "\n")
		for i, l := range lines {
			label := ""
			if i == 0 {
				label = f.name + ":"
			}
			b.WriteString(strings.TrimRight(fmt.Sprintf("%-*s %s", width, label, strings.TrimRight(l, "\r")), " "))
			b.WriteByte('\n')
		}
	}
	return b.String()
}

// listWidth is the number of columns a list line is cut to fit.
const listWidth = 100

// formatList formats rows (each of the same columns) as lines of columns
// two spaces apart, each as wide as its widest cell, the last column cut
// to its first line and to fit listWidth (but never to fewer than 20
// characters).
func formatList(rows [][]string) string {
	if len(rows) == 0 {
		return ""
	}
	last := len(rows[0]) - 1
	widths := make([]int, last)
	for _, r := range rows {
		for i := range widths {
			widths[i] = max(widths[i], utf8.RuneCountInString(r[i]))
		}
	}
	room := listWidth
	for _, w := range widths {
		room -= w + 2
	}
	var b bytes.Buffer
	for _, r := range rows {
		for i, w := range widths {
			b.WriteString(r[i])
			b.WriteString(strings.Repeat(" ", w-utf8.RuneCountInString(r[i])+2))
		}
		b.WriteString(cutLine(r[last], max(room, 20)))
		b.WriteByte('\n')
	}
	return b.String()
}

// cutLine returns the first line of s, tabs made spaces, cut to at most n
// characters; "…" ends it when s holds more.
func cutLine(s string, n int) string {
	line, rest, _ := strings.Cut(strings.TrimSpace(s), "\n")
	line = strings.ReplaceAll(strings.TrimRight(line, "\r"), "\t", " ")
	r := []rune(line)
	if len(r) <= n && strings.TrimSpace(rest) == "" {
		return line
	}
	if len(r) > n-1 {
		r = r[:n-1]
	}
	return strings.TrimRight(string(r), " ") + "…"
}

// formatFloat is f in the fewest digits that read back as f.
func formatFloat(f float64) string { return strconv.FormatFloat(f, 'f', -1, 64) }
