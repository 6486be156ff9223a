package evidence

import (
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"

	"github.com/ctxpack/ctxpack/internal/render"
)

// TestExport exports a plan into a workspace: the query as the user
// request, identity and norms as system files, the task as a user file,
// each other part as evidence of its file and lines, whole.
func TestExport(t *testing.T) {
	e := testEnv(t, t.TempDir(), map[string]string{
		".ctxpack/system/identity.md": "# Billing\n",
		".ctxpack/norms/NORM-1.md":    "Errors wrap.\n",
		".ctxpack/tasks/TASK-1.md":    "Fix rounding.\n",
		"src/a.go":                    numbered("a", 10),
	})
	lines := func(a, b int) *[2]int { return &[2]int{a, b} }
	plan := &render.Plan{Mode: "retrieval", Target: "invoice rounding", Parts: []render.PlanPart{
		{Key: "identity", Type: "identity", Path: ".ctxpack/system/identity.md", Level: "full"},
		{Key: "NORM-1", Type: "norm", Path: ".ctxpack/norms/NORM-1.md", Level: "summary"},
		{Key: "TASK-1", Type: "task", Path: ".ctxpack/tasks/TASK-1.md", Level: "full"},
		{Key: "src/a.go#1", Type: "code", Path: "src/a.go", Lines: lines(2, 4), Level: "full", Truncated: true},
		{Key: "src/a.go#2", Type: "code", Path: "src/a.go", Lines: lines(2, 4), Level: "full"},  // the same span: once
		{Key: "src/a.go#3", Type: "code", Path: "src/a.go", Lines: lines(1, 10), Level: "full"}, // all of it: the whole file
		{Key: "memory:1", Type: "memory", Level: "full"},
		{Key: "src/gone.go#1", Type: "code", Path: "src/gone.go", Lines: lines(1, 2), Level: "full"},
	}}
	ws := openWS(t, e, "ctx")
	rep, err := e.Export(ws, plan)
	if err != nil {
		t.Fatal(err)
	}
	want := &ExportReport{
		Workspace: "ctx",
		Written: []string{
			"ctx/000_request.user.md", "ctx/010_identity_md.system.md", "ctx/020_norm_1_md.system.md",
			"ctx/030_task_1_md.user.md", "ctx/evidence/100_a_go.evidence.md", "ctx/evidence/110_a_go.evidence.md",
		},
		Skipped: []string{"memory:1: not a project file", "src/gone.go#1: ctxpack: src/gone.go: no such file in the project (paths are relative to the project root)"},
		Reduced: 2,
	}
	if d := cmp.Diff(want, rep); d != "" {
		t.Errorf("export (-want +got):\n%s", d)
	}
	st, err := e.Stale(ws)
	if err != nil || st.Checked != 5 || st.Untracked != 1 || len(st.Stale) != 0 {
		t.Errorf("stale after export: %+v, %v", st, err)
	}
	res := assemble(t, e, ws, 4000, "")
	if !strings.Contains(string(res.Prompt), "# User Request\n\ninvoice rounding\n") || !strings.Contains(string(res.Prompt), "a line 10") {
		t.Errorf("exported workspace assembles to:\n%s", res.Prompt)
	}

	if _, err := e.Export(ws, plan); err == nil || !strings.Contains(err.Error(), "has 6 files already") {
		t.Errorf("export into a workspace with files: %v", err)
	}
	if _, err := e.Export(openWS(t, e, "ctx2"), &render.Plan{Mode: "links", Parts: plan.Parts[6:]}); err == nil || !strings.Contains(err.Error(), "no part from a project file") {
		t.Errorf("export of nothing: %v", err)
	}
}
