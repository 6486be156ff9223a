package retrieve

import (
	"context"
	"math"
	"strings"
	"testing"

	"github.com/ctxpack/ctxpack/internal/index"
)

// scoreTree is a small project: billing code, its test, a doc and a
// config file.
var scoreTree = map[string]string{
	"billing/invoice.py": "def round_total(total):\n    \"\"\"Round the invoice total to cents.\"\"\"\n" + strings.Repeat("    total = total + 0  # keep the chunk whole\n", 8) +
		"    return round(total, 2)\n\n\ndef tax(total):\n    \"\"\"The tax on a total.\"\"\"\n" + strings.Repeat("    total = total * 1  # keep the chunk whole\n", 8) + "    return total * 0.2\n",
	"billing/currency.py":   "RATES = {\"EUR\": 1.1}\n\n\ndef convert(amount, currency):\n    return amount * RATES[currency]\n",
	"tests/test_invoice.py": "from billing.invoice import round_total\n\n\ndef test_round_total():\n    assert round_total(1.005) == 1.0\n",
	"billing/report.py":     "from billing.invoice import round_total\n\n\ndef report(x):\n    return round_total(x)\n",
	"docs/guide.md":         "# Guide\n\nHow invoices are made.\n",
	"setup.cfg":             "[metadata]\nname = billing\n",
	"empty.txt":             "",
}

