package app

import (
	"context"
	"fmt"
	"math"
	"math/rand/v2"
	"strings"
	"testing"

	"github.com/ctxpack/ctxpack/internal/store"
)

// textGen makes texts of words from a vocabulary of made-up words, every
// one with the term "widget" so that every row matches the query.
type textGen struct {
	r     *rand.Rand
	vocab []string
}

func newTextGen(seed uint64) *textGen {
	g := &textGen{r: rand.New(rand.NewPCG(seed, 7))}
	syl := []string{"ka", "lo", "mi", "ne", "ru", "sa", "to", "vi", "ze", "po", "da", "fu", "gi", "he", "ju"}
	seen := map[string]bool{}
	for len(g.vocab) < 3000 {
		var b strings.Builder
		for range 2 + g.r.IntN(3) {
			b.WriteString(syl[g.r.IntN(len(syl))])
		}
		if w := b.String(); !seen[w] && w != "widget" {
			seen[w] = true
			g.vocab = append(g.vocab, w)
		}
	}
	return g
}

func (g *textGen) text(minWords, maxWords int) string {
	n := minWords + g.r.IntN(maxWords-minWords+1)
	words := make([]string, n)
	for i := range words {
		words[i] = g.vocab[g.r.IntN(len(g.vocab))]
	}
	words[g.r.IntN(n)] = "widget"
	return strings.Join(words, " ") + "."
}

// edit changes about share of s's characters (at least one), keeping
// "widget": words replaced by others.
func (g *textGen) edit(s string, share float64) string {
	words := strings.Fields(s)
	budget := max(1, int(share*float64(len(s))))
	for budget > 0 {
		i := g.r.IntN(len(words))
		if words[i] == "widget" || words[i] == "widget." {
			continue
		}
		w := g.vocab[g.r.IntN(len(g.vocab))]
		budget -= max(len(w), len(words[i]))
		words[i] = w
	}
	return strings.Join(words, " ")
}

