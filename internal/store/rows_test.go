package store

import (
	"context"
	"errors"
	"math"
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"
)

// wantInvalid checks that err is a *ValidationError for field whose
// message holds msg.
func wantInvalid(t *testing.T, name string, err error, field, msg string) {
	t.Helper()
	var ve *ValidationError
	if !errors.As(err, &ve) {
		t.Errorf("%s: %v, want a *ValidationError for %s", name, err, field)
		return
	}
	if ve.Field != field || !strings.Contains(ve.Msg, msg) {
		t.Errorf("%s: %v, want field %s and a message with %q", name, err, field, msg)
	}
	if !strings.HasPrefix(err.Error(), "store: "+field+": ") {
		t.Errorf("%s: %q does not read \"store: %s: …\"", name, err, field)
	}
}

func TestAddMemoryValidation(t *testing.T) {
	s := openTest(t)
	ok := Memory{Content: "c", Importance: -1}
	for _, c := range []struct {
		name       string
		edit       func(*Memory)
		field, msg string
	}{
		{"blank content", func(m *Memory) { m.Content = " \n\t" }, "content", "blank"},
		{"long content", func(m *Memory) { m.Content = strings.Repeat("x", MaxText+1) }, "content", "more than"},
		{"invalid UTF-8", func(m *Memory) { m.Content = "a\xffb" }, "content", "UTF-8"},
		{"category upper", func(m *Memory) { m.Category = "Fact" }, "category", `(got "Fact")`},
		{"category space", func(m *Memory) { m.Category = "a b" }, "category", "preference"},
		{"category digit first", func(m *Memory) { m.Category = "1x" }, "category", "lower-case word"},
		{"category long", func(m *Memory) { m.Category = strings.Repeat("a", 33) }, "category", "at most 32"},
		{"importance high", func(m *Memory) { m.Importance = 1.5 }, "importance", "from 0 to 1, or -1 for the default 0.5 (got 1.5)"},
		{"importance negative", func(m *Memory) { m.Importance = -0.5 }, "importance", "got -0.5"},
		{"importance NaN", func(m *Memory) { m.Importance = math.NaN() }, "importance", "got NaN"},
		{"created", func(m *Memory) { m.Created = -1 }, "created", "Unix seconds"},
	} {
		m := ok
		c.edit(&m)
		_, err := s.AddMemory(context.Background(), m)
		wantInvalid(t, c.name, err, c.field, c.msg)
		if m.Validate() == nil {
			t.Errorf("%s: Validate accepts what AddMemory refuses", c.name)
		}
	}
	if c, _ := s.Counts(context.Background()); c.Memories != 0 {
		t.Fatal("a refused memory was stored")
	}
}

func TestAddExperienceValidation(t *testing.T) {
	s := openTest(t)
	ok := exp("debugging", "g")
	for _, c := range []struct {
		name       string
		edit       func(*Experience)
		field, msg string
	}{
		{"no domain", func(e *Experience) { e.Domain = "" }, "domain", "required"},
		{"bad domain", func(e *Experience) { e.Domain = "Debugging" }, "domain", `got "Debugging"`},
		{"bad strategy", func(e *Experience) { e.Strategy = "divide and conquer" }, "strategy", "systematic-elimination"},
		{"no goal", func(e *Experience) { e.Goal = "" }, "goal", "required"},
		{"no hypothesis", func(e *Experience) { e.Hypothesis = " " }, "hypothesis", "blank"},
		{"no action", func(e *Experience) { e.Action = "" }, "action", "required"},
		{"no prediction", func(e *Experience) { e.Prediction = "" }, "prediction", "required"},
		{"no outcome", func(e *Experience) { e.Outcome = "" }, "outcome.status", "required: confirmed, falsified or abandoned"},
		{"bad outcome", func(e *Experience) { e.Outcome = "maybe" }, "outcome.status", `must be confirmed, falsified or abandoned (got "maybe")`},
		{"no result", func(e *Experience) { e.Result = "" }, "outcome.result", "required"},
		{"long surprise", func(e *Experience) { e.Surprise = strings.Repeat("s", MaxText+1) }, "surprise", "more than"},
		{"bad root cause", func(e *Experience) { e.RootCause = "\xff" }, "root_cause", "UTF-8"},
		{"bad lesson", func(e *Experience) { e.Lesson = "\xfe" }, "lesson", "UTF-8"},
		{"bad confidence", func(e *Experience) { e.Confidence = "platinum" }, "confidence", `gold, silver, bronze or abandoned (got "platinum")`},
		{"negative iterations", func(e *Experience) { e.Iterations = -2 }, "iterations", "got -2"},
		{"created", func(e *Experience) { e.Created = -5 }, "created", "got -5"},
	} {
		e := ok
		c.edit(&e)
		_, err := s.AddExperience(context.Background(), e)
		wantInvalid(t, c.name, err, c.field, c.msg)
	}
}

