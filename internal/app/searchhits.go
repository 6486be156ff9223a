package app

import "github.com/ctxpack/ctxpack/internal/retrieve"

// SearchHit is one search result as it is reported.
type SearchHit struct {
	Path   string  `json:"path"`
	Lines  [2]int  `json:"lines"`
	Symbol string  `json:"symbol"`
	Kind   string  `json:"kind"`
	Score  float64 `json:"score"`
	Why    string  `json:"why"`
	// Factors, Ranks and Signals explain the score, when asked for.
	Factors []retrieve.FactorScore `json:"factors,omitempty"`
	Ranks   map[string]int         `json:"ranks,omitempty"`
	Signals map[string]float64     `json:"signals,omitempty"`
}

// SearchHits reports the chunks Search returned, with each factor's part
// of the score, the ranks and the signals when explain is set; opt is the
// options Search returned.
func SearchHits(hits []retrieve.Chunk, opt retrieve.Options, explain bool) []SearchHit {
	out := []SearchHit{}
	for _, h := range hits {
		r := SearchHit{Path: h.Path, Lines: [2]int{h.StartLine, h.EndLine}, Symbol: h.Symbol, Kind: h.Kind, Score: h.Relevance, Why: h.Why()}
		if explain {
			r.Factors = FactorRows(h, opt.Factors)
			r.Ranks = h.Ranks
			if len(h.Signals) > 0 {
				r.Signals = make(map[string]float64, len(h.Signals))
				for _, s := range h.Signals {
					r.Signals[s.Name] = s.Value
				}
			}
		}
		out = append(out, r)
	}
	return out
}

// FactorRows are the factors of a chunk's relevance that have data, with
// their weights, shares and contributions (retrieve.Breakdown), in a fixed
// order, then its file_relevance (which has no weight) when it has one.
func FactorRows(c retrieve.Chunk, w retrieve.Factors) []retrieve.FactorScore {
	var out []retrieve.FactorScore
	for _, f := range retrieve.Breakdown(c.Factors, w) {
		if f.Present {
			out = append(out, f)
		}
	}
	if v, ok := c.Factors["file_relevance"]; ok {
		out = append(out, retrieve.FactorScore{Name: "file_relevance", Present: true, Value: v})
	}
	return out
}
