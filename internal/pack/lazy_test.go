package pack

import (
	"errors"
	"fmt"
	"math/rand/v2"
	"slices"
	"strings"
	"sync/atomic"
	"testing"
)

// lazify moves every level strictly between a part's lowest and highest
// into its More, which counts its calls in calls[i].
func lazify(parts []Part, calls []atomic.Int32) []Part {
	out := slices.Clone(parts)
	for i := range out {
		p := &out[i]
		lo, hi := Full+1, Meta-1
		for l := range p.Text {
			lo, hi = min(lo, l), max(hi, l)
		}
		eager, more := map[Level]string{}, map[Level]string{}
		for l, t := range p.Text {
			if l > lo && l < hi {
				more[l] = t
			} else {
				eager[l] = t
			}
		}
		p.Text = eager
		if len(more) == 0 {
			continue
		}
		p.More = func(string) map[Level]string {
			calls[i].Add(1)
			// Also levels the engine must ignore: Text's own, and ones
			// outside the range.
			m := map[Level]string{lo: "ignored\n", hi: "ignored\n", Level(0): "ignored\n"}
			for l, t := range more {
				m[l] = t
			}
			return m
		}
	}
	return out
}

// lowestShortest reports whether every part's lowest level is shorter than
// each of its other levels: then a lazy part's ladder is the eager one.
func lowestShortest(parts []Part) bool {
	for _, p := range parts {
		lo := Full + 1
		for l := range p.Text {
			lo = min(lo, l)
		}
		for l, t := range p.Text {
			if l != lo && len(t) <= len(p.Text[lo]) {
				return false
			}
		}
	}
	return true
}

// TestLazyLevels: parts whose intermediate levels come from More keep
// every property of the engine, More is called at most once per part and
// assembly, and the output is the eager one's whenever the lowest levels
// are the shortest.
func TestLazyLevels(t *testing.T) {
	toks := tokenizers(t)
	cases := 300
	if testing.Short() {
		cases = 50
	}
	compared := 0
	for seed := range cases {
		r := rand.New(rand.NewPCG(uint64(seed), 99))
		parts := randomParts(r)
		o := randomOptions(r, toks)
		if r.IntN(3) == 0 {
			o.FullSequence = 1 + r.IntN(len(parts)) // build only up to the budget
		}
		budgets := []int{1 + r.IntN(60), 20 + r.IntN(400), 100 + r.IntN(3000)}
		slices.Sort(budgets)
		t.Run(fmt.Sprintf("seed%d/%s/%s", seed, o.Strategy, o.Overflow), func(t *testing.T) {
			var prev *Result
			for _, b := range budgets {
				o := o
				o.Budget = b
				calls := make([]atomic.Int32, len(parts))
				lazy := lazify(parts, calls)
				res, err := Assemble(lazy, o)
				for i := range calls {
					if n := calls[i].Load(); n > 1 {
						t.Fatalf("budget %d: More of %s called %d times", b, parts[i].Key, n)
					}
				}
				if eres, eerr := Assemble(parts, o); lowestShortest(parts) {
					compared++
					if (err == nil) != (eerr == nil) {
						t.Fatalf("budget %d: lazy error %v, eager error %v", b, err, eerr)
					}
					if err == nil && (string(res.Output) != string(eres.Output) || res.Plan.Digest != eres.Plan.Digest) {
						t.Fatalf("budget %d: lazy output differs from eager", b)
					}
				}
				var be *BudgetError
				if errors.As(err, &be) {
					prev = nil
					continue
				}
				if err != nil {
					t.Fatalf("budget %d: %v", b, err)
				}
				checkInvariants(t, lazy, o, res)
				checkOrderFree(t, r, lazify(parts, make([]atomic.Int32, len(parts))), o, res)
				if prev != nil {
					checkMonotone(t, "", prev.Plan, res.Plan)
				}
				prev = res
			}
		})
	}
	if compared == 0 {
		t.Fatal("no case compared lazy and eager output")
	}
}

// TestMoreOnlyWhenRaised: in a large pack, where the sequence is built
// only up to the budget, More is called for the parts whose upgrades the
// sequence reaches (and a few ahead of them), not for every part.
func TestMoreOnlyWhenRaised(t *testing.T) {
	const n = 400
	parts := make([]Part, n)
	calls := make([]atomic.Int32, n)
	for i := range parts {
		full := strings.Repeat(fmt.Sprintf("line %d of file %d\n", i, i), 40)
		parts[i] = Part{
			Key: fmt.Sprintf("f%03d.go", i), Path: fmt.Sprintf("f%03d.go", i), Type: "source",
			Score: float64(n-i) / n,
			Text:  map[Level]string{Meta: fmt.Sprintf("go, 40 lines %d\n", i), Full: full},
		}
		parts[i].More = func(string) map[Level]string {
			calls[i].Add(1)
			return map[Level]string{Summary: full[:len(full)/8], Detailed: full[:len(full)/3]}
		}
	}
	// What every part costs at its meta level.
	res, err := Assemble(parts, Options{Budget: 1 << 20, Tokenizer: runeCounter{}, MaxLevel: Meta})
	if err != nil {
		t.Fatal(err)
	}
	metaTotal := res.Plan.TotalTokens
	for _, tc := range []struct {
		name     string
		budget   int
		fullSeq  int
		min, max int // calls to More
	}{
		{"meta lines do not all fit", metaTotal - 100, 100, 0, 0},
		{"a few parts raised", metaTotal + 3000, 100, 1, n / 2},
		{"whole sequence", metaTotal - 100, 5000, n, n},
		{"everything in full", 1 << 20, 100, n, n},
	} {
		t.Run(tc.name, func(t *testing.T) {
			for i := range calls {
				calls[i].Store(0)
			}
			res, err := Assemble(parts, Options{Budget: tc.budget, Tokenizer: runeCounter{}, FullSequence: tc.fullSeq})
			if err != nil {
				t.Fatal(err)
			}
			total := 0
			for i := range calls {
				c := int(calls[i].Load())
				if c > 1 {
					t.Fatalf("More of part %d called %d times", i, c)
				}
				total += c
			}
			raised := 0
			for _, pp := range res.Plan.Parts {
				if pp.Level != "meta" {
					raised++
				}
			}
			if total < tc.min || total > tc.max {
				t.Errorf("More called for %d parts, want %d to %d (%d raised)", total, tc.min, tc.max, raised)
			}
			// The sequence looks ahead a bounded number of steps (fill)
			// and resolves a few parts at a time.
			if tc.fullSeq < n && total > raised+fillWindow+resolveAhead {
				t.Errorf("More called for %d parts, only %d raised", total, raised)
			}
		})
	}
}
