// Package rank holds the rule every score is compared by (DESIGN §2):
// scores are computed in float64 and rounded to multiples of 1e-6 before
// any comparison, so that floating-point noise never decides an order.
package rank

import "math"

// Quantum is the resolution scores are compared at: they are rounded to
// multiples of 1/Quantum.
const Quantum = 1e6

// Quantize rounds a score to an integer number of 1e-6 units; NaN ranks
// below every number, and scores beyond int64 are clamped.
func Quantize(score float64) int64 {
	switch {
	case math.IsNaN(score):
		return math.MinInt64
	case score >= math.MaxInt64/Quantum:
		return math.MaxInt64
	case score <= math.MinInt64/Quantum:
		return math.MinInt64 + 1
	}
	return int64(math.Round(score * Quantum))
}

// Round is score rounded to a multiple of 1e-6, as it is compared and
// reported.
func Round(score float64) float64 { return float64(Quantize(score)) / Quantum }
