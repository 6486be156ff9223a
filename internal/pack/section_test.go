package pack

import (
	"fmt"
	"slices"
	"strings"
	"testing"

	"github.com/ctxpack/ctxpack/internal/render"
	"github.com/ctxpack/ctxpack/internal/tokenizer"
)

// Parts with headings, a header and a footer (sources mode's markdown):
// each section's heading is shown once, before its first part; the footer
// counts what is shown; the count is the emitted text's at every budget,
// never over it; and nothing at all is written when no part fits.
func TestSectionsHeaderFooter(t *testing.T) {
	tok, err := tokenizer.Get("o200k_base")
	if err != nil {
		t.Fatal(err)
	}
	var parts []Part
	for i := range 12 {
		sec := i % 3
		parts = append(parts, Part{
			Key: fmt.Sprintf("s%d:%d", sec, i), Source: "memory", Type: "memory",
			Score: 1 - float64(i)/20, Section: sec, Heading: []string{"Memories", "Experiences", "Commits"}[sec],
			Bucket: []string{"m", "e", "c"}[sec],
			Text:   full(fmt.Sprintf("**Item %d**: %s\n*meta*", i, strings.Repeat("word ", 3+i))),
		})
	}
	opt := Options{
		Tokenizer: tok, Format: "markdown", Sectioned: true, Overflow: Drop,
		Policy: Policy{Buckets: []Bucket{{"m", 1}, {"e", 3}, {"c", 2}}},
		Header: "# Context\n\n",
		Footer: func(shown []*Part) string {
			heads := map[string]bool{}
			for _, p := range shown {
				heads[p.Heading] = true
			}
			return fmt.Sprintf("---\n*%d items from %d sources*\n", len(shown), len(heads))
		},
	}
	sawEmpty, sawAll := false, false
	for budget := 1; budget <= 400; budget++ {
		opt.Budget = budget
		res, err := Assemble(parts, opt)
		if err != nil {
			t.Fatal(err)
		}
		out := string(res.Output)
		got := tok.Count(out)
		if got != res.Plan.TotalTokens || got > budget {
			t.Fatalf("budget %d: plan says %d tokens, output has %d", budget, res.Plan.TotalTokens, got)
		}
		if len(res.Plan.Parts) == 0 {
			sawEmpty = true
			if out != "" {
				t.Fatalf("budget %d: no parts, output %q", budget, out)
			}
			continue
		}
		if len(res.Plan.Parts) == len(parts) {
			sawAll = true
		}
		if !strings.HasPrefix(out, "# Context\n\n## ") {
			t.Fatalf("budget %d: output starts %q", budget, out[:min(len(out), 30)])
		}
		sections := map[string]bool{}
		for _, p := range res.Plan.Parts {
			sections[strings.SplitN(p.Key, ":", 2)[0]] = true
		}
		footer := fmt.Sprintf("---\n*%d items from %d sources*\n", len(res.Plan.Parts), len(sections))
		if !strings.HasSuffix(out, footer) {
			t.Fatalf("budget %d: output does not end with %q:\n%s", budget, footer, out)
		}
		for _, h := range []string{"Memories", "Experiences", "Commits"} {
			if n := strings.Count(out, "## "+h+"\n"); n > 1 {
				t.Fatalf("budget %d: heading %s shown %d times", budget, h, n)
			}
		}
	}
	if !sawEmpty || !sawAll {
		t.Fatalf("the budgets did not span nothing (%v) to everything (%v)", sawEmpty, sawAll)
	}
}

