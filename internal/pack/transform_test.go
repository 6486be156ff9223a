package pack

import (
	"slices"
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"

	"github.com/ctxpack/ctxpack/internal/tokenizer"
)

func TestTransform(t *testing.T) {
	goSrc := "package a // the package\n\n// F is f.\n/* a block\n\n   over lines */\nfunc F() string {\n\treturn \"// not a comment /* */\" + `/* raw */` // trailing\n}\n//go:generate stringer\n"
	tests := []struct {
		name  string
		tf    Transform
		path  string
		first int
		in    string
		want  string
		notes []string
	}{
		{"go comments", Transform{RemoveComments: true}, "a.go", 1, goSrc,
			"package a\n\nfunc F() string {\n\treturn \"// not a comment /* */\" + `/* raw */`\n}\n//go:generate stringer\n",
			[]string{"comments removed: 3 lines whole, 2 in part"}},
		{"go comments, empty lines, numbers", Transform{RemoveComments: true, RemoveEmptyLines: true, LineNumbers: true}, "a.go", 1, goSrc,
			" 1: package a\n 7: func F() string {\n 8: \treturn \"// not a comment /* */\" + `/* raw */`\n 9: }\n10: //go:generate stringer\n",
			[]string{"comments removed: 3 lines whole, 2 in part", "empty lines removed: 1", "line numbers added"}},
		{"numbers from the part's first line", Transform{LineNumbers: true}, "a.txt", 99, "a\nb\nc",
			" 99: a\n100: b\n101: c", []string{"line numbers added"}},
		{"python", Transform{RemoveComments: true}, "a.py", 1, "#!/usr/bin/env python\n# a comment\nx = '#no' # yes\ns = \"\"\"doc\n# not a comment\n\"\"\"\ny = r'\\'#' # z\n",
			"#!/usr/bin/env python\nx = '#no'\ns = \"\"\"doc\n# not a comment\n\"\"\"\ny = r'\\'#'\n", []string{"comments removed: 1 line whole, 2 in part"}},
		{"javascript regex and template", Transform{RemoveComments: true}, "a.js", 1, "const r = /\\/\\/x/; // c\nconst t = `// ${a} /* */`;\n/** doc */\nf();\n",
			"const r = /\\/\\/x/;\nconst t = `// ${a} /* */`;\nf();\n", []string{"comments removed: 1 line whole, 1 in part"}},
		{"crlf", Transform{RemoveComments: true}, "a.c", 1, "int x; // c\r\n// d\r\nint y;\r\n",
			"int x;\r\nint y;\r\n", []string{"comments removed: 1 line whole, 1 in part"}},
		{"unknown language", Transform{RemoveComments: true}, "a.md", 1, "# title\n<!-- c -->\n",
			"# title\n<!-- c -->\n", []string{"comments left: the language's comment syntax is not known"}},
		{"width of the last line", Transform{LineNumbers: true}, "a.txt", 1, "1\n2\n3\n4\n5\n6\n7\n8\n9\n",
			"1: 1\n2: 2\n3: 3\n4: 4\n5: 5\n6: 6\n7: 7\n8: 8\n9: 9\n", []string{"line numbers added"}},
		{"empty lines only", Transform{RemoveEmptyLines: true}, "a.md", 1, "a\n\n \t\nb\n\n",
			"a\nb\n", []string{"empty lines removed: 3"}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			got, note := tt.tf.apply(tt.path, tt.first, tt.in)
			if diff := cmp.Diff(tt.want, got); diff != "" {
				t.Errorf("text (-want +got):\n%s", diff)
			}
			if diff := cmp.Diff(tt.notes, note.strings()); diff != "" {
				t.Errorf("notes (-want +got):\n%s", diff)
			}
		})
	}
}

// TestTransformCounted: the engine counts and shows the transformed text,
// lists each part's transforms and sums them in a warning.
func TestTransformCounted(t *testing.T) {
	tok, err := tokenizer.Get("o200k_base")
	if err != nil {
		t.Fatal(err)
	}
	parts := []Part{
		{Key: "a.go", Path: "a.go", Lines: [2]int{10, 12}, Type: "code", Text: map[Level]string{Full: "x := 1 // one\n// two\ny := 2\n"}},
		{Key: "b.md", Path: "b.md", Type: "doc", Text: map[Level]string{Full: "# b\n"}},
	}
	res, err := Assemble(parts, Options{Tokenizer: tok, Budget: 1000, Transform: Transform{RemoveComments: true, LineNumbers: true}})
	if err != nil {
		t.Fatal(err)
	}
	if n := tok.Count(res.Plan.Content); n != res.Plan.TotalTokens {
		t.Errorf("total %d, content counts %d", res.Plan.TotalTokens, n)
	}
	for _, want := range []string{"10: x := 1\n12: y := 2\n", "1: # b\n"} {
		if !strings.Contains(res.Plan.Content, want) {
			t.Errorf("content lacks %q:\n%s", want, res.Plan.Content)
		}
	}
	got := map[string][]string{}
	for _, p := range res.Plan.Parts {
		got[p.Key] = p.Transforms
	}
	want := map[string][]string{
		"a.go": {"comments removed: 1 line whole, 1 in part", "line numbers added"},
		"b.md": {"comments left: the language's comment syntax is not known", "line numbers added"},
	}
	if diff := cmp.Diff(want, got); diff != "" {
		t.Errorf("transforms (-want +got):\n%s", diff)
	}
	if !slices.Contains(res.Plan.Warnings, "comments removed from 1 part: 1 line removed whole; 1 part left as they were, their language's comments not known (.md 1)") {
		t.Errorf("warnings: %q", res.Plan.Warnings)
	}
}