func TestAddValueValidation(t *testing.T) {
	s := openTest(t)
	ok := Value{Text: "t", Axis: AxisFull}
	for _, c := range []struct {
		name       string
		edit       func(*Value)
		field, msg string
	}{
		{"no text", func(v *Value) { v.Text = "" }, "text", "required"},
		{"no axis", func(v *Value) { v.Axis = "" }, "axis", "required"},
		{"bad axis", func(v *Value) { v.Axis = "root-cause" }, "axis", "full, strategy, surprise or root_cause"},
		{"bad cluster", func(v *Value) { v.Cluster = "cluster 3" }, "cluster", `like "full/3"`},
		{"cluster zero", func(v *Value) { v.Cluster = "full/0" }, "cluster", "full/3"},
		{"cluster size", func(v *Value) { v.ClusterSize = -1 }, "cluster_size", "negative"},
		{"similarity", func(v *Value) { v.Similarity = 1.01 }, "similarity", "from 0 to 1"},
		{"experience", func(v *Value) { v.Experience = -1 }, "experience", "experience id"},
		{"tags", func(v *Value) { v.Tags = []string{"ok", "Not OK"} }, "tags", `got "Not OK"`},
		{"created", func(v *Value) { v.Created = -1 }, "created", "Unix"},
	} {
		v := ok
		c.edit(&v)
		_, err := s.AddValue(context.Background(), v)
		wantInvalid(t, c.name, err, c.field, c.msg)
	}
	// An experience that is not stored.
	_, err := s.AddValue(context.Background(), Value{Text: "t", Axis: AxisFull, Experience: 9})
	if !errors.Is(err, ErrNotFound) || !strings.Contains(err.Error(), "experience 9") {
		t.Errorf("a missing experience: %v", err)
	}
}

func TestParseEnums(t *testing.T) {
	for _, a := range Axes() {
		if got, err := ParseAxis(string(a)); err != nil || got != a {
			t.Errorf("ParseAxis(%s) = %s, %v", a, got, err)
		}
	}
	if a, err := ParseAxis("root-cause"); err != nil || a != AxisRootCause {
		t.Errorf(`ParseAxis("root-cause") = %s, %v`, a, err)
	}
	_, err := ParseAxis("Full")
	wantInvalid(t, "ParseAxis", err, "axis", `must be full, strategy, surprise or root_cause (got "Full")`)
	if want := []Axis{"full", "strategy", "surprise", "root_cause"}; !cmp.Equal(Axes(), want) {
		t.Errorf("Axes = %v", Axes())
	}
	_, err = ParseOutcome("yes")
	wantInvalid(t, "ParseOutcome", err, "outcome.status", "confirmed, falsified or abandoned")
	_, err = ParseTier("")
	wantInvalid(t, "ParseTier", err, "confidence", "gold")
}

