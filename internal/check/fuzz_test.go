package check

import (
	"slices"
	"strings"
	"testing"
)

// fuzzNames is one file name per comment syntax, and an unknown type.
var fuzzNames = []string{"a.go", "a.c", "a.py", "a.rb", "a.php", "a.sql", "a.lua", "a.hs",
	"a.el", "a.tex", "a.css", "a.html", "a.md", "a.vue", "a.ini", "a.json", "a.weird"}

// FuzzAnnotations checks that the annotation lexer never panics, gives the
// same result every time and for CRLF line ends, and only reports ids that
// are on the line it names.
func FuzzAnnotations(f *testing.F) {
	for i, s := range []string{
		"// @spec SPEC-A\n",
		"/* @spec SPEC-A, SPEC-B\n * @decision DEC-1 */ x = \"@spec X-1\"\n",
		"s = '''\n# @spec SPEC-X\n''' # @spec SPEC-A\n",
		"<!-- @spec SPEC-A\n--> `<!-- @spec X-1 -->`\n```\n<!-- @spec X-2 -->\n```\n",
		"x = 'it\\'s' -- @spec SPEC-A SPEC-B re-entry\n",
		"--[[ @spec SPEC-A ]] {- @spec SPEC-B -} ; @spec SPEC-C % @spec SPEC-D\n",
		"a@spec X-1 me@decision.org @spec: spec-a,b-c.\n",
	} {
		f.Add(uint8(i), s)
	}
	f.Fuzz(func(t *testing.T, kind uint8, text string) {
		name := fuzzNames[int(kind)%len(fuzzNames)]
		got := ScanAnnotations(name, text)
		if again := ScanAnnotations(name, text); !slices.Equal(got, again) {
			t.Fatalf("unstable: %v then %v", got, again)
		}
		if !strings.Contains(text, "\r") {
			if crlf := ScanAnnotations(name, strings.ReplaceAll(text, "\n", "\r\n")); !slices.Equal(got, crlf) {
				t.Fatalf("CRLF changes the result: %v, then %v", got, crlf)
			}
		}
		lines := strings.Split(text, "\n")
		last := 0
		for _, a := range got {
			if a.Line < 1 || a.Line > len(lines) || a.Line < last {
				t.Fatalf("annotation %+v: line out of range or order (%d lines, previous %d)", a, len(lines), last)
			}
			last = a.Line
			if a.Kind != "spec" && a.Kind != "decision" {
				t.Fatalf("annotation %+v: bad kind", a)
			}
			line := lines[a.Line-1]
			if a.ID == "" || !strings.Contains(line, a.ID) || !strings.Contains(line, "@"+a.Kind) {
				t.Fatalf("annotation %+v is not on its line %q", a, line)
			}
			if id, rest := cutID(a.ID); id != a.ID || rest != "" {
				t.Fatalf("annotation %+v: id does not parse as itself (%q, %q)", a, id, rest)
			}
		}
	})
}
