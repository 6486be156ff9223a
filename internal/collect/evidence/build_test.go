package evidence

import (
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"

	"github.com/ctxpack/ctxpack/internal/pack"
	"github.com/ctxpack/ctxpack/internal/project"
	"github.com/ctxpack/ctxpack/internal/render"
)

// TestKeptOutOfIndex checks that a workspace's files and what assemble
// writes are left out of the project walk, and nothing else is, even when
// the workspace is a folder that holds other files.
func TestKeptOutOfIndex(t *testing.T) {
	dir := t.TempDir()
	e := testEnv(t, dir, map[string]string{"src/a.go": numbered("a", 5), "src/b.go": numbered("b", 5)})
	ws := openWS(t, e, "src")
	mustWrite(t, e, ws, AddRequest{Selector: "src/a.go"})
	mustWrite(t, e, ws, AddRequest{Selector: "-", Text: "why", Role: "user"})
	res := assemble(t, e, ws, 4000, "")
	prompt, plan, err := e.WriteBuild(ws, res, "src")
	if err != nil {
		t.Fatal(err)
	}
	if prompt != "src/prompt.mdctx" || plan != "src/ctxplan.json" {
		t.Errorf("wrote %s and %s", prompt, plan)
	}
	files, _, err := project.Walk(e.FS, nil, project.WalkOptions{IncludeHidden: true})
	if err != nil {
		t.Fatal(err)
	}
	var got []string
	for _, f := range files {
		got = append(got, f.Path)
	}
	want := []string{"src/.ctxpackignore", "src/a.go", "src/b.go"}
	if !slices.Equal(got, want) {
		t.Errorf("walk = %v, want %v", got, want)
	}
}

func TestWriteBuild(t *testing.T) {
	dir := t.TempDir()
	e := testEnv(t, dir, map[string]string{"src/a.go": numbered("a", 5)})
	ws := openWS(t, e, "work/ctx")
	mustWrite(t, e, ws, AddRequest{Selector: "src/a.go"})
	res := assemble(t, e, ws, 4000, "")
	prompt, plan, err := e.WriteBuild(ws, res, "")
	if err != nil || prompt != "work/build/prompt.mdctx" || plan != "work/build/ctxplan.json" || BuildDir(ws) != "work/build" {
		t.Fatalf("wrote %s and %s: %v", prompt, plan, err)
	}
	data, err := os.ReadFile(filepath.Join(dir, "work", "build", "ctxplan.json"))
	if err != nil {
		t.Fatal(err)
	}
	want, _ := res.PlanJSON()
	if string(data) != string(want) || !strings.HasSuffix(string(data), "}\n") {
		t.Errorf("ctxplan.json:\n%s", data)
	}
	if data, _ := os.ReadFile(filepath.Join(dir, "work", "build", "prompt.mdctx")); string(data) != string(res.Prompt) {
		t.Errorf("prompt.mdctx:\n%s", data)
	}
	if _, _, err := e.WriteBuild(ws, res, "../out"); err == nil {
		t.Error("a build folder outside the root: no error")
	}
}

// TestPlanStatuses checks the statuses the engine's plan gives the files
// as the budget shrinks: shown whole, degraded to a stub, dropped with the
// budget it needs, truncated; system and user files are never dropped.
func TestPlanStatuses(t *testing.T) {
	e := testEnv(t, t.TempDir(), map[string]string{"a.txt": numbered("a", 30), "b.txt": numbered("b", 30), "p.md": "Be brief.\n"})
	ws := openWS(t, e, "ctx")
	mustWrite(t, e, ws, AddRequest{Selector: "p.md", Role: "system"})
	mustWrite(t, e, ws, AddRequest{Selector: "a.txt"})
	mustWrite(t, e, ws, AddRequest{Selector: "b.txt"})
	statuses := func(res *Result) string {
		var s []string
		for _, p := range res.Plan.Parts {
			s = append(s, p.Status)
			if p.Status == render.StatusDropped && p.NeedBudget == 0 {
				s = append(s, "(no need_budget)")
			}
		}
		return strings.Join(s, " ")
	}
	whole := assemble(t, e, ws, 100000, "")
	if got := statuses(whole); got != "active active active" {
		t.Errorf("budget 100000: %s", got)
	}
	for _, p := range whole.Plan.Parts {
		if p.Tokens == 0 || p.Tokens != p.FullTokens {
			t.Errorf("shown whole: tokens %d, full %d", p.Tokens, p.FullTokens)
		}
	}
	if got := statuses(assemble(t, e, ws, whole.Plan.TotalTokens-10, "")); got != "active active degraded" {
		t.Errorf("a little short: %s", got)
	}
	if got := statuses(assemble(t, e, ws, 100, pack.Drop)); got != "active dropped dropped" {
		t.Errorf("drop at 100: %s", got)
	}
	if got := statuses(assemble(t, e, ws, whole.Plan.TotalTokens-50, pack.Truncate)); got != "active active truncated" {
		t.Errorf("truncate: %s", got)
	}
}

func TestCheckRequest(t *testing.T) {
	for _, tt := range []struct {
		format, depth string
		ok            bool
	}{
		{"", "", true}, {"mdctx", "full", true}, {"", "meta", true}, {"", "stub", true},
		{"json", "", false}, {"", "summary", false}, {"", "detailed", false},
	} {
		if err := CheckRequest(tt.format, tt.depth); (err == nil) != tt.ok {
			t.Errorf("CheckRequest(%q, %q) = %v", tt.format, tt.depth, err)
		}
	}
}
