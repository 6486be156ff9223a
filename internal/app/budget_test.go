package app

import (
	"context"
	"math"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/ctxpack/ctxpack/internal/store"
	"github.com/google/go-cmp/cmp"
)

// TestAllocation: the budget arithmetic, for every way of giving a budget,
// agrees with the budget the engine uses.
func TestAllocation(t *testing.T) {
	files := retrievalFiles()
	files[".ctxpack/config.yaml"] = "window: 10000\nreserves:\n  system: 100\n  query: 50\n  response: 850\n"
	p, err := Open(writeProject(t, files), "")
	if err != nil {
		t.Fatal(err)
	}
	type tier struct {
		name   string
		tokens int
	}
	tests := []struct {
		name     string
		req      Request
		mode     string
		window   int
		reserved int
		budget   int
		tiers    []tier
	}{
		{"configured window", Request{}, "retrieval", 10000, 1000, 9000,
			[]tier{{"primary", 4500}, {"supporting", 2700}, {"reference", 1350}, {"history", 450}}},
		{"a budget", Request{Budget: 1001}, "retrieval", 0, 0, 1001,
			[]tier{{"primary", 500}, {"supporting", 300}, {"reference", 150}, {"history", 50}}},
		{"a window with reserves", Request{Window: 2000, Reserves: &Reserves{System: 1, Query: 2, Response: 3}}, "links", 2000, 6, 1994,
			[]tier{{"context", 1994}}},
		{"pack", Request{Budget: 300}, "pack", 0, 0, 300, []tier{{"context", 300}}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			a, err := p.Allocation(tt.req, tt.mode)
			if err != nil {
				t.Fatal(err)
			}
			want, _ := p.budget(tt.req)
			if a.Budget != tt.budget || a.Budget != want || a.Window != tt.window {
				t.Errorf("budget %d window %d, want %d (engine %d) window %d", a.Budget, a.Window, tt.budget, want, tt.window)
			}
			if (a.Reserves == nil) != (tt.window == 0) || (a.Reserves != nil && a.Reserves.Total() != tt.reserved) {
				t.Errorf("reserves %+v, want a total of %d", a.Reserves, tt.reserved)
			}
			if a.Window > 0 && a.Window-a.Reserves.Total() != a.Budget {
				t.Errorf("window %d − reserves %d ≠ budget %d", a.Window, a.Reserves.Total(), a.Budget)
			}
			var got []tier
			var share float64
			for _, at := range a.Tiers {
				got = append(got, tier{at.Name, at.Tokens})
				share += at.Share
			}
			if d := cmp.Diff(tt.tiers, got, cmp.AllowUnexported(tier{})); d != "" || share != 100 {
				t.Errorf("tiers (-want +got), shares summing to %v:\n%s", share, d)
			}
		})
	}

	// With no budget anywhere, a pack has the default one, as every
	// target has (issue 16); none only when asked for: overflow allow.
	q, _ := Open(writeProject(t, retrievalFiles()), "")
	for _, mode := range []string{"pack", "links", "retrieval"} {
		a, err := q.Allocation(Request{}, mode)
		if err != nil || a.Budget != DefaultBudget {
			t.Errorf("%s with no budget: budget %d, %v; want %d", mode, a.Budget, err, DefaultBudget)
		}
	}
	res, err := q.Pack(context.Background(), Request{})
	if err != nil || res.Plan.Budget != DefaultBudget {
		t.Errorf("pack with no budget: the engine's budget %d, %v", res.Plan.Budget, err)
	}
	a, err := q.Allocation(Request{Overflow: "allow"}, "pack")
	if err != nil || a.Budget != 0 {
		t.Errorf("unbudgeted pack: budget %d, %v", a.Budget, err)
	}
	res, err = q.Pack(context.Background(), Request{Overflow: "allow"})
	if err != nil || res.Plan.Budget != 0 {
		t.Errorf("unbudgeted pack: the engine's budget %d, %v", res.Plan.Budget, err)
	}
}

// TestTargetMode: the mode TargetMode names is the mode Context assembles
// in, and the same targets are errors.
func TestTargetMode(t *testing.T) {
	files := retrievalFiles()
	files[".ctxpack/work/tasks/TASK-1.md"] = "---\nid: TASK-1\ntitle: Round totals\nstatus: in_progress\n---\nRound the invoice total once.\n"
	p, err := Open(writeProject(t, files), "")
	if err != nil {
		t.Fatal(err)
	}
	for _, target := range []string{"TASK-1", "billing", "billing/invoice.py", "round the invoice total", "TASK-2", "billing/missing.py"} {
		mode, merr := p.TargetMode(target)
		res, cerr := p.Context(context.Background(), target, Request{Budget: 2000})
		if (merr != nil) != (cerr != nil) {
			t.Errorf("%s: TargetMode error %v, Context error %v", target, merr, cerr)
			continue
		}
		if cerr == nil && res.Plan.Mode != mode {
			t.Errorf("%s: TargetMode %s, Context assembled in %s", target, mode, res.Plan.Mode)
		}
	}
	if m, err := p.TargetMode("-"); m != "retrieval" || err != nil {
		t.Errorf("-: %s, %v", m, err)
	}
}

