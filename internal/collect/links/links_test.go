package links

import (
	"os"
	"slices"
	"strings"
	"testing"
	"testing/fstest"

	"github.com/ctxpack/ctxpack/internal/artifact"
	"github.com/ctxpack/ctxpack/internal/pack"
	"github.com/ctxpack/ctxpack/internal/render"
	"github.com/ctxpack/ctxpack/internal/tokenizer"
)

func billing(t *testing.T) *artifact.Set {
	t.Helper()
	set, err := artifact.Load(os.DirFS("../../../examples/billing"))
	if err != nil {
		t.Fatal(err)
	}
	return set
}

// fixture is a small artifact graph with every case Explain tells apart:
// a direct and a transitive spec, a norm two links away, a superseded
// decision with a successor, a deprecated one, an artifact no link
// reaches, and an unreadable file.
var fixture = fstest.MapFS{
	".ctxpack/system/identity.md": {Data: []byte("---\nid: identity\ntitle: Shop\n---\nA shop.\n")},
	".ctxpack/work/tasks/TASK-1.md": {Data: []byte("---\nid: TASK-1\ntitle: Do it\nstatus: in_progress\n" +
		"links:\n  specs: [SPEC-A]\n  decisions: [DEC-OLD, DEC-GONE]\n---\n# Do it\n\nThe work.\n")},
	".ctxpack/system/specs/SPEC-A.md": {Data: []byte("---\nid: SPEC-A\ntitle: A\nstatus: current\n" +
		"links:\n  specs: [SPEC-B]\npaths: [\"src/a/**\"]\n---\nSpec A.\n\n## More\n\nDetail.\n")},
	".ctxpack/system/specs/SPEC-B.md": {Data: []byte("---\nid: SPEC-B\ntitle: B\nstatus: current\n" +
		"links:\n  norms: [NORM-X]\npaths: [\"src/b/**\", \"src/a/**\"]\n---\nSpec B.\n")},
	".ctxpack/system/norms/NORM-X.md":        {Data: []byte("---\nid: NORM-X\ntitle: X\nstatus: current\n---\nNorm X.\n")},
	".ctxpack/system/rationale/DEC-OLD.md":   {Data: []byte("---\nid: DEC-OLD\ntitle: Old\nstatus: superseded\nsuperseded_by: DEC-NEW\n---\nOld.\n")},
	".ctxpack/system/rationale/DEC-NEW.md":   {Data: []byte("---\nid: DEC-NEW\ntitle: New\nstatus: current\n---\nNew.\n")},
	".ctxpack/system/rationale/DEC-GONE.md":  {Data: []byte("---\nid: DEC-GONE\ntitle: Gone\nstatus: deprecated\n---\nGone.\n")},
	".ctxpack/system/rationale/DEC-ALONE.md": {Data: []byte("---\nid: DEC-ALONE\ntitle: Alone\nstatus: current\n---\nAlone.\n")},
	".ctxpack/system/norms/NORM-BAD.md":      {Data: []byte("---\nid: [\n---\n")},
}

func fixtureSet(t *testing.T) *artifact.Set {
	t.Helper()
	set, err := artifact.Load(fixture)
	if err != nil {
		t.Fatal(err)
	}
	return set
}

