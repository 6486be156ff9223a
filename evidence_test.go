package ctxpack

import (
	"context"
	"fmt"
	"math/rand/v2"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"

	"github.com/ctxpack/ctxpack/internal/evidence"
	"github.com/ctxpack/ctxpack/internal/project"
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

// TestEvidenceDigest checks acceptance 2's first half: the same
// workspace assembled twice, from a copy elsewhere, and after a rebase
// that renames nothing, has the same ctx_digest (and the same prompt);
// so does a rebase that renumbers, since the digest does not depend on
// rank numbers; toggling a file changes it.
func TestEvidenceDigest(t *testing.T) {
	dir := t.TempDir()
	p := evidenceProject(t, dir, map[string]string{
		"src/a.go":       numbered("a", 40),
		"src/b.py":       numbered("b", 30),
		"docs/policy.md": "Answer with a diff.\n",
	})
	ws, err := p.Workspace("ctx")
	if err != nil {
		t.Fatal(err)
	}
	mustAdd(t, p, ws, AddRequest{Selector: "docs/policy.md", Role: "system"})
	mustAdd(t, p, ws, AddRequest{Selector: "-", Text: "Fix line 12.", Role: "user"})
	mustAdd(t, p, ws, AddRequest{Selector: "src/a.go::10,20#fix"})
	mustAdd(t, p, ws, AddRequest{Selector: "src/b.py::5"})
	mustAdd(t, p, ws, AddRequest{Selector: "src/a.go::1c,50c", Kind: "head"})
	mustAdd(t, p, ws, AddRequest{Selector: "src/b.py", Link: true})

	first := assembleDigest(t, p, ws, 300)
	if first.Plan.CtxDigest == "" || !strings.HasPrefix(first.Plan.CtxDigest, "sha256:") {
		t.Fatalf("ctx_digest = %q", first.Plan.CtxDigest)
	}
	if !slices.ContainsFunc(first.Plan.Parts, func(p EvidencePart) bool { return !p.Shown() || p.Status == StatusDegraded }) {
		t.Fatalf("budget 300 should leave something out or degrade it: %+v", first.Plan.Parts)
	}
	check := func(name string, p *Project, ws *Workspace, samePrompt bool) {
		t.Helper()
		got := assembleDigest(t, p, ws, 300)
		if got.Plan.CtxDigest != first.Plan.CtxDigest {
			t.Errorf("%s: ctx_digest %s, want %s", name, got.Plan.CtxDigest, first.Plan.CtxDigest)
		}
		if samePrompt && string(got.Prompt) != string(first.Prompt) {
			t.Errorf("%s: prompt.mdctx differs", name)
		}
	}
	check("twice", p, ws, true)

	// A copy of the project elsewhere.
	copyDir := filepath.Join(t.TempDir(), "elsewhere")
	if err := os.CopyFS(copyDir, os.DirFS(dir)); err != nil {
		t.Fatal(err)
	}
	cp, err := Open(copyDir, "")
	if err != nil {
		t.Fatal(err)
	}
	cws, err := cp.Workspace("ctx")
	if err != nil {
		t.Fatal(err)
	}
	check("copy", cp, cws, true)

	// A rebase with the ranks in order renames nothing.
	entries, _, err := ws.List()
	if err != nil {
		t.Fatal(err)
	}
	renamed, err := ws.Rebase(entries)
	if err != nil || len(renamed) != 0 {
		t.Fatalf("no-op rebase renamed %v (err %v)", renamed, err)
	}
	check("no-op rebase", p, ws, true)

	// Moving a file to a far rank and rebasing renumbers, in the same
	// order: the prompt names other files, the digest is the same.
	e, err := evidence.Find(entries, "130_b_py") // the link
	if err != nil {
		t.Fatal(err)
	}
	if _, err := ws.SetRank(entries, e, 900); err != nil {
		t.Fatal(err)
	}
	if entries, _, err = ws.List(); err != nil {
		t.Fatal(err)
	}
	if renamed, err := ws.Rebase(entries); err != nil || len(renamed) != 1 {
		t.Fatalf("rebase renamed %v (err %v), want the one file", renamed, err)
	}
	check("renumbering rebase", p, ws, true)

	// Turning a file off changes the context.
	if entries, _, err = ws.List(); err != nil {
		t.Fatal(err)
	}
	e, err = evidence.Find(entries, "110_b_py")
	if err != nil {
		t.Fatal(err)
	}
	if _, err := ws.SetState(e, evidence.Skipped); err != nil {
		t.Fatal(err)
	}
	if got := assembleDigest(t, p, ws, 300); got.Plan.CtxDigest == first.Plan.CtxDigest {
		t.Errorf("toggling a file off kept ctx_digest %s", got.Plan.CtxDigest)
	}
}

// TestEvidenceStaleExact checks acceptance 2's second half: after an
// edit of one line of a source file, stale names exactly the evidence
// whose selected span holds a changed byte (whole files, line ranges,
// open ranges and byte ranges), over many random edits.
func TestEvidenceStaleExact(t *testing.T) {
	dir := t.TempDir()
	files := map[string]string{
		"src/a.go": numbered("a", 60),
		"src/b.go": numbered("b", 60),
		"src/c.go": numbered("c", 60),
	}
	p := evidenceProject(t, dir, files)
	ws, err := p.Workspace("work/ctx")
	if err != nil {
		t.Fatal(err)
	}
	type span struct {
		file       string
		start, end int // bytes, half-open
	}
	selectors := []string{
		"src/a.go", "src/a.go::1,10", "src/a.go::10,20", "src/a.go::50", "src/b.go::5,5",
		"src/b.go::20,40#x", "src/b.go::100c,200c", "src/c.go::30", "src/c.go::1c,9c",
	}
	spans := map[string]span{}
	for i, s := range selectors {
		a := mustAdd(t, p, ws, AddRequest{Selector: s, Kind: fmt.Sprintf("e%d", i)})
		ex, err := p.ReadSelector(s)
		if err != nil {
			t.Fatal(err)
		}
		spans[a.Path] = span{ex.Selector.Path, ex.StartByte, ex.EndByte}
	}
	// One file is turned off: stale checks skipped files too.
	entries, _, _ := ws.List()
	e, _ := evidence.Find(entries, "110_e1")
	if _, err := ws.SetState(e, evidence.Skipped); err != nil {
		t.Fatal(err)
	}
	rep, err := p.StaleEvidence(ws)
	if err != nil || len(rep.Stale) != 0 || rep.Checked != len(selectors) {
		t.Fatalf("before any edit: %+v, %v", rep, err)
	}
	rng := rand.New(rand.NewPCG(7, 11))
	staleRounds := 0
	names := []string{"src/a.go", "src/b.go", "src/c.go"}
	for round := range 60 {
		file := names[rng.IntN(len(names))]
		line := 1 + rng.IntN(60)
		lines := strings.SplitAfter(files[file], "\n")
		// "x line N" becomes "x LINE N": the same length and line count,
		// bytes [at, at+4) of the file changed.
		at := len(strings.Join(lines[:line-1], "")) + strings.Index(lines[line-1], "line")
		lines[line-1] = strings.Replace(lines[line-1], "line", "LINE", 1)
		edited := strings.Join(lines, "")
		if err := os.WriteFile(filepath.Join(dir, filepath.FromSlash(file)), []byte(edited), 0o644); err != nil {
			t.Fatal(err)
		}
		rep, err := p.StaleEvidence(ws)
		if err != nil {
			t.Fatal(err)
		}
		var got, want []string
		for _, s := range rep.Stale {
			if s.Reason != "changed" {
				t.Errorf("round %d: %s is %s, want changed", round, s.Path, s.Reason)
			}
			got = append(got, strings.TrimSuffix(s.Path, ".skip"))
		}
		for path, sp := range spans {
			if sp.file == file && sp.start < at+4 && at < sp.end {
				want = append(want, path)
			}
		}
		slices.Sort(got)
		slices.Sort(want)
		if len(want) > 0 {
			staleRounds++
		}
		if !slices.Equal(got, want) {
			t.Errorf("round %d: editing %s line %d: stale %v, want %v", round, file, line, got, want)
		}
		// Put it back.
		if err := os.WriteFile(filepath.Join(dir, filepath.FromSlash(file)), []byte(files[file]), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	t.Logf("%d of 60 edits reached a span", staleRounds)
	if staleRounds < 20 || staleRounds > 50 {
		t.Errorf("%d of 60 rounds made evidence stale: the edits should hit spans and miss them", staleRounds)
	}
	// A file that is gone makes its evidence missing.
	if err := os.Remove(filepath.Join(dir, "src", "c.go")); err != nil {
		t.Fatal(err)
	}
	rep, err = p.StaleEvidence(ws)
	if err != nil {
		t.Fatal(err)
	}
	if len(rep.Stale) != 2 || rep.Stale[0].Reason != "missing" || rep.Stale[1].Reason != "missing" {
		t.Errorf("after removing src/c.go: %+v", rep.Stale)
	}
}

// TestEvidenceRefusesEscapes checks that selectors, links and workspace
// folders that leave the project root are refused.
func TestEvidenceRefusesEscapes(t *testing.T) {
	outside := t.TempDir()
	if err := os.WriteFile(filepath.Join(outside, "secret.txt"), []byte("secret\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	dir := t.TempDir()
	p := evidenceProject(t, dir, map[string]string{"src/a.go": numbered("a", 5)})
	if err := os.Symlink(filepath.Join(outside, "secret.txt"), filepath.Join(dir, "src", "leak.txt")); err != nil {
		t.Skip("no symlinks:", err)
	}
	ws, err := p.Workspace("ctx")
	if err != nil {
		t.Fatal(err)
	}
	for _, sel := range []string{"../secret.txt", "/etc/passwd", "src/../../x", "src/leak.txt", "src/a.go::3,9", "src"} {
		if _, err := p.AddEvidence(context.Background(), ws, AddRequest{Selector: sel, Rank: -1}, Request{}); err == nil {
			t.Errorf("add %s: no error", sel)
		}
	}
	for _, d := range []string{"..", "../ctx", outside, "."} {
		if _, err := p.Workspace(d); err == nil {
			t.Errorf("workspace %s: no error", d)
		}
	}
	// A .link that is a symlink out of the project is dropped with its
	// reason; so is a .link file holding an escaping selector.
	mustAdd(t, p, ws, AddRequest{Selector: "src/a.go"})
	if err := os.MkdirAll(filepath.Join(ws.Dir, "evidence"), 0o755); err != nil {
		t.Fatal(err)
	}
	if err := os.Symlink(filepath.Join(outside, "secret.txt"), filepath.Join(ws.Dir, "evidence", "200_leak.evidence.link")); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(filepath.Join(ws.Dir, "evidence", "210_up.evidence.link"), []byte("../secret.txt\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	res := assembleDigest(t, p, ws, 4000)
	if strings.Contains(string(res.Prompt), "secret") {
		t.Errorf("the prompt holds the secret:\n%s", res.Prompt)
	}
	dropped := 0
	for _, pt := range res.Plan.Parts {
		if pt.Status == StatusDropped && pt.Reason != "" {
			dropped++
		}
	}
	if dropped != 2 || len(res.Plan.Warnings) < 2 {
		t.Errorf("want both links dropped with a reason and warned about: %+v %v", res.Plan.Parts, res.Plan.Warnings)
	}
	// The plan holds no absolute path (DESIGN §2), not even in reasons.
	texts := slices.Clone(res.Plan.Warnings)
	for _, pt := range res.Plan.Parts {
		texts = append(texts, pt.Reason)
	}
	for _, s := range texts {
		if strings.Contains(s, outside) || strings.Contains(s, dir) {
			t.Errorf("an absolute path in the plan: %q", s)
		}
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
		if _, err := p.writeEvidence(ws, AddRequest{Selector: sel, Rank: 100 + i*4, Kind: fmt.Sprintf("e%d", i)}); err != nil {
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

// TestEvidenceKeptOutOfIndex checks that a workspace's files and what
// assemble writes are left out of the project walk, and nothing else is,
// even when the workspace is a folder that holds other files.
func TestEvidenceKeptOutOfIndex(t *testing.T) {
	dir := t.TempDir()
	p := evidenceProject(t, dir, map[string]string{"src/a.go": numbered("a", 5), "src/b.go": numbered("b", 5)})
	ws, err := p.Workspace("src")
	if err != nil {
		t.Fatal(err)
	}
	mustAdd(t, p, ws, AddRequest{Selector: "src/a.go"})
	mustAdd(t, p, ws, AddRequest{Selector: "-", Text: "why", Role: "user"})
	res := assembleDigest(t, p, ws, 4000)
	if _, _, err := p.WriteEvidence(ws, res, "src"); err != nil {
		t.Fatal(err)
	}
	files, _, err := project.Walk(p.FS, nil, project.WalkOptions{IncludeHidden: true})
	if err != nil {
		t.Fatal(err)
	}
	var got []string
	for _, f := range files {
		got = append(got, f.Path)
	}
	want := []string{".ctxpack/config.yaml", "src/.ctxpackignore", "src/a.go", "src/b.go"}
	if !slices.Equal(got, want) {
		t.Errorf("walk = %v, want %v", got, want)
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
