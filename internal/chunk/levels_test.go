package chunk

import (
	"flag"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"
	"github.com/rogpeppe/go-internal/txtar"
)

var update = flag.Bool("update", false, "rewrite the summary and detailed sections of testdata/levels/*.txtar")

// TestLevelsGolden reads the "input" section of each
// testdata/levels/*.txtar as the file named by its "path" section and
// compares Levels with the "summary" and "detailed" sections.
func TestLevelsGolden(t *testing.T) {
	files, err := filepath.Glob("testdata/levels/*.txtar")
	if err != nil {
		t.Fatal(err)
	}
	if len(files) == 0 {
		t.Fatal("no testdata/levels/*.txtar files")
	}
	for _, file := range files {
		t.Run(strings.TrimSuffix(filepath.Base(file), ".txtar"), func(t *testing.T) {
			ar, err := txtar.ParseFile(file)
			if err != nil {
				t.Fatal(err)
			}
			sections := map[string]string{}
			for _, f := range ar.Files {
				sections[f.Name] = string(f.Data)
			}
			path := strings.TrimSpace(sections["path"])
			input, ok := sections["input"]
			if path == "" || !ok {
				t.Fatal(`need a "path" and an "input" section`)
			}
			if lang := Language(path); lang != "go" && lang != "markdown" && !hasGrammar(lang) {
				t.Skipf("%s levels come from tree-sitter, which needs cgo (Backend %s)", lang, Backend)
			}
			summary, detailed := Levels(path, []byte(input))
			if *update {
				ar.Files = []txtar.File{
					{Name: "path", Data: []byte(path + "\n")},
					{Name: "input", Data: []byte(input)},
					{Name: "summary", Data: []byte(summary)},
					{Name: "detailed", Data: []byte(detailed)},
				}
				if err := os.WriteFile(file, txtar.Format(ar), 0o644); err != nil {
					t.Fatal(err)
				}
				return
			}
			for name, got := range map[string]string{"summary": summary, "detailed": detailed} {
				want, ok := sections[name]
				if !ok {
					t.Errorf("no %q section; run go test -update", name)
					continue
				}
				if diff := cmp.Diff(want, got); diff != "" {
					t.Errorf("%s (-want +got):\n%s", name, diff)
				}
			}
		})
	}
}

// TestLevelsCases checks what Levels leaves out.
func TestLevelsCases(t *testing.T) {
	tests := []struct {
		name, path, src   string
		summary, detailed string
	}{{
		name: "plain text", path: "a.txt", src: "Some notes.\n\nMore notes.\n",
	}, {
		name: "nothing to elide", path: "a.go",
		src:     "// Package p is small.\npackage p\n\n// T is a type.\ntype T struct{ A int }\n\nfunc (T) M() int { return 1 }\n",
		summary: "// Package p is small.\n\ntype: type T struct\nmethod: func (T) M() int\n",
	}, {
		name: "no symbols", path: "a.py", src: "#!/usr/bin/env python3\nprint('hello')\n",
	}, {
		name: "markdown", path: "a.md",
		src:      "Lead paragraph\nstill lead.\n\nSecond paragraph.\n\n## One\n\nFirst of one.\n\nSecond of one.\n\n## Two\n```sh\nrun\n```\nafter\n",
		summary:  "Lead paragraph\nstill lead.\n\n## One\n## Two\n",
		detailed: "Lead paragraph\nstill lead.\n\n## One\n\nFirst of one.\n\n## Two\n\n```sh\nrun\n```\n",
	}, {
		name: "go body and literals", path: "a.go",
		src:      "package p\n\nvar m = map[string]int{\n\t\"alpha\": 1,\n\t\"beta\":  2,\n}\n\nvar f = func() {\n\tprintln(\"one\")\n\tprintln(\"two\")\n}\n\nfunc F() {\n\tprintln(\"one\")\n\n\tprintln(\"two\")\n}\n\nfunc G() {\n\treturn\n}\n",
		summary:  "variable: var m = map[string]int{ … }\nvariable: var f = func() { … }\nfunction: func F()\nfunction: func G()\n",
		detailed: "package p\n\nvar m = map[string]int{ /* … 2 lines elided */ }\n\nvar f = func() { /* … 2 lines elided */ }\n\nfunc F() { /* … 3 lines elided */ }\n\nfunc G() {\n\treturn\n}\n",
	}, {
		// Python's comments end the line: the bracket closes on the next.
		name: "python body and literal", path: "a.py",
		src:      "RATES = {\n    \"alpha\": 1,\n    \"beta\": 2,\n}\n\n\ndef f(x):\n    \"\"\"Doc.\"\"\"\n    y = x + 1\n    return y * 2\n\n\ndef g():\n    pass\n",
		summary:  "variable: RATES = { … }\nfunction: def f(x):\nfunction: def g():\n",
		detailed: "RATES = {  # … 2 lines elided\n}\n\n\ndef f(x):\n    \"\"\"Doc.\"\"\"\n    # … 2 lines elided\n\n\ndef g():\n    pass\n",
	}}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			s, d := Levels(tt.path, []byte(tt.src))
			if diff := cmp.Diff(tt.summary, s); diff != "" {
				t.Errorf("summary (-want +got):\n%s", diff)
			}
			if diff := cmp.Diff(tt.detailed, d); diff != "" {
				t.Errorf("detailed (-want +got):\n%s", diff)
			}
		})
	}
}
