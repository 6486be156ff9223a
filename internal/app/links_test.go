package app

import (
	"context"
	"errors"
	"fmt"
	"math/rand/v2"
	"os"
	"path/filepath"
	"runtime"
	"slices"
	"strings"
	"testing"

	"github.com/tiktoken-go/tokenizer/codec"

	"github.com/ctxpack/ctxpack/internal/pack"
)

// TestBillingClosure is acceptance 1 of links mode: TASK-042 of the seed's
// billing example brings in exactly the seed's closure, NORM-ERROR-001 once,
// then the code its specs' paths name, ranked for the task's text.
func TestBillingClosure(t *testing.T) {
	p, err := Open("../../examples/billing", "")
	if err != nil {
		t.Fatal(err)
	}
	res, err := p.Context(context.Background(), "TASK-042", Request{Budget: 100000, Format: "json"})
	if err != nil {
		t.Fatal(err)
	}
	var keys []string
	for _, pp := range res.Plan.Parts {
		keys = append(keys, pp.Key)
	}
	want := []string{
		"identity", // render order: identity, norms, decisions, specs, task, code paths, code
		"NORM-ERROR-001", "NORM-ASYNC-001",
		"DEC-BILLING-001", "DEC-BILLING-003", "DEC-CURRENCY-001",
		"SPEC-BILLING-001", "SPEC-CURRENCY-001",
		"TASK-042", "paths",
		"src/billing/invoice/generator.py", "src/billing/currency/convert.py", "src/billing/templates/invoice.html",
	}
	if !slices.Equal(keys, want) {
		t.Errorf("parts:\n got %v\nwant %v", keys, want)
	}
	if n := strings.Count(res.Plan.Content, "=== NORM: NORM-ERROR-001 ==="); n != 1 {
		t.Errorf("NORM-ERROR-001 rendered %d times", n)
	}
	if len(res.Plan.Dropped) != 0 {
		t.Errorf("dropped: %v", res.Plan.Dropped)
	}
	via := map[string]string{}
	for _, pp := range res.Plan.Parts {
		via[pp.Key] = strings.Join(pp.Via, ">")
	}
	for k, v := range map[string]string{
		"SPEC-BILLING-001": "TASK-042", "DEC-BILLING-001": "TASK-042",
		"NORM-ERROR-001": "TASK-042>SPEC-BILLING-001", "DEC-CURRENCY-001": "TASK-042>SPEC-CURRENCY-001",
		"src/billing/invoice/generator.py": "TASK-042>SPEC-BILLING-001", "src/billing/currency/convert.py": "TASK-042>SPEC-CURRENCY-001",
	} {
		if via[k] != v {
			t.Errorf("%s via %q, want %q", k, via[k], v)
		}
	}
	wantPaths := []string{"src/billing/currency/**", "src/billing/invoice/**", "src/billing/templates/invoice*"}
	if !slices.Equal(res.Plan.Paths, wantPaths) {
		t.Errorf("paths %v, want %v", res.Plan.Paths, wantPaths)
	}
	if res.Plan.Mode != "links" || res.Plan.Target != "TASK-042" {
		t.Errorf("mode %q target %q", res.Plan.Mode, res.Plan.Target)
	}
	if !strings.Contains(res.Plan.Content, "src/billing/invoice/** (SPEC-BILLING-001: 1 file)\n") {
		t.Errorf("the paths list does not count the files of src/billing/invoice/**:\n%s", res.Plan.Content)
	}
	if !strings.Contains(res.Plan.Content, "def invoice_total(lines, tax_rate):") {
		t.Errorf("the code is not in the context")
	}
}

// TestLinksCodeAfterClosure: the code takes only what the closure leaves
// once every artifact is whole, so a budget that lowers an artifact shows
// no code, and raising it never takes an artifact down for the code.
func TestLinksCodeAfterClosure(t *testing.T) {
	p, err := Open("../../examples/billing", "")
	if err != nil {
		t.Fatal(err)
	}
	prev := map[string]pack.Level{}
	for _, budget := range []int{600, 1000, 1300, 1400, 1600, 4000} {
		res, err := p.Context(context.Background(), "TASK-042", Request{Budget: budget, Format: "json"})
		if err != nil {
			t.Fatal(err)
		}
		lowered, code := false, false
		for _, pp := range res.Plan.Parts {
			if pp.Source == "code" {
				code = true
			} else if pp.Level != "full" {
				lowered = true
			}
			l, err := pack.ParseLevel(pp.Level)
			if err != nil {
				t.Fatal(err)
			}
			if l < prev[pp.Key] {
				t.Errorf("budget %d: %s fell from %s to %s", budget, pp.Key, prev[pp.Key], l)
			}
			prev[pp.Key] = l
		}
		if lowered && code {
			t.Errorf("budget %d: code beside a lowered artifact", budget)
		}
		if budget == 4000 && !code {
			t.Errorf("budget 4000: no code")
		}
	}
}

