package pack

import (
	"fmt"
	"math/rand/v2"
	"testing"

	"github.com/ctxpack/ctxpack/internal/render"
	"github.com/ctxpack/ctxpack/internal/tokenizer"
)

// benchParts makes n retrieval-shaped parts: chunks of 20–300 words from
// n/8 documents, with a meta and a full level and scores that often tie.
func benchParts(n int) []Part {
	r := rand.New(rand.NewPCG(1, 2))
	words := []string{"invoice", "total", "func", "return", "err", "nil", "currency", "rate", "amount", "(", ")", "{", "}", "if", "for", "range", ":=", "x", "y", "Apply"}
	parts := make([]Part, n)
	for i := range parts {
		size := 20 + r.IntN(280)
		text := make([]byte, 0, size*6)
		for k := range size {
			text = append(text, words[r.IntN(len(words))]...)
			if k%12 == 11 {
				text = append(text, '\n')
			} else {
				text = append(text, ' ')
			}
		}
		doc := fmt.Sprintf("src/pkg%d/file%d.go", i%97, i/8)
		parts[i] = Part{
			Key: fmt.Sprintf("%s#%d", doc, i%8), Type: "code", Path: doc, Seq: i % 8,
			Lines: [2]int{1 + (i%8)*20, 20 + (i%8)*20}, Score: float64(r.IntN(1000)) / 1000,
			Text: map[Level]string{Meta: fmt.Sprintf("%s: go, %d words\n", doc, size), Full: string(text)},
		}
	}
	return parts
}

// BenchmarkAssemble packs parts into a budget with the real tokenizer,
// from scratch each time (nothing is cached between iterations).
func BenchmarkAssemble(b *testing.B) {
	tok, err := tokenizer.Get("o200k_base")
	if err != nil {
		b.Fatal(err)
	}
	for _, tc := range []struct {
		parts, budget int
		overflow      Overflow
	}{
		{1000, 8000, Degrade},
		{100000, 100000, Degrade},
		{100000, 100000, Drop},
		{100000, 100000, Truncate},
	} {
		parts := benchParts(tc.parts)
		b.Run(fmt.Sprintf("parts=%d/budget=%d/%s", tc.parts, tc.budget, tc.overflow), func(b *testing.B) {
			b.ReportAllocs()
			for b.Loop() {
				res, err := Assemble(parts, Options{Budget: tc.budget, Tokenizer: tok, Format: render.Text, Overflow: tc.overflow})
				if err != nil {
					b.Fatal(err)
				}
				if res.Plan.TotalTokens > tc.budget {
					b.Fatal("over budget")
				}
			}
		})
	}
}
