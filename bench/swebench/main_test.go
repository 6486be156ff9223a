package main

import (
	"bytes"
	"errors"
	"fmt"
	"io"
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/ctxpack/ctxpack/internal/app"
	"github.com/ctxpack/ctxpack/internal/render"
	"github.com/ctxpack/ctxpack/internal/tokenizer"
	"github.com/google/go-cmp/cmp"
)

func TestReport(t *testing.T) {
	m := func(edit float64, full bool, share, over float64) measures {
		return measures{edit: edit, seen: edit, goldFull: full, goldShare: share, overhead: over}
	}
	o := func(repo, lang string, rank int, at2, at4 [2]measures) outcome {
		return outcome{id: repo, repo: repo, language: lang, rank: rank, took: time.Second, budgets: []atBudget{
			{budget: 2, ctxpack: at2[0], naive: at2[1]},
			{budget: 4, ctxpack: at4[0], naive: at4[1]},
		}}
	}
	tests := []struct {
		name string
		outs []outcome
		want string
	}{
		{
			name: "without languages there is no language line",
			outs: []outcome{
				o("a/x", "", 1, [2]measures{m(1, true, 0.5, 0.1), m(0, false, 0, 0.2)}, [2]measures{m(1, true, 0.5, 0.1), m(0.5, true, 0.25, 0.2)}),
				o("a/x", "", 4, [2]measures{m(0.5, true, 0.25, 0.1), m(0, false, 0, 0.2)}, [2]measures{m(0.5, true, 0.25, 0.1), m(1, true, 0.75, 0.2)}),
				o("b/y", "", 0, [2]measures{m(0, false, 0, 0.4), m(0, false, 0, 0.5)}, [2]measures{m(0, false, 0, 0.4), m(0, false, 0, 0.5)}),
			},
			want: `
  budget  ctxpack-edit  naive-edit  ctxpack-goldfull  naive-goldfull  ctxpack-goldshare  naive-goldshare  ctxpack-overhead  naive-overhead  ctxpack-seen
       2         0.500       0.000             0.667           0.000              0.250            0.000             0.200           0.300         0.500
       4         0.500       0.500             0.667           0.667              0.250            0.333             0.200           0.300         0.500
    mean         0.500       0.250             0.667           0.333              0.250            0.167             0.200           0.300         0.500

  repository  n  recall@1  recall@3  recall@5  recall@10  mean time
         a/x  2      0.50      0.50      1.00       1.00      1.00s
         b/y  1      0.00      0.00      0.00       0.00      1.00s
     overall  3      0.33      0.33      0.67       0.67      1.00s

     edit  n  ctxpack@2  naive@2  ctxpack@4  naive@4
      a/x  2      0.750    0.000      0.750    0.750
      b/y  1      0.000    0.000      0.000    0.000
  overall  3      0.500    0.000      0.500    0.500
`,
		},
		{
			name: "languages, largest group first",
			outs: []outcome{
				o("g/a", "go", 3, [2]measures{m(0, false, 0, 0), m(1, true, 1, 0)}, [2]measures{m(1, true, 1, 0), m(1, true, 1, 0)}),
				o("p/b", "python", 1, [2]measures{m(1, true, 1, 0), m(0, false, 0, 0)}, [2]measures{m(1, true, 1, 0), m(0, false, 0, 0)}),
				o("p/c", "python", 11, [2]measures{m(0, false, 0, 0), m(0, false, 0, 0)}, [2]measures{m(0, false, 0, 0), m(0, false, 0, 0)}),
				o("p/c", "python", 10, [2]measures{m(0, false, 0, 0), m(0, false, 0, 0)}, [2]measures{m(0.5, false, 0, 0), m(0, false, 0, 0)}),
			},
			want: `
  budget  ctxpack-edit  naive-edit  ctxpack-goldfull  naive-goldfull  ctxpack-goldshare  naive-goldshare  ctxpack-overhead  naive-overhead  ctxpack-seen
       2         0.250       0.250             0.250           0.250              0.250            0.250             0.000           0.000         0.250
       4         0.625       0.250             0.500           0.250              0.500            0.250             0.000           0.000         0.625
    mean         0.438       0.250             0.375           0.250              0.375            0.250             0.000           0.000         0.438

       repository  n  recall@1  recall@3  recall@5  recall@10  mean time
              p/c  2      0.00      0.00      0.00       0.50      1.00s
              g/a  1      0.00      1.00      1.00       1.00      1.00s
              p/b  1      1.00      1.00      1.00       1.00      1.00s
  language python  3      0.33      0.33      0.33       0.67      1.00s
      language go  1      0.00      1.00      1.00       1.00      1.00s
          overall  4      0.25      0.50      0.50       0.75      1.00s

             edit  n  ctxpack@2  naive@2  ctxpack@4  naive@4
              p/c  2      0.000    0.000      0.250    0.000
              g/a  1      0.000    1.000      1.000    1.000
              p/b  1      1.000    0.000      1.000    0.000
  language python  3      0.333    0.000      0.500    0.000
      language go  1      0.000    1.000      1.000    1.000
          overall  4      0.250    0.250      0.625    0.250
`,
		},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			var b bytes.Buffer
			report(&b, tt.outs, []int{2, 4})
			if diff := cmp.Diff(strings.TrimPrefix(tt.want, "\n"), b.String()); diff != "" {
				t.Errorf("report (-want +got):\n%s", diff)
			}
		})
	}
}

