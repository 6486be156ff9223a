package tokenizer

import "testing"

// BenchmarkLookup compares the rank table with a Go map on the pieces of
// the corpus (whole-piece lookups, as Count does first).
func BenchmarkLookup(b *testing.B) {
	files, _ := benchCorpus(b)
	e := mustBPE(b, "o200k_base")
	var pieces []string
	for _, f := range files[:len(files)/4] {
		for i := 0; i < len(f.text); {
			j := e.split.next(f.text, i)
			pieces = append(pieces, f.text[i:j])
			i = j
		}
	}
	m := make(map[string]int32, e.vocab.size())
	for r := range e.vocab.size() {
		m[e.vocab.token(int32(r))] = int32(r)
	}
	b.Run("table", func(b *testing.B) {
		n := 0
		for b.Loop() {
			for _, p := range pieces {
				if e.vocab.rank(p) != noRank {
					n++
				}
			}
		}
		b.ReportMetric(float64(b.Elapsed().Nanoseconds())/float64(b.N*len(pieces)), "ns/lookup")
	})
	b.Run("map", func(b *testing.B) {
		n := 0
		for b.Loop() {
			for _, p := range pieces {
				if _, ok := m[p]; ok {
					n++
				}
			}
		}
		b.ReportMetric(float64(b.Elapsed().Nanoseconds())/float64(b.N*len(pieces)), "ns/lookup")
	})
}
