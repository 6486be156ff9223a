package pack

import (
	"errors"
	"fmt"
	"math/rand/v2"
	"regexp"
	"slices"
	"strconv"
	"strings"
	"sync/atomic"
	"testing"

	"github.com/ctxpack/ctxpack/internal/render"
	"github.com/ctxpack/ctxpack/internal/tokenizer"
)

// snippets are the raw material of generated parts: code, prose, CJK,
// emoji, combining marks, CRLF, whitespace runs and digits, so that BPE
// boundaries are exercised, not just ASCII words.
var snippets = []string{
	"func (s *Server) ServeHTTP(w http.ResponseWriter, r *http.Request) {\n\tif r.Method != \"GET\" {\n\t\treturn\n\t}\n}\n",
	"The invoice total drifts by a cent after currency conversion.\n",
	"    return fmt.Errorf(\"billing: %w\", err)\n",
	"# Heading\n\nSome paragraph text with a [link](http://x).\n\n- item one\n- item two\n",
	"日本語のテキストと中文文本。\n",
	"👩‍👩‍👧‍👦 🇫🇷 🇯🇵 ✔️\n",
	"e\u0301 a\u0308 n\u0303\n",
	"line one\r\nline two\r\n",
	"        \t\t   \n",
	"1234567890123456789012345678901234567890\n",
	"def compute_total(items):\n    return sum(i.price for i in items)\n",
	"SELECT id, amount FROM invoices WHERE currency = 'EUR';\n",
	"}\n",
	"x",
}

func randomText(r *rand.Rand, n int) string {
	var b strings.Builder
	for range n {
		b.WriteString(snippets[r.IntN(len(snippets))])
		if r.IntN(4) == 0 {
			fmt.Fprintf(&b, "id%d ", r.IntN(1000))
		}
	}
	return b.String()
}

// randomParts makes parts with random levels, scores (often tied),
// documents, sequences and sizes; a few are pinned.
func randomParts(r *rand.Rand) []Part {
	n := 1 + r.IntN(24)
	parts := make([]Part, n)
	for i := range parts {
		p := &parts[i]
		p.Key = fmt.Sprintf("k%02d", i)
		p.Type = []string{"code", "spec", "norm"}[r.IntN(3)]
		p.Path = fmt.Sprintf("src/f%d.go", r.IntN(6))
		p.Seq = r.IntN(5)
		p.Offset = r.IntN(3) * 100
		p.Score = float64(r.IntN(5)) / 4
		p.Priority = r.IntN(2)
		if r.IntN(3) == 0 {
			p.Lines = [2]int{1 + r.IntN(50), 60 + r.IntN(50)}
		}
		p.Text = map[Level]string{}
		size := 1 + r.IntN(12)
		for l := Full; l >= Meta; l-- {
			if l == Full || r.IntN(2) == 0 {
				p.Text[l] = randomText(r, max(1, size))
				size = max(1, size/2)
			}
		}
		p.Bucket = []string{"", "b"}[r.IntN(2)]
		p.Section = r.IntN(3)
	}
	if r.IntN(3) == 0 {
		parts[0].Pinned = true
		parts[0].Text = map[Level]string{Full: "pinned identity\n"}
	}
	return parts
}

var (
	strategies = []Strategy{Greedy, Interleaved, ByScore, Relevance}
	overflows  = []Overflow{Degrade, Drop, Truncate, Error, Allow}
)

// tokenizers are the tokenizers that need no file of the user's.
func tokenizers(t testing.TB) []tokenizer.Tokenizer {
	var out []tokenizer.Tokenizer
	for _, n := range tokenizer.Bundled() {
		tok, err := tokenizer.Get(n)
		if err != nil {
			t.Fatal(err)
		}
		out = append(out, tok)
	}
	return out
}

