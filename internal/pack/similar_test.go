package pack

import (
	"strings"
	"testing"

	"github.com/ctxpack/ctxpack/internal/render"
)

func TestParseDedupStrategy(t *testing.T) {
	for in, want := range map[string]DedupStrategy{"": Shingles, "shingles": Shingles, "edit-distance": EditDistance} {
		if got, err := ParseDedupStrategy(in); err != nil || got != want {
			t.Errorf("ParseDedupStrategy(%q) = %q, %v", in, got, err)
		}
	}
	if _, err := ParseDedupStrategy("levenshtein"); err == nil || !strings.Contains(err.Error(), "valid: shingles, edit-distance") {
		t.Errorf("unknown strategy: %v", err)
	}
	_, err := Assemble([]Part{{Key: "a", Text: full("a")}}, Options{Budget: 10, Tokenizer: runeCounter{}, DedupStrategy: "x"})
	if err == nil {
		t.Error("Assemble took an unknown dedup strategy")
	}
}

// EditDistance keeps the more relevant of two texts at least the
// threshold alike, compares DedupKeys.Text when given, drops the same
// origin in another bucket and a part naming only a file another shows,
// breaks ties in relevance by bucket, never drops a pinned part, and
// lists its drops in the order it compared the parts.
func TestDedupEditDistance(t *testing.T) {
	note := "Invoice totals round half-even, once, at the end of the cycle."
	parts := []Part{
		// Near copies (one character): the more relevant is kept.
		{Key: "memory:1", Bucket: "memories", Score: 0.9, Text: full("**Memory**: " + note + " *memory:1*"), Dedup: DedupKeys{Text: note}},
		{Key: "memory:2", Bucket: "memories", Score: 0.5, Text: full("**Memory**: " + note[:len(note)-1] + "! *memory:2*"), Dedup: DedupKeys{Text: note[:len(note)-1] + "!"}},
		// A tie in relevance goes to the earlier bucket, whatever the key.
		{Key: "a-value", Bucket: "values", Score: 0.9, Text: full(note + " (v)"), Dedup: DedupKeys{Text: note}},
		// The same experience in another bucket; in its own bucket, kept.
		{Key: "experience:7", Bucket: "experiences", Score: 0.8, Text: full("lesson A"), Dedup: DedupKeys{Origin: "experience:7"}},
		{Key: "value:3", Bucket: "values", Score: 0.7, Text: full("lesson B, reworded at length"), Dedup: DedupKeys{Origin: "experience:7"}},
		{Key: "value:4", Bucket: "experiences", Score: 0.6, Text: full("lesson C, quite another text"), Dedup: DedupKeys{Origin: "experience:7"}},
		// A commit of one file a code part shows goes, though more
		// relevant; one of two files stays.
		{Key: "commit:1", Bucket: "commits", Score: 1, Text: full("fix the rounding"), Dedup: DedupKeys{Names: []string{"a.go"}}},
		{Key: "commit:2", Bucket: "commits", Score: 1, Text: full("fix both files"), Dedup: DedupKeys{Names: []string{"a.go", "b.go"}}},
		{Key: "a.go#1", Type: "code", Bucket: "code", Score: 0.2, Text: full("func Round() {}"), Dedup: DedupKeys{Shows: "a.go"}},
		// A pinned copy stays.
		{Key: "pinned", Pinned: true, Score: 0.1, Text: full(note), Dedup: DedupKeys{Text: note}},
	}
	o := Options{Budget: 10000, Tokenizer: runeCounter{}, DedupStrategy: EditDistance, DroppedByStage: true,
		Policy: Policy{Buckets: []Bucket{{Name: "memories"}, {Name: "code"}, {Name: "experiences"}, {Name: "values"}, {Name: "commits"}}}}
	for i := range o.Policy.Buckets {
		o.Policy.Buckets[i].Share = 1
	}
	res, err := Assemble(parts, o)
	if err != nil {
		t.Fatal(err)
	}
	want := []render.Dropped{
		{Key: "commit:1", Reason: "duplicate of a.go#1: the same file (a.go), which the code item shows"},
		{Key: "memory:1", Reason: "duplicate of pinned: the texts are 100% alike"},
		{Key: "a-value", Reason: "duplicate of pinned: the texts are 100% alike"},
		{Key: "value:3", Reason: "duplicate of experience:7: the same experience (experience:7)"},
		{Key: "memory:2", Reason: "duplicate of pinned: the texts are 98% alike"},
	}
	if got := res.Plan.Dropped; !equalDropped(got, want) {
		t.Errorf("dropped\n%+v\nwant\n%+v", got, want)
	}
	// Without the pinned part, memory:1 is the first kept copy: it ties
	// with a-value, and its bucket comes first.
	res, err = Assemble(parts[:len(parts)-1], o)
	if err != nil {
		t.Fatal(err)
	}
	if d := res.Plan.Dropped; len(d) != 4 || d[1].Key != "a-value" || d[1].Reason != "duplicate of memory:1: the texts are 100% alike" {
		t.Errorf("dropped %+v", d)
	}
	// A threshold above the likeness keeps the near copy, and a negative
	// one turns every rule off.
	o.DedupThreshold = 0.99
	if res, err = Assemble(parts, o); err != nil || len(res.Plan.Dropped) != 4 {
		t.Errorf("threshold 0.99: %v, dropped %+v", err, res.Plan.Dropped)
	}
	o.DedupThreshold = -1
	if res, err = Assemble(parts, o); err != nil || len(res.Plan.Dropped) != 0 {
		t.Errorf("dedup off: %v, dropped %+v", err, res.Plan.Dropped)
	}
}

func equalDropped(a, b []render.Dropped) bool {
	if len(a) != len(b) {
		return false
	}
	for i := range a {
		if a[i] != b[i] {
			return false
		}
	}
	return true
}

// DroppedByStage lists what dedup and the item cap left out before what
// the budget did; otherwise every drop is in rank order.
func TestDroppedByStage(t *testing.T) {
	parts := []Part{
		{Key: "big", Path: "big.txt", Score: 0.9, Text: full(strings.Repeat("big ", 100))},
		{Key: "copy", Path: "copy.txt", Score: 0.1, Text: full("a note")},
		{Key: "note", Path: "note.txt", Score: 0.5, Text: full("a note")},
	}
	o := Options{Budget: 50, Tokenizer: runeCounter{}, Overflow: Drop}
	res, err := Assemble(parts, o)
	if err != nil {
		t.Fatal(err)
	}
	if d := res.Plan.Dropped; len(d) != 2 || d[0].Key != "big" || d[1].Key != "copy" {
		t.Errorf("rank order: %+v", d)
	}
	o.DroppedByStage = true
	if res, err = Assemble(parts, o); err != nil {
		t.Fatal(err)
	}
	if d := res.Plan.Dropped; len(d) != 2 || d[0].Key != "copy" || d[1].Key != "big" {
		t.Errorf("by stage: %+v", d)
	}
}