// TestCollectBilling: TASK-042 of the seed's billing example gives the
// seed's closure, each artifact once, with links mode's sections,
// priorities and pins.
func TestCollectBilling(t *testing.T) {
	col, err := Collect(billing(t), "TASK-042", 0, nil)
	if err != nil {
		t.Fatal(err)
	}
	type row struct {
		key              string
		section, prio    int
		pinned, hasScore bool
	}
	var got []row
	for _, p := range col.Parts {
		got = append(got, row{p.Key, p.Section, p.Priority, p.Pinned, p.Score > 0})
	}
	want := []row{
		{"identity", sectionIdentity, 0, true, false},
		{"TASK-042", sectionTask, 0, true, false},
		{"SPEC-BILLING-001", sectionSpecs, prioSpecDirect, false, true},
		{"SPEC-CURRENCY-001", sectionSpecs, prioSpecDirect, false, true},
		{"DEC-BILLING-001", sectionDecisions, prioDecisionDirect, false, true},
		{"DEC-BILLING-003", sectionDecisions, prioDecision, false, true},
		{"NORM-ERROR-001", sectionNorms, prioNorm, false, true},
		{"NORM-ASYNC-001", sectionNorms, prioNorm, false, true},
		{"DEC-CURRENCY-001", sectionDecisions, prioDecision, false, true},
		{"paths", sectionPaths, prioPaths, false, false},
	}
	if !slices.Equal(got, want) {
		t.Errorf("parts:\n got %v\nwant %v", got, want)
	}
	wantPaths := []string{"src/billing/currency/**", "src/billing/invoice/**", "src/billing/templates/invoice*"}
	if !slices.Equal(col.Paths, wantPaths) {
		t.Errorf("paths %v, want %v", col.Paths, wantPaths)
	}
	if !strings.HasPrefix(col.StateRoot, "sha256:") {
		t.Errorf("state root %q", col.StateRoot)
	}
	// Scores keep the order the links reached the artifacts in.
	var prev float64 = 2
	for _, p := range col.Parts[2 : len(col.Parts)-1] {
		if p.Score >= prev || p.Components["link_order"] != p.Score {
			t.Errorf("%s: score %v after %v, components %v", p.Key, p.Score, prev, p.Components)
		}
		prev = p.Score
	}
	// Every level an artifact has is offered, the fullest last.
	spec := col.Parts[2]
	if spec.Text[pack.Meta] == "" || spec.Text[pack.Full] == "" || len(spec.Text[pack.Meta]) >= len(spec.Text[pack.Full]) {
		t.Errorf("spec levels: %q", spec.Text)
	}
	if spec.Via == nil || spec.Via[0] != "TASK-042" {
		t.Errorf("spec via %v", spec.Via)
	}
}

func TestCollectErrors(t *testing.T) {
	set := billing(t)
	for _, id := range []string{"TASK-999", "SPEC-NOPE"} {
		if _, err := Collect(set, id, 0, nil); err == nil {
			t.Errorf("Collect(%s): no error", id)
		}
	}
}

// TestCollectFixture covers the glob list (sorted, unique, one line per
// glob with every artifact that names it), another type reached through a
// link, and the set's problems as warnings.
func TestCollectFixture(t *testing.T) {
	set := fixtureSet(t)
	col, err := Collect(set, "TASK-1", 0, nil)
	if err != nil {
		t.Fatal(err)
	}
	if want := []string{"src/a/**", "src/b/**"}; !slices.Equal(col.Paths, want) {
		t.Errorf("paths %v, want %v", col.Paths, want)
	}
	last := col.Parts[len(col.Parts)-1]
	if want := "src/a/** (SPEC-A, SPEC-B)\nsrc/b/** (SPEC-B)\n"; last.Key != "paths" || last.Text[pack.Full] != want || last.Text[pack.Meta] != want {
		t.Errorf("paths part %q: %q", last.Key, last.Text)
	}
	if len(col.Warnings) == 0 || !strings.Contains(strings.Join(col.Warnings, "\n"), "NORM-BAD.md") {
		t.Errorf("warnings %q do not name NORM-BAD.md", col.Warnings)
	}
	for _, w := range col.Warnings {
		if strings.HasPrefix(w, "artifact: ") {
			t.Errorf("warning keeps the package prefix: %q", w)
		}
	}
	depth1, err := Collect(set, "TASK-1", 1, nil)
	if err != nil {
		t.Fatal(err)
	}
	for _, p := range depth1.Parts {
		if p.Key == "SPEC-B" || p.Key == "NORM-X" {
			t.Errorf("link depth 1 reached %s", p.Key)
		}
	}
	var o pack.Options
	o.DedupThreshold = 0.5
	o.Policy.ItemCap = 0.25
	Options(&o)
	if !o.Sectioned || o.DedupThreshold >= 0 || o.Policy.ItemCap != 0 {
		t.Errorf("Options: %+v", o)
	}
}