func randomOptions(r *rand.Rand, toks []tokenizer.Tokenizer) Options {
	o := Options{
		Tokenizer: toks[r.IntN(len(toks))],
		Format:    render.Formats()[r.IntN(len(render.Formats()))],
		Strategy:  strategies[r.IntN(len(strategies))],
		Overflow:  overflows[r.IntN(len(overflows))],
		MaxLevel:  []Level{Full, Full, Detailed, Summary}[r.IntN(4)],
		Sectioned: r.IntN(2) == 0,
	}
	switch r.IntN(3) {
	case 0:
		o.Policy = Policy{Buckets: []Bucket{{Name: "", Share: 3}, {Name: "b", Share: 1}}, ItemCap: 0.25 * float64(r.IntN(3))}
	case 1:
		o.Policy = Policy{Buckets: []Bucket{{Name: "b", Share: 1}, {Name: "", Share: 1}}}
	default:
		o.Policy = Policy{Buckets: []Bucket{{Name: "", Share: 1}, {Name: "b", Share: 0}}}
	}
	if r.IntN(4) == 0 {
		o.DedupThreshold = -1
	}
	if r.IntN(5) == 0 {
		o.MaxChunksPerDoc = 1 + r.IntN(2)
	}
	return o
}

// checkInvariants asserts what must hold of any successful assembly.
func checkInvariants(t *testing.T, parts []Part, o Options, res *Result) {
	t.Helper()
	p := res.Plan
	if got := o.Tokenizer.Count(p.Content); got != p.TotalTokens {
		t.Fatalf("total_tokens %d, but the content counts %d", p.TotalTokens, got)
	}
	if o.Overflow != Allow && p.TotalTokens > o.Budget {
		t.Fatalf("total_tokens %d over budget %d", p.TotalTokens, o.Budget)
	}
	if p.Exceeded != (p.TotalTokens > o.Budget) {
		t.Fatalf("exceeded = %v with %d of %d", p.Exceeded, p.TotalTokens, o.Budget)
	}
	seen := map[string]bool{}
	for _, pp := range p.Parts {
		if pp.Key == TreeKey {
			continue // lists parts not shown (Options.MetaAsTree)
		}
		seen[pp.Key] = true
		if pp.Level != "full" && pp.Reason == "" {
			t.Fatalf("part %s at %s has no reason", pp.Key, pp.Level)
		}
		if m := needRE.FindStringSubmatch(pp.Reason); m != nil {
			if n, _ := strconv.Atoi(m[1]); n <= o.Budget {
				t.Fatalf("part %s: %q, but the budget is %d", pp.Key, pp.Reason, o.Budget)
			}
		}
		if pp.Truncated && pp.Reason == "" {
			t.Fatalf("truncated part %s has no reason", pp.Key)
		}
	}
	for _, d := range p.Dropped {
		if seen[d.Key] {
			t.Fatalf("part %s both emitted and dropped", d.Key)
		}
		seen[d.Key] = true
		if d.Reason == "" {
			t.Fatalf("dropped part %s has no reason", d.Key)
		}
		if d.NeedBudget != 0 && d.NeedBudget <= o.Budget {
			t.Fatalf("dropped part %s: %q, need_budget %d, but the budget is %d", d.Key, d.Reason, d.NeedBudget, o.Budget)
		}
	}
	if len(seen) != len(parts) {
		t.Fatalf("%d parts accounted for, %d given", len(seen), len(parts))
	}
}

// checkOrderFree checks that a permutation of the input gives the same
// bytes as res.
func checkOrderFree(t *testing.T, r *rand.Rand, parts []Part, o Options, res *Result) {
	t.Helper()
	shuffled := slices.Clone(parts)
	r.Shuffle(len(shuffled), func(i, j int) { shuffled[i], shuffled[j] = shuffled[j], shuffled[i] })
	res2, err := Assemble(shuffled, o)
	if err != nil {
		t.Fatalf("budget %d, shuffled: %v", o.Budget, err)
	}
	if string(res.Output) != string(res2.Output) || res.Plan.Digest != res2.Plan.Digest {
		t.Fatalf("budget %d: output depends on input order", o.Budget)
	}
}

// checkMonotone checks that raising the budget from lo's to hi's neither
// drops a part nor lowers its level.
func checkMonotone(t *testing.T, what string, lo, hi render.Plan) {
	t.Helper()
	before, after := levels(lo), levels(hi)
	for k, l := range before {
		if l2, ok := after[k]; !ok || l2 < l {
			t.Fatalf("%sbudget %d→%d: part %s went from level %v to %v (present %v)", what, lo.Budget, hi.Budget, k, l, l2, ok)
		}
	}
}