func TestMemories(t *testing.T) {
	ctx := context.Background()
	s := openTest(t)
	a := mustAddMemory(t, s, Memory{Content: "use cents", Importance: -1})
	want := Memory{ID: 1, Content: "use cents", Category: "fact", Importance: 0.5, Created: epoch.Unix()}
	if a != want {
		t.Fatalf("AddMemory = %+v, want %+v", a, want)
	}
	b := mustAddMemory(t, s, Memory{ID: 77, Content: "tabs", Category: "preference", Importance: 0, Created: 5})
	if b.ID != 2 || b.Importance != 0 || b.Created != 5 {
		t.Fatalf("AddMemory = %+v: the id is the store's, importance 0 and created are kept", b)
	}
	c := mustAddMemory(t, s, Memory{Content: "cents again", Category: "fact", Importance: 1})
	if got, err := s.Memory(ctx, 2); err != nil || got != b {
		t.Fatalf("Memory(2) = %+v, %v", got, err)
	}
	list := func(cat string) []Memory {
		ms, err := s.Memories(ctx, cat)
		if err != nil {
			t.Fatal(err)
		}
		return ms
	}
	if d := cmp.Diff([]Memory{a, b, c}, list("")); d != "" {
		t.Errorf("Memories(\"\") (-want +got):\n%s", d)
	}
	if d := cmp.Diff([]Memory{a, c}, list("fact")); d != "" {
		t.Errorf("Memories(fact) (-want +got):\n%s", d)
	}
	if got := list("event"); got != nil {
		t.Errorf("Memories(event) = %v", got)
	}
	if got, err := s.RemoveMemory(ctx, a.ID); err != nil || got != a {
		t.Fatalf("RemoveMemory = %+v, %v; want the memory as it was, %+v", got, err, a)
	}
	if _, err := s.Memory(ctx, a.ID); !errors.Is(err, ErrNotFound) || err.Error() != "store: memory 1: store: not found" {
		t.Errorf("Memory of a removed one: %v", err)
	}
	if _, err := s.RemoveMemory(ctx, a.ID); !errors.Is(err, ErrNotFound) {
		t.Errorf("RemoveMemory twice: %v", err)
	}
	if h, _ := s.SearchMemories(ctx, "cents", 5); len(h) != 1 || h[0].ID != c.ID {
		t.Errorf("a removed memory is still searched: %v", h)
	}
	// Ids are not given again.
	if d := mustAddMemory(t, s, Memory{Content: "d", Importance: -1}); d.ID != 4 {
		t.Errorf("the next id is %d, want 4", d.ID)
	}
	if _, err := s.RemoveMemory(ctx, 4); err != nil {
		t.Fatal(err)
	}
	if d := mustAddMemory(t, s, Memory{Content: "e", Importance: -1}); d.ID != 5 {
		t.Errorf("after removing the last row the next id is %d, want 5", d.ID)
	}
}

func TestExperiences(t *testing.T) {
	ctx := context.Background()
	s := openTest(t)
	full := Experience{
		ID: 99, Domain: "debugging", Strategy: "systematic-elimination", Goal: "g", Hypothesis: "h", Action: "a",
		Prediction: "p", Outcome: OutcomeFalsified, Result: "r", Surprise: "s", RootCause: "wrong-assumption: x",
		Lesson: "l", Confidence: TierGold, Iterations: 3, Created: 10,
	}
	a := mustAddExperience(t, s, full)
	full.ID = 1
	if a != full {
		t.Fatalf("AddExperience = %+v, want %+v", a, full)
	}
	b := mustAddExperience(t, s, exp("feature", "g2"))
	if b.Confidence != TierBronze || b.Iterations != 1 || b.Created != epoch.Unix() {
		t.Fatalf("defaults: %+v", b)
	}
	c := exp("debugging", "g3")
	c.Strategy, c.Outcome = "bisect", OutcomeAbandoned
	c = mustAddExperience(t, s, c)
	if got, err := s.Experience(ctx, 2); err != nil || got != b {
		t.Fatalf("Experience(2) = %+v, %v", got, err)
	}
	for _, f := range []struct {
		f    ExperienceFilter
		want []Experience
	}{
		{ExperienceFilter{}, []Experience{a, b, c}},
		{ExperienceFilter{Domain: "debugging"}, []Experience{a, c}},
		{ExperienceFilter{Strategy: "bisect"}, []Experience{c}},
		{ExperienceFilter{Outcome: OutcomeFalsified}, []Experience{a}},
		{ExperienceFilter{Domain: "debugging", Outcome: OutcomeConfirmed}, nil},
	} {
		got, err := s.Experiences(ctx, f.f)
		if err != nil {
			t.Fatal(err)
		}
		if d := cmp.Diff(f.want, got); d != "" {
			t.Errorf("Experiences(%+v) (-want +got):\n%s", f.f, d)
		}
	}
	if got, err := s.RemoveExperience(ctx, a.ID); err != nil || !cmp.Equal(got, a) {
		t.Fatalf("RemoveExperience = %+v, %v; want the experience as it was, %+v", got, err, a)
	}
	if _, err := s.Experience(ctx, a.ID); !errors.Is(err, ErrNotFound) {
		t.Errorf("Experience of a removed one: %v", err)
	}
	if _, err := s.RemoveExperience(ctx, a.ID); !errors.Is(err, ErrNotFound) {
		t.Errorf("RemoveExperience twice: %v", err)
	}
	for _, axis := range Axes() {
		h, err := s.SearchExperiences(ctx, "g wrong assumption systematic elimination s l", ExperienceQuery{Axis: axis, K: 10})
		if err != nil {
			t.Fatal(err)
		}
		for _, x := range h {
			if x.ID == a.ID {
				t.Errorf("axis %s: the removed experience is still searched", axis)
			}
		}
	}
}

