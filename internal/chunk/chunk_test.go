package chunk

import (
	"fmt"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"
	"unicode/utf8"

	"github.com/google/go-cmp/cmp"
)

// lines renders chunks as "start-end kind symbol", one per chunk.
func lines(chunks []Chunk) []string {
	out := make([]string, len(chunks))
	for i, c := range chunks {
		out[i] = strings.TrimSpace(fmt.Sprintf("%d-%d %s %s", c.StartLine, c.EndLine, c.Kind, c.Symbol))
	}
	return out
}

// heuristicChunks splits src with the heuristics, whatever the build.
func heuristicChunks(path string, src []byte, maxBytes, minBytes int) []Chunk {
	o := heuristicOutline(Language(path), src)
	t := tiler{src: src, max: maxBytes, min: minBytes}
	return t.chunks(o.units)
}

// The units of each sample in testdata/src, with merging off and chunks
// limited to 300 bytes so that containers are split into their members.
// heuristic is what the heuristics find when it differs.
var unitTests = []struct {
	file      string
	want      []string
	heuristic []string
}{
	{file: "rounding.go", want: []string{
		"1-13 preamble", // licence, package doc, package clause, imports
		"14-16 variable ErrCurrency",
		"17-22 constant EUR, USD",
		"23-25 type Currency",
		"26-31 type Amount",
		"32-36 interface Converter",
		"37-44 function Add",
		"45-49 method Amount.String",
		"50-54 method (*Amount).Scale",
		"55-56 type table",
		"57-58 method (*table).Get",
		"59-62 variable rates",
	}, heuristic: []string{
		"1-13 preamble",
		"14-16 variable ErrCurrency",
		"17-22 constant",
		"23-25 type Currency",
		"26-31 type Amount",
		"32-36 interface Converter",
		"37-44 function Add",
		"45-49 method Amount.String",
		"50-54 method (*Amount).Scale",
		"55-56 type table",
		"57-58 method (*table).Get",
		"59-62 variable rates",
	}},
	{file: "invoice.py", want: []string{
		"1-11 preamble", // shebang, docstring, imports
		"12-12 variable ROUNDING",
		"13-18 variable RATES",
		"19-23 class InvoiceError", // with the comment above it
		"24-30 class Line",         // with its decorator
		"31-37 class Invoice",      // decorator, docstring, fields
		"38-43 method Invoice.add",
		"44-49 method Invoice.total", // @property
		"50-55 method Invoice.convert",
		"56-60 function parse_amount",
		"61-62 block", // if __name__ == "__main__"
	}},
	{file: "server.js", want: []string{
		"1-2 preamble", // "use strict"
		"3-3 variable http",
		"4-5 variable parse",
		"6-9 class Router",
		"10-13 method Router.constructor",
		"14-17 method Router.get",
		"18-27 method Router.handle",
		"28-32 function listen",
		"33-34 function hello", // an arrow function
		"35-38 function lines", // async generator
		"39-39 block",          // module.exports
	}, heuristic: []string{
		"1-2 preamble",
		"3-3 variable http",
		"4-5 variable",
		"6-9 class Router",
		"10-13 method Router.constructor",
		"14-17 method Router.get",
		"18-27 method Router.handle",
		"28-32 function listen",
		"33-34 function hello",
		"35-38 function lines",
		"39-39 block",
	}},
	{file: "cart.ts", want: []string{
		"1-8 preamble", // licence, file doc, imports
		"9-10 variable MAX_ITEMS",
		"11-16 interface CartLine",
		"17-18 type Currency",
		"19-23 enum Status",
		"24-29 class Cart",
		"30-31 method Cart.constructor",
		"32-39 method Cart.add",
		"40-44 method Cart.total", // a getter
		"45-48 function emptyCart",
		"49-50 function format",
		"51-56 module Internal", // namespace
		"57-57 block",           // export default Cart
	}},
	{file: "widget.tsx", want: []string{
		"1-2 preamble",
		"3-4 type Props",
		"5-8 function Widget", // export default function, longer than 300 bytes
		"9-15 function Widget (part 2)",
		"16-16 function Badge",
	}},
	{file: "Ledger.java", want: []string{
		"1-9 preamble",
		"10-13 class Ledger",       // the class's doc comment and header
		"14-19 class Ledger.Entry", // a record, and the fields after it
		"20-23 method Ledger.Ledger",
		"24-32 method Ledger.book", // doc comment and annotation
		"33-36 method Ledger.balance",
		"37-41 method Ledger.iterator",
		"42-43 enum Ledger.Kind",
		"44-47 interface Ledger.Listener", // and the class's closing brace
	}},
	{file: "lib.rs", want: []string{
		"1-7 preamble", // //! docs and use declarations
		"8-10 constant MAX",
		"11-17 type Money", // doc comment and #[derive]
		"18-23 enum Currency",
		"24-28 interface Convert",
		"29-39 impl Money",
		"40-45 impl fmt::Display for Money",
		"46-52 impl Add for Money",
		"53-58 macro money",
		"59-60 type Result",
		"61-69 module tests",
		"70-73 function round_half_even",
	}},
	{file: "buf.c", want: []string{
		"1-6 preamble",
		"7-8 macro BUF_MIN",
		"9-14 type buf",
		"15-16 type buf_t",
		"17-18 enum buf_err",
		"19-20 function grow", // the prototype
		"21-26 function buf_new",
		"27-36 function buf_append",
		"37-49 function grow",
		"50-50 variable buf_count",
	}},
	{file: "shape.cpp", want: []string{
		"1-5 preamble",
		"6-7 module geo",
		"8-14 class geo::Shape",
		"15-22 class geo::Circle",
		"23-24 type geo::Point",
		"25-29 function geo::clamp", // template
		"30-33 function geo::total_area",
		"34-39 function geo::total_area",
		"40-42 function main",
	}},
	{file: "stack.h", want: []string{ // C++ in a .h file
		"1-5 preamble",
		"6-7 module util",
		"8-10 class util::Stack",
		"11-15 method util::Stack::push",
		"16-16 method util::Stack::pop",
		"17-24 method util::Stack::size",
	}, heuristic: []string{
		"1-5 preamble",
		"6-7 module util",
		"8-9 class util::Stack",
		"10-15 method util::Stack::push",
		"16-16 method util::Stack::pop",
		"17-24 method util::Stack::size",
	}},
	{file: "guide.md", want: []string{
		"1-4 preamble", // frontmatter
		"5-8 section # Billing",
		"9-17 section ## Rounding", // the "# not a heading" in the fence stays
		"18-21 section ## Currencies",
		"22-24 section ### Rates",
	}},
}

