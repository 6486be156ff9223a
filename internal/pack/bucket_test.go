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
