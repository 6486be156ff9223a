package app

import (
	"context"
	"errors"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"slices"
	"strings"
	"testing"

	"github.com/ctxpack/ctxpack/internal/sqlitedb"
	"github.com/ctxpack/ctxpack/internal/store"
	"github.com/ctxpack/ctxpack/internal/tokenizer"
)

// The tests here are the ContextAssembler seed's unit-test list (single
// source, multiple sources, budget enforcement, dedup, empty sources,
// premortem, invalid type, partial failure), run against the real SQLite
// store in a temporary project: nothing is mocked.

// sourcesFixture is a project with code, a store and, when git is
// installed, a real git history.
type sourcesFixture struct {
	dir string
	p   *Project
	st  *store.Store
	ids map[string]int64 // rows added, by a name of the test's
}

func newSourcesFixture(t *testing.T, files map[string]string) *sourcesFixture {
	t.Helper()
	if files == nil {
		files = map[string]string{
			"billing/invoice.go": "package billing\n\n// RoundTotal rounds an invoice total half-even to the cent.\nfunc RoundTotal(cents float64) int64 {\n\treturn int64(cents + 0.5)\n}\n",
			"billing/tax.go":     "package billing\n\n// Tax returns the tax of an amount in cents.\nfunc Tax(cents int64) int64 { return cents / 5 }\n",
			"README.md":          "# demo\n\nInvoices and their totals.\n",
		}
	}
	files[".gitignore"] = ".ctxpack/\n"
	dir := writeProject(t, files)
	p, err := Open(dir, "")
	if err != nil {
		t.Fatal(err)
	}
	st, err := p.openStore(false)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { st.Close() })
	return &sourcesFixture{dir: dir, p: p, st: st, ids: map[string]int64{}}
}

func (f *sourcesFixture) memory(t *testing.T, name, content string, importance float64) {
	t.Helper()
	m, err := f.st.AddMemory(context.Background(), store.Memory{Content: content, Category: "decision", Importance: importance, Created: 1_700_000_000})
	if err != nil {
		t.Fatal(err)
	}
	f.ids[name] = m.ID
}

func (f *sourcesFixture) experience(t *testing.T, name string, e store.Experience) {
	t.Helper()
	if e.Goal == "" {
		e.Goal = "make the invoice total right"
	}
	for _, s := range []*string{&e.Hypothesis, &e.Action, &e.Prediction, &e.Result} {
		if *s == "" {
			*s = "something about " + name
		}
	}
	if e.Outcome == "" {
		e.Outcome = store.OutcomeConfirmed
	}
	if e.Domain == "" {
		e.Domain = "debugging"
	}
	if e.Created == 0 {
		e.Created = 1_700_000_000
	}
	x, err := f.st.AddExperience(context.Background(), e)
	if err != nil {
		t.Fatal(err)
	}
	f.ids[name] = x.ID
}

func (f *sourcesFixture) value(t *testing.T, name, text string, fromExperience int64) {
	t.Helper()
	v, err := f.st.AddValue(context.Background(), store.Value{Text: text, Axis: store.AxisFull, Experience: fromExperience, Created: 1_700_000_000})
	if err != nil {
		t.Fatal(err)
	}
	f.ids[name] = v.ID
}

// gitCommits makes dir a real git repository with the given commits, each
// changing its files; it skips the test when git is not installed.
func gitCommits(t *testing.T, dir string, commits []struct {
	msg   string
	files map[string]string
}) {
	t.Helper()
	if _, err := exec.LookPath("git"); err != nil {
		t.Skip("git is not installed")
	}
	os.RemoveAll(filepath.Join(dir, ".git"))
	git := func(args ...string) {
		t.Helper()
		cmd := exec.Command("git", append([]string{"-C", dir}, args...)...)
		cmd.Env = append(os.Environ(), "GIT_AUTHOR_DATE=2024-01-02T03:04:05Z", "GIT_COMMITTER_DATE=2024-01-02T03:04:05Z",
			"GIT_AUTHOR_NAME=Ada", "GIT_AUTHOR_EMAIL=ada@example.com", "GIT_COMMITTER_NAME=Ada", "GIT_COMMITTER_EMAIL=ada@example.com")
		if out, err := cmd.CombinedOutput(); err != nil {
			t.Fatalf("git %v: %v\n%s", args, err, out)
		}
	}
	git("init", "-q", "-b", "main")
	for _, c := range commits {
		for name, text := range c.files {
			p := filepath.Join(dir, filepath.FromSlash(name))
			if err := os.MkdirAll(filepath.Dir(p), 0o755); err != nil {
				t.Fatal(err)
			}
			if err := os.WriteFile(p, []byte(text), 0o644); err != nil {
				t.Fatal(err)
			}
		}
		git("add", "-A")
		git("commit", "-q", "-m", c.msg)
	}
}

