package check

import (
	"fmt"
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"
)

// ann renders annotations compactly for comparison: "3:spec:SPEC-A".
func ann(as []Annotation) []string {
	var out []string
	for _, a := range as {
		out = append(out, fmt.Sprintf("%d:%s:%s", a.Line, a.Kind, a.ID))
	}
	return out
}

func TestScanAnnotations(t *testing.T) {
	for _, tc := range []struct {
		name, path, text string
		want             []string
	}{
		{"go line comment", "a.go", "package a\n\n// @spec SPEC-A\nfunc A() {}\n", []string{"3:spec:SPEC-A"}},
		{"go trailing comment", "a.go", "x := 1 // @decision DEC-1\n", []string{"1:decision:DEC-1"}},
		{"go string is not a comment", "a.go", `s := "@spec SPEC-A"` + "\n", nil},
		{"go string with // inside", "a.go", `s := "http://x @spec SPEC-A"` + "\n", nil},
		{"go string then comment", "a.go", `s := "// @spec X-1" // @spec SPEC-A` + "\n", []string{"1:spec:SPEC-A"}},
		{"go escaped quote", "a.go", `s := "a\" // @spec SPEC-X"` + "\n", nil},
		{"go rune literal", "a.go", `c := '"' // @spec SPEC-A` + "\n", []string{"1:spec:SPEC-A"}},
		{"go raw string over lines", "a.go", "s := `\n// @spec SPEC-X\n` // @spec SPEC-A\n", []string{"3:spec:SPEC-A"}},
		{"c block comment", "a.c", "/* @spec SPEC-A */ int x;\n", []string{"1:spec:SPEC-A"}},
		{"c block over lines", "a.c", "/*\n * Billing.\n * @spec SPEC-A, SPEC-B\n */\nint x; /* @decision DEC-1 */\n", []string{"3:spec:SPEC-A", "3:spec:SPEC-B", "5:decision:DEC-1"}},
		{"code after a block comment", "a.c", "/* a */ char *s = \"@spec SPEC-X\"; // @spec SPEC-A\n", []string{"1:spec:SPEC-A"}},
		{"block comment ends mid-line", "a.c", "/* one\ntwo */ x = \"@spec SPEC-X\";\n", nil},
		{"python hash", "a.py", "# @spec SPEC-BILLING-002\ndef f(): pass\n", []string{"1:spec:SPEC-BILLING-002"}},
		{"python string with hash", "a.py", "s = '# @spec SPEC-X'\n", nil},
		{"python docstring", "a.py", "def f():\n    \"\"\"\n    # @spec SPEC-X\n    \"\"\"\n    # @spec SPEC-A\n", []string{"5:spec:SPEC-A"}},
		{"sql", "q.sql", "select 1; -- @spec SPEC-A\n", []string{"1:spec:SPEC-A"}},
		{"lua block", "a.lua", "--[[\n@spec SPEC-A\n]]\n", []string{"2:spec:SPEC-A"}},
		{"lisp", "a.el", ";; @spec SPEC-A\n", []string{"1:spec:SPEC-A"}},
		{"tex", "a.tex", "% @spec SPEC-A\n", []string{"1:spec:SPEC-A"}},
		{"html comment over lines", "a.html", "<p>\"x\"</p>\n<!--\n  @spec SPEC-A\n-->\n", []string{"3:spec:SPEC-A"}},
		{"html comment closes on its line", "a.html", "<!-- @spec SPEC-A --> <p>@spec SPEC-X</p>\n", []string{"1:spec:SPEC-A"}},
		{"markdown inline code", "README.md", "Write `<!-- @spec SPEC-X -->` in Markdown.\n<!-- @spec SPEC-A -->\n", []string{"2:spec:SPEC-A"}},
		{"markdown fence", "README.md", "```html\n<!-- @spec SPEC-X -->\n```\n", nil},
		{"json has no comments", "a.json", `{"k": "// @spec SPEC-X"}` + "\n", nil},
		{"several ids with commas", "a.go", "// @spec SPEC-A, SPEC-B,SPEC-C\n", []string{"1:spec:SPEC-A", "1:spec:SPEC-B", "1:spec:SPEC-C"}},
		{"several ids with spaces", "a.go", "// @spec SPEC-A SPEC-B\n", []string{"1:spec:SPEC-A", "1:spec:SPEC-B"}},
		{"prose after the id", "a.go", "// @spec SPEC-A handles re-entry.\n", []string{"1:spec:SPEC-A"}},
		{"lower-case id first", "a.go", "// @spec spec-auth, spec-login\n", []string{"1:spec:spec-auth", "1:spec:spec-login"}},
		{"trailing period", "a.go", "// See @spec SPEC-A.\n", []string{"1:spec:SPEC-A"}},
		{"dotted id", "a.go", "// @spec SPEC-1.2\n", []string{"1:spec:SPEC-1.2"}},
		{"colon", "a.go", "// @spec: SPEC-A\n", []string{"1:spec:SPEC-A"}},
		{"two annotations on a line", "a.go", "// @spec SPEC-A @decision DEC-1\n", []string{"1:spec:SPEC-A", "1:decision:DEC-1"}},
		{"word without a hyphen is no id", "a.js", "/** @spec the spec object */\n", nil},
		{"e-mail address", "a.go", "// mail me@spec.org or x@decision DEC-1\n", nil},
		{"longer tag", "a.go", "// @specification SPEC-A\n", nil},
		{"no id", "a.go", "// @spec\n", nil},
		{"crlf", "a.go", "// @spec SPEC-A\r\n/*\r\n@spec SPEC-B\r\n*/\r\n", []string{"1:spec:SPEC-A", "3:spec:SPEC-B"}},
		{"no final newline", "a.go", "x // @spec SPEC-A", []string{"1:spec:SPEC-A"}},
		{"rust lifetime", "a.rs", "fn f<'a>(x: &'a str) {} // @spec SPEC-A\n", []string{"1:spec:SPEC-A"}},
		{"unknown type, comment at line start", "notes.weird", "# @spec SPEC-A\n", []string{"1:spec:SPEC-A"}},
		{"unknown type, marker inside a word", "notes.weird", "a;b @spec SPEC-X\n", nil},
		{"unknown type, block", "notes.weird", "x /* @spec SPEC-A */\n", []string{"1:spec:SPEC-A"}},
		{"makefile", "Makefile", "all: # @spec SPEC-A\n", []string{"1:spec:SPEC-A"}},
		{"yaml", "ci.yml", "key: 'x # @spec SPEC-X' # @spec SPEC-A\n", []string{"1:spec:SPEC-A"}},
		{"vue template and script", "a.vue", "<!-- @spec SPEC-A -->\n<script>\n// @spec SPEC-B\n</script>\n", []string{"1:spec:SPEC-A", "3:spec:SPEC-B"}},
		{"no annotations at all", "a.go", "package a\n", nil},
		{"example quoted in a comment", "a.go", "// Write \"@spec ID-1\" or `@spec ID-2` or '@spec ID-3'.\n", nil},
		{"txtar fixtures", "x.txtar", "# @spec SPEC-X\n-- a.go --\n// @spec SPEC-Y\n", nil},
	} {
		t.Run(tc.name, func(t *testing.T) {
			got := ann(ScanAnnotations(tc.path, tc.text))
			if diff := cmp.Diff(tc.want, got); diff != "" {
				t.Errorf("ScanAnnotations(%q) (-want +got):\n%s", tc.text, diff)
			}
		})
	}
}

// TestScanAnnotationsLinear guards against quadratic lexing: a long line of
// escaped, unclosed quotes must not take seconds.
func TestScanAnnotationsLinear(t *testing.T) {
	line := "# @spec SPEC-A\nx = '" + strings.Repeat(`\'`, 1<<19) + "\n"
	if got := ScanAnnotations("a.py", line); len(got) != 1 {
		t.Errorf("got %v", got)
	}
}
