package pack

import (
	"strings"
	"testing"

	"github.com/ctxpack/ctxpack/internal/render"
)

// runeCounter counts one token per rune that is not a newline, so a test
// can give parts exact sizes: the seed's vectors are written in tokens.
type runeCounter struct{}

func (runeCounter) Name() string { return "runes" }
func (runeCounter) Count(s string) int {
	n := 0
	for _, r := range s {
		if r != '\n' {
			n++
		}
	}
	return n
}
func (runeCounter) Truncate(s string, max int) string {
	n := 0
	for i, r := range s {
		if r != '\n' {
			if n == max {
				return s[:i]
			}
			n++
		}
	}
	return s
}

func full(text string) map[Level]string { return map[Level]string{Full: text} }

// TestSeedPackingVector is CFS-021's packing test, as written: budget 150,
// chunks A 50, B 100, C 30, D 80 tokens scored 0.9, 0.85, 0.8, 0.75 give
// A and C, 80 tokens, not truncated. Each chunk is its own document with
// the seed's per-document overhead of 10 tokens (its TokenBudget default):
// "[DOC: xyz]" is 10 tokens under runeCounter, and is why B does not fit
// after A (60 + 110 > 150). The seed's total_tokens counts chunk text; the
// plan's total_tokens also counts the markers, so it is 100.
func TestSeedPackingVector(t *testing.T) {
	parts := []Part{
		{Key: "A", Path: "a00", Type: "chunk", Text: full(strings.Repeat("a", 50)), Score: 0.9},
		{Key: "B", Path: "b00", Type: "chunk", Text: full(strings.Repeat("b", 100)), Score: 0.85},
		{Key: "C", Path: "c00", Type: "chunk", Text: full(strings.Repeat("c", 30)), Score: 0.8},
		{Key: "D", Path: "d00", Type: "chunk", Text: full(strings.Repeat("d", 80)), Score: 0.75},
	}
	for _, ov := range []Overflow{Degrade, Drop} {
		t.Run(string(ov), func(t *testing.T) {
			res, err := Assemble(parts, Options{Budget: 150, Tokenizer: runeCounter{}, Format: render.Doc, Overflow: ov})
			if err != nil {
				t.Fatal(err)
			}
			p := res.Plan
			var keys []string
			chunkTokens := 0
			for _, pp := range p.Parts {
				keys = append(keys, pp.Key)
				chunkTokens += pp.Tokens - 10
			}
			if got := strings.Join(keys, ","); got != "A,C" {
				t.Errorf("chunks = %s, want A,C", got)
			}
			if chunkTokens != 80 {
				t.Errorf("chunk tokens = %d, want 80", chunkTokens)
			}
			if p.Truncated {
				t.Error("truncated = true, want false")
			}
			if p.TotalTokens != 100 {
				t.Errorf("total_tokens = %d, want 100 (80 of text, 20 of markers)", p.TotalTokens)
			}
			if len(p.Dropped) != 2 || p.Dropped[0].Key != "B" || p.Dropped[1].Key != "D" {
				t.Errorf("dropped = %+v, want B then D", p.Dropped)
			}
			for _, d := range p.Dropped {
				if !strings.HasPrefix(d.Reason, "budget") || d.NeedBudget <= 150 {
					t.Errorf("dropped %s: reason %q, need %d", d.Key, d.Reason, d.NeedBudget)
				}
			}
		})
	}
}

// TestSeedGroupingVector is CFS-021's grouping test: chunks of a.md and
// b.md scored 0.9, 0.88, 0.85, 0.82 pack greedily as each document's
// chunks in reading order, documents by best score. The vector's chunk
// texts repeat across documents, so deduplication is off.
func TestSeedGroupingVector(t *testing.T) {
	parts := []Part{
		{Key: "a.md#1", Path: "a.md", Seq: 1, Text: full("Chunk 1"), Score: 0.9},
		{Key: "b.md#1", Path: "b.md", Seq: 1, Text: full("Chunk 1"), Score: 0.88},
		{Key: "a.md#2", Path: "a.md", Seq: 2, Text: full("Chunk 2"), Score: 0.85},
		{Key: "b.md#2", Path: "b.md", Seq: 2, Text: full("Chunk 2"), Score: 0.82},
	}
	res, err := Assemble(parts, Options{Budget: 1000, Tokenizer: runeCounter{}, Format: render.Doc, DedupThreshold: -1})
	if err != nil {
		t.Fatal(err)
	}
	want := "[DOC: a.md]\nChunk 1\nChunk 2\n[DOC: b.md]\nChunk 1\nChunk 2\n"
	if got := string(res.Output); got != want {
		t.Errorf("output:\n%q\nwant:\n%q", got, want)
	}
}

// TestSeedDeterminismVector is CFS-021's determinism test: the same query
// over the same state, assembled twice, gives the same chunks in the same
// order and the same hash of the formatted text.
func TestSeedDeterminismVector(t *testing.T) {
	parts := []Part{
		{Key: "A", Path: "a.md", Text: full("Text A"), Score: 0.9},
		{Key: "B", Path: "b.md", Text: full("Text B"), Score: 0.8},
		{Key: "C", Path: "c.md", Text: full("Text C"), Score: 0.7},
	}
	opt := Options{Budget: 1000, Tokenizer: runeCounter{}, Format: render.Doc, StateRoot: "sha256:abc123"}
	r1, err := Assemble(parts, opt)
	if err != nil {
		t.Fatal(err)
	}
	r2, err := Assemble(parts, opt)
	if err != nil {
		t.Fatal(err)
	}
	if string(r1.Output) != "[DOC: a.md]\nText A\n[DOC: b.md]\nText B\n[DOC: c.md]\nText C\n" {
		t.Errorf("formatted = %q", r1.Output)
	}
	if r1.Plan.Digest != r2.Plan.Digest || string(r1.Output) != string(r2.Output) {
		t.Errorf("runs differ: %s vs %s", r1.Plan.Digest, r2.Plan.Digest)
	}
	for i := range r1.Plan.Parts {
		if r1.Plan.Parts[i].Key != r2.Plan.Parts[i].Key {
			t.Errorf("chunk %d: %s vs %s", i, r1.Plan.Parts[i].Key, r2.Plan.Parts[i].Key)
		}
	}
}