func TestSplitUnits(t *testing.T) {
	files, _ := filepath.Glob("testdata/src/*")
	if len(files) != len(unitTests) {
		t.Errorf("%d files in testdata/src, %d tests", len(files), len(unitTests))
	}
	for _, tt := range unitTests {
		t.Run(tt.file, func(t *testing.T) {
			src, err := os.ReadFile(filepath.Join("testdata/src", tt.file))
			if err != nil {
				t.Fatal(err)
			}
			lang := Language(tt.file)
			heuristic := tt.heuristic
			if heuristic == nil {
				heuristic = tt.want
			}
			want := tt.want
			if lang != "go" && lang != "markdown" && !hasGrammar(lang) {
				want = heuristic // a build without cgo
			}
			if diff := cmp.Diff(want, lines(splitWith(tt.file, src, 300, 1))); diff != "" {
				t.Errorf("Split with %s (-want +got):\n%s", Backend, diff)
			}
			if lang == "markdown" {
				return
			}
			if diff := cmp.Diff(heuristic, lines(heuristicChunks(tt.file, src, 300, 1))); diff != "" {
				t.Errorf("heuristics (-want +got):\n%s", diff)
			}
		})
	}
}

// TestSplitCases checks one behaviour each, in every build.
func TestSplitCases(t *testing.T) {
	tests := []struct {
		name, path, src string
		max, min        int
		want            []string
	}{{
		name: "comments", path: "a.go",
		src: "package p\n\n// free comment\n\n// F does.\nfunc F() {} // trailing\n\n\n// G does.\nfunc G() {}\n",
		max: MaxChunkBytes, min: 1,
		want: []string{"1-2 preamble", "3-8 function F", "9-10 function G"},
	}, {
		name: "merge tiny", path: "a.go",
		src: "package p\n\nfunc A() {}\n\nfunc B() {}\n\nfunc C() {}\n\ntype T int\n",
		max: MaxChunkBytes, min: 30,
		want: []string{"1-2 preamble", "3-8 function A, B, C", "9-9 type T"},
	}, {
		name: "parts", path: "a.go",
		src: "package p\n\nfunc F() {\n" + strings.Repeat("\tx := 1\n", 30) + "}\n",
		max: 100, min: 1,
		// 253 bytes in three parts of about 85, cut at lines.
		want: []string{"1-2 preamble", "3-12 function F", "13-23 function F (part 2)", "24-34 function F (part 3)"},
	}, {
		name: "parts at blank lines", path: "a.txt",
		src: strings.Repeat("aaaaaaaaa\n", 5) + "\n" + strings.Repeat("bbbbbbbbb\n", 8),
		max: 100, min: 1,
		want: []string{"1-6 block", "7-14 block"},
	}, {
		name: "empty", path: "a.go", src: "", max: MaxChunkBytes, min: 1, want: []string{},
	}, {
		name: "not Go", path: "a.go", // no package clause: the heuristics
		src: "func F() {\n\treturn\n}\n\nfunc (s *S) M() {}\n",
		max: MaxChunkBytes, min: 1,
		want: []string{"1-4 function F", "5-5 method (*S).M"},
	}, {
		name: "syntax error", path: "a.go",
		src: "package p\n\nfunc F() {\n\tif {\n}\n\nfunc G() {}\n",
		max: MaxChunkBytes, min: 1,
		want: []string{"1-2 preamble", "3-7 function F"},
	}, {
		name: "markdown", path: "a.md",
		src: "Intro.\n\n## One ##\ntext\n```\n## fenced\n```\n  ### Two\n#nope\n####### seven\n",
		max: MaxChunkBytes, min: 1,
		want: []string{"1-2 preamble", "3-7 section ## One", "8-10 section ### Two"},
	}, {
		name: "text", path: "notes.txt",
		src: "one\ntwo\n\n\nthree\n\nfour\n",
		max: MaxChunkBytes, min: 1,
		want: []string{"1-4 block", "5-6 block", "7-7 block"},
	}, {
		name: "text merged", path: "notes.txt",
		src: "one\ntwo\n\n\nthree\n\nfour\n",
		max: MaxChunkBytes, min: MinChunkBytes,
		want: []string{"1-7 block"},
	}, {
		name: "python heuristics", path: "a.py",
		src: "import os\n\n@decorator\nclass A(B):\n    '''Doc.'''\n\n    def f(self,\n          x):\n        return (x +\n# a comment at column 0\n            1)\n\n\nasync def g():\n    pass\nX = 1\n",
		max: 60, min: 1,
		want: nil, // checked below against the heuristics only
	}}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			got := splitWith(tt.path, []byte(tt.src), tt.max, tt.min)
			if e := tilingError([]byte(tt.src), got, tt.max); e != "" {
				t.Fatal(e)
			}
			if tt.want == nil {
				return
			}
			if diff := cmp.Diff(tt.want, lines(got)); diff != "" {
				t.Errorf("(-want +got):\n%s", diff)
			}
		})
	}
	// Python by indentation, in every build.
	src := []byte(tests[len(tests)-1].src)
	// f goes on past the comment at column 0, to its last indented line.
	want := []string{"1-2 preamble", "3-6 class A", "7-9 method A.f", "10-13 method A.f (part 2)", "14-15 function g", "16-16 variable X"}
	if diff := cmp.Diff(want, lines(heuristicChunks("a.py", src, 60, 1))); diff != "" {
		t.Errorf("python heuristics (-want +got):\n%s", diff)
	}
}

