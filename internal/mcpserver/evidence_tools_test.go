package mcpserver

import (
	"context"
	"encoding/json"
	"fmt"
	"io/fs"
	"maps"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"sync"
	"testing"

	"github.com/ctxpack/ctxpack/internal/app"
	"github.com/modelcontextprotocol/go-sdk/mcp"
)

// entryIDs are the ids of a tool's files.
func entryIDs(es []EvidenceEntry) []string {
	out := make([]string, len(es))
	for i, e := range es {
		out[i] = e.ID
	}
	return out
}

// partStatuses are a plan's parts as "rank_kind status".
func partStatuses(plan app.EvidencePlan) []string {
	var out []string
	for _, pt := range plan.Parts {
		out = append(out, pt.Rank+"_"+pt.Kind+" "+pt.Status)
	}
	return out
}

// tree is every file, folder and symlink under dir, by slash path, with
// its content, "dir", or "-> target".
func tree(t *testing.T, dir string) map[string]string {
	t.Helper()
	out := map[string]string{}
	err := filepath.WalkDir(dir, func(path string, d fs.DirEntry, err error) error {
		if err != nil {
			return err
		}
		rel, _ := filepath.Rel(dir, path)
		rel = filepath.ToSlash(rel)
		switch {
		case d.Type()&fs.ModeSymlink != 0:
			target, err := os.Readlink(path)
			if err != nil {
				return err
			}
			out[rel] = "-> " + target
		case d.IsDir():
			out[rel] = "dir"
		default:
			data, err := os.ReadFile(path)
			if err != nil {
				return err
			}
			out[rel] = string(data)
		}
		return nil
	})
	if err != nil {
		t.Fatal(err)
	}
	return out
}

// treeDiff says how two trees differ.
func treeDiff(before, after map[string]string) string {
	var b strings.Builder
	for _, k := range slices.Sorted(maps.Keys(before)) {
		if v, ok := after[k]; !ok {
			fmt.Fprintf(&b, "  removed %s\n", k)
		} else if v != before[k] {
			fmt.Fprintf(&b, "  changed %s\n", k)
		}
	}
	for _, k := range slices.Sorted(maps.Keys(after)) {
		if _, ok := before[k]; !ok {
			fmt.Fprintf(&b, "  added %s\n", k)
		}
	}
	return b.String()
}