func mustTok(t testing.TB) tokenizer.Tokenizer {
	t.Helper()
	tok, err := tokenizer.Get("o200k_base")
	if err != nil {
		t.Fatal(err)
	}
	return tok
}

// checkExact: the plan's count is the output's, within the budget.
func checkExact(t *testing.T, res *Result, budget int) {
	t.Helper()
	got := mustTok(t).Count(string(res.Output))
	if got != res.Plan.TotalTokens {
		t.Errorf("plan says %d tokens, the output has %d", res.Plan.TotalTokens, got)
	}
	if got > budget {
		t.Errorf("output has %d tokens, over the budget of %d", got, budget)
	}
}

func partKeys(res *Result) []string {
	var keys []string
	for _, p := range res.Plan.Parts {
		keys = append(keys, p.Key)
	}
	return keys
}

func TestSourcesSingleSource(t *testing.T) {
	f := newSourcesFixture(t, nil)
	f.memory(t, "rounding", "Invoice totals round half-even, never half-up.", 0.9)
	f.memory(t, "currency", "Totals are kept in integer cents.", 0.5)
	f.memory(t, "other", "The CI runs on two cores.", 0.5)
	res, err := f.p.Sources(context.Background(), "invoice totals rounding", Request{Sources: []string{"memories"}, Budget: 500})
	if err != nil {
		t.Fatal(err)
	}
	checkExact(t, res, 500)
	out := string(res.Output)
	want := "# Context\n\n## Memories\n\n**Memory**: Invoice totals round half-even, never half-up.\n*Category: decision, Importance: 0.9 · memory:1*\n\n"
	if !strings.HasPrefix(out, want) {
		t.Errorf("output starts:\n%s\nwant:\n%s", out, want)
	}
	if !strings.HasSuffix(out, "---\n*2 items from 1 source*\n") {
		t.Errorf("footer: %q", out[max(0, len(out)-60):])
	}
	if got, want := partKeys(res), []string{"memory:1", "memory:2"}; !slices.Equal(got, want) {
		t.Errorf("parts %v, want %v (the memory about CI matches no term)", got, want)
	}
	for _, p := range res.Plan.Parts {
		if p.Source != "memory" || p.Bucket != "" && p.Bucket != "memories" || p.Score == nil || p.Components["match"] == 0 {
			t.Errorf("part %+v", p)
		}
	}
	if res.Plan.Mode != "sources" {
		t.Errorf("mode %q", res.Plan.Mode)
	}
}

