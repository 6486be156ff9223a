package lexical

import (
	"slices"
	"testing"
)

func TestBM25(t *testing.T) {
	texts := []string{
		"Division needs an explicit rounding rule for every invoice.",
		"Render the invoice PDF on the job queue.",
		"Nothing to see here.",
	}
	got := BM25("what decides invoice rounding", texts)
	if len(got) != 3 {
		t.Fatalf("BM25 gave %d scores for 3 texts", len(got))
	}
	if !slices.Equal(got[0].Terms, []string{"invoice", "rounding"}) || !slices.Equal(got[1].Terms, []string{"invoice"}) || got[2].Terms != nil {
		t.Errorf("terms = %q, %q, %q; want [invoice rounding], [invoice], none (the stop word what left out)", got[0].Terms, got[1].Terms, got[2].Terms)
	}
	if !(got[0].Score > got[1].Score && got[1].Score > 0 && got[2].Score == 0) {
		t.Errorf("scores = %v, %v, %v; want the text with both terms first and the one with none at 0", got[0].Score, got[1].Score, got[2].Score)
	}
	if again := BM25("what decides invoice rounding", texts); !slices.EqualFunc(got, again, func(a, b Scored) bool { return a.Score == b.Score && slices.Equal(a.Terms, b.Terms) }) {
		t.Errorf("BM25 differs between runs: %v, %v", got, again)
	}
	if z := BM25("", texts); z[0].Score != 0 || z[0].Terms != nil {
		t.Errorf("an empty query scored %v", z[0])
	}
}
