package pack

import (
	"fmt"
	"math/rand/v2"
	"slices"
	"strings"
	"sync/atomic"
	"testing"

	"github.com/ctxpack/ctxpack/internal/render"
	"github.com/google/go-cmp/cmp"
)

func TestWaterFill(t *testing.T) {
	for _, tt := range []struct {
		budget int
		shares []float64
		demand []int
		want   []int
	}{
		// Everyone needs more than their part: the shares alone.
		{1000, []float64{3, 1}, []int{5000, 5000}, []int{750, 250}},
		// The second needs 100 of its 250: the first gets the rest.
		{1000, []float64{3, 1}, []int{5000, 100}, []int{900, 250}},
		// A bucket with no parts is entitled to nothing, and takes no share.
		{1000, []float64{3, 1, 1}, []int{5000, 0, 5000}, []int{750, 0, 250}},
		// Those within their part keep it whole (333), and the rest is
		// what they leave: 1000 − 300 − 100.
		{1000, []float64{2, 2, 2}, []int{5000, 300, 100}, []int{600, 333, 333}},
		// Rounds: c is within its part first (100 ≤ 300); then b, in the
		// second round (400 ≤ 400 of the 800 c leaves); a takes the 400
		// left.
		{900, []float64{1, 1, 1}, []int{5000, 400, 100}, []int{400, 400, 300}},
		// Everyone within their part: each keeps its part.
		{100, []float64{1, 1}, []int{10, 20}, []int{50, 50}},
		// Buckets without a share cannot be entitled to anything.
		{100, []float64{0, 0}, []int{10, 20}, []int{0, 0}},
		{100, nil, nil, []int{}},
	} {
		if got := waterFill(tt.budget, tt.shares, tt.demand); !slices.Equal(got, tt.want) {
			t.Errorf("waterFill(%d, %v, %v) = %v, want %v", tt.budget, tt.shares, tt.demand, got, tt.want)
		}
	}
	if got := nominal(1000, []float64{3, 1}); !slices.Equal(got, []int{750, 250}) {
		t.Errorf("nominal = %v", got)
	}
	if got := nominal(1000, []float64{0}); !slices.Equal(got, []int{0}) {
		t.Errorf("nominal without shares = %v", got)
	}
}

// item is a part that shows a render.Item in the bucket b.
func itemPart(key, b string, score float64, it render.Item) Part {
	return Part{Key: key, Bucket: b, Score: score, Heading: b, Item: &it, Text: full(it.Text())}
}

func noteItem(head, body string) render.Item {
	return render.Item{Head: head, Body: body, Tail: "\n*meta*", Where: "here", Note: "\n(cut: whole here)"}
}

