package store

import (
	"context"
	"fmt"
	"slices"
	"testing"

	"github.com/ctxpack/ctxpack/internal/history"
	"github.com/ctxpack/ctxpack/internal/rank"
	"github.com/google/go-cmp/cmp"
)

func memoryIDs(h []MemoryHit) []int64 {
	var out []int64
	for _, x := range h {
		out = append(out, x.ID)
	}
	return out
}

func TestSearchMemories(t *testing.T) {
	ctx := context.Background()
	s := openTest(t)
	for _, c := range []string{
		"the invoice total is rounded per line",      // 1
		"invoice numbers are never reused",           // 2
		"retry the payment webhook twice",            // 3
		"invoice invoice invoice rounding of totals", // 4
		"the invoice total is rounded per line",      // 5: same as 1
		"maxRetries for the webhook client",          // 6
	} {
		mustAddMemory(t, s, Memory{Content: c, Importance: -1})
	}
	// Unrelated memories, so that the terms above are rare enough to
	// weigh (FTS5 gives a term in more than half the rows almost no
	// weight).
	for i := range 10 {
		mustAddMemory(t, s, Memory{Content: fmt.Sprintf("unrelated note %d", i), Importance: -1})
	}
	search := func(q string, k int) []MemoryHit {
		t.Helper()
		h, err := s.SearchMemories(ctx, q, k)
		if err != nil {
			t.Fatal(err)
		}
		return h
	}
	h := search("invoice rounding", 10)
	if got, want := memoryIDs(h), []int64{4, 2, 1, 5}; !slices.Equal(got, want) {
		t.Fatalf("invoice rounding: ids %v, want %v", got, want)
	}
	for i, x := range h {
		if x.Score <= 0 || x.Score != float64(rank.Quantize(x.Score))/rank.Quantum {
			t.Errorf("hit %d: score %v is not a positive multiple of 1e-6", i, x.Score)
		}
		if i > 0 && x.Score > h[i-1].Score {
			t.Errorf("hit %d scores above hit %d", i, i-1)
		}
	}
	if want := []string{"invoice", "rounding"}; !cmp.Equal(h[0].Matched, want) {
		t.Errorf("Matched = %v, want %v", h[0].Matched, want)
	}
	if want := []string{"invoice"}; !cmp.Equal(h[1].Matched, want) {
		t.Errorf("Matched = %v, want %v", h[1].Matched, want)
	}
	if h[2].Score != h[3].Score {
		t.Errorf("the same content scores %v and %v", h[2].Score, h[3].Score)
	}
	// k cuts; the order does not change.
	if got := memoryIDs(search("invoice rounding", 2)); !slices.Equal(got, []int64{4, 2}) {
		t.Errorf("k=2: %v", got)
	}
	// Code-aware terms: maxRetries gives max and retries.
	h = search("MAX_RETRIES", 10)
	if got := memoryIDs(h); !slices.Equal(got, []int64{6}) {
		t.Errorf("MAX_RETRIES: %v", got)
	}
	if want := []string{"maxretries", "max", "retries"}; !cmp.Equal(h[0].Matched, want) {
		t.Errorf("Matched = %v, want %v", h[0].Matched, want)
	}
	for _, q := range []string{"", "!!! ?", "x"} {
		if h := search(q, 10); h != nil {
			t.Errorf("%q: %v, want none", q, h)
		}
	}
	if h := search("invoice", 0); h != nil {
		t.Errorf("k=0: %v", h)
	}
	// The category is searched too.
	mustAddMemory(t, s, Memory{Content: "ship on Fridays", Category: "decision", Importance: -1})
	if got := memoryIDs(search("decision", 5)); !slices.Equal(got, []int64{17}) {
		t.Errorf("decision: %v", got)
	}
}