func TestSourcesMultipleSources(t *testing.T) {
	f := newSourcesFixture(t, nil)
	gitCommits(t, f.dir, []struct {
		msg   string
		files map[string]string
	}{
		{"billing: first invoice code", nil},
		{"docs: readme", map[string]string{"README.md": "# demo\n\nInvoices and their totals, in cents.\n"}},
		{"rounding of invoice totals fixed for negative amounts", map[string]string{"billing/invoice.go": "package billing\n\n// RoundTotal rounds an invoice total half-even to the cent.\nfunc RoundTotal(cents float64) int64 {\n\treturn int64(cents + 0.5) // fixed\n}\n"}},
	})
	f.memory(t, "m", "Invoice totals round half-even.", 0.8)
	f.experience(t, "e", store.Experience{Goal: "fix invoice total rounding", Outcome: store.OutcomeFalsified, Lesson: "Round once, at the end.", Confidence: store.TierGold})
	f.value(t, "v", "Do the rounding of money once, at the end of a computation.", 0)
	res, err := f.p.Sources(context.Background(), "invoice total rounding", Request{Sources: []string{"memories,code", "experiences", "values,commits"}, Budget: 3000})
	if err != nil {
		t.Fatal(err)
	}
	checkExact(t, res, 3000)
	out := string(res.Output)
	last := -1
	for _, h := range []string{"## Memories", "## Code", "## Experiences", "## Values", "## Commits"} {
		i := strings.Index(out, "\n"+h+"\n")
		if i < 0 {
			t.Fatalf("no section %s in:\n%s", h, out)
		}
		if i < last {
			t.Errorf("section %s out of order", h)
		}
		last = i
	}
	if !strings.Contains(out, "*from 5 sources*") && !strings.Contains(out, "from 5 sources*") {
		t.Errorf("footer: %q", out[max(0, len(out)-40):])
	}
	buckets := map[string]bool{}
	for _, p := range res.Plan.Parts {
		buckets[p.Bucket] = true
	}
	for _, b := range []string{"memories", "code", "experiences", "values", "commits"} {
		if !buckets[b] {
			t.Errorf("no part in bucket %s: %v", b, partKeys(res))
		}
	}
	if !strings.Contains(out, "**Commit** `") || !strings.Contains(out, "by Ada on 2024-01-02") {
		t.Errorf("commit format:\n%s", out)
	}
	if !strings.Contains(out, "- **Outcome**: falsified - ") || !strings.Contains(out, "- **Lesson**: Round once, at the end.") {
		t.Errorf("experience format:\n%s", out)
	}
	// The commit that changed only billing/invoice.go duplicates the code
	// item that shows that file: the code is kept.
	sameFile := false
	for _, d := range res.Plan.Dropped {
		sameFile = sameFile || strings.HasPrefix(d.Key, "commit:") && strings.HasPrefix(d.Reason, "duplicate of billing/invoice.go#") && strings.Contains(d.Reason, "the same file (billing/invoice.go)")
	}
	if !sameFile {
		t.Errorf("no commit dropped for the code item's file: %+v", res.Plan.Dropped)
	}
	// Two runs give the same bytes.
	again, err := f.p.Sources(context.Background(), "invoice total rounding", Request{Sources: []string{"memories,code,experiences,values,commits"}, Budget: 3000})
	if err != nil {
		t.Fatal(err)
	}
	if again.Plan.Digest != res.Plan.Digest {
		t.Errorf("digest %s then %s", res.Plan.Digest, again.Plan.Digest)
	}
}

// Many items and a small budget: the output keeps to it, the most
// relevant item is in, and every item left out says why.
func TestSourcesBudgetEnforcement(t *testing.T) {
	f := newSourcesFixture(t, nil)
	words := strings.Fields("alpha bravo charlie delta echo foxtrot golf hotel india juliet kilo lima mike november oscar papa quebec romeo sierra tango uniform victor whiskey xray yankee zulu")
	for i := range 40 {
		var b strings.Builder
		for j := range 3 + i%7 {
			fmt.Fprintf(&b, "%s %s %d. ", words[(i*7+j*3)%len(words)], words[(i*11+j)%len(words)], i*j)
		}
		text := fmt.Sprintf("Invoice note %d: %s", i, b.String())
		if i == 17 {
			text = "Invoice invoice invoice rounding rounding: the most relevant note."
		}
		f.memory(t, fmt.Sprint(i), text, 0.5)
	}
	// At 60 tokens the memories' item cap is 15 tokens, less than any
	// memory's heading and metadata line: nothing is shown, and every
	// memory says so.
	_, err := f.p.Sources(context.Background(), "invoice rounding", Request{Sources: []string{"memories"}, Budget: 60, Limit: 40})
	var ee *EmptyError
	if !errors.As(err, &ee) || !strings.HasPrefix(err.Error(), "ctxpack: nothing fits in a budget of 60 tokens") {
		t.Fatalf("budget 60: got %v, want nothing fits", err)
	}
	res := &Result{Plan: *ee.Plan}
	if len(res.Output) != 0 || len(res.Plan.Dropped) != 40 || !strings.HasPrefix(res.Plan.Dropped[0].Reason, "item cap: 15 tokens") {
		t.Errorf("budget 60: output %q, dropped %+v", res.Output, res.Plan.Dropped[:min(1, len(res.Plan.Dropped))])
	}
	for _, budget := range []int{150, 300, 600, 1200} {
		res, err := f.p.Sources(context.Background(), "invoice rounding", Request{Sources: []string{"memories"}, Budget: budget, Limit: 40})
		if err != nil {
			t.Fatal(err)
		}
		checkExact(t, res, budget)
		if len(res.Plan.Parts) == 0 {
			t.Fatalf("budget %d: nothing shown", budget)
		}
		if res.Plan.Parts[0].Key != fmt.Sprintf("memory:%d", f.ids["17"]) {
			t.Errorf("budget %d: first part %s, want the most relevant memory", budget, res.Plan.Parts[0].Key)
		}
		if got := len(res.Plan.Parts) + len(res.Plan.Dropped); got != 40 {
			t.Errorf("budget %d: %d shown + %d dropped, want 40", budget, len(res.Plan.Parts), len(res.Plan.Dropped))
		}
		for _, d := range res.Plan.Dropped {
			if !strings.HasPrefix(d.Reason, "budget") {
				t.Errorf("budget %d: %s dropped for %q", budget, d.Key, d.Reason)
			}
		}
	}
}

