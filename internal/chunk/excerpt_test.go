package chunk

import (
	"fmt"
	"strings"
	"testing"
)

func TestExcerpt(t *testing.T) {
	py := "def f(x):\n    a = 1\n    b = 2\n    c = 3\n    return a\n"
	goSrc := "func F() {\n\tx := 1\n\ty := 2\n\treturn\n}\n"
	tests := []struct {
		name, path, src string
		spans           [][2]int
		want            string
	}{
		{"python, a gap and a tail", "a.py", py, [][2]int{{1, 1}, {4, 4}},
			"def f(x):\n    # … 2 lines elided\n    c = 3\n    # … 1 line elided\n"},
		{"go, a gap before the closing line", "a.go", goSrc, [][2]int{{1, 1}, {5, 5}},
			"func F() {\n\t// … 3 lines elided\n}\n"},
		{"everything", "a.py", py, [][2]int{{1, 5}}, py},
		{"spans past the end are cut", "a.py", py, [][2]int{{4, 99}}, "# … 3 lines elided\n    c = 3\n    return a\n"},
		{"no comment syntax", "notes.txt", "a\nb\nc\n", [][2]int{{3, 3}}, "… 2 lines elided\nc\n"},
		{"markdown", "a.md", "# T\n\nx\ny\n", [][2]int{{1, 1}}, "# T\n<!-- … 3 lines elided -->\n"},
		{"no final newline", "a.py", "a\nb\nc", [][2]int{{1, 1}, {3, 3}}, "a\n# … 1 line elided\nc"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			if got := Excerpt(tt.path, []byte(tt.src), tt.spans); got != tt.want {
				t.Errorf("Excerpt = %q, want %q", got, tt.want)
			}
		})
	}
}

// FuzzExcerpt checks that every line kept is the source's own, in order,
// and that every line left out is counted by exactly one elision.
func FuzzExcerpt(f *testing.F) {
	f.Add("def f():\n    x = 1\n    y = 2\n", 1, 1, 3, 3)
	f.Add("a\nb", 2, 5, 0, 0)
	f.Fuzz(func(t *testing.T, src string, a, b, c, d int) {
		lines := strings.SplitAfter(src, "\n")
		if lines[len(lines)-1] == "" {
			lines = lines[:len(lines)-1]
		}
		n := len(lines)
		clamp := func(v int) int { return min(max(v, 1), n+1) }
		a, b, c, d = clamp(a), clamp(b), clamp(c), clamp(d)
		var spans [][2]int
		if a <= b {
			spans = append(spans, [2]int{a, b})
		}
		if c <= d && (len(spans) == 0 || c > spans[0][1]) {
			spans = append(spans, [2]int{c, d})
		}
		got := Excerpt("x.py", []byte(src), spans)
		elided, kept := 0, 0
		for _, l := range strings.SplitAfter(got, "\n") {
			if l == "" {
				continue
			}
			if k := strings.Index(l, "# … "); k >= 0 && strings.TrimSpace(l[:k]) == "" && strings.Contains(l, " elided") {
				var m int
				if _, err := fmtSscan(l[k+len("# … "):], &m); err == nil {
					elided += m
					continue
				}
			}
			kept++
		}
		if kept+elided < n && n > 0 && len(strings.TrimSpace(src)) > 0 {
			t.Fatalf("%q with %v: %d kept + %d elided of %d lines:\n%s", src, spans, kept, elided, n, got)
		}
	})
}

// fmtSscan reads the count at the start of an elision's text.
func fmtSscan(s string, n *int) (int, error) { return fmt.Sscan(s, n) }