// TestSearchTiesWiden checks that ties are ordered by ID even when more
// rows tie than the first fetch reads.
func TestSearchTiesWiden(t *testing.T) {
	s := openTest(t)
	ms := make([]Memory, 100)
	for i := range ms {
		ms[i] = Memory{Content: fmt.Sprintf("same words here %d", i%2), Category: "fact", Importance: 0.5, Created: 1}
	}
	if err := s.write(context.Background(), func(tx conn) error {
		for _, m := range slices.Backward(ms) {
			if _, err := s.insertMemoryNext(context.Background(), tx, m); err != nil {
				return err
			}
		}
		return nil
	}); err != nil {
		t.Fatal(err)
	}
	h, err := s.SearchMemories(context.Background(), "words", 5)
	if err != nil {
		t.Fatal(err)
	}
	if got := memoryIDs(h); !slices.Equal(got, []int64{1, 2, 3, 4, 5}) {
		t.Fatalf("ids %v, want 1 to 5", got)
	}
}

func experienceIDs(h []ExperienceHit) []int64 {
	var out []int64
	for _, x := range h {
		out = append(out, x.ID)
	}
	return out
}

func TestSearchExperienceAxes(t *testing.T) {
	ctx := context.Background()
	s := openTest(t)
	// Each experience says "marker" in one field only.
	base := func() Experience { return exp("debugging", "goal words") }
	var rows []Experience
	add := func(edit func(*Experience)) int64 {
		e := base()
		edit(&e)
		e = mustAddExperience(t, s, e)
		rows = append(rows, e)
		return e.ID
	}
	inGoal := add(func(e *Experience) { e.Goal = "marker goal" })
	inStrategyGoal := add(func(e *Experience) { e.Goal = "marker goal"; e.Strategy = "bisect" })
	inSurprise := add(func(e *Experience) { e.Surprise = "marker surprise" })
	inPrediction := add(func(e *Experience) { e.Prediction = "marker prediction" })
	inPredictionSurprise := add(func(e *Experience) { e.Prediction = "marker prediction"; e.Surprise = "other" })
	inRootCause := add(func(e *Experience) { e.RootCause = "marker cause" })
	falsifiedHypothesis := add(func(e *Experience) { e.Hypothesis = "marker hypothesis"; e.Outcome = OutcomeFalsified })
	confirmedHypothesis := add(func(e *Experience) { e.Hypothesis = "marker hypothesis" })
	inLesson := add(func(e *Experience) { e.Lesson = "marker lesson"; e.Strategy = "bisect" })
	inDomain := add(func(e *Experience) { e.Domain = "marker" })

	for _, c := range []struct {
		axis Axis
		want []int64 // as a set
	}{
		{AxisFull, []int64{inGoal, inStrategyGoal, inSurprise, inPrediction, inPredictionSurprise, inRootCause, falsifiedHypothesis, confirmedHypothesis, inLesson, inDomain}},
		{AxisStrategy, []int64{inStrategyGoal, inLesson}},
		{AxisSurprise, []int64{inSurprise, inPredictionSurprise}},
		{AxisRootCause, []int64{inRootCause, falsifiedHypothesis}},
	} {
		h, err := s.SearchExperiences(ctx, "marker", ExperienceQuery{Axis: c.axis, K: 100})
		if err != nil {
			t.Fatal(err)
		}
		got := experienceIDs(h)
		slices.Sort(got)
		if !slices.Equal(got, c.want) {
			t.Errorf("axis %s: %v, want %v", c.axis, got, c.want)
		}
		// Membership agrees with the SQL test of the axis.
		for _, e := range rows {
			d := defOf(c.axis)
			var n int
			if err := s.db.QueryRow(`SELECT count(*) FROM experiences WHERE ns = ? AND id = ? AND `+d.where, s.ns, e.ID).Scan(&n); err != nil {
				t.Fatal(err)
			}
			if (n == 1) != d.on(&e) {
				t.Errorf("axis %s, experience %d: SQL says %d, Go says %v", c.axis, e.ID, n, d.on(&e))
			}
		}
	}
	// The axis's own field weighs most: on the surprise axis the surprise
	// beats the prediction.
	h, err := s.SearchExperiences(ctx, "marker", ExperienceQuery{Axis: AxisSurprise, K: 5})
	if err != nil {
		t.Fatal(err)
	}
	if got := experienceIDs(h); !slices.Equal(got, []int64{inSurprise, inPredictionSurprise}) {
		t.Errorf("surprise order: %v", got)
	}
	if _, err := s.SearchExperiences(ctx, "marker", ExperienceQuery{Axis: "sideways", K: 5}); err == nil {
		t.Error("an unknown axis was accepted")
	}
	if _, err := s.SearchExperiences(ctx, "marker", ExperienceQuery{Outcome: "maybe", K: 5}); err == nil {
		t.Error("an unknown outcome was accepted")
	}
}

