package rank

import (
	"math"
	"testing"
)

func TestQuantize(t *testing.T) {
	for _, tt := range []struct {
		in   float64
		want int64
	}{
		{0, 0}, {1, 1_000_000}, {0.1234564, 123456}, {0.1234565, 123457}, {-0.5, -500_000},
		{math.NaN(), math.MinInt64}, {math.Inf(1), math.MaxInt64}, {math.Inf(-1), math.MinInt64 + 1}, {1e300, math.MaxInt64},
	} {
		if got := Quantize(tt.in); got != tt.want {
			t.Errorf("Quantize(%g) = %d, want %d", tt.in, got, tt.want)
		}
	}
	if got := Round(0.1 + 0.2); got != 0.3 {
		t.Errorf("Round(0.1+0.2) = %g", got)
	}
}

func TestHalfLife(t *testing.T) {
	for _, tt := range []struct {
		age  int64
		days float64
		want float64
	}{
		{0, 30, 1}, {30 * Day, 30, 0.5}, {60 * Day, 30, 0.25}, {7 * Day, 7, 0.5}, {Day / 2, 1, math.Sqrt(0.5)},
	} {
		if got := HalfLife(tt.age, tt.days); math.Abs(got-tt.want) > 1e-15 {
			t.Errorf("HalfLife(%d, %g) = %g, want %g", tt.age, tt.days, got, tt.want)
		}
	}
	// The same operations, in the same order, as the formulas it replaces:
	// the result is bit for bit theirs.
	for _, age := range []int64{1, 12345, 86399, 3 * Day, 1_000_000_007} {
		if got, want := HalfLife(age, 30), math.Pow(0.5, float64(age)/86400/30); got != want {
			t.Errorf("HalfLife(%d, 30) = %v, want %v", age, got, want)
		}
	}
}