func TestSourcesDeduplication(t *testing.T) {
	f := newSourcesFixture(t, nil)
	f.memory(t, "exact", "Invoice totals round half-even at the very end.", 0.9)
	f.value(t, "exactCopy", "Invoice totals round half-even at the very end.", 0)
	f.memory(t, "near", "Retry the invoice export job three times before paging anyone.", 0.5)
	f.memory(t, "nearCopy", "Retry the invoice export job 3 times before paging anyone.", 0.5)
	f.experience(t, "exp", store.Experience{Goal: "invoice total drifts by a cent", Lesson: "Invoice rounding belongs in one place.", Confidence: store.TierGold})
	f.value(t, "fromExp", "Keep invoice rounding in one place.", f.ids["exp"])
	f.memory(t, "distinct", "Invoice numbers are never reused.", 0.5)
	res, err := f.p.Sources(context.Background(), "invoice", Request{Sources: []string{"memories,experiences,values"}, Budget: 4000})
	if err != nil {
		t.Fatal(err)
	}
	checkExact(t, res, 4000)
	dropped := map[string]string{}
	for _, d := range res.Plan.Dropped {
		dropped[d.Key] = d.Reason
	}
	shown := map[string]bool{}
	for _, p := range res.Plan.Parts {
		shown[p.Key] = true
	}
	pairs := []struct{ a, b, why string }{
		{ItemKey("memory", f.ids["exact"]), ItemKey("value", f.ids["exactCopy"]), "alike"},
		{ItemKey("memory", f.ids["near"]), ItemKey("memory", f.ids["nearCopy"]), "alike"},
		{ItemKey("experience", f.ids["exp"]), ItemKey("value", f.ids["fromExp"]), "the same experience"},
	}
	for _, pr := range pairs {
		a, b := shown[pr.a], shown[pr.b]
		if a == b {
			t.Errorf("%s shown %v, %s shown %v: want exactly one", pr.a, a, pr.b, b)
			continue
		}
		gone := pr.b
		if b {
			gone = pr.a
		}
		if !strings.Contains(dropped[gone], "duplicate of") || !strings.Contains(dropped[gone], pr.why) {
			t.Errorf("%s dropped for %q, want a duplicate (%s)", gone, dropped[gone], pr.why)
		}
	}
	if !shown[ItemKey("memory", f.ids["distinct"])] {
		t.Errorf("a distinct memory was dropped: %q", dropped[ItemKey("memory", f.ids["distinct"])])
	}
	// The copy kept is the more relevant one, and the reason names it.
	score := map[string]float64{}
	for _, p := range res.Plan.Parts {
		score[p.Key] = *p.Score
	}
	for key, why := range dropped {
		kept, _, _ := strings.Cut(strings.TrimPrefix(why, "duplicate of "), ":")
		kept = strings.Join(strings.SplitN(strings.TrimPrefix(why, "duplicate of "), ":", 3)[:2], ":")
		if _, ok := score[kept]; !ok {
			t.Errorf("%s: %q names %s, which is not shown", key, why, kept)
		}
	}
}

func TestSourcesEmptySources(t *testing.T) {
	f := newSourcesFixture(t, nil)
	// Nothing at all: nothing found, an *EmptyError that names the
	// sources searched.
	_, err := f.p.Sources(context.Background(), "invoice", Request{Sources: []string{"memories,experiences,values"}, Budget: 500})
	var ee *EmptyError
	if !errors.As(err, &ee) || !strings.Contains(err.Error(), "no item of the sources memories, experiences, values matches it") {
		t.Errorf("empty store: got %v, want nothing found", err)
	}
	// One source with items: only its section, and its share is the whole
	// budget's (the empty ones' shares flowed to it).
	f.memory(t, "m", "Each invoice is numbered per year. "+strings.Repeat("More words about the invoice. ", 30), 0.5)
	res, err := f.p.Sources(context.Background(), "invoice", Request{Sources: []string{"memories,experiences,values"}, Budget: 500})
	if err != nil {
		t.Fatal(err)
	}
	out := string(res.Output)
	if strings.Contains(out, "## Experiences") || strings.Contains(out, "## Values") || !strings.Contains(out, "## Memories") {
		t.Errorf("sections:\n%s", out)
	}
	// The memory (208 tokens) is cut to the item cap of the whole budget,
	// 125 tokens, not of the memories' nominal share of it (1 of 5: 25).
	heading := mustTok(t).Count("## Memories\n\n")
	if len(res.Plan.Parts) != 1 || !res.Plan.Parts[0].Truncated || res.Plan.Parts[0].Tokens-heading > 125 || res.Plan.Parts[0].Tokens < 100 {
		t.Errorf("parts %+v", res.Plan.Parts)
	}
	if !strings.Contains(out, "...\n*Category: decision, Importance: 0.5 · memory:1*\n\n*(truncated; the whole is at memory:1)*") {
		t.Errorf("truncation note:\n%s", out)
	}
}

