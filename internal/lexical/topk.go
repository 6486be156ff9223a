package lexical

import (
	"slices"
	"strings"

	"github.com/ctxpack/ctxpack/internal/rank"
)

// TopK returns the k best results of a full-text search, widening the
// search until they are settled. fetch returns up to limit candidates,
// best first by their raw score; a candidate is settled when its score,
// quantized (rank.Quantize), is above that of the last one fetched, since
// no candidate left behind can reach it. finish turns the settled
// candidates into results in their final order (loading their rows,
// sorting, grouping); TopK returns the first k of them, or all when fetch
// returned fewer than limit.
func TopK[C, R any](k int, fetch func(limit int) ([]C, error), score func(C) float64, finish func([]C) ([]R, error)) ([]R, error) {
	for limit := 4*k + 16; ; limit *= 4 {
		cands, err := fetch(limit)
		if err != nil {
			return nil, err
		}
		all := len(cands) < limit
		if !all {
			last := rank.Quantize(score(cands[len(cands)-1]))
			cands = slices.DeleteFunc(cands, func(c C) bool { return rank.Quantize(score(c)) <= last })
		}
		out, err := finish(cands)
		if err != nil {
			return nil, err
		}
		if all || len(out) >= k {
			return out[:min(k, len(out))], nil
		}
	}
}

// MatchExpr is the FTS5 query for terms (of Terms or QueryTerms): any of
// them.
func MatchExpr(terms []string) string { return matchExpr(terms, false) }

// Phrase is the FTS5 phrase that matches the term t: t itself, or with
// stem its stem as a prefix when Stem shortens it ("rais"*).
func Phrase(t string, stem bool) string {
	if stem {
		if s := Stem(t); s != "" {
			return `"` + s + `"*`
		}
	}
	return `"` + t + `"` // terms hold no quotes (see Terms)
}

func matchExpr(terms []string, stem bool) string {
	q := make([]string, len(terms))
	for i, t := range terms {
		q[i] = Phrase(t, stem)
	}
	return strings.Join(q, " OR ")
}

// Stem is the prefix the inflected forms of a lower-case English word
// share, for a prefix query: the word without its longest inflectional
// or derivational ending (-ations, -ing, -ed, -es, -s, a final e…) when
// at least MinStem bytes remain, else "" (the word is matched as it is).
// "raises" → "rais" (raise, raised, raising), "markers" → "mark",
// "dynamically" → "dynam". Words with a digit are never stemmed.
func Stem(t string) string {
	for i := 0; i < len(t); i++ {
		if c := t[i]; c < 'a' || c > 'z' {
			return ""
		}
	}
	for _, suf := range stemSuffixes {
		if s, ok := strings.CutSuffix(t, suf); ok && len(s) >= MinStem {
			return s
		}
	}
	return ""
}

// MinStem is the shortest stem Stem returns: a shorter prefix matches
// too many unrelated words.
const MinStem = 4

// stemSuffixes are the endings Stem removes, longest first.
var stemSuffixes = []string{
	"izations", "ization", "ations", "ically", "ation", "ments", "ings", "ions", "ment", "ness", "ally",
	"ing", "ion", "ers", "ies", "ied", "ful", "er", "es", "ed", "ly", "al", "s", "e", "y",
}

// StemMatchExpr is MatchExpr with each term that Stem shortens matched by
// its stem as a prefix ("rais"*), so that a query's raises finds raise
// and raising.
func StemMatchExpr(terms []string) string { return matchExpr(terms, true) }
