package lexical

import (
	"cmp"
	"slices"
	"testing"
)

// TestTopKWidens checks that TopK fetches more until the k best are
// settled when ties cross the limit, and orders them as finish does.
func TestTopKWidens(t *testing.T) {
	type c struct {
		id    int
		score float64
	}
	// 100 candidates tie for first place, best first in reverse id order,
	// so that the first fetch (limit 4*k+16 = 24) holds none of the ids
	// that the tie order puts first.
	var all []c
	for i := 100; i > 0; i-- {
		all = append(all, c{i, 1})
	}
	all = append(all, c{0, 0.5})
	var limits []int
	fetch := func(limit int) ([]c, error) {
		limits = append(limits, limit)
		return all[:min(limit, len(all))], nil
	}
	finish := func(cs []c) ([]int, error) {
		cs = slices.Clone(cs)
		slices.SortFunc(cs, func(a, b c) int { return cmp.Or(cmp.Compare(b.score, a.score), cmp.Compare(a.id, b.id)) })
		ids := make([]int, len(cs))
		for i, x := range cs {
			ids[i] = x.id
		}
		return ids, nil
	}
	got, err := TopK(2, fetch, func(x c) float64 { return x.score }, finish)
	if err != nil || !slices.Equal(got, []int{1, 2}) {
		t.Errorf("TopK = %v, %v; want [1 2]", got, err)
	}
	if want := []int{24, 96, 384}; !slices.Equal(limits, want) {
		t.Errorf("limits = %v, want %v", limits, want)
	}
}

func TestStem(t *testing.T) {
	for w, want := range map[string]string{
		"raises": "rais", "raise": "rais", "raising": "rais", "raised": "rais",
		"markers": "mark", "dynamically": "dynam", "legends": "legend", "legend": "",
		"utf8": "", "http": "", "uses": "", "errors": "error", "configuration": "configur",
		"Raises": "", "dependencies": "dependenc",
	} {
		if got := Stem(w); got != want {
			t.Errorf("Stem(%q) = %q, want %q", w, got, want)
		}
	}
	if got, want := StemMatchExpr([]string{"raises", "utf8"}), `"rais"* OR "utf8"`; got != want {
		t.Errorf("StemMatchExpr = %s, want %s", got, want)
	}
}