func TestSourcesInvalidType(t *testing.T) {
	f := newSourcesFixture(t, nil)
	for _, list := range [][]string{{"memories,bogus"}, {"Memories", "comits"}, {""}, nil} {
		_, err := f.p.Sources(context.Background(), "invoice", Request{Sources: list, Budget: 500})
		var se *SourceError
		if !errors.As(err, &se) {
			t.Errorf("%q: err %v, want a *SourceError", list, err)
			continue
		}
		if !strings.Contains(err.Error(), "memories, code, experiences, values, commits") {
			t.Errorf("%q: %v does not list the valid sources", list, err)
		}
	}
	if _, err := ParseSources([]string{"comits"}); err == nil || !strings.Contains(err.Error(), "did you mean commits?") {
		t.Errorf("comits: %v", err)
	}
	for _, tc := range []struct {
		req  Request
		want string
	}{
		{Request{Sources: []string{"artifacts"}}, "--task"},
		{Request{Sources: []string{"memories"}, Task: "TASK-1"}, "add artifacts to the sources"},
		{Request{Sources: []string{"artifacts"}, Task: "TASK-404"}, `the task "TASK-404" is not an artifact`},
	} {
		tc.req.Budget = 500
		_, err := f.p.Sources(context.Background(), "invoice", tc.req)
		var se *SourceError
		if !errors.As(err, &se) || !strings.Contains(err.Error(), tc.want) {
			t.Errorf("%+v: %v, want a *SourceError saying %q", tc.req, err, tc.want)
		}
	}
}