// Budgets as properties over generated stores: the output never exceeds
// the budget and is counted exactly; no item is over the item cap of its
// source's share; a source takes its share of what was used, to within an
// item; and budget a source cannot use goes to the others, so that when
// an item is left out for the budget, what is unused is less than an
// item.
func TestSourcesBudgetProperties(t *testing.T) {
	tok := mustTok(t)
	stores := 12
	if testing.Short() {
		stores = 4
	}
	checked, hungry, redistributed := 0, 0, 0
	worstSlack, worstShare := 0.0, 0.0 // as shares of the bound each is checked against
	for seed := range uint64(stores) {
		g := newTextGen(seed)
		f := newSourcesFixture(t, map[string]string{"README.md": "# demo\n"})
		ctx := context.Background()
		counts := [3]int{g.r.IntN(30), g.r.IntN(30), g.r.IntN(30)}
		if seed%4 == 3 {
			counts[g.r.IntN(3)] = 1 + g.r.IntN(2) // a source that runs out early
		}
		for range counts[0] {
			long := g.r.IntN(5) == 0
			n := 8 + g.r.IntN(40)
			if long {
				n = 200 + g.r.IntN(400)
			}
			if _, err := f.st.AddMemory(ctx, store.Memory{Content: g.text(n, n), Importance: -1}); err != nil {
				t.Fatal(err)
			}
		}
		for range counts[1] {
			e := store.Experience{Domain: "debugging", Goal: g.text(5, 30), Hypothesis: g.text(5, 30), Action: g.text(5, 30), Prediction: g.text(5, 20), Outcome: store.OutcomeFalsified, Result: g.text(5, 30), Lesson: g.text(3, 20)}
			if g.r.IntN(4) == 0 {
				e.Action = g.text(300, 500)
			}
			if _, err := f.st.AddExperience(ctx, e); err != nil {
				t.Fatal(err)
			}
		}
		for range counts[2] {
			if _, err := f.st.AddValue(ctx, store.Value{Text: g.text(5, 60), Axis: store.AxisFull}); err != nil {
				t.Fatal(err)
			}
		}
		for _, budget := range []int{200 + g.r.IntN(300), 800 + g.r.IntN(1500), 3000 + g.r.IntN(5000)} {
			req := Request{Sources: []string{"memories,experiences,values"}, Budget: budget, Limit: 30}
			res, err := f.p.Sources(ctx, "widget", req)
			if err != nil {
				t.Fatal(err)
			}
			checked++
			where := fmt.Sprintf("seed %d, %v items, budget %d", seed, counts, budget)
			if got := tok.Count(string(res.Output)); got != res.Plan.TotalTokens || got > budget {
				t.Fatalf("%s: output has %d tokens, plan says %d", where, got, res.Plan.TotalTokens)
			}
			weights := map[string]float64{"memories": 1, "experiences": 3, "values": 1}
			titles := map[string]string{"memories": "Memories", "experiences": "Experiences", "values": "Values"}
			active := map[string]bool{}
			for i, n := range []string{"memories", "experiences", "values"} {
				if counts[i] > 0 {
					active[n] = true
				}
			}
			total := 0.0
			for n := range active {
				total += weights[n]
			}
			// Each source's entitlement is at least its weight's part of
			// the budget among the sources with items; the cap is 25% of
			// it.
			shares := map[string]int{}
			for _, sh := range res.Plan.Shares {
				nominal := int(math.Floor(float64(budget) * weights[sh.Source] / total))
				if active[sh.Source] && sh.Budget < nominal || !active[sh.Source] && sh.Budget != 0 {
					t.Errorf("%s: %s entitled to %d tokens, its weight's part is %d", where, sh.Source, sh.Budget, nominal)
				}
				if want := int(math.Floor(0.25 * float64(sh.Budget))); sh.ItemCap != want {
					t.Errorf("%s: %s item cap %d, want 25%% of %d", where, sh.Source, sh.ItemCap, sh.Budget)
				}
				shares[sh.Source] = sh.ItemCap
			}
			capOf := func(n string) int { return shares[n] }
			used := map[string]int{}
			starved := map[string]bool{} // a source with an item left out for the budget
			maxCost := 0
			prev := ""
			for _, p := range res.Plan.Parts {
				body := p.Tokens
				if p.Bucket != prev {
					body -= tok.Count("## " + titles[p.Bucket] + "\n\n")
				}
				prev = p.Bucket
				if c := capOf(p.Bucket); body > c {
					t.Errorf("%s: %s has %d tokens, over the %s cap of %d", where, p.Key, body, p.Bucket, c)
				}
				used[p.Bucket] += p.Tokens
				maxCost = max(maxCost, p.Tokens)
			}
			for _, d := range res.Plan.Dropped {
				if strings.HasPrefix(d.Reason, "budget") {
					kind, _, _ := strings.Cut(d.Key, ":")
					starved[kind+"s"] = true
				}
			}
			if len(starved) == 0 {
				continue
			}
			// What is unused is less than one item (and the footer and
			// headings, whose counts the fit estimated).
			maxCap := 0
			for n := range active {
				maxCap = max(maxCap, capOf(n))
			}
			slack := budget - res.Plan.TotalTokens
			if slack > maxCap+30 {
				t.Errorf("%s: %d tokens unused with items left out (largest item cap %d)", where, slack, maxCap)
			}
			worstSlack = max(worstSlack, float64(slack)/float64(maxCap+30))
			if len(starved) < len(active) {
				redistributed++
				continue
			}
			// Every source has more than it can show: each takes its share
			// of what was used, to within an item.
			hungry++
			sum := 0
			for _, u := range used {
				sum += u
			}
			for n := range active {
				share := weights[n] / total * float64(sum)
				d := math.Abs(float64(used[n]) - share)
				if d > float64(maxCost+capOf(n)) {
					t.Errorf("%s: %s used %d tokens, its share of %d is %.0f (largest part %d)", where, n, used[n], sum, share, maxCost)
				}
				worstShare = max(worstShare, d/float64(maxCost+capOf(n)))
			}
		}
	}
	t.Logf("%d assemblies: %d with every source starved (shares checked), %d where a source ran out (redistribution checked); worst unused budget %.0f%% of its bound, worst share deviation %.0f%% of its bound", checked, hungry, redistributed, 100*worstSlack, 100*worstShare)
	if hungry == 0 || redistributed == 0 {
		t.Errorf("the generated stores did not exercise both cases: %d starved, %d redistributed", hungry, redistributed)
	}
}