// A part the item cap cut is reported as truncated, with its reason, and
// makes the plan's truncated true; the others are not.
func TestCutPartIsTruncated(t *testing.T) {
	tok, err := tokenizer.Get("o200k_base")
	if err != nil {
		t.Fatal(err)
	}
	long := render.Item{Head: "**Memory**: ", Body: strings.Repeat("cut text ", 40), Where: "memory:7", Note: "\n\n*(truncated)*"}
	parts := []Part{
		{Key: "a", Score: 1, Text: full("short")},
		{Key: "b", Score: 0.5, Text: full(long.Text()), Item: &long},
	}
	res, err := Assemble(parts, Options{Tokenizer: tok, Budget: 100, Policy: Policy{ItemCap: 0.5, Cut: true}})
	if err != nil {
		t.Fatal(err)
	}
	if !res.Plan.Truncated {
		t.Error("plan truncated = false")
	}
	for _, p := range res.Plan.Parts {
		if want := p.Key == "b"; p.Truncated != want {
			t.Errorf("%s: truncated %v", p.Key, p.Truncated)
		}
		if p.Key == "b" && (!strings.HasPrefix(p.Reason, "item cap: cut to ") || !strings.HasSuffix(p.Reason, "(0.5 of the budget) from 89; the whole is at memory:7")) {
			t.Errorf("b: reason %q", p.Reason)
		}
	}
}

// A cut part whose only level is below full still reports its cut, not
// the levels it lacks (sources mode at --depth summary).
func TestCutReasonWithoutFullLevel(t *testing.T) {
	tok, err := tokenizer.Get("o200k_base")
	if err != nil {
		t.Fatal(err)
	}
	long := render.Item{Head: "**Memory**: ", Body: strings.Repeat("cut text ", 40), Where: "memory:7", Note: "\n\n*(truncated)*"}
	parts := []Part{{Key: "b", Text: map[Level]string{Summary: long.Text()}, Item: &long}}
	res, err := Assemble(parts, Options{Tokenizer: tok, Budget: 100, MaxLevel: Summary, Policy: Policy{ItemCap: 0.5, Cut: true}})
	if err != nil {
		t.Fatal(err)
	}
	if p := res.Plan.Parts[0]; !p.Truncated || !strings.HasPrefix(p.Reason, "item cap: cut to ") {
		t.Errorf("truncated %v, reason %q; want the cut", p.Truncated, p.Reason)
	}
}

// In mdctx the "# System" and "# User Request" headings are counted with
// the part that starts their section, as markdown's are: at no budget does
// the final check have to remove a part the fitter placed, and a left-out
// part's need_budget is a budget at which it is shown.
func TestMDCtxSectionHeadingsCounted(t *testing.T) {
	tok, err := tokenizer.Get("o200k_base")
	if err != nil {
		t.Fatal(err)
	}
	var parts []Part
	for i := range 8 {
		p := Part{Key: fmt.Sprintf("p%d", i), Type: "evidence", Section: i, Priority: -i,
			Text: full(fmt.Sprintf("evidence %d: %s", i, strings.Repeat("word ", 5+2*i)))}
		switch i {
		case 0, 1:
			p.Heading = "System"
		case 2:
			p.Heading = "User Request"
		}
		parts = append(parts, p)
	}
	opt := Options{Tokenizer: tok, Format: "mdctx", Sectioned: true, Overflow: Drop}
	for budget := 1; budget <= 300; budget++ {
		opt.Budget = budget
		res, err := Assemble(parts, opt)
		if err != nil {
			t.Fatal(err)
		}
		for _, w := range res.Plan.Warnings {
			if strings.HasPrefix(w, "verify:") {
				t.Fatalf("budget %d: the fitter miscounted: %s", budget, w)
			}
		}
		for _, d := range res.Plan.Dropped {
			if d.NeedBudget == 0 {
				continue
			}
			opt.Budget = d.NeedBudget
			at, err := Assemble(parts, opt)
			if err != nil {
				t.Fatal(err)
			}
			if !slices.ContainsFunc(at.Plan.Parts, func(p render.PlanPart) bool { return p.Key == d.Key }) {
				t.Fatalf("budget %d: %s needs %d, but is not shown there", budget, d.Key, d.NeedBudget)
			}
		}
	}
}
