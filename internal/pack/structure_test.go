package pack

import (
	"fmt"
	"testing"

	"github.com/ctxpack/ctxpack/internal/tokenizer"
)

// TestStructure: with Options.Structure the directory structure is the
// first part, its level never falls as the budget grows (it is fitted
// like any part), a budget too small for it gives its reason, and the
// output stays within every budget.
func TestStructure(t *testing.T) {
	tok, err := tokenizer.Get("o200k_base")
	if err != nil {
		t.Fatal(err)
	}
	var parts []Part
	for d := range 6 {
		for f := range 30 {
			path := fmt.Sprintf("dir%d/sub%d/file%02d.txt", d, f%3, f)
			parts = append(parts, Part{Key: path, Path: path, Type: "doc", Score: float64(f) / 100,
				Text: map[Level]string{Meta: "text, 1 line\n", Full: fmt.Sprintf("the text of %s\n", path)}})
		}
	}
	last := Level(0)
	for budget := 40; budget <= 6000; budget += 40 {
		res, err := Assemble(parts, Options{Tokenizer: tok, Budget: budget, Structure: true, MetaAsTree: true})
		if err != nil {
			t.Fatal(err)
		}
		if res.Plan.TotalTokens > budget {
			t.Fatalf("budget %d: %d tokens", budget, res.Plan.TotalTokens)
		}
		level := Level(0)
		for i, p := range res.Plan.Parts {
			if p.Key != StructureKey {
				continue
			}
			if i != 0 {
				t.Errorf("budget %d: the structure is part %d", budget, i)
			}
			level, _ = ParseLevel(p.Level)
			if level < Full && p.Reason == "" {
				t.Errorf("budget %d: at %s with no reason", budget, level)
			}
		}
		if level < last {
			t.Fatalf("budget %d: the structure fell from %s to %v", budget, last, level)
		}
		last = level
	}
	if last != Full {
		t.Errorf("at the largest budget the structure is at %s, not full", last)
	}
}
