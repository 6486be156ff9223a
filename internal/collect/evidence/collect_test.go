package evidence

import (
	"context"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"

	workspace "github.com/ctxpack/ctxpack/internal/evidence"
	"github.com/ctxpack/ctxpack/internal/pack"
	"github.com/ctxpack/ctxpack/internal/render"
)

// TestCtxDigest checks that the same workspace assembled twice, from a
// copy elsewhere, and after a rebase that renames nothing, has the same
// ctx_digest (and the same prompt); so does a rebase that renumbers,
// since the digest does not depend on rank numbers; toggling a file
// changes it.
func TestCtxDigest(t *testing.T) {
	dir := t.TempDir()
	e := testEnv(t, dir, map[string]string{
		"src/a.go":       numbered("a", 40),
		"src/b.py":       numbered("b", 30),
		"docs/policy.md": "Answer with a diff.\n",
	})
	ws := openWS(t, e, "ctx")
	mustWrite(t, e, ws, AddRequest{Selector: "docs/policy.md", Role: "system"})
	mustWrite(t, e, ws, AddRequest{Selector: "-", Text: "Fix line 12.", Role: "user"})
	mustWrite(t, e, ws, AddRequest{Selector: "src/a.go::10,20#fix"})
	mustWrite(t, e, ws, AddRequest{Selector: "src/b.py::5"})
	mustWrite(t, e, ws, AddRequest{Selector: "src/a.go::1c,50c", Kind: "head"})
	mustWrite(t, e, ws, AddRequest{Selector: "src/b.py", Link: true})

	first := assemble(t, e, ws, 300, pack.Degrade)
	if first.Plan.CtxDigest == "" || !strings.HasPrefix(first.Plan.CtxDigest, "sha256:") {
		t.Fatalf("ctx_digest = %q", first.Plan.CtxDigest)
	}
	if !slices.ContainsFunc(first.Plan.Parts, func(p render.EvidencePart) bool { return !p.Shown() || p.Status == render.StatusDegraded }) {
		t.Fatalf("budget 300 should leave something out or degrade it: %+v", first.Plan.Parts)
	}
	check := func(name string, e Env, ws *workspace.Workspace) {
		t.Helper()
		got := assemble(t, e, ws, 300, pack.Degrade)
		if got.Plan.CtxDigest != first.Plan.CtxDigest {
			t.Errorf("%s: ctx_digest %s, want %s", name, got.Plan.CtxDigest, first.Plan.CtxDigest)
		}
		if string(got.Prompt) != string(first.Prompt) {
			t.Errorf("%s: prompt.mdctx differs", name)
		}
	}
	check("twice", e, ws)

	// A copy of the project elsewhere.
	copyDir := filepath.Join(t.TempDir(), "elsewhere")
	if err := os.CopyFS(copyDir, os.DirFS(dir)); err != nil {
		t.Fatal(err)
	}
	ce := Env{Root: copyDir, FS: os.DirFS(copyDir)}
	check("copy", ce, openWS(t, ce, "ctx"))

	// A rebase with the ranks in order renames nothing.
	entries, _, err := ws.List()
	if err != nil {
		t.Fatal(err)
	}
	renamed, err := ws.Rebase(entries)
	if err != nil || len(renamed) != 0 {
		t.Fatalf("no-op rebase renamed %v (err %v)", renamed, err)
	}
	check("no-op rebase", e, ws)

	// Moving a file to a far rank and rebasing renumbers, in the same
	// order: the digest and the prompt are the same.
	en, err := workspace.Find(entries, "130_b_py") // the link
	if err != nil {
		t.Fatal(err)
	}
	if _, err := ws.SetRank(entries, en, 900); err != nil {
		t.Fatal(err)
	}
	if entries, _, err = ws.List(); err != nil {
		t.Fatal(err)
	}
	if renamed, err := ws.Rebase(entries); err != nil || len(renamed) != 1 {
		t.Fatalf("rebase renamed %v (err %v), want the one file", renamed, err)
	}
	check("renumbering rebase", e, ws)

	// Turning a file off changes the context.
	if entries, _, err = ws.List(); err != nil {
		t.Fatal(err)
	}
	if en, err = workspace.Find(entries, "110_b_py"); err != nil {
		t.Fatal(err)
	}
	if _, err := ws.SetState(en, workspace.Skipped); err != nil {
		t.Fatal(err)
	}
	if got := assemble(t, e, ws, 300, pack.Degrade); got.Plan.CtxDigest == first.Plan.CtxDigest {
		t.Errorf("toggling a file off kept ctx_digest %s", got.Plan.CtxDigest)
	}
}