// TestEvidenceWorkflow walks through the workspace's workflow over MCP:
// add (a span, the request as text, a file, a link), toggle a range,
// rank, rebase, focus, plan and assemble, then stale, deps and remove;
// the assembly is the facade's.
func TestEvidenceWorkflow(t *testing.T) {
	dir := testProject(t)
	_, cs := connect(t, Options{Dir: dir})

	var a EvidenceAddOut
	mustCall(t, cs, "evidence_add", map[string]any{"selector": "src/billing/invoice/generator.py::7,11#total"}, &a)
	if a.Path != "ctx/evidence/100_generator_py.evidence.md" || a.ID != "100_generator_py" || a.Rank != "100" || a.Role != "evidence" || a.State != "active" ||
		a.Bytes == 0 || a.Tokens == 0 || a.TotalTokens < a.Tokens || a.TotalBytes < a.Bytes || a.Budget != app.DefaultBudget || a.Warnings == nil {
		t.Errorf("evidence_add a span: %+v", a)
	}
	data, err := os.ReadFile(filepath.Join(dir, filepath.FromSlash(a.Path)))
	if err != nil || !strings.Contains(string(data), "def invoice_total") || strings.Contains(string(data), "@spec") || !strings.Contains(string(data), "span=lines=7:11; tags=total") {
		t.Errorf("%s: %q, %v; want lines 7 to 11 with their provenance", a.Path, data, err)
	}
	first := a.TotalTokens

	mustCall(t, cs, "evidence_add", map[string]any{"selector": "-", "text": "Fix the rounding of invoice totals in other currencies.", "role": "user"}, &a)
	if a.Path != "ctx/000_request.user.md" || a.Role != "user" || a.Kind != "request" || a.TotalTokens <= first {
		t.Errorf("evidence_add the request: %+v", a)
	}
	mustCall(t, cs, "evidence_add", map[string]any{"selector": "src/billing/currency/convert.py", "rank": 300}, &a)
	if a.Path != "ctx/evidence/300_convert_py.evidence.md" {
		t.Errorf("evidence_add rank 300: %+v", a)
	}
	mustCall(t, cs, "evidence_add", map[string]any{"selector": "src/auth/login.ts", "rank": 310, "link": true}, &a)
	if a.Path != "ctx/evidence/310_login_ts.evidence.link" || a.State != "linked" {
		t.Errorf("evidence_add a link: %+v", a)
	}
	toolError(t, cs, "evidence_add", map[string]any{"selector": "src/auth/login.ts", "rank": 300}, "rank 300 is taken", "evidence_edit rebase")
	toolError(t, cs, "evidence_add", map[string]any{"selector": "src/auth/login.ts::1,9999"}, "lines")
	toolError(t, cs, "evidence_add", map[string]any{"selector": "src/nope.py"}, "no such file")
	toolError(t, cs, "evidence_add", map[string]any{"selector": "src/auth/login.ts", "text": "x"}, `selector "-"`)
	toolError(t, cs, "evidence_add", map[string]any{"selector": "-"}, "text is empty")
	toolError(t, cs, "evidence_add", map[string]any{"selector": "src/auth/login.ts", "role": "assistant"}, "role")
	toolError(t, cs, "evidence_add", map[string]any{"selector": "src/auth/login.ts", "rank": 1000}, "rank")
	toolError(t, cs, "evidence_add", map[string]any{"selector": "src/auth/login.ts", "kind": "a b"}, "kind")

	// Toggle a range off: the link stays on.
	var tog EvidenceToggleOut
	mustCall(t, cs, "evidence_toggle", map[string]any{"range": "300-399", "state": "off"}, &tog)
	if !slices.Equal(entryIDs(tog.Changed), []string{"300_convert_py"}) || tog.Changed[0].State != "skipped" ||
		len(tog.Left) != 1 || tog.Left[0].ID != "310_login_ts" || !strings.Contains(tog.Left[0].Why, "link") {
		t.Errorf("evidence_toggle off 300-399: %+v", tog)
	}
	if _, err := os.Stat(filepath.Join(dir, "ctx", "evidence", "300_convert_py.evidence.md.skip")); err != nil {
		t.Errorf("toggled off: %v", err)
	}
	toolError(t, cs, "evidence_toggle", map[string]any{"id": "310"}, "is a link, which is always active", "evidence_edit remove")
	toolError(t, cs, "evidence_toggle", map[string]any{"range": "300-399"}, "a range needs state")
	toolError(t, cs, "evidence_toggle", map[string]any{"range": "399-300", "state": "on"}, "range")
	toolError(t, cs, "evidence_toggle", map[string]any{"range": "500-599", "state": "on"}, "no workspace file is ranked 500-599")
	toolError(t, cs, "evidence_toggle", map[string]any{}, "id", "range")
	toolError(t, cs, "evidence_toggle", map[string]any{"id": "100_generatr_py"}, "did you mean 100_generator_py")
	toolError(t, cs, "evidence_toggle", map[string]any{"id": "100", "state": "maybe"}, "state")

	var rk EvidenceRankOut
	mustCall(t, cs, "evidence_rank", map[string]any{"id": "100_generator_py", "rank": 105}, &rk)
	if rk.From != "ctx/evidence/100_generator_py.evidence.md" || rk.Path != "ctx/evidence/105_generator_py.evidence.md" || rk.Rank != "105" {
		t.Errorf("evidence_rank: %+v", rk)
	}
	toolError(t, cs, "evidence_rank", map[string]any{"id": "105", "rank": 300}, "rank 300 is taken")

	var before app.EvidencePlan
	mustCall(t, cs, "evidence_plan", map[string]any{}, &before)
	var rb EvidenceRebaseOut
	mustCall(t, cs, "evidence_rebase", map[string]any{}, &rb)
	var moved []string
	for _, r := range rb.Renamed {
		moved = append(moved, filepath.Base(r.From)+" -> "+r.ID)
	}
	if want := []string{"105_generator_py.evidence.md -> 100_generator_py", "300_convert_py.evidence.md.skip -> 110_convert_py", "310_login_ts.evidence.link -> 120_login_ts"}; !slices.Equal(moved, want) {
		t.Errorf("evidence_rebase: %v, want %v", moved, want)
	}
	mustCall(t, cs, "evidence_rebase", map[string]any{}, &rb)
	if len(rb.Renamed) != 0 {
		t.Errorf("a second evidence_rebase renamed %+v", rb.Renamed)
	}
	var after app.EvidencePlan
	mustCall(t, cs, "evidence_plan", map[string]any{}, &after)
	if after.CtxDigest != before.CtxDigest {
		t.Errorf("ctx_digest %s after a rebase that keeps the order, %s before", after.CtxDigest, before.CtxDigest)
	}

	// Focus on the conversion: the invoice's span is turned off, and back
	// on with off.
	mustCall(t, cs, "evidence_toggle", map[string]any{"id": "110_convert_py", "state": "on"}, &tog)
	var fo EvidenceFocusOut
	mustCall(t, cs, "evidence_focus", map[string]any{"query": "convert currency", "top": 1}, &fo)
	kept := map[string]bool{}
	for _, f := range fo.Files {
		kept[f.ID] = f.Kept
	}
	if len(fo.Files) != 3 || !kept["110_convert_py"] || !kept["120_login_ts"] || kept["100_generator_py"] {
		t.Errorf("evidence_focus: %+v", fo)
	}
	mustCall(t, cs, "evidence_plan", map[string]any{}, &after)
	if want := []string{"000_request active", "100_generator_py skipped", "110_convert_py active", "120_login_ts linked"}; !slices.Equal(partStatuses(after), want) {
		t.Errorf("after focus: %v, want %v", partStatuses(after), want)
	}
	mustCall(t, cs, "evidence_focus", map[string]any{"off": true}, &fo)
	if !slices.Equal(fo.Restored, []string{"ctx/evidence/100_generator_py.evidence.md"}) {
		t.Errorf("evidence_focus off: %+v", fo)
	}
	toolError(t, cs, "evidence_focus", map[string]any{}, "query is empty")
	toolError(t, cs, "evidence_focus", map[string]any{"query": "x", "off": true}, "not both")

	// Plan, then assemble: the same plan, the same bytes, the facade's.
	var plan app.EvidencePlan
	res := mustCall(t, cs, "evidence_plan", map[string]any{"budget": 4000, "include_prompt": true}, &plan)
	prompt := text(res)
	if !strings.HasPrefix(prompt, "<!-- mdctx:version=") || !strings.Contains(prompt, "# User Request") || !strings.Contains(prompt, "## Evidence: src/billing/currency/convert.py") {
		t.Errorf("evidence_plan include_prompt: %.400q", prompt)
	}
	if plan.Budget != 4000 || len(plan.Parts) != 4 || plan.TotalBytes != len(prompt) || !strings.HasPrefix(plan.CtxDigest, "sha256:") {
		t.Errorf("evidence_plan: %+v", plan)
	}
	var as EvidenceAssembleOut
	mustCall(t, cs, "evidence_assemble", map[string]any{"budget": 4000}, &as)
	if as.Prompt != "build/prompt.mdctx" || as.PlanFile != "build/ctxplan.json" || as.Plan.CtxDigest != plan.CtxDigest || as.Plan.Digest != plan.Digest {
		t.Errorf("evidence_assemble: %s, %s, ctx_digest %s (evidence_plan's %s)", as.Prompt, as.PlanFile, as.Plan.CtxDigest, plan.CtxDigest)
	}
	written, err := os.ReadFile(filepath.Join(dir, "build", "prompt.mdctx"))
	if err != nil || string(written) != prompt {
		t.Errorf("build/prompt.mdctx is not evidence_plan's prompt (%v)", err)
	}
	data, err = os.ReadFile(filepath.Join(dir, "build", "ctxplan.json"))
	var file app.EvidencePlan
	if err != nil || json.Unmarshal(data, &file) != nil || file.CtxDigest != plan.CtxDigest {
		t.Errorf("build/ctxplan.json: ctx_digest %q (%v), evidence_plan's %s", file.CtxDigest, err, plan.CtxDigest)
	}
	p, err := app.Open(dir, "")
	if err != nil {
		t.Fatal(err)
	}
	ws, err := p.Workspace("ctx")
	if err != nil {
		t.Fatal(err)
	}
	want, err := p.AssembleEvidence(context.Background(), ws, app.Request{Budget: 4000}, "")
	if err != nil {
		t.Fatal(err)
	}
	if want.Plan.CtxDigest != plan.CtxDigest || string(want.Prompt) != prompt {
		t.Errorf("ctx_digest %s, the facade's %s", plan.CtxDigest, want.Plan.CtxDigest)
	}
	mustCall(t, cs, "evidence_assemble", map[string]any{"out": "out/flow", "flow_id": "fix-rounding", "budget": 4000}, &as)
	if as.Prompt != "out/flow/prompt.mdctx" || as.Plan.FlowID != "fix-rounding" || as.Plan.CtxDigest != plan.CtxDigest {
		t.Errorf("evidence_assemble out out/flow: %s, flow %q, ctx_digest %s", as.Prompt, as.Plan.FlowID, as.Plan.CtxDigest)
	}
	toolError(t, cs, "evidence_plan", map[string]any{"budget": 4000, "window": 100000}, "not both")
	toolError(t, cs, "evidence_plan", map[string]any{"depth": "summary"}, "depth")
	toolError(t, cs, "evidence_plan", map[string]any{"budget": 20, "overflow": "error"}, "budget")
	toolError(t, cs, "evidence_plan", map[string]any{"ctx": "nope"}, "nope: no such workspace", "evidence_edit add")

	// Stale names exactly the evidence whose source changed.
	var st EvidenceStaleOut
	mustCall(t, cs, "evidence_stale", map[string]any{}, &st)
	if len(st.Stale) != 0 || st.Checked != 2 || st.Untracked != 1 || st.Links != 1 {
		t.Errorf("evidence_stale: %+v", st)
	}
	conv := filepath.Join(dir, "src", "billing", "currency", "convert.py")
	data, err = os.ReadFile(conv)
	if err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(conv, append(data, "\n# changed\n"...), 0o644); err != nil {
		t.Fatal(err)
	}
	mustCall(t, cs, "evidence_stale", map[string]any{}, &st)
	if len(st.Stale) != 1 || st.Stale[0].ID != "110_convert_py" || st.Stale[0].Reason != "changed" || st.Stale[0].Was == st.Stale[0].Now || st.Stale[0].Selector != "src/billing/currency/convert.py" {
		t.Errorf("evidence_stale after an edit of convert.py: %+v", st)
	}

	var deps EvidenceDepsOut
	mustCall(t, cs, "evidence_deps", map[string]any{"id": "110"}, &deps)
	if deps.Entry != "ctx/evidence/110_convert_py.evidence.md" || deps.Source != "src/billing/currency/convert.py" || !slices.Contains(deps.Defines, "convert") ||
		deps.Uses == nil || deps.Outside == nil || deps.UsedBy == nil {
		t.Errorf("evidence_deps: %+v", deps)
	}
	toolError(t, cs, "evidence_deps", map[string]any{"id": "999"}, `no workspace file "999"`)

	// Remove: every id is found before anything is deleted.
	toolError(t, cs, "evidence_remove", map[string]any{"ids": []string{"120", "nope"}}, `no workspace file "nope"`)
	var rm EvidenceRemoveOut
	mustCall(t, cs, "evidence_remove", map[string]any{"ids": []string{"120", "120_login_ts"}}, &rm)
	if !slices.Equal(entryIDs(rm.Removed), []string{"120_login_ts"}) {
		t.Errorf("evidence_remove: %+v", rm)
	}
	if _, err := os.Lstat(filepath.Join(dir, "ctx", "evidence", "120_login_ts.evidence.link")); err == nil {
		t.Errorf("evidence_remove left the file")
	}
	toolError(t, cs, "evidence_remove", map[string]any{"ids": []string{}}, "ids")
}