// needRE finds the budget a reason says a level needs.
var needRE = regexp.MustCompile(`(?:needs|below) a budget of (\d+)`)

// levels maps emitted keys to their level; truncated parts rank just
// below full.
func levels(p render.Plan) map[string]float64 {
	m := map[string]float64{}
	for _, pp := range p.Parts {
		l, _ := ParseLevel(pp.Level)
		v := float64(l)
		if pp.Truncated {
			v -= 0.5
		}
		m[pp.Key] = v
	}
	return m
}

func TestProperties(t *testing.T) {
	toks := tokenizers(t)
	cases := 400
	if testing.Short() {
		cases = 60
	}
	for seed := range cases {
		r := rand.New(rand.NewPCG(uint64(seed), 42))
		parts := randomParts(r)
		o := randomOptions(r, toks)
		budgets := []int{1 + r.IntN(60), 20 + r.IntN(400), 100 + r.IntN(3000)}
		slices.Sort(budgets)
		name := fmt.Sprintf("seed%d/%s/%s/%s/%s", seed, o.Tokenizer.Name(), o.Format, o.Strategy, o.Overflow)
		t.Run(name, func(t *testing.T) {
			var prev *Result
			for _, b := range budgets {
				o := o
				o.Budget = b
				res, err := Assemble(parts, o)
				var be *BudgetError
				if errors.As(err, &be) {
					if prev != nil && (be.Pinned || o.Overflow != Error) {
						t.Fatalf("budget %d fails (%v) where a smaller one succeeded", b, err)
					}
					prev = nil
					continue
				}
				if err != nil {
					t.Fatalf("budget %d: %v", b, err)
				}
				checkInvariants(t, parts, o, res)
				checkOrderFree(t, r, parts, o, res)
				if prev != nil {
					checkMonotone(t, "", prev.Plan, res.Plan)
				}
				prev = res
			}
		})
	}
}

// FuzzAssemble runs the same checks on inputs the fuzzer chooses.
func FuzzAssemble(f *testing.F) {
	f.Add(uint64(1), uint16(100), uint16(400))
	f.Add(uint64(7), uint16(3), uint16(2000))
	toks := tokenizers(f)
	f.Fuzz(func(t *testing.T, seed uint64, b1, b2 uint16) {
		r := rand.New(rand.NewPCG(seed, 7))
		parts := randomParts(r)
		o := randomOptions(r, toks)
		lo, hi := int(min(b1, b2))+1, int(max(b1, b2))+1
		o.Budget = lo
		res1, err1 := Assemble(parts, o)
		o.Budget = hi
		res2, err2 := Assemble(parts, o)
		if err1 == nil {
			o.Budget = lo
			checkInvariants(t, parts, o, res1)
		}
		if err2 == nil {
			o.Budget = hi
			checkInvariants(t, parts, o, res2)
		}
		if err1 == nil && err2 != nil {
			var be *BudgetError
			if !errors.As(err2, &be) || be.Pinned || o.Overflow != Error {
				t.Fatalf("budget %d fails (%v) where %d succeeded", hi, err2, lo)
			}
		}
		if err1 == nil && err2 == nil {
			checkMonotone(t, "", res1.Plan, res2.Plan)
		}
		// The same with intermediate levels given lazily, through More.
		calls := make([]atomic.Int32, len(parts))
		lazy := lazify(parts, calls)
		o.Budget = lo
		lres1, lerr1 := Assemble(lazy, o)
		o.Budget = hi
		lres2, lerr2 := Assemble(lazy, o)
		for i := range calls {
			if n := calls[i].Load(); n > 2 {
				t.Fatalf("More of %s called %d times in two assemblies", parts[i].Key, n)
			}
		}
		if lerr1 == nil {
			o.Budget = lo
			checkInvariants(t, lazy, o, lres1)
		}
		if lerr2 == nil {
			o.Budget = hi
			checkInvariants(t, lazy, o, lres2)
		}
		if lerr1 == nil && lerr2 == nil {
			checkMonotone(t, "lazy: ", lres1.Plan, lres2.Plan)
		}
	})
}
