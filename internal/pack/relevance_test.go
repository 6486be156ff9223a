package pack

import (
	"fmt"
	"math/rand/v2"
	"strconv"
	"testing"

	"github.com/ctxpack/ctxpack/internal/rank"
	"github.com/ctxpack/ctxpack/internal/render"
)

// TestRelevanceOrder checks the relevance strategy's promise over random
// rankings and budgets (docs/engine.md, "Relevance first"): a part is
// never at a lower level than a part of lower relevance unless the
// better part's next step alone costs more than what the output leaves
// of the budget; and no part without a score is shown while a part with
// one is left out or lowered.
func TestRelevanceOrder(t *testing.T) {
	toks := tokenizers(t)
	cases := 300
	if testing.Short() {
		cases = 60
	}
	for seed := range cases {
		r := rand.New(rand.NewPCG(uint64(seed), 27))
		parts := randomParts(r)
		for i := range parts {
			parts[i].Pinned = false
			parts[i].Priority = 0
			parts[i].Score = float64(r.IntN(6)) / 5 // a fifth of them score 0
		}
		o := Options{
			Tokenizer: toks[r.IntN(len(toks))], Format: render.Formats()[r.IntN(len(render.Formats()))],
			Strategy: Relevance, Overflow: Degrade, DedupThreshold: -1, MetaAsTree: r.IntN(2) == 0,
		}
		if o.Format == render.JSON {
			o.Format = render.Text
		}
		o.Policy = Policy{Buckets: []Bucket{{Name: "", Share: 3}, {Name: "b", Share: 1}}, ItemCap: 0.25 * float64(r.IntN(2))}
		for _, budget := range []int{20 + r.IntN(200), 200 + r.IntN(800), 1000 + r.IntN(3000)} {
			o.Budget = budget
			t.Run(fmt.Sprintf("seed%d/%s/%s/%d", seed, o.Tokenizer.Name(), o.Format, budget), func(t *testing.T) {
				res, err := Assemble(parts, o)
				if err != nil {
					t.Fatal(err)
				}
				checkInvariants(t, parts, o, res)
				checkRelevance(t, parts, o, res.Plan)
			})
		}
	}
}

// checkRelevance asserts the relevance strategy's order on one plan.
func checkRelevance(t *testing.T, parts []Part, o Options, p render.Plan) {
	t.Helper()
	level := map[string]Level{}
	lowered := map[string]bool{}
	for _, pp := range p.Parts {
		l, _ := ParseLevel(pp.Level)
		level[pp.Key] = l
		lowered[pp.Key] = pp.Reason != ""
	}
	need := map[string]int{} // the budget a part's next step needs
	for _, pp := range p.Parts {
		if m := needRE.FindStringSubmatch(pp.Reason); m != nil {
			need[pp.Key], _ = strconv.Atoi(m[1])
		}
	}
	for _, d := range p.Dropped {
		need[d.Key] = d.NeedBudget
	}
	byKey := map[string]*Part{}
	for i := range parts {
		byKey[parts[i].Key] = &parts[i]
	}
	at := func(k string) Level {
		if l, ok := level[k]; ok {
			return l
		}
		return Meta - 1
	}
	for _, a := range parts {
		for _, b := range parts {
			qa, qb := rank.Quantize(a.Score), rank.Quantize(b.Score)
			if qa <= qb || at(a.Key) >= at(b.Key) {
				continue
			}
			// a ranks above b and is shown at less: its next step must
			// need a budget over this one.
			if n := need[a.Key]; n <= o.Budget {
				t.Fatalf("%s (score %g) at %v below %s (score %g) at %v, and its next step needs a budget of %d of %d", a.Key, a.Score, at(a.Key), b.Key, b.Score, at(b.Key), n, o.Budget)
			}
		}
	}
	for _, pp := range p.Parts {
		if pp.Key == TreeKey || byKey[pp.Key] == nil || byKey[pp.Key].Score > 0 {
			continue
		}
		for _, a := range parts {
			if a.Score > 0 && (at(a.Key) < Meta || lowered[a.Key] && at(a.Key) < Full) {
				t.Fatalf("%s has no score and is shown at %s while %s (score %g) is at %v", pp.Key, pp.Level, a.Key, a.Score, at(a.Key))
			}
		}
	}
}