// TestEvidenceReadOnly: a read-only server lists none of the evidence
// tools that write, and its evidence_plan, evidence_stale and
// evidence_deps write nothing.
func TestEvidenceReadOnly(t *testing.T) {
	dir := testProject(t)
	_, rw := connect(t, Options{Dir: dir})
	mustCall(t, rw, "evidence_add", map[string]any{"selector": "src/billing/currency/convert.py"}, nil)
	mustCall(t, rw, "evidence_add", map[string]any{"selector": "-", "text": "Fix the rounding.", "role": "user"}, nil)
	var want app.EvidencePlan
	mustCall(t, rw, "evidence_plan", map[string]any{}, &want)

	before := tree(t, dir)
	_, ro := connect(t, Options{Dir: dir, ReadOnly: true})
	res, err := ro.ListTools(context.Background(), nil)
	if err != nil {
		t.Fatal(err)
	}
	var listed []string
	for _, tool := range res.Tools {
		if strings.HasPrefix(tool.Name, "evidence") {
			listed = append(listed, tool.Name)
		}
	}
	slices.Sort(listed)
	if w := []string{"evidence"}; !slices.Equal(listed, w) {
		t.Errorf("a read-only server lists %v, want %v", listed, w)
	}
	for _, name := range []string{"evidence_add", "evidence_toggle", "evidence_rank", "evidence_rebase", "evidence_remove", "evidence_focus", "evidence_assemble"} {
		if _, msg := call(t, ro, name, map[string]any{"selector": "src/auth/login.ts", "id": "100", "ids": []string{"100"}, "rank": 5, "query": "x"}); !strings.Contains(msg, "unknown tool") {
			t.Errorf("calling %s on a read-only server: %q; want an unknown-tool error", name, msg)
		}
	}
	var got app.EvidencePlan
	res2 := mustCall(t, ro, "evidence_plan", map[string]any{"include_prompt": true}, &got)
	if got.CtxDigest != want.CtxDigest || !strings.Contains(text(res2), "# User Request") {
		t.Errorf("read-only evidence_plan: ctx_digest %s, the writing server's %s", got.CtxDigest, want.CtxDigest)
	}
	var st EvidenceStaleOut
	mustCall(t, ro, "evidence_stale", map[string]any{}, &st)
	if st.Checked != 1 || len(st.Stale) != 0 {
		t.Errorf("read-only evidence_stale: %+v", st)
	}
	// Without an index, deps says so and builds none.
	if _, msg := call(t, ro, "evidence_deps", map[string]any{"id": "100"}); !strings.Contains(msg, "index") {
		t.Errorf("read-only evidence_deps without an index: %q", msg)
	}
	if after := tree(t, dir); !maps.Equal(before, after) {
		t.Errorf("the read-only server changed the project:\n%s", treeDiff(before, after))
	}
}

