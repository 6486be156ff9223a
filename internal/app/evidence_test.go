package app

import (
	"context"
	"fmt"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"
)

// evidenceProject writes a project of files (slash path → text) with a
// .ctxpack/config.yaml, and opens it.
func evidenceProject(t *testing.T, dir string, files map[string]string) *Project {
	t.Helper()
	files[".ctxpack/config.yaml"] = "budget: 4000\n"
	for name, text := range files {
		p := filepath.Join(dir, filepath.FromSlash(name))
		if err := os.MkdirAll(filepath.Dir(p), 0o755); err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(p, []byte(text), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	p, err := Open(dir, "")
	if err != nil {
		t.Fatal(err)
	}
	return p
}

// numbered is n lines "name line i".
func numbered(name string, n int) string {
	var b strings.Builder
	for i := 1; i <= n; i++ {
		fmt.Fprintf(&b, "%s line %d\n", name, i)
	}
	return b.String()
}

func mustAdd(t *testing.T, p *Project, ws *Workspace, ar AddRequest) *Added {
	t.Helper()
	if ar.Rank == 0 {
		ar.Rank = -1
	}
	a, err := p.AddEvidence(context.Background(), ws, ar, Request{})
	if err != nil {
		t.Fatalf("add %s: %v", ar.Selector, err)
	}
	return a
}

func assembleDigest(t *testing.T, p *Project, ws *Workspace, budget int) *EvidenceResult {
	t.Helper()
	res, err := p.AssembleEvidence(context.Background(), ws, Request{Budget: budget}, "")
	if err != nil {
		t.Fatal(err)
	}
	return res
}

// TestEvidenceFacade runs the evidence methods through the facade, with
// the repository index behind deps: the collector's own tests
// (internal/collect/evidence) use a fake index and their own engine call.
func TestEvidenceFacade(t *testing.T) {
	dir := t.TempDir()
	p := evidenceProject(t, dir, map[string]string{
		"src/flow.go":  "package core\n\n// RunFlow runs a script.\nfunc RunFlow(s string) int {\n\treturn len(ParseScript(s))\n}\n",
		"src/parse.go": "package core\n\n// ParseScript splits a script.\nfunc ParseScript(s string) []string {\n\treturn nil\n}\n",
		"docs/p.md":    "Answer with a diff.\n",
	})
	ws, err := p.Workspace("ctx")
	if err != nil {
		t.Fatal(err)
	}
	mustAdd(t, p, ws, AddRequest{Selector: "docs/p.md", Role: "system"})
	mustAdd(t, p, ws, AddRequest{Selector: "src/flow.go::3,6"})
	a := mustAdd(t, p, ws, AddRequest{Selector: "src/parse.go"})
	if a.Total == nil || a.Tokens == 0 || a.Total.Plan.TotalTokens <= a.Tokens || len(a.Total.Plan.Parts) != 3 {
		t.Errorf("added: %+v", a)
	}
	if _, err := p.AssembleEvidence(context.Background(), ws, Request{Format: "json"}, ""); err == nil {
		t.Error("a json assembly: no error")
	}
	res := assembleDigest(t, p, ws, 4000)
	prompt, plan, err := p.WriteEvidence(ws, res, "")
	if err != nil || prompt != "build/prompt.mdctx" || plan != "build/ctxplan.json" {
		t.Errorf("wrote %s, %s: %v", prompt, plan, err)
	}
	d, err := p.EvidenceDeps(context.Background(), ws, "100", IndexOptions{})
	if err != nil {
		t.Fatal(err)
	}
	if !slices.Equal(d.Defines, []string{"RunFlow"}) || len(d.Uses) != 1 || d.Uses[0].Name != "ParseScript" || d.Uses[0].Entry != "ctx/evidence/110_parse_go.evidence.md" {
		t.Errorf("deps: %+v", d)
	}
	if ex, err := p.ReadSelector("src/flow.go::4"); err != nil || ex.StartLine != 4 {
		t.Errorf("read selector: %+v, %v", ex, err)
	}
}

// TestExportEvidence exports a retrieval assembly into a workspace and
// assembles it: the query is the user request, each part evidence of
// its file and lines.
func TestExportEvidence(t *testing.T) {
	dir := t.TempDir()
	p := evidenceProject(t, dir, map[string]string{
		"src/invoice.go": "package billing\n\n// InvoiceTotal sums the invoice lines.\nfunc InvoiceTotal(lines []int) int {\n\tn := 0\n\tfor _, l := range lines {\n\t\tn += l\n\t}\n\treturn n\n}\n",
		"src/other.go":   "package billing\n\n// Unrelated does nothing.\nfunc Unrelated() {}\n",
	})
	res, err := p.Retrieve(context.Background(), "invoice total", Request{Budget: 2000})
	if err != nil {
		t.Fatal(err)
	}
	ws, err := p.Workspace("ctx")
	if err != nil {
		t.Fatal(err)
	}
	rep, err := p.ExportEvidence(ws, &res.Plan)
	if err != nil {
		t.Fatal(err)
	}
	if len(rep.Written) < 2 || rep.Written[0] != "ctx/000_request.user.md" {
		t.Fatalf("written %v", rep.Written)
	}
	ev := assembleDigest(t, p, ws, 4000)
	if !strings.Contains(string(ev.Prompt), "# User Request\n\ninvoice total\n") || !strings.Contains(string(ev.Prompt), "func InvoiceTotal") {
		t.Errorf("exported workspace assembles to:\n%s", ev.Prompt)
	}
	st, err := p.StaleEvidence(ws)
	if err != nil || len(st.Stale) != 0 || st.Checked != len(rep.Written)-1 {
		t.Errorf("exported evidence: stale %+v, %v", st, err)
	}
	if _, err := p.ExportEvidence(ws, &res.Plan); err == nil {
		t.Error("exporting into a workspace with files: no error")
	}
}

// BenchmarkAssembleEvidence assembles a workspace of 200 evidence files
// (40 lines each) under a budget that shows about half of them.
func BenchmarkAssembleEvidence(b *testing.B) {
	dir := b.TempDir()
	files := map[string]string{}
	for i := range 20 {
		files[fmt.Sprintf("src/f%02d.go", i)] = numbered(fmt.Sprintf("func F%d() // step", i), 400)
	}
	files[".ctxpack/config.yaml"] = "budget: 4000\n"
	for name, text := range files {
		p := filepath.Join(dir, filepath.FromSlash(name))
		if err := os.MkdirAll(filepath.Dir(p), 0o755); err != nil {
			b.Fatal(err)
		}
		if err := os.WriteFile(p, []byte(text), 0o644); err != nil {
			b.Fatal(err)
		}
	}
	p, err := Open(dir, "")
	if err != nil {
		b.Fatal(err)
	}
	ws, err := p.Workspace("ctx")
	if err != nil {
		b.Fatal(err)
	}
	for i := range 200 {
		sel := fmt.Sprintf("src/f%02d.go::%d,%d", i%20, 1+40*(i/20), 40+40*(i/20))
		if _, err := p.evidenceEnv(IndexOptions{}).Write(ws, AddRequest{Selector: sel, Rank: 100 + i*4, Kind: fmt.Sprintf("e%d", i)}); err != nil {
			b.Fatal(err)
		}
	}
	b.ReportAllocs()
	for b.Loop() {
		res, err := p.AssembleEvidence(context.Background(), ws, Request{Budget: 40000}, "")
		if err != nil || len(res.Plan.Parts) != 200 {
			b.Fatal(err)
		}
	}
}

// A focus that finds nothing relevant changes nothing: the previous focus
// stays as it was. A new focus considers what the previous one turned off.
func TestFocusKeepsPreviousWhenNothingRelevant(t *testing.T) {
	dir := t.TempDir()
	p := evidenceProject(t, dir, map[string]string{
		"src/invoice.go": "package billing\n\n// InvoiceTotal sums the invoice lines.\nfunc InvoiceTotal(lines []int) int { return 0 }\n",
		"src/deploy.go":  "package billing\n\n// BlueGreen switches the deployment colour.\nfunc BlueGreen() {}\n",
	})
	ws, err := p.Workspace("ctx")
	if err != nil {
		t.Fatal(err)
	}
	mustAdd(t, p, ws, AddRequest{Selector: "src/invoice.go"})
	mustAdd(t, p, ws, AddRequest{Selector: "src/deploy.go"})
	ctx := context.Background()
	states := func() string {
		entries, _, _ := ws.List()
		var s []string
		for _, e := range entries {
			s = append(s, e.ID()+"="+string(e.State))
		}
		return strings.Join(s, " ")
	}
	if _, err := p.FocusEvidence(ctx, ws, "invoice total", 5, IndexOptions{}); err != nil {
		t.Fatal(err)
	}
	want := "100_invoice_go=active 110_deploy_go=skipped"
	if got := states(); got != want {
		t.Fatalf("after focus: %s, want %s", got, want)
	}
	if _, err := p.FocusEvidence(ctx, ws, "zzzqqq nothing", 5, IndexOptions{}); err == nil {
		t.Fatal("a focus with nothing relevant: no error")
	}
	if got := states(); got != want {
		t.Errorf("a failed focus changed the workspace: %s, want %s", got, want)
	}
	if rels, _ := ws.Focused(); len(rels) != 1 {
		t.Errorf("focus record = %v, want the one file", rels)
	}
	// The deploy file, off by the first focus, is a candidate again.
	rep, err := p.FocusEvidence(ctx, ws, "blue green deployment", 5, IndexOptions{})
	if err != nil {
		t.Fatal(err)
	}
	if got := states(); got != "100_invoice_go=skipped 110_deploy_go=active" {
		t.Errorf("after the second focus: %s", got)
	}
	if len(rep.Files) != 2 || rep.Files[1].State != "active" || rep.Files[0].State != "skipped" {
		t.Errorf("report: %+v", rep.Files)
	}
}

// A request that cannot be assembled is refused before add writes.
func TestAddValidatesFirst(t *testing.T) {
	dir := t.TempDir()
	p := evidenceProject(t, dir, map[string]string{"src/a.go": numbered("a", 3)})
	ws, err := p.Workspace("ctx")
	if err != nil {
		t.Fatal(err)
	}
	if _, err := p.AddEvidence(context.Background(), ws, AddRequest{Selector: "src/a.go", Rank: -1}, Request{Tokenizer: "bogus"}); err == nil {
		t.Fatal("add with a bad tokenizer: no error")
	}
	if ws.Exists() {
		t.Error("the failed add created the workspace")
	}
}