func TestRunAll(t *testing.T) {
	var insts []instance
	for i := range 9 {
		insts = append(insts, instance{ID: fmt.Sprintf("i%d", i), Repo: "r"})
	}
	// one finishes the later instances first and prints as it goes.
	one := func(in instance, w io.Writer) (outcome, error) {
		var i int
		fmt.Sscanf(in.ID, "i%d", &i)
		time.Sleep(time.Duration(9-i) * time.Millisecond)
		fmt.Fprintf(w, "%s start\n%s end\n", in.ID, in.ID)
		if in.ID == "i6" {
			return outcome{}, errors.New("boom")
		}
		return outcome{id: in.ID, rank: i}, nil
	}
	tests := []struct {
		parallel int
		insts    []instance
		wantLog  string
		wantIDs  []string
		wantErr  string
	}{
		{1, insts[:3], "i0 start\ni0 end\ni1 start\ni1 end\ni2 start\ni2 end\n", []string{"i0", "i1", "i2"}, ""},
		{4, insts[:6], "i0 start\ni0 end\ni1 start\ni1 end\ni2 start\ni2 end\ni3 start\ni3 end\ni4 start\ni4 end\ni5 start\ni5 end\n", []string{"i0", "i1", "i2", "i3", "i4", "i5"}, ""},
		{20, insts[:2], "i0 start\ni0 end\ni1 start\ni1 end\n", []string{"i0", "i1"}, ""},
		{3, insts[5:], "i5 start\ni5 end\ni6 start\ni6 end\n", nil, "i6: boom"},
		{2, nil, "", []string{}, ""},
	}
	for _, tt := range tests {
		t.Run(fmt.Sprintf("parallel %d of %d", tt.parallel, len(tt.insts)), func(t *testing.T) {
			var log bytes.Buffer
			outs, err := runAll(tt.insts, tt.parallel, one, &log)
			if tt.wantErr != "" {
				if err == nil || err.Error() != tt.wantErr {
					t.Errorf("error %v, want %q", err, tt.wantErr)
				}
			} else if err != nil {
				t.Fatal(err)
			}
			if log.String() != tt.wantLog {
				t.Errorf("log:\n%s\nwant:\n%s", log.String(), tt.wantLog)
			}
			if tt.wantErr != "" {
				return
			}
			ids := []string{}
			for _, o := range outs {
				ids = append(ids, o.id)
			}
			if diff := cmp.Diff(tt.wantIDs, ids); diff != "" {
				t.Errorf("outcomes (-want +got):\n%s", diff)
			}
		})
	}
}

