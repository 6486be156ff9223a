package embed

import (
	"cmp"
	"github.com/ctxpack/ctxpack/internal/rank"
	"math"
	"math/rand/v2"
	"slices"
	"strconv"
	"strings"
	"testing"

	gocmp "github.com/google/go-cmp/cmp"
)

func TestNormalize(t *testing.T) {
	tests := []struct {
		in, want []float32
		nonZero  bool
	}{
		{[]float32{3, 4}, []float32{0.6, 0.8}, true},
		{[]float32{0, 0, 0}, []float32{0, 0, 0}, false},
		{[]float32{-2}, []float32{-1}, true},
		{[]float32{1e-30, 1e-30}, []float32{float32(math.Sqrt2 / 2), float32(math.Sqrt2 / 2)}, true},
		{nil, nil, false},
	}
	for _, tt := range tests {
		v := slices.Clone(tt.in)
		if got := Normalize(v); got != tt.nonZero || !slices.Equal(v, tt.want) {
			t.Errorf("Normalize(%v) = %v, %v; want %v, %v", tt.in, v, got, tt.want, tt.nonZero)
		}
	}
}

func TestDot(t *testing.T) {
	tests := []struct {
		a, b []float32
		want float64
	}{
		{nil, nil, 0},
		{[]float32{1, 2, 3}, []float32{4, 5, 6}, 32},
		{[]float32{1, 2, 3, 4, 5}, []float32{1, 1, 1, 1, -1}, 5},
		{[]float32{0.1}, []float32{0.1}, float64(float32(0.1)) * float64(float32(0.1))},
	}
	for _, tt := range tests {
		if got := Dot(tt.a, tt.b); got != tt.want {
			t.Errorf("Dot(%v, %v) = %v, want %v", tt.a, tt.b, got, tt.want)
		}
	}
	defer func() {
		if r := recover(); r == nil || !strings.Contains(r.(string), "lengths 1 and 2") {
			t.Errorf("Dot of different lengths: panic %v", r)
		}
	}()
	Dot([]float32{1}, []float32{1, 2})
}

type push struct {
	key   string
	score float64
}

func TestTop(t *testing.T) {
	pushes := []push{
		{"c", 0.5}, {"a", 0.9}, {"b", 0.5000001}, {"d", 0.5}, {"e", 0.1}, {"f", 0.9000004},
	}
	tests := []struct {
		k              int
		best, withTies string
	}{
		{0, "", ""},
		{1, "a:0.9", "a:0.9 f:0.9"},
		{2, "a:0.9 f:0.9", "a:0.9 f:0.9"},
		{3, "a:0.9 f:0.9 b:0.5", "a:0.9 f:0.9 b:0.5 c:0.5 d:0.5"},
		{4, "a:0.9 f:0.9 b:0.5 c:0.5", "a:0.9 f:0.9 b:0.5 c:0.5 d:0.5"},
		{6, "a:0.9 f:0.9 b:0.5 c:0.5 d:0.5 e:0.1", "a:0.9 f:0.9 b:0.5 c:0.5 d:0.5 e:0.1"},
		{9, "a:0.9 f:0.9 b:0.5 c:0.5 d:0.5 e:0.1", "a:0.9 f:0.9 b:0.5 c:0.5 d:0.5 e:0.1"},
	}
	show := func(s []Scored[string]) string {
		var parts []string
		for _, x := range s {
			parts = append(parts, x.Key+":"+strconv.FormatFloat(x.Score, 'g', -1, 64))
		}
		return strings.Join(parts, " ")
	}
	for _, tt := range tests {
		// Every order of the pushes gives the same answer.
		r := rand.New(rand.NewPCG(1, uint64(tt.k)))
		for range 20 {
			top := NewTop(tt.k, strings.Compare)
			for _, p := range shuffled(r, pushes) {
				top.Push(p.key, p.score)
			}
			if got := show(best(top)); got != tt.best {
				t.Errorf("k=%d Best = %q, want %q", tt.k, got, tt.best)
			}
			if got := show(top.BestWithTies()); got != tt.withTies {
				t.Errorf("k=%d BestWithTies = %q, want %q", tt.k, got, tt.withTies)
			}
		}
	}
}

func shuffled[T any](r *rand.Rand, s []T) []T {
	s = slices.Clone(s)
	r.Shuffle(len(s), func(i, j int) { s[i], s[j] = s[j], s[i] })
	return s
}

// TestTopMatchesSort checks Top against sorting everything, on scores
// drawn from a few values so that ties are common.
func TestTopMatchesSort(t *testing.T) {
	r := rand.New(rand.NewPCG(7, 8))
	for trial := range 300 {
		n := r.IntN(60)
		k := r.IntN(12)
		var pushes []push
		for i := range n {
			pushes = append(pushes, push{key: string(rune('A' + i)), score: float64(r.IntN(5)) / 4})
		}
		sorted := slices.Clone(pushes)
		slices.SortFunc(sorted, func(a, b push) int {
			return cmp.Or(cmp.Compare(rank.Quantize(b.score), rank.Quantize(a.score)), strings.Compare(a.key, b.key))
		})
		wantBest := sorted[:min(k, n)]
		wantTies := wantBest
		if k > 0 && k < n {
			last := rank.Quantize(sorted[k-1].score)
			j := k
			for j < n && rank.Quantize(sorted[j].score) == last {
				j++
			}
			wantTies = sorted[:j]
		}
		top := NewTop(k, strings.Compare)
		for _, p := range pushes {
			top.Push(p.key, p.score)
		}
		check := func(name string, got []Scored[string], want []push) {
			var g, w []string
			for _, x := range got {
				g = append(g, x.Key)
			}
			for _, x := range want {
				w = append(w, x.key)
			}
			if !slices.Equal(g, w) {
				t.Errorf("trial %d (n=%d k=%d) %s (-want +got):\n%s", trial, n, k, name, gocmp.Diff(w, g))
			}
		}
		check("Best", best(top), wantBest)
		check("BestWithTies", top.BestWithTies(), wantTies)
	}
}

// best is the k best keys of t, best first: the first k of BestWithTies.
func best[K any](t *Top[K]) []Scored[K] {
	all := t.BestWithTies()
	return all[:min(t.k, len(all))]
}