func TestSearchExperienceFilters(t *testing.T) {
	ctx := context.Background()
	s := openTest(t)
	add := func(domain string, outcome Outcome, created int64, goal string) int64 {
		e := exp(domain, goal)
		e.Outcome, e.Created = outcome, created
		return mustAddExperience(t, s, e).ID
	}
	a := add("testing", OutcomeFalsified, 100, "flaky timeout in the parser tests")
	b := add("testing", OutcomeFalsified, 300, "coverage report missing")
	c := add("testing", OutcomeFalsified, 200, "fixtures load slowly")
	d := add("testing", OutcomeConfirmed, 400, "flaky timeout again")
	e := add("debugging", OutcomeFalsified, 500, "flaky network timeout")
	f := add("testing", OutcomeFalsified, 300, "snapshot drift")
	search := func(q string, eq ExperienceQuery) []ExperienceHit {
		t.Helper()
		h, err := s.SearchExperiences(ctx, q, eq)
		if err != nil {
			t.Fatal(err)
		}
		return h
	}
	// Filtered: the matching rows first, then the rest of the domain's
	// falsified ones, newest first, ties by ID, with Score 0.
	h := search("flaky timeout", ExperienceQuery{Domain: "testing", Outcome: OutcomeFalsified, K: 10})
	if got, want := experienceIDs(h), []int64{a, b, f, c}; !slices.Equal(got, want) {
		t.Fatalf("filtered: %v, want %v", got, want)
	}
	if h[0].Score <= 0 || !cmp.Equal(h[0].Matched, []string{"flaky", "timeout"}) {
		t.Errorf("the match: %+v", h[0].Match)
	}
	for _, x := range h[1:] {
		if x.Score != 0 || x.Matched != nil {
			t.Errorf("a filter-only row: %+v", x.Match)
		}
	}
	// K counts both kinds.
	if got := experienceIDs(search("flaky timeout", ExperienceQuery{Domain: "testing", Outcome: OutcomeFalsified, K: 2})); !slices.Equal(got, []int64{a, b}) {
		t.Errorf("K=2: %v", got)
	}
	// No terms, a filter: every row the filter lets through.
	if got := experienceIDs(search("", ExperienceQuery{Domain: "testing", Outcome: OutcomeFalsified, K: 10})); !slices.Equal(got, []int64{b, f, c, a}) {
		t.Errorf("no terms: %v", got)
	}
	// No filter: only matching rows, best first.
	h = search("flaky timeout", ExperienceQuery{K: 10})
	got := experienceIDs(h)
	slices.Sort(got)
	if !slices.Equal(got, []int64{a, d, e}) {
		t.Errorf("unfiltered: %v", got)
	}
	if h := search("", ExperienceQuery{K: 10}); h != nil {
		t.Errorf("neither terms nor a filter: %v", h)
	}
	// Strategy filter.
	x := exp("testing", "flaky")
	x.Strategy = "bisect"
	g := mustAddExperience(t, s, x).ID
	if got := experienceIDs(search("nothing matches", ExperienceQuery{Strategy: "bisect", Axis: AxisStrategy, K: 10})); !slices.Equal(got, []int64{g}) {
		t.Errorf("strategy: %v", got)
	}
	// The filter-only rows are those on the axis: no experience here has a
	// surprise.
	if h := search("", ExperienceQuery{Axis: AxisSurprise, Domain: "testing", K: 10}); h != nil {
		t.Errorf("surprise axis: %v", h)
	}
}