func TestFitNaive(t *testing.T) {
	chunks := []naiveChunk{
		{path: "a.py", startLine: 1, endLine: 3, text: "0123456789\n"},            // 17+11 = 28 bytes
		{path: "b.py", startLine: 10, endLine: 20, text: strings.Repeat("x", 50)}, // 19+51 = 70
		{path: "c.py", startLine: 5, endLine: 5, text: "y"},                       // 17+2 = 19
	}
	bytesCount := func(s string) int { return len(s) }
	// seams counts a token more where two chunks meet, so the whole text
	// counts more than its pieces.
	seams := func(s string) int { return len(s) + strings.Count(s, "\n=== ") }
	tests := []struct {
		name      string
		budget    int
		count     func(string) int
		want      string
		wantParts []shown
		wantTotal int
		wantHead  int
	}{
		{
			name: "too long a chunk is skipped and the next taken", budget: 50, count: bytesCount,
			want: "=== a.py:1-3 ===\n0123456789\n=== c.py:5-5 ===\ny\n",
			wantParts: []shown{
				{path: "a.py", lines: [2]int{1, 3}, full: true, tokens: 28},
				{path: "c.py", lines: [2]int{5, 5}, full: true, tokens: 19},
			},
			wantTotal: 47, wantHead: 34,
		},
		{
			name: "a chunk that fits exactly is taken", budget: 28, count: bytesCount,
			want:      "=== a.py:1-3 ===\n0123456789\n",
			wantParts: []shown{{path: "a.py", lines: [2]int{1, 3}, full: true, tokens: 28}},
			wantTotal: 28, wantHead: 17,
		},
		{
			name: "the first chunk skipped", budget: 27, count: bytesCount,
			want:      "=== c.py:5-5 ===\ny\n",
			wantParts: []shown{{path: "c.py", lines: [2]int{5, 5}, full: true, tokens: 19}},
			wantTotal: 19, wantHead: 17,
		},
		{
			name: "a text without its last newline gets one", budget: 1000, count: bytesCount,
			want: "=== a.py:1-3 ===\n0123456789\n=== b.py:10-20 ===\n" + strings.Repeat("x", 50) + "\n=== c.py:5-5 ===\ny\n",
			wantParts: []shown{
				{path: "a.py", lines: [2]int{1, 3}, full: true, tokens: 28},
				{path: "b.py", lines: [2]int{10, 20}, full: true, tokens: 70},
				{path: "c.py", lines: [2]int{5, 5}, full: true, tokens: 19},
			},
			wantTotal: 117, wantHead: 53,
		},
		{
			name: "nothing fits", budget: 18, count: bytesCount,
		},
		{
			name: "the whole counted over the budget loses its last chunk", budget: 47, count: seams,
			want:      "=== a.py:1-3 ===\n0123456789\n",
			wantParts: []shown{{path: "a.py", lines: [2]int{1, 3}, full: true, tokens: 28}},
			wantTotal: 28, wantHead: 17,
		},
		{
			name: "at one more the seam fits", budget: 48, count: seams,
			want: "=== a.py:1-3 ===\n0123456789\n=== c.py:5-5 ===\ny\n",
			wantParts: []shown{
				{path: "a.py", lines: [2]int{1, 3}, full: true, tokens: 28},
				{path: "c.py", lines: [2]int{5, 5}, full: true, tokens: 19},
			},
			wantTotal: 48, wantHead: 34,
		},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			nc := fitNaive(chunks, tt.budget, tt.count)
			if nc.text != tt.want {
				t.Errorf("text %q, want %q", nc.text, tt.want)
			}
			if diff := cmp.Diff(tt.wantParts, nc.parts, cmp.AllowUnexported(shown{})); diff != "" {
				t.Errorf("parts (-want +got):\n%s", diff)
			}
			if nc.total != tt.wantTotal || nc.header != tt.wantHead {
				t.Errorf("total %d, headers %d; want %d, %d", nc.total, nc.header, tt.wantTotal, tt.wantHead)
			}
		})
	}
}

// TestFitNaiveTokenizer fits real code with the harness's tokenizer: the
// context is within each budget, its total is the count of its text, and
// a chunk too large for what remains is skipped while later ones are taken.
func TestFitNaiveTokenizer(t *testing.T) {
	tok, err := tokenizer.Get("cl100k_base")
	if err != nil {
		t.Fatal(err)
	}
	fn := func(name string) string {
		return fmt.Sprintf("def %s(request, *args):\n    \"\"\"Handle %s.\"\"\"\n    return request.app.dispatch(%q, args)\n", name, name, name)
	}
	chunks := []naiveChunk{
		{path: "app/views.py", startLine: 1, endLine: 3, text: fn("index")},
		{path: "app/models.py", startLine: 10, endLine: 409, text: strings.Repeat(fn("big"), 100)},
		{path: "app/urls.py", startLine: 4, endLine: 6, text: fn("route")},
		{path: "app/views.py", startLine: 8, endLine: 10, text: fn("detail")},
	}
	for _, budget := range []int{10, 40, 80, 200, 5000} {
		nc := fitNaive(chunks, budget, tok.Count)
		if nc.total > budget {
			t.Errorf("budget %d: %d tokens", budget, nc.total)
		}
		if n := tok.Count(nc.text); n != nc.total {
			t.Errorf("budget %d: total %d, the text counts %d", budget, nc.total, n)
		}
		var taken []string
		sum := 0
		for _, p := range nc.parts {
			taken = append(taken, p.path)
			sum += p.tokens
		}
		if sum != nc.total { // the headers start lines with "===": the counts add up
			t.Errorf("budget %d: parts count %d, the whole %d", budget, sum, nc.total)
		}
		if budget >= 200 && budget < 5000 && !slices.Equal(taken, []string{"app/views.py", "app/urls.py", "app/views.py"}) {
			t.Errorf("budget %d: took %v, want the big chunk skipped and the others taken", budget, taken)
		}
		if budget == 10 && len(nc.parts) != 0 {
			t.Errorf("budget 10: took %v", taken)
		}
	}
}

