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
