package app

import (
	"context"
	"errors"
	"slices"
	"testing"
)

// TestStoreGateway adds, reads, lists and removes a row of each kind
// through the facade, and checks its errors.
func TestStoreGateway(t *testing.T) {
	ctx := context.Background()
	p, err := Open(writeProject(t, map[string]string{".ctxpack/config.yaml": "budget: 1000\n"}), "")
	if err != nil {
		t.Fatal(err)
	}
	ro, err := p.Store(false)
	if err != nil {
		t.Fatal(err)
	}
	if ms, err := ro.Memories(ctx, ""); err != nil || ms == nil || len(ms) != 0 {
		t.Errorf("a store that is not there lists %v, %v; want an empty list", ms, err)
	}
	ro.Close()
	st, err := p.Store(true)
	if err != nil {
		t.Fatal(err)
	}
	defer st.Close()

	half := 0.25
	m, err := st.AddMemory(ctx, MemoryInput{Content: "use decimal for money", Category: "decision", Importance: &half})
	if err != nil || m.Key != "memory:1" || m.Importance != 0.25 || m.Category != "decision" {
		t.Fatalf("AddMemory: %+v, %v", m, err)
	}
	if m, err := st.AddMemory(ctx, MemoryInput{Content: "x"}); err != nil || m.Importance != 0.5 || m.Category != "fact" {
		t.Errorf("AddMemory defaults: %+v, %v", m, err)
	}
	var ie *InputError
	if _, err := st.AddMemory(ctx, MemoryInput{Content: " "}); !errors.As(err, &ie) || ie.Field != "content" {
		t.Errorf("AddMemory of blank content: %v", err)
	}
	if err := (MemoryInput{Content: "ok"}).Validate(); err != nil {
		t.Errorf("Validate: %v", err)
	}
	if ms, err := st.Memories(ctx, "decision"); err != nil || len(ms) != 1 || ms[0].ID != 1 {
		t.Errorf("Memories(decision): %+v, %v", ms, err)
	}
	if got, err := st.Memory(ctx, 1); err != nil || got.Content != m.Content {
		t.Errorf("Memory: %+v, %v", got, err)
	}
	if _, err := st.Memory(ctx, 99); !errors.Is(err, ErrNotFound) {
		t.Errorf("Memory(99): %v, want ErrNotFound", err)
	}
	if got, err := st.RemoveMemory(ctx, 1); err != nil || got.Content != m.Content {
		t.Errorf("RemoveMemory: %+v, %v", got, err)
	}
	if _, err := st.RemoveMemory(ctx, 1); !errors.Is(err, ErrNotFound) {
		t.Errorf("RemoveMemory twice: %v", err)
	}

	lesson := "convert currencies after summing invoice lines"
	yaml := "- {domain: feature, goal: ship the login page, hypothesis: forms are simple, action: wrote it, prediction: done in a day, outcome: {status: confirmed, result: done}, lesson: write the form schema first}\n" +
		"- {domain: testing, goal: speed up the suite, hypothesis: fixtures are slow, action: cached fixtures, prediction: twice as fast, outcome: {status: confirmed, result: faster}, lesson: profile the slowest tests}\n" +
		"- {domain: debugging, strategy: bisect, goal: find why the invoice total drifts, hypothesis: rounding per line, action: summed unrounded lines, prediction: the drift goes away, outcome: {status: falsified, result: the drift stayed}, lesson: " + lesson + "}\n" +
		"- {domain: debugging, strategy: bisect, goal: find the invoice total drift in euros, hypothesis: rounding of each line, action: compared rounded lines, prediction: the totals match, outcome: {status: falsified, result: the invoice drift stayed}, lesson: " + lesson + "}\n" +
		"- {domain: debugging, strategy: bisect, goal: explain the invoice drift for dollars, hypothesis: line rounding, action: summed lines unrounded, prediction: no drift, outcome: {status: falsified, result: invoice drift remained}, lesson: " + lesson + "}\n"
	es, err := ParseExperiences("e.yaml", []byte(yaml))
	if err != nil || len(es) != 5 || es[2].Outcome != "falsified" {
		t.Fatalf("ParseExperiences: %+v, %v", es, err)
	}
	if _, err := ParseExperiences("bad.yaml", []byte("domain: [")); err == nil {
		t.Error("ParseExperiences of bad YAML: no error")
	}
	var fe *ExperienceFileError
	if _, err := ParseExperiences("x.yaml", []byte("- domain: debugging\n  goal: g\n")); !errors.As(err, &fe) || fe.Name != "x.yaml" || fe.Line != 1 {
		t.Errorf("ParseExperiences of an incomplete experience: %v, want an *ExperienceFileError on x.yaml:1", err)
	}
	for _, e := range es {
		if err := e.Validate(); err != nil {
			t.Fatal(err)
		}
		if _, err := st.AddExperience(ctx, e); err != nil {
			t.Fatal(err)
		}
	}
	if bad := (ExperienceInput{Domain: "debugging"}); !errors.As(bad.Validate(), &ie) {
		t.Errorf("Validate of an incomplete experience: %v", bad.Validate())
	}
	if list, err := st.Experiences(ctx, ExperienceFilter{Outcome: "falsified", Strategy: "bisect"}); err != nil || len(list) != 3 {
		t.Errorf("Experiences: %d, %v", len(list), err)
	}
	if e, err := st.Experience(ctx, 4); err != nil || e.Goal != "find the invoice total drift in euros" || e.Outcome.Status != "falsified" {
		t.Errorf("Experience: %+v, %v", e, err)
	}

	derived, err := st.DeriveValues(ctx, DeriveOptions{Axis: "full"}, false)
	if err != nil || len(derived) != 1 || derived[0].Value != "" || derived[0].Size != 3 {
		t.Fatalf("DeriveValues: %+v, %v", derived, err)
	}
	added, err := st.DeriveValues(ctx, DeriveOptions{Axis: "full"}, true)
	if err != nil || len(added) != 1 || !added[0].Added || added[0].Value != "value:1" {
		t.Fatalf("DeriveValues with add: %+v, %v", added, err)
	}
	again, err := st.DeriveValues(ctx, DeriveOptions{Axis: "full"}, true)
	if err != nil || len(again) != 1 || again[0].Added || again[0].Value != "value:1" {
		t.Errorf("DeriveValues with add, again: %+v, %v", again, err)
	}
	v, err := st.AddValue(ctx, ValueInput{Text: "measure first", Axis: "strategy", Tags: []string{"perf", "perf"}})
	if err != nil || v.Key != "value:2" || !slices.Equal(v.Tags, []string{"perf"}) {
		t.Errorf("AddValue: %+v, %v", v, err)
	}
	if err := (ValueInput{Text: "x", Axis: "sideways"}).Validate(); !errors.As(err, &ie) || ie.Field != "axis" {
		t.Errorf("Validate of a bad axis: %v", err)
	}
	if vs, err := st.Values(ctx, "strategy"); err != nil || len(vs) != 1 {
		t.Errorf("Values(strategy): %+v, %v", vs, err)
	}
	if got, err := st.Value(ctx, 1); err != nil || got.Experience == "" || got.Cluster == "" {
		t.Errorf("a derived value: %+v, %v", got, err)
	}
	if _, err := st.RemoveValue(ctx, 2); err != nil {
		t.Error(err)
	}
	if _, err := st.RemoveExperience(ctx, 5); err != nil {
		t.Error(err)
	}
	if _, err := st.Experience(ctx, 5); !errors.Is(err, ErrNotFound) {
		t.Errorf("a removed experience: %v", err)
	}
}

func TestStoreEnums(t *testing.T) {
	if !slices.Contains(Axes(), "root_cause") || !slices.Contains(Outcomes(), "abandoned") || ConfidenceTiers()[0] != "gold" {
		t.Errorf("enums: %v %v %v", Axes(), Outcomes(), ConfidenceTiers())
	}
	if a, err := ParseAxis("strategy"); err != nil || a != "strategy" {
		t.Errorf("ParseAxis: %q, %v", a, err)
	}
	var ie *InputError
	if _, err := ParseAxis("sideways"); !errors.As(err, &ie) {
		t.Errorf("ParseAxis(sideways): %v", err)
	}
	if _, err := ParseOutcome("maybe"); !errors.As(err, &ie) || ie.Error() == "" {
		t.Errorf("ParseOutcome(maybe): %v", err)
	}
}