func TestMeasure(t *testing.T) {
	in := instance{
		GoldFiles: []string{"a.py", "b.py"},
		GoldLines: map[string][]int{"a.py": {5, 20, 40}, "b.py": {7}},
	}
	tests := []struct {
		name     string
		parts    []shown
		total    int
		overhead int
		want     measures
	}{
		{
			name: "full parts hold gold lines; a part not full holds none",
			parts: []shown{
				{path: "a.py", lines: [2]int{1, 10}, full: true, tokens: 30},
				{path: "a.py", lines: [2]int{15, 45}, full: false, tokens: 20},
				{path: "c.py", lines: [2]int{1, 99}, full: true, tokens: 40},
			},
			total: 100, overhead: 10,
			want: measures{edit: 0.25, seen: 0.25, goldFull: true, goldShare: 0.5, overhead: 0.1, tokens: 100, parts: 3},
		},
		{
			name: "a gold file only in part not full",
			parts: []shown{
				{path: "b.py", lines: [2]int{1, 10}, full: false, tokens: 5},
				{path: "a.py", full: true, tokens: 5}, // no lines: holds none
			},
			total: 20, overhead: 10,
			want: measures{edit: 0, goldFull: true, goldShare: 0.5, overhead: 0.5, tokens: 20, parts: 2},
		},
		{
			name: "no gold file",
			parts: []shown{
				{path: "b.py", lines: [2]int{1, 10}, full: false, tokens: 5},
			},
			total: 8, overhead: 3,
			want: measures{goldShare: 0.625, overhead: 0.375, tokens: 8, parts: 1},
		},
		{name: "empty context"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			got := measure(in, tt.parts, tt.total, tt.overhead)
			if diff := cmp.Diff(tt.want, got, cmp.AllowUnexported(measures{})); diff != "" {
				t.Errorf("measures (-want +got):\n%s", diff)
			}
		})
	}
}

func TestPlanMeasures(t *testing.T) {
	in := instance{GoldFiles: []string{"a.py"}, GoldLines: map[string][]int{"a.py": {3, 30}}}
	plan := &app.Plan{TotalTokens: 100, Parts: []render.PlanPart{
		{Path: "a.py", Lines: &[2]int{1, 10}, Level: "full", Tokens: 40},
		{Path: "a.py", Lines: &[2]int{20, 40}, Level: "full", Truncated: true, Tokens: 20},
		{Path: "b.py", Lines: &[2]int{1, 10}, Level: "summary", Tokens: 25},
	}}
	plan.Metrics.Overhead = 15
	if n := overheadTokens(plan); n != 15 {
		t.Errorf("overhead %d tokens, want 15", n)
	}
	want := measures{edit: 0.5, seen: 0.5, goldFull: true, goldShare: 0.6, overhead: 0.15, tokens: 100, parts: 3}
	if diff := cmp.Diff(want, planMeasures(in, plan), cmp.AllowUnexported(measures{})); diff != "" {
		t.Errorf("measures (-want +got):\n%s", diff)
	}
	// A window that shows line 30 as it is: seen, not edit.
	plan.Parts[1] = render.PlanPart{Path: "a.py", Lines: &[2]int{20, 40}, Level: "detailed", Shown: [][2]int{{20, 21}, {29, 31}}, Tokens: 20}
	want.seen = 1
	if diff := cmp.Diff(want, planMeasures(in, plan), cmp.AllowUnexported(measures{})); diff != "" {
		t.Errorf("with a window, measures (-want +got):\n%s", diff)
	}
}

func TestParseBudgets(t *testing.T) {
	tests := []struct {
		in      string
		want    []int
		wantErr bool
	}{
		{"2000,4000,8000,16000", []int{2000, 4000, 8000, 16000}, false},
		{"13000", []int{13000}, false},
		{" 8000, 2000", []int{8000, 2000}, false},
		{"2000,,4000", nil, true},
		{"0", nil, true},
		{"-5", nil, true},
		{"2k", nil, true},
		{"2000,2000", nil, true},
	}
	for _, tt := range tests {
		got, err := parseBudgets(tt.in)
		if (err != nil) != tt.wantErr || !slices.Equal(got, tt.want) {
			t.Errorf("parseBudgets(%q) = %v, %v; want %v, error %v", tt.in, got, err, tt.want, tt.wantErr)
		}
	}
}