// TestLongLine checks that a line longer than the limit is cut at
// character boundaries.
func TestLongLine(t *testing.T) {
	src := []byte(strings.Repeat("aé€😀", 5000))
	for _, path := range []string{"a.js", "a.txt", "a.py"} {
		chunks := Split(path, src)
		if e := tilingError(src, chunks, MaxChunkBytes); e != "" {
			t.Fatalf("%s: %s", path, e)
		}
		if len(chunks) < 3 {
			t.Fatalf("%s: %d chunks for %d bytes", path, len(chunks), len(src))
		}
		for _, c := range chunks {
			if !utf8.Valid(src[c.Start:c.End]) {
				t.Fatalf("%s: chunk %d [%d, %d) cuts a character", path, c.Seq, c.Start, c.End)
			}
		}
	}
}

// TestName checks the chunker's name that plans carry and their digests
// cover: the backend of this build and the version, on one line.
func TestName(t *testing.T) {
	backend := map[bool]string{true: "go/parser+tree-sitter", false: "go/parser+heuristics"}[hasGrammar("python")]
	if got, want := Name(), fmt.Sprintf("%s v%d", backend, Version); got != want || strings.ContainsAny(got, "\r\n") {
		t.Errorf("Name() = %q, want %q", got, want)
	}
}

func TestLanguage(t *testing.T) {
	tests := map[string]string{
		"a.go": "go", "dir/b.PY": "python", "c.test.ts": "typescript", "d.tsx": "tsx", "e.jsx": "jsx",
		"f.mjs": "javascript", "G.java": "java", "h.rs": "rust", "i.c": "c", "i.h": "c", "j.hpp": "cpp",
		"k.cc": "cpp", "README.md": "markdown", "notes.txt": "", "Makefile": "make", "noext": "",
		".bashrc": "", "a\\b.go": "go", "x.cs": "csharp", "y.kt": "kotlin",
	}
	for p, want := range tests {
		if got := Language(p); got != want {
			t.Errorf("Language(%q) = %q, want %q", p, got, want)
		}
	}
}

// TestKinds checks that every kind a front end can make is a Kind constant.
func TestKinds(t *testing.T) {
	for _, k := range []string{KindPreamble, KindFunction, KindMethod, KindClass, KindType, KindInterface,
		KindEnum, KindImpl, KindModule, KindMacro, KindVariable, KindConstant, KindSection, KindBlock} {
		if !slices.Contains(kinds, k) {
			t.Errorf("kind %q missing from the test vocabulary", k)
		}
	}
}