func TestScoreFile(t *testing.T) {
	ctx := context.Background()
	ix := indexFS(t, mapFS(scoreTree))
	day := int64(86400)
	withChanged := Options{Changed: changedFrom(map[string]int64{"billing/invoice.py": 30 * day, "billing/currency.py": 23 * day, "setup.cfg": 16 * day})}
	read := func(p string) (string, error) { return scoreTree[p], nil }
	tests := []struct {
		name, query, path string
		opt               Options
		retrieved         bool
		want              map[string]float64 // factor values; absent = no data
		wantErr           string
	}{
		{
			name: "the best match", query: "round the invoice total", path: "billing/invoice.py",
			retrieved: true,
			want:      map[string]float64{"file_type": 1, "mention_density": 0},
		},
		{
			name: "a mentioned identifier", query: "round_total drifts by a cent", path: "billing/invoice.py",
			retrieved: true,
			want:      map[string]float64{"file_type": 1, "mention_density": 1},
		},
		{
			name: "not retrieved: task alignment 0, the rest computed", query: "round_total drifts", path: "billing/currency.py",
			want: map[string]float64{"task_alignment": 0, "mention_density": 0, "file_type": 1},
		},
		{
			name: "not retrieved but its path mentioned", query: "see setup.cfg", path: "setup.cfg",
			retrieved: true, // the mention ranking brings it in
			want:      map[string]float64{"file_type": 0.2, "mention_density": 1},
		},
		{
			// Recency counts only within RecencyMargin of the best match.
			name: "not retrieved, with recency", query: "round_total", path: "setup.cfg", opt: withChanged,
			want: map[string]float64{"task_alignment": 0, "mention_density": 0, "file_type": 0.2, "recency": 0},
		},
		{
			name: "retrieved, with recency", query: "round_total", path: "billing/invoice.py", opt: withChanged,
			retrieved: true,
			want:      map[string]float64{"file_type": 1, "mention_density": 1, "recency": 1},
		},
		{
			name: "retrieved, with dependency depth", query: "round_total", path: "tests/test_invoice.py", opt: Options{Read: read},
			retrieved: true,
		},
		{
			// currency.py refers to nothing the best files define.
			name: "not retrieved, with dependency depth", query: "round_total", path: "billing/currency.py", opt: Options{Read: read},
			want: map[string]float64{"task_alignment": 0, "dependency_depth": 0},
		},
		{
			// report.py uses round_total, defined in the best file, but
			// does not say "cents".
			name: "not retrieved, one reference from the best file", query: "cents", path: "billing/report.py", opt: Options{Read: read},
			want: map[string]float64{"task_alignment": 0, "dependency_depth": 0.75},
		},
		{
			name: "a test file", query: "round total test", path: "tests/test_invoice.py",
			retrieved: true,
			want:      map[string]float64{"file_type": 0.1},
		},
		{name: "not indexed", query: "anything", path: "nope.py", wantErr: "retrieve: nope.py is not in the index"},
		{name: "no chunks", query: "anything", path: "empty.txt", wantErr: "retrieve: empty.txt has no chunks"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			s, err := ScoreFile(ctx, ix, tt.query, tt.path, tt.opt)
			if tt.wantErr != "" {
				if err == nil || !strings.HasPrefix(err.Error(), tt.wantErr) {
					t.Fatalf("got %v, want an error starting %q", err, tt.wantErr)
				}
				return
			}
			if err != nil {
				t.Fatal(err)
			}
			if (s.Rank > 0) != tt.retrieved {
				t.Fatalf("rank %d of %d, retrieved should be %v", s.Rank, s.Files, tt.retrieved)
			}
			if s.Best.Path != tt.path {
				t.Errorf("best chunk %s:%d, not in the file", s.Best.Path, s.Best.StartLine)
			}
			present := map[string]FactorScore{}
			var sum, shares float64
			for _, f := range s.Factors {
				if f.Present {
					present[f.Name] = f
					sum += f.Contribution
					shares += f.Share
				} else if f.Contribution != 0 || f.Share != 0 {
					t.Errorf("%s: absent but contributes %v", f.Name, f.Contribution)
				}
			}
			if len(s.Factors) != 5 || s.Factors[0].Name != "task_alignment" || s.Factors[4].Name != "file_type" {
				t.Errorf("factors not the five in order: %+v", s.Factors)
			}
			for name, v := range tt.want {
				f, ok := present[name]
				if !ok || math.Abs(f.Value-v) > 1e-6 {
					t.Errorf("%s = %v (present %v), want %v", name, f.Value, ok, v)
				}
			}
			if _, ok := present["recency"]; ok != (tt.opt.Changed != nil) {
				t.Errorf("recency present = %v with Changed set %v", ok, tt.opt.Changed != nil)
			}
			if _, ok := present["dependency_depth"]; ok != (tt.opt.Read != nil) {
				t.Errorf("dependency_depth present = %v with Read set %v", ok, tt.opt.Read != nil)
			}
			if math.Abs(sum-s.Relevance) > 5e-6 || math.Abs(shares-1) > 5e-6 {
				t.Errorf("contributions sum to %v, relevance %v; shares to %v", sum, s.Relevance, shares)
			}
			if !tt.retrieved {
				return
			}
			// The same relevance and factors as the ranking.
			r, err := Rank(ctx, ix, tt.query, tt.opt)
			if err != nil {
				t.Fatal(err)
			}
			f := r.Files[s.Rank-1]
			c := r.Chunks[f.Best]
			if f.Path != tt.path || f.Relevance != s.Relevance || c.Seq != s.Best.Seq {
				t.Errorf("ranking says %s %v (chunk %d), score says %v (chunk %d)", f.Path, f.Relevance, c.Seq, s.Relevance, s.Best.Seq)
			}
			for name, v := range c.Factors {
				if present[name].Value != v {
					t.Errorf("%s: ranking %v, score %v", name, v, present[name].Value)
				}
			}
		})
	}
}

// TestScoreFileAgreesWithRank: the factors computed for a file the
// ranking left out are those the ranking gives a file it keeps, apart
// from task alignment.
func TestScoreFileAgreesWithRank(t *testing.T) {
	ctx := context.Background()
	ix := indexFS(t, mapFS(scoreTree))
	const q = "round_total of the invoice"
	r, err := Rank(ctx, ix, q, Options{})
	if err != nil {
		t.Fatal(err)
	}
	opt := Options{}
	opt.normalize()
	compared := 0
	for _, f := range r.Files {
		c := r.Chunks[f.Best]
		if _, ok := c.Factors["task_alignment"]; !ok {
			continue
		}
		var best index.Hit
		got, err := unranked(ctx, ix, r, q, f.Path, opt, &best)
		if err != nil {
			t.Fatal(err)
		}
		if best.Seq != c.Seq {
			continue // another chunk: its mention density may differ
		}
		compared++
		for _, name := range []string{"mention_density", "file_type"} {
			if got[name] != c.Factors[name] {
				t.Errorf("%s %s: unranked %v, ranking %v", f.Path, name, got[name], c.Factors[name])
			}
		}
	}
	if compared < 2 {
		t.Errorf("only %d files compared", compared)
	}
}