// The cutting cap: an item over ItemCap of its bucket's entitlement is
// cut to the cap, keeping its heading and metadata, ending with its note;
// one whose heading alone is over it is left out; the plan reports the
// shares, the cut as the part's reason, and truncated.
func TestCutItemsToTheCap(t *testing.T) {
	long := strings.Repeat("abcdefghij", 60) // 600 runes
	parts := []Part{
		itemPart("a1", "a", 0.9, noteItem("A: ", long)),
		itemPart("a2", "a", 0.8, noteItem("A: ", "short")),
		itemPart("b1", "b", 0.9, noteItem(strings.Repeat("H", 130), "body")),
		itemPart("b2", "b", 0.7, noteItem("B: ", "fine")),
	}
	o := Options{Budget: 1000, Tokenizer: runeCounter{}, Format: render.Markdown, Sectioned: true, Overflow: Drop,
		Policy: Policy{Buckets: []Bucket{{Name: "a", Share: 1}, {Name: "b", Share: 1}}, ItemCap: 0.25, WaterFill: true, Cut: true}}
	res, err := Assemble(parts, o)
	if err != nil {
		t.Fatal(err)
	}
	// a needs more than half (its long item), b less: b is entitled to
	// its 500, and a to what b does not need of the budget.
	sh := res.Plan.Shares
	if len(sh) != 2 || sh[0].Source != "a" || sh[1].Source != "b" {
		t.Fatalf("shares %+v", sh)
	}
	if sh[1].Demand > 500 || sh[1].Budget != 500 || sh[0].Budget != 1000-sh[1].Demand || sh[0].ItemCap != sh[0].Budget/4 || sh[1].ItemCap != 125 {
		t.Errorf("shares %+v: want b entitled to its 500 and a to what b does not need, caps a quarter", sh)
	}
	var a1 *render.PlanPart
	for i, p := range res.Plan.Parts {
		if p.Key == "a1" {
			a1 = &res.Plan.Parts[i]
		}
		if p.Key != "a1" && p.Truncated {
			t.Errorf("%s truncated: %s", p.Key, p.Reason)
		}
	}
	if a1 == nil || !a1.Truncated || !strings.HasPrefix(a1.Reason, fmt.Sprintf("item cap: cut to %d tokens (0.25 of the a share) from 609", a1.Tokens-4)) ||
		!strings.HasSuffix(a1.Reason, "; the whole is at here") {
		t.Fatalf("a1 %+v: want it cut to the cap", a1)
	}
	if a1.Tokens-4 > sh[0].ItemCap { // its section heading "## a" is counted with it
		t.Errorf("a1 has %d tokens, over the cap %d", a1.Tokens, sh[0].ItemCap)
	}
	if !res.Plan.Truncated {
		t.Error("plan not truncated")
	}
	if !strings.Contains(res.Plan.Content, "A: abcdefghij") || !strings.Contains(res.Plan.Content, "...\n*meta*\n(cut: whole here)\n") {
		t.Errorf("content does not show a1 cut with its note:\n%s", res.Plan.Content)
	}
	if a1.CID != contentID(strings.TrimSuffix(res.Plan.Content[strings.Index(res.Plan.Content, "A: abc"):strings.Index(res.Plan.Content, "(cut: whole here)\n")+len("(cut: whole here)")], "\n")) {
		t.Errorf("a1's content id %s is not its cut text's", a1.CID)
	}
	want := render.Dropped{Key: "b1", Reason: "item cap: 125 tokens (0.25 of the b share) cannot hold even the item's heading"}
	if len(res.Plan.Dropped) != 1 || res.Plan.Dropped[0] != want {
		t.Errorf("dropped %+v, want %+v", res.Plan.Dropped, want)
	}
	if got := (runeCounter{}).Count(string(res.Output)); got != res.Plan.TotalTokens || got > o.Budget {
		t.Errorf("output counts %d, plan %d, budget %d", got, res.Plan.TotalTokens, o.Budget)
	}
}