// TestCollect checks the parts and the plan's view of each file: system
// and user files pinned, evidence with a stub, a skipped file measured
// and not assembled, an unreadable link dropped with its reason; and
// that the engine's options turn dedup, the policy and recency off.
func TestCollect(t *testing.T) {
	dir := t.TempDir()
	e := testEnv(t, dir, map[string]string{
		"src/a.go": numbered("a", 20),
		"src/b.go": numbered("a", 20), // the same text: not deduplicated
		"doc.md":   "Policy.\n",
	})
	ws := openWS(t, e, "work/ctx")
	mustWrite(t, e, ws, AddRequest{Selector: "doc.md", Role: "system"})
	mustWrite(t, e, ws, AddRequest{Selector: "-", Text: "Why?", Role: "user"})
	mustWrite(t, e, ws, AddRequest{Selector: "src/a.go#x"})
	mustWrite(t, e, ws, AddRequest{Selector: "src/b.go"})
	mustWrite(t, e, ws, AddRequest{Selector: "src/a.go::1,2", Kind: "off"})
	mustWrite(t, e, ws, AddRequest{Selector: "src/a.go::3,4", Kind: "span", Link: true})
	entries, _, _ := ws.List()
	off, err := workspace.Find(entries, "120_off")
	if err != nil {
		t.Fatal(err)
	}
	if _, err := ws.SetState(off, workspace.Skipped); err != nil {
		t.Fatal(err)
	}
	writeFile(t, filepath.Join(ws.Dir, "evidence", "140_gone.evidence.link"), "src/missing.go\n")
	writeFile(t, filepath.Join(ws.Dir, "stray.txt"), "not a workspace file\n")

	c, err := e.Collect(context.Background(), ws, "")
	if err != nil {
		t.Fatal(err)
	}
	if len(c.Parts) != 5 {
		t.Fatalf("%d parts, want 5 (the link too)", len(c.Parts))
	}
	var keys []string
	for _, p := range c.Parts {
		keys = append(keys, p.Key)
	}
	wantKeys := []string{"work/ctx/000_doc_md.system.md", "work/ctx/010_request.user.md", "work/ctx/evidence/100_a_go.evidence.md", "work/ctx/evidence/110_b_go.evidence.md", "work/ctx/evidence/130_span.evidence.link"}
	if d := cmp.Diff(wantKeys, keys); d != "" {
		t.Errorf("parts (-want +got):\n%s", d)
	}
	if !c.Parts[0].Pinned || c.Parts[0].Heading != "System" || !c.Parts[1].Pinned || c.Parts[1].Heading != "User Request" || c.Parts[2].Pinned {
		t.Errorf("pinning and headings: %+v", c.Parts[:3])
	}
	if got := c.Parts[2].Text[pack.Meta]; got != "[ctxpack: not shown for the budget; the evidence is work/ctx/evidence/100_a_go.evidence.md]\n" {
		t.Errorf("stub = %q", got)
	}
	if c.Parts[2].Label != "src/a.go" || c.Parts[2].Priority <= c.Parts[3].Priority {
		t.Errorf("label %q, priorities %d, %d: the higher rank first", c.Parts[2].Label, c.Parts[2].Priority, c.Parts[3].Priority)
	}
	var got []string
	for _, f := range c.Workspace.Files {
		got = append(got, f.Part.Rank+" "+f.Part.Status+" key="+f.Key+" whole="+map[bool]string{true: "yes", false: "no"}[f.Whole != nil])
	}
	want := []string{
		"000 active key=work/ctx/000_doc_md.system.md whole=yes",
		"010 active key=work/ctx/010_request.user.md whole=yes",
		"100 active key=work/ctx/evidence/100_a_go.evidence.md whole=yes",
		"110 active key=work/ctx/evidence/110_b_go.evidence.md whole=yes",
		"120 skipped key= whole=yes", // measured, not assembled
		"130 linked key=work/ctx/evidence/130_span.evidence.link whole=yes",
		"140 dropped key= whole=no", // the link's file is gone
	}
	if d := cmp.Diff(want, got); d != "" {
		t.Errorf("files (-want +got):\n%s", d)
	}
	if r := c.Workspace.Files[6].Part.Reason; !strings.Contains(r, "src/missing.go: no such file") {
		t.Errorf("the broken link's reason: %q", r)
	}
	if wh := c.Workspace.Files[4].Whole; wh.Path != "work/ctx/evidence/120_off.evidence.md" {
		t.Errorf("a skipped file is measured as it would be once on: path %q", wh.Path)
	}
	if c.Workspace.FlowID != "work/ctx" || c.Workspace.OrderRule != OrderRule {
		t.Errorf("flow %q, order %q", c.Workspace.FlowID, c.Workspace.OrderRule)
	}
	if len(c.Warnings) != 2 || c.StateRoot == "" {
		t.Errorf("warnings %q (want the stray file and the broken link), state root %q", c.Warnings, c.StateRoot)
	}

	o := pack.Options{DedupThreshold: 0.5, MaxChunksPerDoc: 1, PreferRecent: true, Policy: pack.Policy{ItemCap: 0.25}, Warnings: []string{"config"}}
	c.Options(&o)
	if o.Mode != "evidence" || o.Target != "work/ctx" || o.Format != render.MDCtx || o.DedupThreshold >= 0 || o.MaxChunksPerDoc != 0 ||
		o.PreferRecent || o.Policy.ItemCap != 0 || !o.Sectioned || o.StateRoot != c.StateRoot ||
		o.Metadata != "flow_id=work/ctx; assembly=role,rank" || o.Warnings[0] != "config" || len(o.Warnings) != 1+len(c.Warnings) {
		t.Errorf("options: %+v", o)
	}

	if _, err := e.Collect(context.Background(), ws, "a;b"); err == nil {
		t.Error("a flow id with \";\": no error")
	}
	ctx, cancel := context.WithCancel(context.Background())
	cancel()
	if _, err := e.Collect(ctx, ws, ""); err == nil {
		t.Error("a cancelled context: no error")
	}
}
