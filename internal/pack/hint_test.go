package pack

import (
	"strings"
	"testing"

	"github.com/ctxpack/ctxpack/internal/tokenizer"
)

func TestSummarizeCommand(t *testing.T) {
	tests := []struct {
		path  string
		lines [2]int
		want  string
	}{
		{"net/http/server.go", [2]int{343, 370}, "ctxpack summarize net/http/server.go:343-370 --depth full"},
		{"net/http/server.go", [2]int{}, "ctxpack summarize net/http/server.go --depth full"},
		{"my file.go", [2]int{1, 2}, "ctxpack summarize 'my file.go:1-2' --depth full"},
		{"it's.go", [2]int{}, `ctxpack summarize 'it'\''s.go' --depth full`},
		{"a:b.go", [2]int{5, 5}, "ctxpack summarize a:b.go:5-5 --depth full"},
	}
	for _, tt := range tests {
		if got := SummarizeCommand(tt.path, tt.lines); got != tt.want {
			t.Errorf("SummarizeCommand(%q, %v) = %q, want %q", tt.path, tt.lines, got, tt.want)
		}
	}
}

// TestHintNamesLines: a part shown at less than whole names the command
// for its own lines; one without lines names its file; Whole, when set,
// is named as it is.
func TestHintNamesLines(t *testing.T) {
	tok, err := tokenizer.Get("o200k_base")
	if err != nil {
		t.Fatal(err)
	}
	text := func(name string) map[Level]string {
		return map[Level]string{Summary: "func " + name + "()\n", Full: "// " + name + " does " + name + ".\nfunc " + name + "() {\n\treturn\n}\n"}
	}
	parts := []Part{
		{Key: "a.go#1", Type: "code", Path: "a.go", Lines: [2]int{10, 13}, Text: text("A"), Seq: 1},
		{Key: "b.go", Type: "code", Path: "b.go", Text: text("B")},
		{Key: "c.go", Type: "code", Path: "c.go", Lines: [2]int{1, 4}, Text: text("C"), Whole: SummarizeCommand("c.go", [2]int{})},
	}
	res, err := Assemble(parts, Options{Tokenizer: tok, Format: "text", Budget: 10000, MaxLevel: Summary})
	if err != nil {
		t.Fatal(err)
	}
	for _, want := range []string{
		"=== CODE: a.go#1 (summary of lines 10-13; full: ctxpack summarize a.go:10-13 --depth full) ===\n",
		"=== CODE: b.go (summary; full: ctxpack summarize b.go --depth full) ===\n",
		"=== CODE: c.go (summary of lines 1-4; full: ctxpack summarize c.go --depth full) ===\n",
	} {
		if !strings.Contains(string(res.Output), want) {
			t.Errorf("no %q in:\n%s", want, res.Output)
		}
	}
}