// Without WaterFill the cap is reckoned from the bucket's share of the
// budget; a part that is not an Item is cut as the truncate overflow cuts
// it, with its marker; a pinned part is never cut; a cap of 0 tokens cuts
// nothing.
func TestCutWithoutWaterFill(t *testing.T) {
	text := func(w string) string { return strings.Repeat(w+" of text\n", 20) } // 240 runes
	parts := []Part{
		{Key: "p", Path: "p.txt", Lines: [2]int{1, 20}, Score: 0.5, Bucket: "a", Text: full(text("pine"))},
		{Key: "pin", Path: "pin.txt", Pinned: true, Text: full(text("pins"))},
		{Key: "q", Path: "q.txt", Score: 0.4, Bucket: "b", Text: full(text("quit"))},
	}
	o := Options{Budget: 1000, Tokenizer: runeCounter{}, Overflow: Drop,
		Policy: Policy{Buckets: []Bucket{{Name: "a", Share: 3}, {Name: "b", Share: 1}}, ItemCap: 0.25, Cut: true}}
	res, err := Assemble(parts, o)
	if err != nil {
		t.Fatal(err)
	}
	sh := res.Plan.Shares
	if len(sh) != 2 || sh[0].Budget != 750 || sh[0].ItemCap != 187 || sh[1].Budget != 250 || sh[1].ItemCap != 62 {
		t.Fatalf("shares %+v: want the shares' parts of the budget, caps a quarter", sh)
	}
	got := map[string]render.PlanPart{}
	for _, p := range res.Plan.Parts {
		got[p.Key] = p
	}
	if p := got["pin"]; p.Truncated {
		t.Errorf("pinned part cut: %s", p.Reason)
	}
	for _, k := range []string{"p", "q"} {
		p := got[k]
		if !p.Truncated || !strings.HasPrefix(p.Reason, "item cap: cut to ") || !strings.HasSuffix(p.Reason, "; the whole is at "+k+".txt") && !strings.HasSuffix(p.Reason, "; the whole is at p.txt:1-20") {
			t.Errorf("%s: %+v, want cut", k, p)
		}
	}
	if !strings.Contains(res.Plan.Content, "[ctxpack: truncated; the rest is at p.txt:") {
		t.Errorf("no truncation marker:\n%s", res.Plan.Content)
	}
	// A budget whose caps round to 0 tokens cuts nothing: q is left out
	// whole for the budget instead.
	o.Budget = 3
	res, err = Assemble(parts[2:], o)
	if err != nil {
		t.Fatal(err)
	}
	if len(res.Plan.Parts) != 0 || len(res.Plan.Dropped) != 1 || !strings.HasPrefix(res.Plan.Dropped[0].Reason, "budget") {
		t.Errorf("budget 3: parts %v, dropped %v", res.Plan.Parts, res.Plan.Dropped)
	}
	// A text marker that cannot fit leaves the part out.
	o.Budget, o.Policy.ItemCap = 100, 0.1
	res, err = Assemble(parts[2:], o)
	if err != nil {
		t.Fatal(err)
	}
	if len(res.Plan.Dropped) != 1 || res.Plan.Dropped[0].Reason != "item cap: 2 tokens (0.1 of the b share) cannot hold even the truncation marker" {
		t.Errorf("dropped %+v", res.Plan.Dropped)
	}
}

// WaterFill without Cut reports the entitlements and leaves the item cap
// to hold parts back while others need the room; then they enter as the
// budget allows.
func TestWaterFillWithoutCut(t *testing.T) {
	parts := []Part{
		{Key: "big", Path: "big.txt", Score: 0.9, Bucket: "a", Text: full(strings.Repeat("x", 600) + "\n")},
		{Key: "small", Path: "small.txt", Score: 0.5, Bucket: "b", Text: full("y\n")},
	}
	res, err := Assemble(parts, Options{Budget: 1000, Tokenizer: runeCounter{}, Overflow: Drop,
		Policy: Policy{Buckets: []Bucket{{Name: "a", Share: 1}, {Name: "b", Share: 1}}, ItemCap: 0.25, WaterFill: true}})
	if err != nil {
		t.Fatal(err)
	}
	if sh := res.Plan.Shares; len(sh) != 2 || sh[0].Budget != 982 || sh[1].Budget != 500 || sh[0].ItemCap != 0 || sh[0].Demand != 615 {
		t.Errorf("shares %+v", sh)
	}
	if len(res.Plan.Dropped) != 0 || len(res.Plan.Parts) != 2 || res.Plan.Parts[0].Key != "big" {
		t.Errorf("parts %+v, dropped %+v, want big in, after small in the sequence", res.Plan.Parts, res.Plan.Dropped)
	}
}

