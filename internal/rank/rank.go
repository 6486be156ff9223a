// Package rank holds the rule every score is compared by (DESIGN §2):
// scores are computed in float64 and rounded to multiples of 1e-6 before
// any comparison, so that floating-point noise never decides an order;
// and the one recency weight, HalfLife.
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

// Day is the length of a day in seconds, the unit of half-lives.
const Day = 86400

// HalfLife is the weight of something age seconds older than the newest
// of its kind, halving every halfLifeDays: 0.5^(age in days /
// halfLifeDays), 1 at age 0. Ages are differences of recorded times (git
// commits, rows' creation), never of the clock, so the weight depends on
// the inputs alone. Callers that scale the weight and add to it should
// round the product with float64(), as 0.9 + float64(0.1*w), so that no
// platform fuses the two into a multiply-add and the sum is the same on
// every machine.
func HalfLife(age int64, halfLifeDays float64) float64 {
	return math.Pow(0.5, float64(age)/Day/halfLifeDays)
}
