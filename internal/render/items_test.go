package render

import (
	"os"
	"path/filepath"
	"testing"

	"github.com/google/go-cmp/cmp"
	"github.com/rogpeppe/go-internal/txtar"
)

// itemCases are items of every kind, with the fields that change their
// form set and unset.
func itemCases() []struct {
	name string
	item Item
} {
	exp := Experience{
		Key: "experience:12", Domain: "billing", Strategy: "bisect-history",
		Goal: "find why the\ninvoice total drifts", Hypothesis: "rounding happens twice", Action: "bisect the history",
		Prediction: "a commit that rounds per line", Outcome: "falsified", Result: "rounding happens once",
		Surprise: "the drift came from the exchange rate", Lesson: "check the rate's scale first",
		Confidence: "gold", Iterations: 3,
	}
	bare := Experience{Key: "experience:7", Domain: "debugging", Goal: "g", Outcome: "confirmed", Result: "r", Hypothesis: "  ", Confidence: "bronze", Iterations: 1}
	return []struct {
		name string
		item Item
	}{
		{"memory", Memory{Key: "memory:42", Content: "Invoice totals round half-even.\n\nOnce, at the end.", Category: "decision", Importance: 0.875}.Item()},
		{"experience", exp.Item()},
		{"experience-bare", bare.Item()},
		{"strategy", exp.StrategyItem()},
		{"surprise", exp.SurpriseItem()},
		{"surprise-no-strategy", bare.SurpriseItem()},
		{"root-cause", exp.RootCauseItem()},
		{"value", Value{Key: "value:3", Axis: "full", Text: "Round money once, at the end."}.Item()},
		{"value-derived", Value{Key: "value:4", Axis: "strategy", ClusterSize: 5, Text: "Bisect first.", From: "experience:12"}.Item()},
		{"commit", Commit{Short: "1a2b3c4", Author: "Ada\nLovelace", Time: 1_704_164_645, Message: "fix rounding\n\nRound once.\n",
			Files: []string{"a.go", "b.go", "c.go", "d.go", "e.go", "f.go", "g.go", "h.go", "i.go"}, Insertions: 12, Deletions: 3}.Item()},
		{"commit-no-files", Commit{Short: "5d6e7f8", Author: "Ada", Time: 0, Message: "empty"}.Item()},
		{"code", Code{Kind: "function", Name: "RoundTotal", Path: "billing/invoice.go", Line: 3,
			Text: "// RoundTotal rounds.\nfunc RoundTotal(c float64) int64 {\n\treturn int64(c + 0.5) // ```\n}", Lang: "go", Summary: "func RoundTotal(c float64) int64\n"}.Item()},
		{"code-defaults", Code{Path: "notes/a.txt", Line: 1, Text: "first\n\nsecond"}.Item()},
		{"artifact", Artifact{Type: "spec", ID: "SPEC-BILLING-001", Path: ".ctxpack/system/specs/SPEC-BILLING-001.md",
			Via: []string{"TASK-042", "SPEC-BILLING-001"}, Text: "---\nid: SPEC-BILLING-001\n---\n# Billing", Summary: "---\nid: SPEC-BILLING-001\n---\n"}.Item()},
	}
}

// TestItems renders every item kind whole, at depth summary, at depth
// meta and cut to its first 12 bytes, against testdata/items/items.txtar.
func TestItems(t *testing.T) {
	const file = "testdata/items/items.txtar"
	var got txtar.Archive
	got.Comment = []byte("The items of sources mode and premortem (items_test.go): each kind whole,\nat depth summary, at depth meta, and cut. Update with go test -run TestItems -update.\n")
	for _, c := range itemCases() {
		cut := c.item.Body[:min(12, len(c.item.Body))]
		for _, v := range []struct{ suffix, text string }{
			{"", c.item.Text()}, {".summary", c.item.Summary().Text()}, {".meta", c.item.Meta().Text()}, {".cut", c.item.Cut(cut)},
		} {
			got.Files = append(got.Files, txtar.File{Name: c.name + v.suffix, Data: []byte(v.text + "\n")})
		}
		if c.item.Where == "" || c.item.Note == "" {
			t.Errorf("%s: no Where (%q) or Note (%q)", c.name, c.item.Where, c.item.Note)
		}
	}
	if *update {
		if err := os.WriteFile(file, txtar.Format(&got), 0o644); err != nil {
			t.Fatal(err)
		}
		return
	}
	want, err := txtar.ParseFile(filepath.FromSlash(file))
	if err != nil {
		t.Fatal(err)
	}
	if diff := cmp.Diff(string(txtar.Format(want)), string(txtar.Format(&got))); diff != "" {
		t.Errorf("items (-want +got):\n%s", diff)
	}
}

func TestHeadersAndFooters(t *testing.T) {
	for _, tt := range []struct{ got, want string }{
		{ContextFooter(1, 1), "---\n*1 item from 1 source*\n"},
		{ContextFooter(9, 3), "---\n*9 items from 3 sources*\n"},
		{PremortemHeader("debugging with\nbisect"), "# Premortem: debugging with bisect\n\n"},
		{PremortemFooter(1), "---\n*Based on 1 past experience*\n"},
		{PremortemFooter(0), "---\n*Based on 0 past experiences*\n"},
		{capitalize(""), ""},
	} {
		if tt.got != tt.want {
			t.Errorf("got %q, want %q", tt.got, tt.want)
		}
	}
}