// TestEvidenceEscapes: a selector, workspace or build folder that leads
// out of the project root is a tool error that says so, and nothing
// outside the root is read into the workspace or written.
func TestEvidenceEscapes(t *testing.T) {
	dir := testProject(t)
	outside := filepath.Join(filepath.Dir(dir), "outside")
	if err := os.Symlink(filepath.Join(outside, "secret.txt"), filepath.Join(dir, "leak.txt")); err != nil {
		t.Fatal(err)
	}
	// Workspaces whose own folder or focus record lead out.
	if err := os.MkdirAll(filepath.Join(dir, "trap"), 0o755); err != nil {
		t.Fatal(err)
	}
	if err := os.Symlink(outside, filepath.Join(dir, "trap", "evidence")); err != nil {
		t.Fatal(err)
	}
	if err := os.MkdirAll(filepath.Join(dir, "trap2", "evidence"), 0o755); err != nil {
		t.Fatal(err)
	}
	if err := os.Symlink(filepath.Join(outside, "secret.txt"), filepath.Join(dir, "trap2", ".focus")); err != nil {
		t.Fatal(err)
	}
	_, cs := connect(t, Options{Dir: dir})
	mustCall(t, cs, "evidence_add", map[string]any{"selector": "src/billing/currency/convert.py"}, nil)
	parent := filepath.Dir(dir)
	outsideTree := func() map[string]string {
		all := tree(t, parent)
		for k := range all {
			if k == "billing" || strings.HasPrefix(k, "billing/") {
				delete(all, k)
			}
		}
		return all
	}
	before := outsideTree()
	ctxBefore := tree(t, filepath.Join(dir, "ctx"))

	tests := []struct {
		name, tool string
		args       map[string]any
		want       string
	}{
		{"selector dotdot", "evidence_add", map[string]any{"selector": "../outside.txt"}, "escapes the project root"},
		{"selector absolute", "evidence_add", map[string]any{"selector": "/etc/passwd"}, "absolute path"},
		{"selector dotdot inside", "evidence_add", map[string]any{"selector": "src/../../x"}, "escapes the project root"},
		{"selector dotdot to a file out", "evidence_add", map[string]any{"selector": "src/../../outside/secret.txt"}, "escapes the project root"},
		{"selector symlinked file", "evidence_add", map[string]any{"selector": "leak.txt"}, "symlink leads outside the project root"},
		{"selector symlinked folder", "evidence_add", map[string]any{"selector": "escape/secret.txt::1,1"}, "symlink leads outside the project root"},
		{"link to a symlinked file", "evidence_add", map[string]any{"selector": "leak.txt", "link": true}, "symlink leads outside the project root"},
		{"selector backslash", "evidence_add", map[string]any{"selector": `..\outside\secret.txt`}, "selector"},
		{"ctx dotdot", "evidence_add", map[string]any{"ctx": "../elsewhere", "selector": "src/auth/login.ts"}, "outside the project root"},
		{"ctx absolute", "evidence_add", map[string]any{"ctx": filepath.Join(parent, "elsewhere"), "selector": "src/auth/login.ts"}, "absolute path is refused"},
		{"ctx through a symlink", "evidence_add", map[string]any{"ctx": "escape/ws", "selector": "src/auth/login.ts"}, "symlink leads outside the project root"},
		{"ctx the root", "evidence_add", map[string]any{"ctx": ".", "selector": "src/auth/login.ts"}, "is the project root"},
		{"ctx evidence folder out", "evidence_add", map[string]any{"ctx": "trap", "selector": "src/auth/login.ts"}, "trap/evidence is a symlink"},
		{"ctx focus record out", "evidence_focus", map[string]any{"ctx": "trap2", "off": true}, "trap2/.focus is a symlink"},
		{"plan ctx dotdot", "evidence_plan", map[string]any{"ctx": "../elsewhere"}, "outside the project root"},
		{"stale ctx dotdot", "evidence_stale", map[string]any{"ctx": "../outside"}, "outside the project root"},
		{"deps ctx dotdot", "evidence_deps", map[string]any{"ctx": "../outside", "id": "100"}, "outside the project root"},
		{"toggle ctx dotdot", "evidence_toggle", map[string]any{"ctx": "../outside", "id": "100"}, "outside the project root"},
		{"remove ctx dotdot", "evidence_remove", map[string]any{"ctx": "../outside", "ids": []string{"secret.txt"}}, "outside the project root"},
		{"rebase ctx through a symlink", "evidence_rebase", map[string]any{"ctx": "escape"}, "symlink leads outside the project root"},
		{"assemble out dotdot", "evidence_assemble", map[string]any{"out": "../out"}, "outside the project root"},
		{"assemble out absolute", "evidence_assemble", map[string]any{"out": filepath.Join(parent, "out")}, "absolute path is refused"},
		{"assemble out through a symlink", "evidence_assemble", map[string]any{"out": "escape"}, "symlink leads outside the project root"},
		{"assemble ctx dotdot", "evidence_assemble", map[string]any{"ctx": "../elsewhere"}, "outside the project root"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			res, err := cs.CallTool(context.Background(), params(t, tt.tool, tt.args))
			if err != nil {
				t.Fatalf("a protocol error (%v); want a tool error", err)
			}
			msg := text(res)
			if !res.IsError || !strings.Contains(msg, tt.want) {
				t.Errorf("isError %v, %q; want a tool error that says %q", res.IsError, msg, tt.want)
			}
			if strings.Contains(msg, parent) && !strings.Contains(fmt.Sprint(tt.args), parent) {
				t.Errorf("the error shows the server's path: %s", msg)
			}
			if after := outsideTree(); !maps.Equal(before, after) {
				t.Fatalf("outside the project root changed:\n%s", treeDiff(before, after))
			}
			if after := tree(t, filepath.Join(dir, "ctx")); !maps.Equal(ctxBefore, after) {
				t.Errorf("the workspace changed:\n%s", treeDiff(ctxBefore, after))
			}
		})
	}
}

