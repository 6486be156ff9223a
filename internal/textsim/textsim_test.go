package textsim

import (
	"math"
	"testing"
)

// levenshtein is the textbook full-table distance, the reference the
// banded one is checked against.
func levenshtein(a, b []rune) int {
	prev := make([]int, len(b)+1)
	for j := range prev {
		prev[j] = j
	}
	for i := 1; i <= len(a); i++ {
		cur := make([]int, len(b)+1)
		cur[0] = i
		for j := 1; j <= len(b); j++ {
			c := prev[j-1]
			if a[i-1] != b[j-1] {
				c++
			}
			cur[j] = min(c, prev[j]+1, cur[j-1]+1)
		}
		prev = cur
	}
	return prev[len(b)]
}

func TestSimilarity(t *testing.T) {
	for _, tc := range []struct {
		a, b string
		want float64
	}{
		{"", "", 1},
		{"abc", "", 0},
		{"Use decimal for money", "use  decimal\nfor money", 1},
		{"kitten", "sitting", 1 - 3.0/7},
		{"invoice totals round half-even", "invoice totals round half even", 1 - 1.0/30},
		{"ab", "ba", 0},
		{"héllo", "hello", 0.8},
	} {
		if got := Similarity(tc.a, tc.b); math.Abs(got-tc.want) > 1e-12 {
			t.Errorf("Similarity(%q, %q) = %v, want %v", tc.a, tc.b, got, tc.want)
		}
		if got := Similarity(tc.b, tc.a); math.Abs(got-tc.want) > 1e-12 {
			t.Errorf("Similarity(%q, %q) = %v, want %v (not symmetric)", tc.b, tc.a, got, tc.want)
		}
	}
}

func TestNormalize(t *testing.T) {
	for in, want := range map[string]string{
		"":                "",
		"  A\tB\n\nc  ":   "a b c",
		"ÉTÉ":             "été",
		"one\r\ntwo":      "one two",
		"\u00a0x\u2003y ": "x y",
	} {
		if got := Normalize(in); got != want {
			t.Errorf("Normalize(%q) = %q, want %q", in, got, want)
		}
	}
}

// AtLeast agrees with the full-table distance on every threshold.
func TestAtLeastAgreesWithFullDistance(t *testing.T) {
	texts := []string{
		"", "a", "ab", "abc", "abd", "kitten", "sitting", "sittin",
		"Use decimal for money, never float.",
		"Use decimals for money; never floats.",
		"use decimal for money never float",
		"Retry the flaky test three times before filing a bug.",
		"Retry the flaky tests 3 times before filing a bug",
		"completely different text about caching",
	}
	for _, a := range texts {
		for _, b := range texts {
			ra, rb := []rune(Normalize(a)), []rune(Normalize(b))
			n := max(len(ra), len(rb))
			sim := 1.0
			if n > 0 {
				sim = 1 - float64(levenshtein(ra, rb))/float64(n)
			}
			for _, min := range []float64{0, 0.5, 0.8, 0.85, 0.9, 0.95, 0.99, 1} {
				gotSim, got := Prepare(a).AtLeast(Prepare(b), min)
				if want := sim >= min; got != want {
					t.Errorf("Prepare(%q).AtLeast(Prepare(%q), %v) = %v, similarity %v", a, b, min, got, sim)
				}
				wantSim := 0.0 // AtLeast's similarity for a pair not alike enough
				if got {
					wantSim = sim
				}
				if math.Abs(gotSim-wantSim) > 1e-12 {
					t.Errorf("Prepare(%q).AtLeast(Prepare(%q), %v) gives similarity %v, want %v", a, b, min, gotSim, wantSim)
				}
			}
			if got := Similarity(a, b); math.Abs(got-sim) > 1e-12 {
				t.Errorf("Similarity(%q, %q) = %v, full table says %v", a, b, got, sim)
			}
		}
	}
}

func FuzzAtLeast(f *testing.F) {
	f.Add("kitten", "sitting", 0.5)
	f.Add("Use decimal for money", "use decimals for money", 0.9)
	f.Fuzz(func(t *testing.T, a, b string, min float64) {
		if len(a) > 300 || len(b) > 300 || math.IsNaN(min) {
			return
		}
		ra, rb := []rune(Normalize(a)), []rune(Normalize(b))
		n := max(len(ra), len(rb))
		sim := 1.0
		if n > 0 {
			sim = 1 - float64(levenshtein(ra, rb))/float64(n)
		}
		gotSim, got := Prepare(a).AtLeast(Prepare(b), min)
		if want := sim >= min || min <= 0; got != want {
			t.Fatalf("Prepare(%q).AtLeast(Prepare(%q), %v) = %v, similarity %v", a, b, min, got, sim)
		}
		if got && math.Abs(gotSim-sim) > 1e-12 {
			t.Fatalf("Prepare(%q).AtLeast(Prepare(%q), %v) gives similarity %v, the full table %v", a, b, min, gotSim, sim)
		}
	})
}

func BenchmarkAtLeast(b *testing.B) {
	x := ""
	for i := range 40 {
		x += "the invoice total is rounded half-even at the last step " + string(rune('a'+i%26)) + "\n"
	}
	y := x[:len(x)-30] + "something else entirely at the end"
	tx, ty := Prepare(x), Prepare(y)
	b.ReportAllocs()
	for b.Loop() {
		tx.AtLeast(ty, 0.9)
	}
}