func TestValues(t *testing.T) {
	ctx := context.Background()
	s := openTest(t)
	e := mustAddExperience(t, s, exp("debugging", "g"))
	a := mustAddValue(t, s, Value{ID: 5, Text: "measure first", Axis: AxisStrategy, Cluster: "strategy/1", ClusterSize: 4,
		Similarity: 0.8123, Experience: e.ID, Tags: []string{"testing", "debugging", "testing"}})
	want := Value{ID: 1, Text: "measure first", Axis: AxisStrategy, Cluster: "strategy/1", ClusterSize: 4,
		Similarity: 0.8123, Experience: e.ID, Tags: []string{"debugging", "testing"}, Created: epoch.Unix()}
	if d := cmp.Diff(want, a); d != "" {
		t.Fatalf("AddValue (-want +got):\n%s", d)
	}
	b := mustAddValue(t, s, Value{Text: "by hand", Axis: AxisFull})
	if got, err := s.Value(ctx, a.ID); err != nil || !cmp.Equal(got, a) {
		t.Fatalf("Value(1) = %+v, %v", got, err)
	}
	if got, err := s.Value(ctx, b.ID); err != nil || !cmp.Equal(got, b) || got.Tags != nil {
		t.Fatalf("Value(2) = %#v, %v", got, err)
	}
	if got, _ := s.Values(ctx, ""); !cmp.Equal(got, []Value{a, b}) {
		t.Errorf("Values(\"\") = %v", got)
	}
	if got, _ := s.Values(ctx, AxisFull); !cmp.Equal(got, []Value{b}) {
		t.Errorf("Values(full) = %v", got)
	}
	if got, err := s.RemoveValue(ctx, a.ID); err != nil || !cmp.Equal(got, a) {
		t.Fatalf("RemoveValue = %+v, %v; want the value as it was, %+v", got, err, a)
	}
	if _, err := s.Value(ctx, a.ID); !errors.Is(err, ErrNotFound) {
		t.Errorf("Value of a removed one: %v", err)
	}
	if _, err := s.RemoveValue(ctx, a.ID); !errors.Is(err, ErrNotFound) {
		t.Errorf("RemoveValue twice: %v", err)
	}
	// Removing an experience leaves the values that name it.
	c := mustAddValue(t, s, Value{Text: "from e", Axis: AxisFull, Experience: e.ID})
	if _, err := s.RemoveExperience(ctx, e.ID); err != nil {
		t.Fatal(err)
	}
	if got, err := s.Value(ctx, c.ID); err != nil || got.Experience != e.ID {
		t.Errorf("the value of a removed experience: %+v, %v", got, err)
	}
}