// Dedup on planted duplicates: exact copies (within a source and across
// sources), near copies (about 3% of the characters changed) and the same
// experience in two sources are caught; texts about 20% different, and
// distinct texts, are kept.
func TestSourcesDedupPlanted(t *testing.T) {
	g := newTextGen(42)
	f := newSourcesFixture(t, map[string]string{"README.md": "# demo\n"})
	ctx := context.Background()
	type planted struct{ a, b string } // keys: b duplicates a
	var dups []planted
	var keep []string // keys of items that must not be dropped as duplicates of anything
	addMemory := func(text string) string {
		m, err := f.st.AddMemory(ctx, store.Memory{Content: text, Importance: -1})
		if err != nil {
			t.Fatal(err)
		}
		return ItemKey("memory", m.ID)
	}
	addValue := func(text string, exp int64) string {
		v, err := f.st.AddValue(ctx, store.Value{Text: text, Axis: store.AxisFull, Experience: exp})
		if err != nil {
			t.Fatal(err)
		}
		return ItemKey("value", v.ID)
	}
	addExperience := func() (string, int64) {
		e, err := f.st.AddExperience(ctx, store.Experience{Domain: "testing", Goal: g.text(8, 20), Hypothesis: g.text(8, 20), Action: g.text(8, 20), Prediction: g.text(5, 10), Outcome: store.OutcomeConfirmed, Result: g.text(5, 15), Lesson: g.text(5, 12)})
		if err != nil {
			t.Fatal(err)
		}
		return ItemKey("experience", e.ID), e.ID
	}
	for i := range 80 {
		text := g.text(12, 40)
		a := addMemory(text)
		switch i % 8 {
		case 0: // exact, in the same source
			dups = append(dups, planted{a, addMemory(text)})
		case 1: // exact, in another source
			dups = append(dups, planted{a, addValue(text, 0)})
		case 2: // near: about 3% changed, same source
			dups = append(dups, planted{a, addMemory(g.edit(text, 0.03))})
		case 3: // near: about 3% changed, upper-cased and re-spaced, another source
			dups = append(dups, planted{a, addValue(strings.ToUpper(strings.ReplaceAll(g.edit(text, 0.03), " ", "  ")), 0)})
		case 4: // a near miss: about 20% changed: not a duplicate
			keep = append(keep, a, addMemory(g.edit(text, 0.2)))
		default:
			keep = append(keep, a)
		}
	}
	for range 20 { // the same experience in two sources: a value derived from it
		e, id := addExperience()
		dups = append(dups, planted{e, addValue(g.text(6, 12), id)})
	}
	res, err := f.p.Sources(ctx, "widget", Request{Sources: []string{"memories,experiences,values"}, Budget: 1_000_000, Limit: 1000, ItemCap: 1})
	if err != nil {
		t.Fatal(err)
	}
	dropped := map[string]string{}
	for _, d := range res.Plan.Dropped {
		dropped[d.Key] = d.Reason
	}
	caught := 0
	for _, d := range dups {
		ra, rb := dropped[d.a], dropped[d.b]
		switch {
		case strings.HasPrefix(rb, "duplicate of "+d.a+":"), strings.HasPrefix(ra, "duplicate of "+d.b+":"):
			caught++
		default:
			t.Logf("missed: %s (%q) / %s (%q)", d.a, ra, d.b, rb)
		}
	}
	falseRemovals := 0
	for _, k := range keep {
		if why, ok := dropped[k]; ok {
			falseRemovals++
			t.Errorf("%s is not a duplicate but was dropped: %s", k, why)
		}
	}
	rate := float64(caught) / float64(len(dups))
	t.Logf("planted duplicates caught: %d of %d (%.1f%%); non-duplicates removed: %d of %d", caught, len(dups), 100*rate, falseRemovals, len(keep))
	if rate < 0.9 {
		t.Errorf("caught %.1f%% of planted duplicates, want at least 90%%", 100*rate)
	}
	c, err := f.st.Counts(ctx)
	if err != nil {
		t.Fatal(err)
	}
	if rows, n := c.Memories+c.Experiences+c.Values, len(res.Plan.Parts)+len(res.Plan.Dropped); rows != n {
		t.Errorf("%d rows, %d shown or dropped: the search missed some", rows, n)
	}
}