// A source that fails is skipped with a warning; the others are
// assembled.
func TestSourcesPartialFailure(t *testing.T) {
	f := newSourcesFixture(t, nil)
	f.memory(t, "m", "Invoice totals round half-even.", 0.5)
	bad := filepath.Join(f.dir, "not-an-index.db")
	if err := os.WriteFile(bad, []byte("this is not SQLite\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	req := Request{Sources: []string{"memories,code"}, Budget: 800, Index: IndexOptions{File: bad}}
	res, err := f.p.Sources(context.Background(), "invoice totals", req)
	if err != nil {
		t.Fatal(err)
	}
	code := false
	for _, w := range res.Plan.Warnings {
		code = code || strings.HasPrefix(w, "sources: code skipped: ") && strings.Contains(w, "not an SQLite database")
	}
	if !code {
		t.Errorf("warnings %q: want code skipped", res.Plan.Warnings)
	}
	if got := partKeys(res); !slices.Equal(got, []string{"memory:1"}) {
		t.Errorf("parts %v, want the memory", got)
	}
	if data, _ := os.ReadFile(bad); string(data) != "this is not SQLite\n" {
		t.Errorf("the file given as the index was changed: %q", data)
	}
}

func TestPremortem(t *testing.T) {
	f := newSourcesFixture(t, nil)
	f.experience(t, "fail1", store.Experience{Domain: "debugging", Strategy: "bisect", Outcome: store.OutcomeFalsified, Hypothesis: "the cache is stale", Result: "the cache was fine; the clock was skewed", RootCause: "clock skew between hosts", Surprise: "the test passed locally", Confidence: store.TierGold})
	f.experience(t, "fail2", store.Experience{Domain: "debugging", Strategy: "print-debugging", Outcome: store.OutcomeFalsified, Hypothesis: "a race in the pool", Result: "no race; a nil map"})
	f.experience(t, "ok", store.Experience{Domain: "debugging", Strategy: "bisect", Outcome: store.OutcomeConfirmed, Result: "bisect found the commit", Lesson: "bisect early"})
	f.experience(t, "feature", store.Experience{Domain: "feature", Strategy: "bisect", Outcome: store.OutcomeFalsified, Surprise: "a feature surprise", RootCause: "feature root cause"})
	f.value(t, "principle", "When debugging, check the clocks before the caches.", 0)
	res, err := f.p.Premortem(context.Background(), "debugging", "bisect", Request{})
	if err != nil {
		t.Fatal(err)
	}
	checkExact(t, res, DefaultPremortemBudget)
	out := string(res.Output)
	if !strings.HasPrefix(out, "# Premortem: debugging with bisect\n\n## Common Failures\n\n") {
		t.Errorf("output starts:\n%s", out)
	}
	for _, h := range []string{"## Strategy Performance", "## Unexpected Outcomes", "## Root Causes to Watch", "## Relevant Principles"} {
		if !strings.Contains(out, "\n"+h+"\n") {
			t.Errorf("no %s in:\n%s", h, out)
		}
	}
	key := func(name, section string) string { return fmt.Sprintf("experience:%d#%s", f.ids[name], section) }
	shown := map[string]bool{}
	for _, p := range res.Plan.Parts {
		shown[p.Key] = true
	}
	for k, want := range map[string]bool{
		key("fail1", "failures"): true, key("fail2", "failures"): true, key("ok", "failures"): false, key("feature", "failures"): false,
		key("fail1", "strategy"): true, key("ok", "strategy"): true, key("fail2", "strategy"): false, key("feature", "strategy"): true,
		key("fail1", "surprises"): true, key("feature", "surprises"): false,
		key("fail1", "root_causes"): true, key("fail2", "root_causes"): true, key("feature", "root_causes"): false,
		fmt.Sprintf("value:%d", f.ids["principle"]): true,
	} {
		if shown[k] != want {
			t.Errorf("%s shown %v, want %v", k, shown[k], want)
		}
	}
	// Failures first within the strategy section.
	var strat []string
	for _, p := range res.Plan.Parts {
		if p.Bucket == "strategy" {
			strat = append(strat, p.Key)
		}
	}
	if len(strat) > 0 && strat[0] == key("ok", "strategy") {
		t.Errorf("strategy section starts with a confirmed experience: %v", strat)
	}
	if !strings.HasSuffix(out, "---\n*Based on 4 past experiences*\n") {
		t.Errorf("footer: %q", out[max(0, len(out)-50):])
	}
	// Without a strategy there is no strategy section.
	res, err = f.p.Premortem(context.Background(), "debugging", "", Request{})
	if err != nil {
		t.Fatal(err)
	}
	if strings.Contains(string(res.Output), "## Strategy Performance") {
		t.Error("a strategy section without a strategy")
	}
}

// The artifacts source brings the task and what it links to, in link
// order, beside the other sources.
func TestSourcesArtifacts(t *testing.T) {
	f := newSourcesFixture(t, map[string]string{
		"README.md":                            "# demo\n",
		".ctxpack/work/tasks/TASK-7.md":        "---\nid: TASK-7\ntitle: Fix invoice rounding\nstatus: in_progress\nlinks:\n  specs: [SPEC-BILL-1]\n---\n# Fix invoice rounding\n\nThe invoice total drifts by a cent.\n",
		".ctxpack/system/specs/SPEC-BILL-1.md": "---\nid: SPEC-BILL-1\ntitle: Invoice totals\nstatus: current\n---\n# Invoice totals\n\nTotals round half-even.\n",
	})
	f.memory(t, "m", "Invoice totals round half-even.", 0.5)
	res, err := f.p.Sources(context.Background(), "invoice rounding", Request{Sources: []string{"artifacts,memories"}, Task: "TASK-7", Budget: 2000})
	if err != nil {
		t.Fatal(err)
	}
	checkExact(t, res, 2000)
	if got, want := partKeys(res), []string{"TASK-7", "SPEC-BILL-1", "memory:1"}; !slices.Equal(got, want) {
		t.Errorf("parts %v, want %v", got, want)
	}
	out := string(res.Output)
	if !strings.HasPrefix(out, "# Context\n\n## Artifacts\n\n**task** `TASK-7` in `.ctxpack/work/tasks/TASK-7.md`\n```markdown\n") {
		t.Errorf("output:\n%s", out)
	}
	if !strings.Contains(out, "**spec** `SPEC-BILL-1` in `.ctxpack/system/specs/SPEC-BILL-1.md` (via TASK-7)") {
		t.Errorf("no via chain:\n%s", out)
	}
}

// A code chunk whose file changed since it was indexed is left out with
// its reason in the plan, and one warning names the file.
func TestSourcesStaleCodeDropped(t *testing.T) {
	f := newSourcesFixture(t, nil)
	// A second file that matches stays fresh, so something is left to show
	// (with nothing left, the result is an EmptyError).
	other := "package billing\n\n// RoundTotal rounds the invoice total to the cent.\nfunc RoundTotal(total float64) float64 { return total }\n"
	if err := os.WriteFile(filepath.Join(f.dir, "billing", "round.go"), []byte(other), 0o644); err != nil {
		t.Fatal(err)
	}
	ctx := context.Background()
	ix := IndexOptions{File: filepath.Join(t.TempDir(), "index.db")}
	req := Request{Sources: []string{"code"}, Budget: 1000, Index: ix}
	res, err := f.p.Sources(ctx, "round the invoice total", req)
	if err != nil {
		t.Fatal(err)
	}
	if len(res.Plan.Parts) == 0 {
		t.Fatal("no code found before the change")
	}
	path := filepath.Join(f.dir, "billing", "invoice.go")
	data, err := os.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(path, []byte(strings.ToUpper(string(data))), 0o644); err != nil {
		t.Fatal(err)
	}
	req.Index.NoUpdate = true
	res, err = f.p.Sources(ctx, "round the invoice total", req)
	if err != nil {
		t.Fatal(err)
	}
	stale := 0
	for _, d := range res.Plan.Dropped {
		if d.Path == "billing/invoice.go" && d.Reason == "the file changed since it was indexed" {
			stale++
		}
	}
	warned := 0
	for _, w := range res.Plan.Warnings {
		if strings.Contains(w, "billing/invoice.go") {
			warned++
		}
	}
	if stale == 0 || warned != 1 {
		t.Errorf("dropped %+v, warnings %q: want the stale chunks dropped and one warning", res.Plan.Dropped, res.Plan.Warnings)
	}
	for _, p := range res.Plan.Parts {
		if p.Path == "billing/invoice.go" {
			t.Errorf("stale chunk %s shown", p.Key)
		}
	}
}

// A project in a folder of a larger repository (found by its .ctxpack):
// the commits source holds only the commits that changed the project's
// files, named from its root, so a commit of only a file a code item
// shows is dropped as its duplicate.
func TestSourcesCommitsOfASubdirectoryProject(t *testing.T) {
	outer := t.TempDir()
	invoice := "package billing\n\n// RoundTotal rounds an invoice total half-even to the cent.\nfunc RoundTotal(cents float64) int64 {\n\treturn int64(cents + 0.5)\n}\n"
	gitCommits(t, outer, []struct {
		msg   string
		files map[string]string
	}{
		{"billing: first invoice code", map[string]string{
			"billing/.ctxpack/config.yaml": "format: markdown\n",
			"billing/.gitignore":           ".ctxpack/*.db*\n",
			"billing/invoice.go":           invoice,
		}},
		{"shipping: invoice rounding for labels", map[string]string{"shipping/label.go": "package shipping\n\n// Label rounds the invoice total on labels.\nfunc Label() {}\n"}},
		{"rounding of invoice totals fixed for negative amounts", map[string]string{"billing/invoice.go": strings.Replace(invoice, "0.5)", "0.5) // fixed", 1)}},
	})
	p, err := Open(filepath.Join(outer, "billing"), "")
	if err != nil {
		t.Fatal(err)
	}
	if p.Root != filepath.Join(outer, "billing") {
		t.Fatalf("root %s, want the billing folder", p.Root)
	}
	res, err := p.Sources(context.Background(), "invoice total rounding", Request{Sources: []string{"code,commits"}, Budget: 3000})
	if err != nil {
		t.Fatal(err)
	}
	for _, w := range res.Plan.Warnings {
		if strings.Contains(w, outer) {
			t.Errorf("a warning holds the absolute path: %q", w)
		}
	}
	out := string(res.Output)
	if strings.Contains(out, "shipping") {
		t.Errorf("a commit outside the project is shown:\n%s", out)
	}
	if !strings.Contains(out, "*Files: .ctxpack/config.yaml, .gitignore, invoice.go;") || strings.Contains(out, "billing/") {
		t.Errorf("commit files are not named from the project root:\n%s", out)
	}
	sameFile := false
	for _, d := range res.Plan.Dropped {
		if strings.Contains(d.Reason, "shipping") {
			t.Errorf("a commit outside the project was found: %+v", d)
		}
		sameFile = sameFile || strings.HasPrefix(d.Key, "commit:") && strings.Contains(d.Reason, "the same file (invoice.go)")
	}
	if !sameFile {
		t.Errorf("no commit dropped for the code item's file: %+v\n%s", res.Plan.Dropped, out)
	}
}

// A query of the store's sources that need no sync reads the store: one
// that is not there is empty, and is not created.
func TestSourcesStoreNotCreated(t *testing.T) {
	dir := writeProject(t, map[string]string{"README.md": "# demo\n\nInvoices.\n"})
	p, err := Open(dir, "")
	if err != nil {
		t.Fatal(err)
	}
	for _, req := range []Request{
		{Sources: []string{"memories"}},
		{Sources: []string{"memories,experiences,values"}},
		{Sources: []string{"commits"}, Index: IndexOptions{NoUpdate: true}},
	} {
		req.Budget = 500
		_, err := p.Sources(context.Background(), "invoice", req)
		var ee *EmptyError
		if !errors.As(err, &ee) {
			t.Fatalf("%v: %v, want nothing found", req.Sources, err)
		}
		if _, err := os.Stat(store.DefaultPath(dir)); !errors.Is(err, os.ErrNotExist) {
			t.Fatalf("%v created the store: %v", req.Sources, err)
		}
	}
	if _, err := os.Stat(filepath.Join(dir, ".ctxpack")); !errors.Is(err, os.ErrNotExist) {
		t.Errorf("a read of the store created .ctxpack: %v", err)
	}
}

// Sources mode and premortem keep items whole or leave them out (drop)
// unless the request or the configuration names another strategy.
func TestSourcesOverflow(t *testing.T) {
	for _, tc := range []struct{ config, asked, want string }{
		{"", "", "drop"},
		{"", "truncate", "truncate"},
		{"pack:\n  overflow: truncate\n", "", "truncate"},
		{"pack:\n  overflow: error\n", "allow", "allow"},
	} {
		files := map[string]string{"README.md": "# demo\n"}
		if tc.config != "" {
			files[".ctxpack/config.yaml"] = tc.config
		}
		f := newSourcesFixture(t, files)
		f.memory(t, "m", "Invoice totals round half-even.", 0.5)
		f.experience(t, "e", store.Experience{Outcome: store.OutcomeFalsified, Result: "invoice totals drifted"})
		res, err := f.p.Sources(context.Background(), "invoice", Request{Sources: []string{"memories"}, Budget: 500, Overflow: tc.asked})
		if err != nil {
			t.Fatal(err)
		}
		if res.Plan.Overflow != tc.want {
			t.Errorf("config %q, asked %q: sources overflow %s, want %s", tc.config, tc.asked, res.Plan.Overflow, tc.want)
		}
		res, err = f.p.Premortem(context.Background(), "debugging", "", Request{Overflow: tc.asked})
		if err != nil {
			t.Fatal(err)
		}
		if res.Plan.Overflow != tc.want {
			t.Errorf("config %q, asked %q: premortem overflow %s, want %s", tc.config, tc.asked, res.Plan.Overflow, tc.want)
		}
	}
}

// TestSourcesSearchFailed checks that an assembly left empty because its
// searches failed (the store's terms damaged here; on a server, the
// database gone after the store was opened) says why, as a *SearchError,
// rather than that nothing was found.
func TestSourcesSearchFailed(t *testing.T) {
	dir := writeProject(t, map[string]string{"README.md": "# demo\n"})
	p, err := Open(dir, "")
	if err != nil {
		t.Fatal(err)
	}
	st, err := p.Store(true)
	if err != nil {
		t.Fatal(err)
	}
	if _, err := st.AddMemory(context.Background(), MemoryInput{Content: "invoice totals are integers of cents"}); err != nil {
		t.Fatal(err)
	}
	st.Close()
	db, err := sqlitedb.Open(store.DefaultPath(dir), sqlitedb.Options{MaxOpenConns: 1})
	if err != nil {
		t.Fatal(err)
	}
	if _, err := db.Exec(`UPDATE terms SET tf = 'damaged'`); err != nil {
		t.Fatal(err)
	}
	db.Close()
	_, err = p.Sources(context.Background(), "invoice totals", Request{Sources: []string{"memories"}, Budget: 500})
	var se *SearchError
	if !errors.As(err, &se) || !strings.Contains(err.Error(), `ctxpack: sources "invoice totals" could not be assembled: the memories source: store: search memory_terms`) {
		t.Fatalf("got %v, want a *SearchError naming the failed source", err)
	}
}