// changedFrom is an Options.Changed that knows the commit times in m.
func changedFrom(m map[string]int64) func([]string) (map[string]int64, error) {
	return func(paths []string) (map[string]int64, error) {
		out := map[string]int64{}
		for _, p := range paths {
			if t, ok := m[p]; ok {
				out[p] = t
			}
		}
		return out, nil
	}
}

// TestBreakdown: each factor present decides its weight's share of the
// relevance; value × share is its contribution and the contributions sum
// to the relevance, up to rounding to 1e-6.
func TestBreakdown(t *testing.T) {
	w := DefaultFactors()
	tests := []map[string]float64{
		{"task_alignment": 1, "mention_density": 1, "dependency_depth": 1, "file_type": 1},
		{"task_alignment": 0.3, "recency": 0.9, "mention_density": 0, "dependency_depth": 0.75, "file_type": 0.1},
		{"task_alignment": 0.123457, "file_type": 0.2},
		{"file_type": 1},
	}
	for _, f := range tests {
		got := Breakdown(f, w)
		if len(got) != 5 || got[0].Name != "task_alignment" || got[4].Name != "file_type" {
			t.Fatalf("%v: not the five factors in order: %+v", f, got)
		}
		var sum, shares float64
		for _, s := range got {
			v, ok := f[s.Name]
			if s.Present != ok || s.Value != v || s.Weight != w.Weight(s.Name) {
				t.Errorf("%v: %+v", f, s)
			}
			if !ok {
				if s.Share != 0 || s.Contribution != 0 {
					t.Errorf("%v: %s absent but has share %v, contribution %v", f, s.Name, s.Share, s.Contribution)
				}
				continue
			}
			if d := math.Abs(s.Value*s.Share - s.Contribution); d > 1e-6 {
				t.Errorf("%v: %s %v × %v = %v, not %v", f, s.Name, s.Value, s.Share, s.Value*s.Share, s.Contribution)
			}
			sum += s.Contribution
			shares += s.Share
		}
		if rel := relevance(f, w); math.Abs(sum-rel) > 5e-6 || math.Abs(shares-1) > 5e-6 {
			t.Errorf("%v: contributions sum to %v, relevance %v; shares sum to %v", f, sum, rel, shares)
		}
	}
	// Shares: the weight over the weights present (0.4 of 0.8).
	if got := Breakdown(tests[0], w); got[0].Share != 0.5 || got[0].Contribution != 0.5 || got[1].Present {
		t.Errorf("%+v", got)
	}
}

// TestScoreFileExpandShare: with expanded chunks at their file's whole
// relevance (retrieval.expand_share: 1) one of them ties the best chunk
// and sorts before it; the score is still the best chunk's, and the file
// is still first.
func TestScoreFileExpandShare(t *testing.T) {
	ctx := context.Background()
	ix := indexFS(t, mapFS(scoreTree))
	const q = "tax"
	opt := Options{ExpandShare: 1}
	r, err := Rank(ctx, ix, q, opt)
	if err != nil {
		t.Fatal(err)
	}
	if len(r.Files) == 0 || r.Files[0].Path != "billing/invoice.py" {
		t.Fatalf("files %+v: want billing/invoice.py first", r.Files)
	}
	s, err := ScoreFile(ctx, ix, q, "billing/invoice.py", opt)
	if err != nil {
		t.Fatal(err)
	}
	if s.Rank != 1 || s.Best.Symbol != "tax" || !s.Factors[0].Present || s.Factors[0].Value == 0 || s.Relevance != r.Files[0].Relevance {
		t.Errorf("rank %d, best chunk %s, relevance %v (ranking's %v), factors %+v", s.Rank, s.Best.Symbol, s.Relevance, r.Files[0].Relevance, s.Factors)
	}
}
