package pack

import (
	"fmt"
	"math/rand/v2"
	"strings"
	"testing"
)

func words(r *rand.Rand, n int) []string {
	w := make([]string, n)
	for i := range w {
		w[i] = fmt.Sprintf("w%d", r.IntN(5000))
	}
	return w
}

// TestDedupOverlap checks near-duplicate detection at every size, sampled
// (over 256 shingles) or not: a copy with a few words changed is dropped,
// unrelated text of the same vocabulary is kept, and exact copies are
// dropped by content id.
func TestDedupOverlap(t *testing.T) {
	r := rand.New(rand.NewPCG(3, 4))
	for _, n := range []int{5, 40, 300, 3000} {
		base := words(r, n)
		near := append([]string(nil), base...)
		for i := 0; i < n/50+1 && n > 20; i++ { // change 2% of the words
			near[r.IntN(n)] = "changed"
		}
		other := words(r, n)
		parts := []Part{
			{Key: "a", Path: "a.go", Score: 0.9, Text: full(strings.Join(base, " "))},
			{Key: "a-near", Path: "b.go", Score: 0.8, Text: full(strings.Join(near, " "))},
			{Key: "a-copy", Path: "c.go", Score: 0.7, Text: full(strings.Join(base, " "))},
			{Key: "other", Path: "d.go", Score: 0.6, Text: full(strings.Join(other, " "))},
		}
		res, err := Assemble(parts, Options{Budget: 1 << 20, Tokenizer: runeCounter{}})
		if err != nil {
			t.Fatal(err)
		}
		got := map[string]string{}
		for _, d := range res.Plan.Dropped {
			got[d.Key] = d.Reason
		}
		if n > 20 && !strings.HasPrefix(got["a-near"], "overlaps a (") {
			t.Errorf("%d words: near copy not dropped (%q)", n, got["a-near"])
		}
		if got["a-copy"] != "duplicate of a" {
			t.Errorf("%d words: exact copy: %q", n, got["a-copy"])
		}
		if _, ok := got["other"]; ok {
			t.Errorf("%d words: unrelated text dropped: %q", n, got["other"])
		}
	}
}

func TestShinglesSampleOnlyBigParts(t *testing.T) {
	r := rand.New(rand.NewPCG(5, 6))
	small := shingles(strings.Join(words(r, 100), " "))
	if small.rate != 1 || small.size != len(small.hashes) {
		t.Errorf("small part sampled: rate %d", small.rate)
	}
	big := shingles(strings.Join(words(r, 4000), " "))
	if big.rate != sampleRate || len(big.hashes) == 0 || len(big.hashes) > 4000/2 {
		t.Errorf("big part: rate %d, %d hashes", big.rate, len(big.hashes))
	}
	for _, h := range big.hashes {
		if h%sampleRate != 0 {
			t.Fatalf("hash %x kept by a sample it is not in", h)
		}
	}
	if got := shingles("  \n\t"); len(got.hashes) != 0 {
		t.Errorf("blank text has shingles: %v", got.hashes)
	}
	if a, b := shingles("one two"), shingles("one  two\n"); a.hashes[0] != b.hashes[0] {
		t.Error("white space changes the shingle of a short text")
	}
}

// A part that repeats a pinned part is dropped like any other copy; the
// pinned part itself stays.
func TestDedupCopyOfPinned(t *testing.T) {
	task := "Add multi-currency support to invoice generation so that totals are converted once at the cycle rate and rounded half-even in minor units.\n"
	parts := []Part{
		{Key: "task", Path: "task.md", Pinned: true, Text: full(task)},
		{Key: "copy", Path: "copy.md", Score: 0.9, Text: full(task + "One more line.\n")},
	}
	res, err := Assemble(parts, Options{Budget: 1000, Tokenizer: runeCounter{}})
	if err != nil {
		t.Fatal(err)
	}
	if len(res.Plan.Parts) != 1 || res.Plan.Parts[0].Key != "task" {
		t.Errorf("parts %v, want only the pinned task", res.Plan.Parts)
	}
	if len(res.Plan.Dropped) != 1 || !strings.HasPrefix(res.Plan.Dropped[0].Reason, "overlaps task") {
		t.Errorf("dropped %v, want copy as overlapping task", res.Plan.Dropped)
	}
}
