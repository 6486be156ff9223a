package pack

import (
	"fmt"
	"slices"
	"strings"
	"testing"

	"github.com/ctxpack/ctxpack/internal/render"
	"github.com/ctxpack/ctxpack/internal/tokenizer"
)

// TestSplit: for each budget and format, every output of Split counts
// within the budget on its rendered content, the outputs show every part
// the unbudgeted assembly shows, in its order, a part too large for one
// output in pieces that cover its lines once, and an exact copy stays the
// line naming the part it repeats.
func TestSplit(t *testing.T) {
	tok, err := tokenizer.Get("o200k_base")
	if err != nil {
		t.Fatal(err)
	}
	var parts []Part
	for i := range 12 {
		var b strings.Builder
		for j := range 5 + 40*(i%4) {
			fmt.Fprintf(&b, "func f%d_%d() int { return %d * %d }\n", i, j, i, j)
		}
		path := fmt.Sprintf("src/f%02d.go", i)
		parts = append(parts, Part{Key: path, Path: path, Type: "code", Lang: "go", Lines: [2]int{1, 5 + 40*(i%4)}, Text: map[Level]string{Full: b.String()}})
	}
	long := strings.Repeat("word ", 3000) + "\n" // one line over every budget below
	parts = append(parts,
		Part{Key: "copy.go", Path: "copy.go", Type: "code", Text: map[Level]string{Full: parts[0].Text[Full]}},
		Part{Key: "long.txt", Path: "long.txt", Type: "text", Lines: [2]int{1, 2}, Text: map[Level]string{Full: "first\n" + long}},
	)
	for _, format := range []render.Format{render.Text, render.XML, render.Markdown, render.Doc, render.JSON} {
		for _, budget := range []int{300, 1000, 5000} {
			t.Run(fmt.Sprintf("%s/%d", format, budget), func(t *testing.T) {
				opt := Options{Tokenizer: tok, Format: format, Overflow: Allow, ShowCopies: true, DedupThreshold: 1}
				outs, err := Split(parts, opt, budget)
				if err != nil {
					t.Fatal(err)
				}
				var keys []string
				copies := 0
				lines := map[string][][2]int{}
				for i, r := range outs {
					if n := tok.Count(r.Plan.Content); n > budget || n != r.Plan.TotalTokens {
						t.Errorf("output %d: %d tokens (plan: %d), budget %d", i+1, n, r.Plan.TotalTokens, budget)
					}
					if r.Plan.Split == nil || r.Plan.Split.Index != i+1 || r.Plan.Split.Count != len(outs) {
						t.Errorf("output %d: split %+v", i+1, r.Plan.Split)
					}
					for _, p := range r.Plan.Parts {
						if len(keys) == 0 || keys[len(keys)-1] != p.Path {
							keys = append(keys, p.Path)
						}
						if p.Lines != nil {
							lines[p.Path] = append(lines[p.Path], *p.Lines)
						}
						if strings.HasPrefix(p.Reason, "same as copy.go") {
							copies++
						}
					}
				}
				if copies != 1 {
					t.Errorf("%d parts shown as copies of copy.go, want src/f00.go alone", copies)
				}
				all, err := Assemble(parts, opt)
				if err != nil {
					t.Fatal(err)
				}
				var want []string
				for _, p := range all.Plan.Parts {
					want = append(want, p.Path)
				}
				if !slices.Equal(keys, want) {
					t.Errorf("paths %v, want %v", keys, want)
				}
				for path, ls := range lines {
					next := 1
					for _, l := range ls {
						if l[0] != next && !(l[0] == next-1 && l[0] == l[1]) {
							t.Errorf("%s: pieces %v do not follow one another", path, ls)
							break
						}
						next = l[1] + 1
					}
				}
			})
		}
	}
	if _, err := Split(parts, Options{Tokenizer: tok}, 0); err == nil {
		t.Error("budget 0: no error")
	}
}

// TestSplitTransformWarnings: every output's plan sums what the
// transforms did in all the outputs, not in its own alone.
func TestSplitTransformWarnings(t *testing.T) {
	tok, err := tokenizer.Get("o200k_base")
	if err != nil {
		t.Fatal(err)
	}
	var parts []Part
	for i := range 8 {
		path := fmt.Sprintf("f%d.go", i)
		parts = append(parts, Part{Key: path, Path: path, Type: "code", Text: map[Level]string{Full: strings.Repeat(fmt.Sprintf("// a comment\nvar x%d = 1\n", i), 20)}})
	}
	outs, err := Split(parts, Options{Tokenizer: tok, Overflow: Allow, Transform: Transform{RemoveComments: true}}, 200)
	if err != nil {
		t.Fatal(err)
	}
	if len(outs) < 2 {
		t.Fatalf("%d outputs", len(outs))
	}
	want := "comments removed from 8 parts: 160 lines removed whole"
	for i, r := range outs {
		if n := strings.Count(strings.Join(r.Plan.Warnings, "\n"), "comments removed"); n != 1 || !slices.Contains(r.Plan.Warnings, want) {
			t.Errorf("output %d: warnings %q, want %q once", i+1, r.Plan.Warnings, want)
		}
	}
}