// copyTree copies src to dst, creating files in reverse path order.
func copyTree(t *testing.T, src, dst string, reverse bool) {
	t.Helper()
	var files []string
	err := filepath.WalkDir(src, func(p string, d os.DirEntry, err error) error {
		if err == nil && !d.IsDir() {
			files = append(files, p)
		}
		return err
	})
	if err != nil {
		t.Fatal(err)
	}
	if reverse {
		slices.Reverse(files)
	}
	for _, f := range files {
		rel, _ := filepath.Rel(src, f)
		data, err := os.ReadFile(f)
		if err != nil {
			t.Fatal(err)
		}
		out := filepath.Join(dst, rel)
		if err := os.MkdirAll(filepath.Dir(out), 0o755); err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(out, data, 0o644); err != nil {
			t.Fatal(err)
		}
	}
}

// TestLinksDeterministic is acceptance 3: byte-identical output twice,
// from a copy made in reverse file order, from another absolute path, and
// with GOMAXPROCS 1 and 8, in every format.
func TestLinksDeterministic(t *testing.T) {
	a := filepath.Join(t.TempDir(), "one", "billing")
	b := filepath.Join(t.TempDir(), "elsewhere", "deeper", "billing-copy")
	copyTree(t, "../../examples/billing", a, false)
	copyTree(t, "../../examples/billing", b, true)
	for _, format := range []string{"text", "markdown", "doc", "xml", "json"} {
		for _, budget := range []int{450, 900, 100000} {
			var first []byte
			for _, dir := range []string{"../../examples/billing", a, b} {
				for _, procs := range []int{1, 8} {
					for range 2 {
						old := runtime.GOMAXPROCS(procs)
						p, err := Open(dir, "")
						if err != nil {
							t.Fatal(err)
						}
						res, err := p.Context(context.Background(), "TASK-042", Request{Budget: budget, Format: format})
						runtime.GOMAXPROCS(old)
						if err != nil {
							t.Fatal(err)
						}
						if first == nil {
							first = res.Output
						} else if string(res.Output) != string(first) {
							t.Fatalf("%s, budget %d: output differs from %s with GOMAXPROCS=%d", format, budget, dir, procs)
						}
					}
				}
			}
		}
	}
}

