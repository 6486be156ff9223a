package pack

import (
	"fmt"
	"io"
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

// loaded gives each part's full text through a Loader, as pack mode does.
func loaded(parts []Part) []Part {
	out := make([]Part, len(parts))
	for i, p := range parts {
		full := p.Text[Full]
		p.Text = map[Level]string{Meta: p.Text[Meta]}
		p.Loader = &Loader{Len: len(full), Load: func() (string, error) { return full, nil }}
		out[i] = p
	}
	return out
}

// BenchmarkAssembleTo packs parts whose texts come from a Loader, under a
// budget and, with overflow allow, written as they are rendered.
func BenchmarkAssembleTo(b *testing.B) {
	tok, err := tokenizer.Get("o200k_base")
	if err != nil {
		b.Fatal(err)
	}
	for _, n := range []int{1000, 20000} {
		parts := loaded(benchParts(n))
		for _, tc := range []struct {
			name string
			o    Options
		}{
			{"budget", Options{Budget: 100000, Tokenizer: tok, Format: render.Text}},
			{"allow", Options{Tokenizer: tok, Format: render.XML, Overflow: Allow}},
		} {
			b.Run(fmt.Sprintf("parts=%d/%s", n, tc.name), func(b *testing.B) {
				b.ReportAllocs()
				for b.Loop() {
					if _, err := AssembleTo(io.Discard, parts, tc.o); err != nil {
						b.Fatal(err)
					}
				}
			})
		}
	}
}

// BenchmarkDedup deduplicates parts of one vocabulary, many of them near
// copies: the shingles of every part, the table of those that may be
// shared, their postings and the decisions.
func BenchmarkDedup(b *testing.B) {
	for _, n := range []int{1000, 20000} {
		parts := benchParts(n)
		items := make([]*item, n)
		for i := range parts {
			p := &parts[i]
			items[i] = &item{Part: p, cid: contentID(p.Text[Full]), text: [numLevels]string{Meta: p.Text[Meta], Full: p.Text[Full]}, start: Full}
		}
		b.Run(fmt.Sprintf("parts=%d", n), func(b *testing.B) {
			b.ReportAllocs()
			for b.Loop() {
				dedup(items, 0.8)
			}
		})
	}
}