// Cutting and water-filling keep the engine's promises for any parts: the
// output is within the budget, counted exactly, independent of the input
// order, and accounts for every part, and no cut part is over its cap.
func TestCutProperties(t *testing.T) {
	toks := tokenizers(t)
	cases := 200
	if testing.Short() {
		cases = 40
	}
	for seed := range cases {
		r := rand.New(rand.NewPCG(uint64(seed), 7))
		parts := randomParts(r)
		for i := range parts {
			if r.IntN(2) == 0 { // half are items, one level
				body := randomText(r, 1+r.IntN(20))
				it := render.Item{Head: "**Item**: ", Body: body, Tail: "\n*" + parts[i].Key + "*", Where: parts[i].Key, Note: "\n\n*(truncated)*"}
				parts[i].Item, parts[i].Text, parts[i].More = &it, full(it.Text()), nil
			}
		}
		o := randomOptions(r, toks)
		o.Policy.WaterFill, o.Policy.Cut = r.IntN(3) > 0, r.IntN(4) > 0
		o.Policy.ItemCap = []float64{0.1, 0.25, 0.5}[r.IntN(3)]
		if r.IntN(2) == 0 {
			o.DedupStrategy = EditDistance
		}
		o.DroppedByStage = r.IntN(2) == 0
		for _, b := range []int{1 + r.IntN(60), 20 + r.IntN(400), 100 + r.IntN(3000)} {
			o.Budget = b
			name := fmt.Sprintf("seed %d, %s, %s, %s, budget %d", seed, o.Tokenizer.Name(), o.Format, o.Overflow, b)
			res, err := Assemble(parts, o)
			if err != nil {
				if _, ok := err.(*BudgetError); ok {
					continue
				}
				t.Fatalf("%s: %v", name, err)
			}
			checkInvariants(t, parts, o, res)
			checkOrderFree(t, r, parts, o, res)
			if o.Policy.WaterFill || o.Policy.Cut {
				if len(res.Plan.Shares) != len(o.Policy.Buckets) {
					t.Fatalf("%s: shares %+v", name, res.Plan.Shares)
				}
				// A bucket is entitled to at least its share's part of the
				// budget among the buckets with parts (with WaterFill),
				// to its share's part of the budget (without), and never
				// to more than the budget.
				total := 0.0
				for _, s := range res.Plan.Shares {
					if s.Demand > 0 || !o.Policy.WaterFill {
						total += s.Weight
					}
				}
				for _, s := range res.Plan.Shares {
					least := 0
					if s.Demand > 0 || !o.Policy.WaterFill {
						least = int(float64(b) * s.Weight / total)
					}
					if s.Budget > b || s.Budget < least {
						t.Fatalf("%s: %+v entitled to %d, want %d to %d", name, s, s.Budget, least, b)
					}
				}
			}
		}
	}
}

// Parts whose full text comes from a Loader are cut by the item cap and
// compared by edit distance on that text, as parts that hold it are: the
// output is the same.
func TestPoliciesWithLoaders(t *testing.T) {
	text := func(w string) string { return strings.Repeat(w+" of text\n", 20) }
	parts := []Part{
		{Key: "p", Path: "p.txt", Lines: [2]int{1, 20}, Score: 0.5, Bucket: "a", Text: full(text("pine"))},
		{Key: "p2", Path: "p2.txt", Score: 0.45, Bucket: "a", Text: full(text("pine"))},
		{Key: "q", Path: "q.txt", Score: 0.4, Bucket: "b", Text: full(text("quit"))},
		{Key: "r", Path: "r.txt", Score: 0.3, Bucket: "b", Text: full(text("rosemary and thyme"))},
	}
	o := Options{Budget: 1000, Tokenizer: runeCounter{}, Overflow: Drop, DedupStrategy: EditDistance,
		Policy: Policy{Buckets: []Bucket{{Name: "a", Share: 3}, {Name: "b", Share: 1}}, ItemCap: 0.25, Cut: true, WaterFill: true}}
	want, err := Assemble(parts, o)
	if err != nil {
		t.Fatal(err)
	}
	got, err := Assemble(loadify(t, parts, make([]atomic.Int32, len(parts)), false), o)
	if err != nil {
		t.Fatal(err)
	}
	if diff := cmp.Diff(want.Plan, got.Plan); diff != "" {
		t.Errorf("with loaders (-holding +loading):\n%s", diff)
	}
	if len(want.Plan.Dropped) != 1 || want.Plan.Dropped[0].Key != "p2" {
		t.Errorf("dropped %+v, want p2 as p's duplicate", want.Plan.Dropped)
	}
}
