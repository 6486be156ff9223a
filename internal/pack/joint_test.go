package pack

import (
	"errors"
	"fmt"
	"strings"
	"testing"

	"github.com/ctxpack/ctxpack/internal/tokenizer"
)

// In the doc format a run header ends in a newline and the body after it
// may start with "/" or a newline, which o200k_base joins to that
// newline. The count must be that of the emitted text at every budget.
// (It once added the header's and the body's counts: a plan said 9
// tokens for a 10-token output within a budget of 9.)
func TestDocRunHeaderJoint(t *testing.T) {
	tok, err := tokenizer.Get("o200k_base")
	if err != nil {
		t.Fatal(err)
	}
	bodies := []string{"/* c */\n", "/x\n", "// Package a\n", "\n", "\n\npackage a\n", "x\n"}
	var parts []Part
	for i, b := range bodies {
		// No path: a lowered part's note ("[meta]") names no command, and
		// the joints stay short enough to fall over the budget.
		parts = append(parts, Part{Key: fmt.Sprintf("p%d", i), Score: 1 - float64(i)/10, Text: full(b)})
	}
	for budget := 1; budget <= 60; budget++ {
		for _, ov := range []Overflow{Drop, Degrade, Truncate} {
			res, err := Assemble(parts, Options{Budget: budget, Tokenizer: tok, Format: "doc", Overflow: ov})
			if err != nil {
				continue
			}
			got := tok.Count(string(res.Output))
			if res.Plan.TotalTokens != got || got > budget {
				t.Errorf("budget %d, %s: plan says %d tokens, the output has %d", budget, ov, res.Plan.TotalTokens, got)
			}
		}
	}
}

// A doc-format run header names the first block of its run, so parts of
// one document (Part.Doc) with different paths have different headers.
// The count must be that of the header shown. (It once kept one count per
// document: a plan said 24 tokens for a 39-token output.)
func TestDocRunHeaderOfEachPath(t *testing.T) {
	tok, err := tokenizer.Get("o200k_base")
	if err != nil {
		t.Fatal(err)
	}
	parts := []Part{
		{Key: "a", Path: "a.go", Doc: "d", Score: 0.5, Text: full("alpha\n")},
		{Key: "b", Path: "some/much/longer/path/name/that/has/more/tokens.go", Doc: "d", Score: 0.9, Text: full("beta\n")},
		{Key: "c", Path: "c.go", Score: 0.7, Text: full("gamma\n")},
	}
	for _, st := range []Strategy{Greedy, Interleaved, ByScore} {
		for budget := 1; budget <= 60; budget++ {
			res, err := Assemble(parts, Options{Budget: budget, Tokenizer: tok, Format: "doc", Strategy: st, Overflow: Drop})
			if err != nil {
				t.Fatal(err)
			}
			got := tok.Count(string(res.Output))
			if res.Plan.TotalTokens != got || got > budget {
				t.Fatalf("budget %d, %s: plan says %d tokens, the output has %d:\n%s", budget, st, res.Plan.TotalTokens, got, res.Output)
			}
		}
	}
}

// When verification removes a step that fit by its pieces' counts, the
// plan's reasons do not claim the part needs a budget at or below the one
// given, and say what happened, for a part dropped and a part lowered.
func TestVerifyRemovedReasons(t *testing.T) {
	tok, err := tokenizer.Get("o200k_base")
	if err != nil {
		t.Fatal(err)
	}
	bodies := []string{"/* c */\n", "/x\n", "// Package a\n", "\n", "\n\npackage a\n", "x\n"}
	var parts []Part
	for i, b := range bodies {
		// No path: a lowered part's note ("[meta]") names no command, and
		// the joints stay short enough to fall over the budget.
		parts = append(parts, Part{Key: fmt.Sprintf("p%d", i), Score: 1 - float64(i)/10,
			Text: map[Level]string{Meta: "/m\n", Full: "/* c */\n" + b + b}})
	}
	dropped, lowered := 0, 0
	for budget := 1; budget <= 100; budget++ {
		for _, ov := range []Overflow{Drop, Degrade, Truncate} {
			o := Options{Budget: budget, Tokenizer: tok, Format: "doc", Overflow: ov}
			res, err := Assemble(parts, o)
			if err != nil {
				continue
			}
			o.normalize()
			checkInvariants(t, parts, o, res)
			for _, pp := range res.Plan.Parts {
				if strings.HasSuffix(pp.Reason, "the whole output counted over the budget") {
					lowered++
				}
			}
			for _, d := range res.Plan.Dropped {
				if strings.HasSuffix(d.Reason, "the whole output counted over the budget") {
					dropped++
				}
			}
		}
	}
	if dropped == 0 || lowered == 0 {
		t.Fatalf("verification dropped %d and lowered %d parts: the test no longer covers both", dropped, lowered)
	}
}

// With overflow error, an output that counts over the budget only as a
// whole (its joints cost more than its pieces) is a BudgetError too: the
// strategy fails rather than leave a part out.
func TestErrorOverflowAtVerify(t *testing.T) {
	tok, err := tokenizer.Get("o200k_base")
	if err != nil {
		t.Fatal(err)
	}
	bodies := []string{"/* c */\n", "/x\n", "// Package a\n", "\n", "\n\npackage a\n", "x\n"}
	for n := 1; n <= len(bodies); n++ {
		var parts []Part
		for i, b := range bodies[:n] {
			parts = append(parts, Part{Key: fmt.Sprintf("p%d", i), Path: fmt.Sprintf("f%d.go", i), Score: 1 - float64(i)/10, Text: full(b)})
		}
		for budget := 1; budget <= 70; budget++ {
			res, err := Assemble(parts, Options{Budget: budget, Tokenizer: tok, Format: "doc", Overflow: Error})
			var be *BudgetError
			switch {
			case errors.As(err, &be):
				if be.Need <= budget {
					t.Fatalf("%d parts, budget %d: %v", n, budget, err)
				}
			case err != nil:
				t.Fatalf("%d parts, budget %d: %v", n, budget, err)
			case len(res.Plan.Parts) != n || len(res.Plan.Dropped) != 0:
				t.Fatalf("%d parts, budget %d: %d emitted, %d dropped (%v)", n, budget, len(res.Plan.Parts), len(res.Plan.Dropped), res.Plan.Warnings)
			}
		}
	}
}