func TestSearchValues(t *testing.T) {
	ctx := context.Background()
	s := openTest(t)
	a := mustAddValue(t, s, Value{Text: "reproduce before fixing", Axis: AxisFull, Tags: []string{"debugging"}})
	b := mustAddValue(t, s, Value{Text: "debugging starts with the logs", Axis: AxisFull})
	c := mustAddValue(t, s, Value{Text: "question the root cause twice", Axis: AxisRootCause})
	h, err := s.SearchValues(ctx, "debugging", 10)
	if err != nil {
		t.Fatal(err)
	}
	var got []int64
	for _, x := range h {
		got = append(got, x.ID)
	}
	// The tag weighs more than the text.
	if !slices.Equal(got, []int64{a.ID, b.ID}) {
		t.Errorf("debugging: %v", got)
	}
	h, err = s.SearchValues(ctx, "root_cause", 10)
	if err != nil {
		t.Fatal(err)
	}
	if len(h) != 1 || h[0].ID != c.ID || !cmp.Equal(h[0].Matched, []string{"rootcause", "root", "cause"}) {
		t.Errorf("root_cause: %+v", h)
	}
}

func TestSearchCommits(t *testing.T) {
	ctx := context.Background()
	s := openTest(t)
	commits := []history.Commit{
		{SHA: "b000000000000000000000000000000000000001", Author: "Ada", Time: 100, Message: "Fix invoice rounding", Files: []history.File{{Path: "src/billing/invoice.go", Added: 3, Deleted: 1}}},
		{SHA: "a000000000000000000000000000000000000002", Author: "Alan", Time: 200, Message: "Update docs", Files: []history.File{{Path: "docs/invoice.md", Added: 1}}},
		{SHA: "c000000000000000000000000000000000000003", Author: "Grace", Time: 200, Message: "Update docs", Files: []history.File{{Path: "docs/invoice.md", Added: 1}}},
		{SHA: "0000000000000000000000000000000000000004", Author: "Grace", Time: 50, Message: "Add the parser"},
	}
	for i := range 6 { // so that the terms above are rare enough to weigh
		commits = append(commits, history.Commit{SHA: fmt.Sprintf("d%039d", i), Author: "Bot", Time: 10, Message: "Bump deps"})
	}
	if err := s.write(ctx, func(tx conn) error { _, err := s.insertCommits(ctx, tx, commits); return err }); err != nil {
		t.Fatal(err)
	}
	search := func(q string) []CommitHit {
		t.Helper()
		h, err := s.SearchCommits(ctx, q, 10)
		if err != nil {
			t.Fatal(err)
		}
		return h
	}
	shas := func(h []CommitHit) []string {
		var out []string
		for _, x := range h {
			out = append(out, x.SHA[:1])
		}
		return out
	}
	// The message weighs more than the paths; the two equal commits are
	// ordered by time, then sha.
	h := search("invoice")
	if got, want := shas(h), []string{"b", "a", "c"}; !slices.Equal(got, want) {
		t.Errorf("invoice: %v, want %v", got, want)
	}
	if h[1].Score != h[2].Score {
		t.Errorf("equal commits score %v and %v", h[1].Score, h[2].Score)
	}
	if d := cmp.Diff(commits[0], h[0].Commit); d != "" {
		t.Errorf("the commit read back (-want +got):\n%s", d)
	}
	if got := shas(search("billing")); !slices.Equal(got, []string{"b"}) {
		t.Errorf("a directory of a path: %v", got)
	}
	if got := shas(search("grace")); !slices.Equal(got, []string{"0", "c"}) { // the shorter commit first
		t.Errorf("author: %v", got)
	}
}
