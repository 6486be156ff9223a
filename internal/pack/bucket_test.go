package pack

import (
	"strings"
	"testing"
)

// A bucket's last part must not be held back forever by the item cap:
// while its upgrade step is made the bucket still counts as live. (It
// once reported "over the item cap below a budget of 2147483647".)
func TestItemCapLastPartOfBucket(t *testing.T) {
	parts := []Part{
		{Key: "top", Path: "a.go", Score: 0.9, Bucket: "primary",
			Text: map[Level]string{Meta: "a.go\n", Full: strings.Repeat("x", 40) + "\n"}},
		{Key: "low", Path: "b.go", Score: 0.4, Bucket: "reference",
			Text: map[Level]string{Meta: "b.go\n", Full: strings.Repeat("y", 40) + "\n"}},
	}
	o := Options{Budget: 1000, Tokenizer: runeCounter{}, Overflow: Degrade,
		Policy: Policy{Buckets: []Bucket{{Name: "primary", Share: 50}, {Name: "reference", Share: 50}}, ItemCap: 0.25}}
	res, err := Assemble(parts, o)
	if err != nil {
		t.Fatal(err)
	}
	for _, p := range res.Plan.Parts {
		if p.Level != "full" {
			t.Errorf("%s at %s (%s), want full: 41 tokens fit a cap of 0.25 × 500", p.Key, p.Level, p.Reason)
		}
	}
}

// Under degrade the item cap never holds back a part's lowered form, but
// a part whose only form is its full text is capped as under drop: it
// waits until the other parts are in, and then enters as the budget
// allows, not only at a budget a quarter of which would hold it (issue
// 16: the cap takes room only when other parts need it).
func TestItemCapSingleLevelPartUnderDegrade(t *testing.T) {
	parts := []Part{
		{Key: "big", Path: "big.txt", Score: 0.9, Text: full(strings.Repeat("x", 400) + "\n")},
		{Key: "small", Path: "small.txt", Score: 0.5, Text: full("y\n")},
	}
	for _, ov := range []Overflow{Degrade, Drop} {
		res, err := Assemble(parts, Options{Budget: 1000, Tokenizer: runeCounter{}, Overflow: ov, Policy: Policy{ItemCap: 0.25}})
		if err != nil {
			t.Fatal(err)
		}
		if len(res.Plan.Parts) != 2 || len(res.Plan.Dropped) != 0 {
			t.Errorf("%s: parts %v, dropped %v; want both: nothing else needs the room", ov, res.Plan.Parts, res.Plan.Dropped)
		}
		res, err = Assemble(parts, Options{Budget: 402, Tokenizer: runeCounter{}, Overflow: ov, Policy: Policy{ItemCap: 0.25}})
		if err != nil {
			t.Fatal(err)
		}
		if len(res.Plan.Parts) != 1 || res.Plan.Parts[0].Key != "small" {
			t.Errorf("%s: parts %v, want only small: big waits for the parts that need the room", ov, res.Plan.Parts)
		}
		if len(res.Plan.Dropped) != 1 || !strings.HasPrefix(res.Plan.Dropped[0].Reason, "budget: enters at a budget of ") {
			t.Errorf("%s: dropped %v, want big for the budget", ov, res.Plan.Dropped)
		}
	}
}