// genProject writes a random artifact graph: a task, specs, decisions
// and norms with random links (cycles, self links, missing targets),
// statuses (deprecated, superseded with or without a successor) and
// bodies of random size and structure.
func genProject(t *testing.T, r *rand.Rand) string {
	t.Helper()
	dir := t.TempDir()
	write := func(rel, text string) {
		p := filepath.Join(dir, ".ctxpack", filepath.FromSlash(rel))
		if err := os.MkdirAll(filepath.Dir(p), 0o755); err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(p, []byte(text), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	vocab := strings.Fields("the invoice total rounding currency rate job queue error retry spec norm cycle amount cents customer tax line render pdf idempotent key convert fixed half even minor units")
	para := func() string {
		n := 5 + r.IntN(40)
		w := make([]string, n)
		for i := range w {
			w[i] = vocab[r.IntN(len(vocab))]
		}
		return strings.Join(w, " ") + "."
	}
	body := func(title string) string {
		var s strings.Builder
		if r.IntN(2) == 0 {
			s.WriteString(para() + "\n\n")
		}
		for i := range r.IntN(5) {
			fmt.Fprintf(&s, "## %s part %d\n\n", title, i)
			for range 1 + r.IntN(3) {
				s.WriteString(para() + "\n\n")
			}
		}
		return s.String()
	}
	ids := map[string][]string{"spec": nil, "decision": nil, "norm": nil}
	prefix := map[string]string{"spec": "SPEC", "decision": "DEC", "norm": "NORM"}
	folder := map[string]string{"spec": "system/specs", "decision": "system/rationale", "norm": "system/norms"}
	for _, typ := range []string{"spec", "decision", "norm"} {
		for i := range 1 + r.IntN(7) {
			ids[typ] = append(ids[typ], fmt.Sprintf("%s-%d", prefix[typ], i))
		}
	}
	links := func() string {
		var s strings.Builder
		s.WriteString("links:\n")
		for _, typ := range []string{"spec", "decision", "norm"} {
			var l []string
			for range r.IntN(4) {
				if r.IntN(10) == 0 {
					l = append(l, strings.ToUpper(typ)+"-MISSING")
				} else {
					l = append(l, ids[typ][r.IntN(len(ids[typ]))])
				}
			}
			fmt.Fprintf(&s, "  %ss: [%s]\n", typ, strings.Join(l, ", "))
		}
		return s.String()
	}
	write("system/identity.md", "---\nproject: gen\nlanguages: [go]\n---\n"+body("identity"))
	write("work/tasks/TASK-1.md", "---\nid: TASK-1\ntitle: generated task\nstatus: in_progress\n"+links()+"---\n"+body("task"))
	for _, typ := range []string{"spec", "decision", "norm"} {
		for _, id := range ids[typ] {
			status := "current"
			extra := ""
			switch r.IntN(10) {
			case 0:
				status = "deprecated"
			case 1:
				status = "superseded"
				extra = "superseded_by: " + ids[typ][r.IntN(len(ids[typ]))] + "\n"
			}
			write(folder[typ]+"/"+id+".md", fmt.Sprintf("---\nid: %s\ntitle: %s title\nstatus: %s\n%s%s---\n%s", id, id, status, extra, links(), body(id)))
		}
	}
	return dir
}

// TestLinksBudgetProperty is acceptance 2: on generated graphs, for
// budgets from the smallest that fits identity and task to one that fits
// everything, the output counted by the reference tokenizer is within the
// budget, levels are monotone in the budget, and the largest budget has
// everything at full.
func TestLinksBudgetProperty(t *testing.T) {
	ref := codec.NewO200kBase()
	cases := 40
	if testing.Short() {
		cases = 8
	}
	for seed := range cases {
		r := rand.New(rand.NewPCG(uint64(seed), 99))
		dir := genProject(t, r)
		p, err := Open(dir, "")
		if err != nil {
			t.Fatal(err)
		}
		format := []string{"text", "markdown", "xml", "doc"}[seed%4]
		ctx := context.Background()
		all, err := p.Context(ctx, "TASK-1", Request{Budget: 1 << 30, Format: format})
		if err != nil {
			t.Fatalf("seed %d: %v", seed, err)
		}
		top := all.Plan.TotalTokens
		// The smallest budget that fits identity and the task.
		lo, hi := 1, top
		for lo < hi {
			mid := (lo + hi) / 2
			_, err := p.Context(ctx, "TASK-1", Request{Budget: mid, Format: format})
			var be *pack.BudgetError
			if errors.As(err, &be) && be.Pinned {
				lo = mid + 1
			} else if err != nil {
				t.Fatalf("seed %d budget %d: %v", seed, mid, err)
			} else {
				hi = mid
			}
		}
		var prev map[string]int
		steps := 12
		for i := 0; i <= steps; i++ {
			budget := lo + (top-lo)*i/steps
			res, err := p.Context(ctx, "TASK-1", Request{Budget: budget, Format: format})
			if err != nil {
				t.Fatalf("seed %d budget %d: %v", seed, budget, err)
			}
			n, _ := ref.Count(res.Plan.Content)
			if n > budget || res.Plan.TotalTokens > budget {
				t.Fatalf("seed %d: budget %d, reference counts %d, plan says %d", seed, budget, n, res.Plan.TotalTokens)
			}
			levels := map[string]int{}
			for _, pp := range res.Plan.Parts {
				l, _ := pack.ParseLevel(pp.Level)
				levels[pp.Key] = int(l)
				if i == steps && pp.Level != "full" {
					t.Errorf("seed %d: at the largest budget %s is at %s", seed, pp.Key, pp.Level)
				}
			}
			for k, l := range prev {
				if l2, ok := levels[k]; !ok || l2 < l {
					t.Fatalf("seed %d: budget %d lowered %s from %d to %d (present %v)", seed, budget, k, l, l2, ok)
				}
			}
			if i == steps && len(res.Plan.Dropped) != 0 {
				t.Errorf("seed %d: dropped at the largest budget: %v", seed, res.Plan.Dropped)
			}
			prev = levels
		}
	}
}
