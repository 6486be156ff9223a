package pack

import (
	"fmt"
	"strings"
	"testing"

	"github.com/ctxpack/ctxpack/internal/render"
	"github.com/ctxpack/ctxpack/internal/tokenizer"
)

// With MetaAsTree, the parts the budget leaves at their metadata level
// are lines of one directory tree, not blocks of their own: the room
// their blocks took raises other parts, the output stays within the
// budget, and each part in the tree is listed with its reason.
func TestMetaAsTree(t *testing.T) {
	var parts []Part
	for i := range 30 {
		body := strings.Repeat(fmt.Sprintf("line %d of the file\n", i), 10+i)
		parts = append(parts, Part{
			Key: fmt.Sprintf("pkg%d/file%02d.go", i%3, i), Path: fmt.Sprintf("pkg%d/file%02d.go", i%3, i), Type: "source",
			Score: 1 - float64(i)/100,
			Text:  map[Level]string{Meta: fmt.Sprintf("go, %d lines, %d bytes\n", 10+i, len(body)), Full: body},
		})
	}
	tok, err := tokenizer.Get("o200k_base")
	if err != nil {
		t.Fatal(err)
	}
	for _, budget := range []int{200, 400, 800, 1500} {
		plain, err := Assemble(parts, Options{Budget: budget, Tokenizer: tok})
		if err != nil {
			t.Fatal(err)
		}
		var res *Result
		res, err = Assemble(parts, Options{Budget: budget, Tokenizer: tok, MetaAsTree: true})
		if err != nil {
			t.Fatal(err)
		}
		p := res.Plan
		if p.TotalTokens > budget || p.TotalTokens != tok.Count(string(res.Output)) {
			t.Fatalf("budget %d: total %d, output counts %d", budget, p.TotalTokens, tok.Count(string(res.Output)))
		}
		full := func(p render.Plan) int {
			n := 0
			for _, pp := range p.Parts {
				if pp.Level == "full" && pp.Key != TreeKey {
					n++
				}
			}
			return n
		}
		if full(p) <= full(plain.Plan) {
			t.Errorf("budget %d: %d parts in full with the tree, %d without", budget, full(p), full(plain.Plan))
		}
		if len(p.Parts) == 0 || p.Parts[0].Key != TreeKey || !strings.HasPrefix(string(res.Output), "=== TREE: ") {
			t.Fatalf("budget %d: the tree is not the first part:\n%s", budget, res.Output)
		}
		listed := 0
		for _, pp := range p.Parts {
			if pp.Level == "meta" {
				t.Errorf("budget %d: %s shown at meta, not in the tree", budget, pp.Key)
			}
		}
		for _, d := range p.Dropped {
			if !strings.HasPrefix(d.Reason, render.ReasonTree+": meta") {
				t.Errorf("budget %d: %s dropped: %s", budget, d.Key, d.Reason)
			}
			listed++
		}
		if listed+len(p.Parts)-1 != len(parts) {
			t.Errorf("budget %d: %d in the tree and %d shown, of %d", budget, listed, len(p.Parts)-1, len(parts))
		}
		// The tree names every part in it, or its folded directory.
		for _, d := range p.Dropped {
			dir := d.Path[:strings.Index(d.Path, "/")+1]
			if !strings.Contains(string(res.Output), d.Path[len(dir):]+" ") && !strings.Contains(string(res.Output), dir+" (") {
				t.Errorf("budget %d: %s is not in the tree:\n%s", budget, d.Path, res.Output)
			}
		}
	}
	// A budget too small for the tree shows the metadata lines as before
	// (50 tokens: a metadata line with its level note fits, the tree not).
	res, err := Assemble(parts, Options{Budget: 50, Tokenizer: tok, MetaAsTree: true})
	if err != nil {
		t.Fatal(err)
	}
	if strings.Contains(string(res.Output), "TREE") || len(res.Plan.Parts) == 0 {
		t.Errorf("budget 50: %s", res.Output)
	}
}
