package lexical

import "math"

// BM25's constants.
const (
	bm25K1 = 1.2
	bm25B  = 0.75
)

// Scored is one text's BM25 score for a query, with the query's terms it
// holds, in the query's order.
type Scored struct {
	Score float64
	Terms []string
}

// BM25 scores each of texts for query by BM25 over the texts themselves
// (document frequencies and lengths taken from them): their terms
// (Terms), the query's terms (QueryTerms, so its stop words are left
// out). A text with none of the query's terms scores 0 and has no Terms.
// It depends on the query and the texts alone, and sums in the query's
// order, so its scores are the same on every run.
func BM25(query string, texts []string) []Scored {
	out := make([]Scored, len(texts))
	terms := QueryTerms(query)
	if len(terms) == 0 || len(texts) == 0 {
		return out
	}
	want := make(map[string]bool, len(terms))
	for _, t := range terms {
		want[t] = true
	}
	tf := make([]map[string]int, len(texts))
	lens := make([]int, len(texts))
	df := map[string]int{}
	total := 0
	for i, text := range texts {
		tf[i] = map[string]int{}
		for _, t := range Terms(text) {
			lens[i]++
			if want[t] {
				if tf[i][t] == 0 {
					df[t]++
				}
				tf[i][t]++
			}
		}
		total += lens[i]
	}
	avg := math.Max(1, float64(total)/float64(len(texts)))
	n := float64(len(texts))
	for i := range texts {
		for _, t := range terms { // query order: the sum's order is fixed
			f := float64(tf[i][t])
			if f == 0 {
				continue
			}
			d := float64(df[t])
			idf := math.Log(1 + (n-d+0.5)/(d+0.5))
			out[i].Score += idf * f * (bm25K1 + 1) / (f + bm25K1*(1-bm25B+bm25B*float64(lens[i])/avg))
			out[i].Terms = append(out[i].Terms, t)
		}
	}
	return out
}