// TestRecords: a record made from an assembly, appended and read back;
// records: false turns appending off; a bad setting names the file.
func TestRecords(t *testing.T) {
	ctx := context.Background()
	dir := writeProject(t, retrievalFiles())
	p, _ := Open(dir, "")
	req := Request{Budget: 400}
	res, err := p.Retrieve(ctx, "round the invoice total", req)
	if err != nil {
		t.Fatal(err)
	}
	a, err := p.Allocation(req, res.Plan.Mode)
	if err != nil {
		t.Fatal(err)
	}
	rec := a.Record(&res.Plan, time.Date(2026, 1, 2, 3, 4, 5, 0, time.UTC))
	if err := p.AppendRecord(rec); err != nil {
		t.Fatal(err)
	}
	recs, bad, err := p.Records()
	if err != nil || len(bad) > 0 || len(recs) != 1 {
		t.Fatalf("records %d, bad %v, %v", len(recs), bad, err)
	}
	got := recs[0]
	if got.Digest != res.Plan.Digest || got.StateRoot != res.Plan.StateRoot || got.TotalTokens != res.Plan.TotalTokens || got.TotalBudget != 400 {
		t.Errorf("record %+v does not say what the plan says", got)
	}
	parts := 0
	for _, tier := range got.Allocation {
		parts += len(tier.Files)
		for _, f := range tier.Files {
			if f.Relevance == nil {
				t.Errorf("%s: a retrieved part with no relevance", f.Path)
			}
		}
	}
	if parts != len(res.Plan.Parts) || len(got.Allocation) != 4 {
		t.Errorf("%d parts in %d tiers, want %d in 4", parts, len(got.Allocation), len(res.Plan.Parts))
	}

	// records: false.
	os.WriteFile(filepath.Join(dir, ".ctxpack", "config.yaml"), []byte("records: false\n"), 0o644)
	p, _ = Open(dir, "")
	if err := p.AppendRecord(rec); err != nil {
		t.Fatal(err)
	}
	if recs, _, _ := p.Records(); len(recs) != 1 {
		t.Errorf("records: false still appended (%d records)", len(recs))
	}
	os.WriteFile(filepath.Join(dir, ".ctxpack", "config.yaml"), []byte("records: maybe\n"), 0o644)
	p, _ = Open(dir, "")
	if err := p.AppendRecord(rec); err == nil || !strings.Contains(err.Error(), "config.yaml:1") || !strings.Contains(err.Error(), "records must be true or false") {
		t.Errorf("a bad records setting: %v", err)
	}
}

// TestRecordSources: the record of a sources assembly or a premortem has
// one tier a source, with its weight's share and the budget it was
// entitled to, and every part in its source's tier (it had one tier,
// context, with all the budget and none of the parts).
func TestRecordSources(t *testing.T) {
	ctx := context.Background()
	f := newSourcesFixture(t, nil)
	f.memory(t, "m", "Invoice totals round half-even.", 0.5)
	f.experience(t, "e", store.Experience{Outcome: store.OutcomeFalsified, Result: "the invoice total drifted", Lesson: "Round once."})
	now := time.Date(2026, 1, 2, 3, 4, 5, 0, time.UTC)
	type tier struct {
		Name      string
		Share     float64
		Allocated int
		Parts     int
	}
	check := func(what string, req Request, res *Result, budget int) {
		t.Helper()
		a, err := f.p.Allocation(req, res.Plan.Mode)
		if err != nil {
			t.Fatal(err)
		}
		rec := a.Record(&res.Plan, now)
		var got, want []tier
		var weights float64
		for _, s := range res.Plan.Shares {
			weights += s.Weight
		}
		for _, s := range res.Plan.Shares {
			n := 0
			for _, p := range res.Plan.Parts {
				if p.Bucket == s.Source {
					n++
				}
			}
			want = append(want, tier{s.Source, math.Round(s.Weight/weights*1e4) / 100, s.Budget, n})
		}
		parts := 0
		for _, rt := range rec.Allocation {
			got = append(got, tier{rt.Name, rt.Share, rt.Allocated, len(rt.Files)})
			parts += len(rt.Files)
		}
		if d := cmp.Diff(want, got); d != "" || parts != len(res.Plan.Parts) || parts == 0 {
			t.Errorf("%s: record tiers (-want +got), %d of %d parts placed:\n%s", what, parts, len(res.Plan.Parts), d)
		}
		if len(a.Tiers) != len(rec.Allocation) || a.Tiers[0].Name != rec.Allocation[0].Name {
			t.Errorf("%s: the allocation's tiers %+v are not the record's", what, a.Tiers)
		}
		if a.Budget != budget || rec.TotalBudget != budget {
			t.Errorf("%s: allocation budget %d, record %d; want %d", what, a.Budget, rec.TotalBudget, budget)
		}
	}
	req := Request{Sources: []string{"memories,experiences"}, Budget: 500}
	res, err := f.p.Sources(ctx, "invoice total", req)
	if err != nil {
		t.Fatal(err)
	}
	check("sources", req, res, 500)
	req = Request{}
	if res, err = f.p.Premortem(ctx, "debugging", "", req); err != nil {
		t.Fatal(err)
	}
	check("premortem", req, res, DefaultPremortemBudget)
}