// session connects another client to s.
func session(t *testing.T, s *Server) *mcp.ClientSession {
	t.Helper()
	ct, st := mcp.NewInMemoryTransports()
	ss, err := s.MCP().Connect(context.Background(), st, nil)
	if err != nil {
		t.Fatal(err)
	}
	cs, err := mcp.NewClient(&mcp.Implementation{Name: "test", Version: "1"}, nil).Connect(context.Background(), ct, nil)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() {
		cs.Close()
		ss.Wait()
	})
	return cs
}

// TestEvidenceConcurrentAdd: files added at once, by several sessions,
// each get a rank of their own.
func TestEvidenceConcurrentAdd(t *testing.T) {
	const n = 16
	s, _ := connect(t, Options{Dir: testProject(t), MaxConcurrent: n})
	var wg sync.WaitGroup
	outs := make([]EvidenceAddOut, n)
	errs := make([]string, n)
	for i := range n {
		cs := session(t, s)
		wg.Go(func() {
			res, msg := call(t, cs, "evidence_add", map[string]any{"selector": "-", "text": fmt.Sprintf("note %d", i), "kind": fmt.Sprintf("note%d", i)})
			if msg != "" {
				errs[i] = msg
				return
			}
			data, _ := json.Marshal(res.StructuredContent)
			errs[i] = fmt.Sprint(json.Unmarshal(data, &outs[i]))
		})
	}
	wg.Wait()
	ranks := map[string]string{}
	for i, o := range outs {
		if errs[i] != "<nil>" {
			t.Errorf("evidence_add %d: %s", i, errs[i])
			continue
		}
		if prev, ok := ranks[o.Rank]; ok {
			t.Errorf("%s and %s have rank %s", prev, o.Path, o.Rank)
		}
		ranks[o.Rank] = o.Path
	}
}

