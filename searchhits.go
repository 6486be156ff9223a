package ctxpack

import (
	"math"

	"github.com/ctxpack/ctxpack/internal/retrieve"
)

// SearchHit is one search result as it is reported.
type SearchHit struct {
	Path   string  `json:"path"`
	Lines  [2]int  `json:"lines"`
	Symbol string  `json:"symbol"`
	Kind   string  `json:"kind"`
	Score  float64 `json:"score"`
	Why    string  `json:"why"`
	// Factors, Ranks and Signals explain the score, when asked for.
	Factors []FactorRow        `json:"factors,omitempty"`
	Ranks   map[string]int     `json:"ranks,omitempty"`
	Signals map[string]float64 `json:"signals,omitempty"`
}

// FactorRow is one factor's part of a score.
type FactorRow struct {
	Name         string  `json:"name"`
	Value        float64 `json:"value"`
	Weight       float64 `json:"weight"`
	Contribution float64 `json:"contribution"`
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

// FactorRows are a chunk's factors with their weights and contributions
// (value × weight / the weights of the factors present), in a fixed order,
// then its file_relevance (which has no weight) when it has one.
func FactorRows(c retrieve.Chunk, w retrieve.Factors) []FactorRow {
	var total float64
	for _, n := range retrieve.FactorNames() {
		if _, ok := c.Factors[n]; ok {
			total += w.Weight(n)
		}
	}
	var out []FactorRow
	for _, n := range retrieve.FactorNames() {
		v, ok := c.Factors[n]
		if !ok || total == 0 {
			continue
		}
		out = append(out, FactorRow{Name: n, Value: v, Weight: w.Weight(n), Contribution: round6(v * w.Weight(n) / total)})
	}
	if v, ok := c.Factors["file_relevance"]; ok {
		out = append(out, FactorRow{Name: "file_relevance", Value: v})
	}
	return out
}

func round6(f float64) float64 { return math.Round(f*1e6) / 1e6 }