// TestSummarize: levels by kind of file, the next lower level for one the
// file lacks, and the same answer with the cache, also from a corrupt one.
func TestSummarize(t *testing.T) {
	ctx := context.Background()
	files := retrievalFiles()
	files["notes.txt"] = "first line\nsecond line\n\nlater\n"
	files[".ctxpack/system/specs/SPEC-1.md"] = "---\nid: SPEC-1\ntitle: Totals\nstatus: current\n---\nLead.\n\n## A\n\nPara a.\n\nMore a.\n"
	dir := writeProject(t, files)
	p, _ := Open(dir, "")
	tests := []struct {
		file, level, kind, shown string
		levels                   string
		text                     string
	}{
		{"billing/invoice.py", "summary", "code", "summary", "full detailed summary meta", "function: def round_total(total):\nfunction: def tax(total):\n"},
		{"billing/invoice.py", "full", "code", "full", "full detailed summary meta", files["billing/invoice.py"]},
		{"notes.txt", "detailed", "text", "summary", "full summary meta", "first line\nsecond line\n[… 2 more lines]\n"},
		{"notes.txt", "meta", "text", "meta", "full summary meta", "path: notes.txt\nlanguage: text\nlines: 4\nbytes: 30\n"},
		{".ctxpack/system/specs/SPEC-1.md", "summary", "artifact", "summary", "full detailed summary meta", "title: Totals\nstatus: current\n\nLead.\n"},
		{"README.md", "summary", "markdown", "summary", "full summary meta", "# billing\n"},
	}
	for _, tt := range tests {
		var first *Summary
		for _, cached := range []bool{false, true, true} {
			s, err := p.Summarize(ctx, tt.file, SummarizeOptions{Level: tt.level, Cache: cached})
			if err != nil {
				t.Fatalf("%s: %v", tt.file, err)
			}
			var levels []string
			for _, l := range s.Levels {
				levels = append(levels, l.Level)
			}
			if s.Kind != tt.kind || s.Shown != tt.shown || strings.Join(levels, " ") != tt.levels || s.Text != tt.text {
				t.Errorf("%s %s: kind %s, shown %s, levels %v, text %q", tt.file, tt.level, s.Kind, s.Shown, levels, s.Text)
			}
			if first == nil {
				first = s
			} else if d := cmp.Diff(first, s); d != "" {
				t.Errorf("%s %s: the cache changed the answer (-uncached +cached):\n%s", tt.file, tt.level, d)
			}
		}
	}
	entries, _ := filepath.Glob(filepath.Join(dir, ".ctxpack", "cache", "summaries", "*.json"))
	if len(entries) == 0 {
		t.Fatal("--cache stored nothing")
	}
	for _, e := range entries {
		os.WriteFile(e, []byte("{}"), 0o644)
	}
	s, err := p.Summarize(ctx, "billing/invoice.py", SummarizeOptions{Level: "summary", Cache: true})
	if err != nil || s.Text != "function: def round_total(total):\nfunction: def tax(total):\n" {
		t.Errorf("after corrupting the cache: %q, %v", s.Text, err)
	}

	for _, bad := range []struct{ file, level, err string }{
		{"billing", "summary", "is a directory"},
		{"nope.py", "summary", "nope.py"},
		{"billing/invoice.py", "tiny", `unknown depth "tiny"`},
		{"../outside.py", "summary", "outside the project root"},
	} {
		if _, err := p.Summarize(ctx, bad.file, SummarizeOptions{Level: bad.level}); err == nil || !strings.Contains(err.Error(), bad.err) {
			t.Errorf("%s %s: %v, want %q", bad.file, bad.level, err, bad.err)
		}
	}
}