func assemble(t *testing.T, col *Collection, budget int) *render.Plan {
	t.Helper()
	o := pack.Options{Budget: budget, Tokenizer: mustTokenizer(t), Format: render.Text}
	Options(&o)
	res, err := pack.Assemble(col.Parts, o)
	if err != nil {
		t.Fatal(err)
	}
	return &res.Plan
}

func TestExplain(t *testing.T) {
	set := fixtureSet(t)
	col, err := Collect(set, "TASK-1", 0, nil)
	if err != nil {
		t.Fatal(err)
	}
	full := assemble(t, col, 100000)
	shallow, err := Collect(set, "TASK-1", 1, nil)
	if err != nil {
		t.Fatal(err)
	}
	shallowPlan := assemble(t, shallow, 100000)
	tests := []struct {
		name     string
		col      *Collection
		plan     *render.Plan
		id       string
		depth    int
		kind     string
		in       bool
		contains string
	}{
		{"task", col, full, "TASK-1", 0, "included", true, "is the task, always included"},
		{"identity", col, full, "identity", 0, "included", true, "is the project identity"},
		{"linked", col, full, "SPEC-B", 0, "included", true, "through TASK-1 → SPEC-A → SPEC-B"},
		{"superseded", col, full, "DEC-OLD", 0, "status", false, "brings in DEC-NEW instead"},
		{"deprecated", col, full, "DEC-GONE", 0, "status", false, "is deprecated"},
		{"no link", col, full, "DEC-ALONE", 0, "no-link", false, "no link from TASK-1 reaches DEC-ALONE"},
		{"past depth", shallow, shallowPlan, "NORM-X", 1, "depth", false, "past --link-depth 1"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			e := Explain(set, tt.col, tt.plan, "TASK-1", tt.id, tt.depth)
			if e.Kind != tt.kind || e.In != tt.in || !strings.Contains(e.Reason, tt.contains) {
				t.Errorf("got %+v\nwant kind %s, in %v, reason containing %q", e, tt.kind, tt.in, tt.contains)
			}
		})
	}
	if e := Missing(set, "TASK-1", "NORM-NONE"); e == nil || e.Kind != "missing" {
		t.Errorf("Missing: %+v", e)
	}
	if e := Missing(set, "TASK-1", "NORM-X"); e != nil {
		t.Errorf("Missing of an artifact the set has: %+v", e)
	}
}

// A budget too small for an artifact explains what budget would keep it.
func TestExplainBudget(t *testing.T) {
	set := billing(t)
	col, err := Collect(set, "TASK-042", 0, nil)
	if err != nil {
		t.Fatal(err)
	}
	var plan *render.Plan
	var dropped string
	for budget := 900; budget > 0 && dropped == ""; budget -= 50 {
		plan = assemble(t, col, budget)
		for _, d := range plan.Dropped {
			dropped = d.Key
		}
	}
	if dropped == "" {
		t.Fatal("no budget dropped an artifact")
	}
	e := Explain(set, col, plan, "TASK-042", dropped, 0)
	if e.Kind != "budget" || e.In || e.NeedBudget <= plan.Budget || e.MoreTokens != e.NeedBudget-plan.Budget ||
		!strings.Contains(e.Reason, "would keep it") {
		t.Errorf("explain %s: %+v", dropped, e)
	}
}

func mustTokenizer(t *testing.T) tokenizer.Tokenizer {
	t.Helper()
	tok, err := tokenizer.Get("o200k_base")
	if err != nil {
		t.Fatal(err)
	}
	return tok
}