// TestEvidenceAsk: evidence ask answers over MCP what the facade answers
// (the CLI's json shows the same report): coverage with the plan's
// statuses, gaps with their tokens, redundancy; its bad input is a tool
// error that says what to do, and a read-only server builds no index.
func TestEvidenceAsk(t *testing.T) {
	dir := testProject(t)
	_, cs := connect(t, Options{Dir: dir})
	toolError(t, cs, "evidence_ask", map[string]any{"question": "what covers currency conversion?"}, "ctx: no such workspace", "evidence_edit add")
	mustCall(t, cs, "evidence_add", map[string]any{"selector": "src/billing/currency/convert.py"}, nil)
	mustCall(t, cs, "evidence_add", map[string]any{"selector": "src/billing/currency/convert.py::7,9", "kind": "convert_fn"}, nil)

	ctx := context.Background()
	p, err := app.Open(dir, "")
	if err != nil {
		t.Fatal(err)
	}
	ws, err := p.Workspace("ctx")
	if err != nil {
		t.Fatal(err)
	}
	for _, q := range []struct {
		question string
		sections []string
		check    func(app.AskReport) bool
	}{
		{"what evidence covers currency conversion?", nil, func(r app.AskReport) bool {
			return slices.Equal(r.Sections, []string{"coverage"}) && len(r.Coverage) == 2 && r.Coverage[0].ID == "100_convert_py" && r.Coverage[0].Status == "active" && r.Coverage[0].Tokens > 0
		}},
		{"what is missing for the invoice total?", nil, func(r app.AskReport) bool {
			return slices.Equal(r.Sections, []string{"gaps"}) && len(r.Gaps) > 0 && r.Gaps[0].Path == "src/billing/invoice/generator.py" && r.Gaps[0].Tokens > 0 && r.Gaps[0].Fits
		}},
		{"what evidence is redundant?", nil, func(r app.AskReport) bool {
			return len(r.Redundant) == 1 && r.Redundant[0].ID == "110_convert_fn" && r.Redundant[0].By == "100_convert_py" && r.Redundant[0].How == "within-span" && r.Redundant[0].Saves > 0
		}},
		{"invoice", []string{"redundancy", "gaps"}, func(r app.AskReport) bool {
			return slices.Equal(r.Sections, []string{"gaps", "redundancy"}) && len(r.Coverage) == 0
		}},
	} {
		args := map[string]any{"question": q.question, "budget": 4000}
		if q.sections != nil {
			args["sections"] = q.sections
		}
		var got app.AskReport
		mustCall(t, cs, "evidence_ask", args, &got)
		if !q.check(got) {
			t.Errorf("evidence_ask %q: %+v", q.question, got)
		}
		want, err := p.AskEvidence(ctx, ws, app.AskRequest{Question: q.question, Sections: q.sections}, app.Request{Budget: 4000})
		if err != nil {
			t.Fatal(err)
		}
		a, _ := json.Marshal(got)
		b, _ := json.Marshal(want)
		if string(a) != string(b) {
			t.Errorf("evidence_ask %q over MCP:\n%s\nthe facade's:\n%s", q.question, a, b)
		}
	}
	toolError(t, cs, "evidence_ask", map[string]any{"question": "what is missing?"}, "names no subject")
	toolError(t, cs, "evidence_ask", map[string]any{"question": "   "}, "the question is empty")
	toolError(t, cs, "evidence_ask", map[string]any{"question": ""}, "question")
	toolError(t, cs, "evidence_ask", map[string]any{"question": "x", "sections": []string{"all"}}, "sections")
	toolError(t, cs, "evidence_ask", map[string]any{"question": "x", "ctx": "../outside"}, "outside the project root")
	toolError(t, cs, "evidence_ask", map[string]any{"question": "x", "id": "100"}, "evidence ask takes no id")

	// Read-only, without an index: coverage and gaps say so and build
	// none; redundancy needs no index.
	if err := os.RemoveAll(filepath.Join(dir, ".ctxpack")); err != nil {
		t.Fatal(err)
	}
	before := tree(t, dir)
	_, ro := connect(t, Options{Dir: dir, ReadOnly: true})
	toolError(t, ro, "evidence_ask", map[string]any{"question": "what covers currency conversion?"}, "run 'ctxpack index'")
	var red app.AskReport
	mustCall(t, ro, "evidence_ask", map[string]any{"question": "what is redundant?"}, &red)
	if len(red.Redundant) != 1 {
		t.Errorf("read-only evidence_ask redundancy: %+v", red)
	}
	if after := tree(t, dir); !maps.Equal(before, after) {
		t.Errorf("the read-only evidence_ask changed the project:\n%s", treeDiff(before, after))
	}
}