// TestScore: the facade resolves paths and artifact ids, and agrees with
// the ranking of retrieval mode.
func TestScore(t *testing.T) {
	ctx := context.Background()
	files := retrievalFiles()
	files[".ctxpack/work/tasks/TASK-1.md"] = "---\nid: TASK-1\ntitle: Currency conversion\nstatus: in_progress\n---\nconvert uses stale RATES.\n"
	dir := writeProject(t, files)
	p, _ := Open(filepath.Join(dir, "billing"), "") // paths relative to billing/
	s, err := p.Score(ctx, "invoice.py", "round the invoice total", Request{})
	if err != nil {
		t.Fatal(err)
	}
	if s.Path != "billing/invoice.py" || s.Rank != 1 || s.Best.Path != "billing/invoice.py" {
		t.Errorf("score %+v", s)
	}
	ranked, _, err := p.RankFiles(ctx, "round the invoice total", IndexOptions{})
	if err != nil || ranked[0].Path != "billing/invoice.py" {
		t.Errorf("ranking %v, %v", ranked, err)
	}
	// (The task's own file, which the index holds too, ranks first.)
	s, err = p.Score(ctx, "currency.py", "TASK-1", Request{})
	if err != nil || s.Rank == 0 || !strings.Contains(s.Query, "convert uses stale RATES") {
		t.Errorf("artifact task: rank %d, query %q, %v", s.Rank, s.Query, err)
	}
	if _, err := p.Score(ctx, "currency.py", "TASK-9", Request{}); err == nil || !strings.Contains(err.Error(), "no artifact TASK-9") {
		t.Errorf("missing artifact: %v", err)
	}
	tiers, _ := p.Tiers()
	for rel, want := range map[float64]string{0.9: "primary", 0.7: "primary", 0.69: "supporting", 0.3: "reference", 0.1: "history", 0: "history"} {
		if got := TierFor(rel, tiers).Name; got != want {
			t.Errorf("TierFor(%v) = %s, want %s", rel, got, want)
		}
	}
}

// TestKeyable: the retrieval options in a cache key say whether a
// function is set and which embedder is configured.
func TestKeyable(t *testing.T) {
	type opts struct {
		N    int
		F    func() string
		E    interface{ ID() string }
		X    any
		priv int
	}
	a, ok := keyable(opts{N: 1})
	b, _ := keyable(opts{N: 1, F: func() string { return "" }})
	c, _ := keyable(opts{N: 1, E: idOf("model-a")})
	d, _ := keyable(opts{N: 1, E: idOf("model-b")})
	if !ok || cmp.Equal(a, b) || cmp.Equal(c, d) || cmp.Equal(a, c) {
		t.Errorf("keys do not tell options apart: %v %v %v %v", a, b, c, d)
	}
	if _, ok := keyable(opts{X: 3}); !ok {
		t.Error("a plain value in an interface field is refused")
	}
	if _, ok := keyable(opts{X: struct{ A int }{1}}); !ok {
		t.Error("a struct in an interface field is refused")
	}
}

type idOf string

func (i idOf) ID() string { return string(i) }

// TestTiersWithoutEmbedder: the tiers do not need the embedder, so an
// embed: section that cannot load fails retrieval but not what only needs
// the tiers (budget, score).
func TestTiersWithoutEmbedder(t *testing.T) {
	dir := t.TempDir()
	if err := os.MkdirAll(filepath.Join(dir, ".ctxpack"), 0o755); err != nil {
		t.Fatal(err)
	}
	cfg := "embed:\n  provider: static\n  path: no-such-model\n"
	if err := os.WriteFile(filepath.Join(dir, ".ctxpack", "config.yaml"), []byte(cfg), 0o644); err != nil {
		t.Fatal(err)
	}
	p, err := Open(dir, "")
	if err != nil {
		t.Fatal(err)
	}
	if tiers, err := p.Tiers(); err != nil || len(tiers) != len(DefaultTiers()) {
		t.Errorf("Tiers with an embedder that cannot load: %v, %v", tiers, err)
	}
	if _, _, err := p.retrieval(); err == nil || !strings.Contains(err.Error(), "no-such-model") {
		t.Errorf("retrieval settings with an embedder that cannot load: %v; want its error", err)
	}
}
