package mcpserver

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io/fs"
	"math"
	"net"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/ctxpack/ctxpack/internal/app"
	"github.com/ctxpack/ctxpack/internal/project"
	"github.com/modelcontextprotocol/go-sdk/jsonrpc"
	"github.com/modelcontextprotocol/go-sdk/mcp"
)

// testProject copies examples/billing into a temporary directory, without
// the files ctxpack generates, and adds a symlink that leads out of it
// (escape → a directory with a secret).
func testProject(t testing.TB) string {
	t.Helper()
	src := filepath.Join("..", "..", "examples", "billing")
	dir := t.TempDir()
	proj := filepath.Join(dir, "billing")
	err := filepath.WalkDir(src, func(path string, d fs.DirEntry, err error) error {
		if err != nil {
			return err
		}
		rel, _ := filepath.Rel(src, path)
		name := d.Name()
		if strings.HasPrefix(name, "index.db") || strings.HasPrefix(name, "records.jsonl") || name == "cache" && d.IsDir() {
			if d.IsDir() {
				return filepath.SkipDir
			}
			return nil
		}
		to := filepath.Join(proj, rel)
		if d.IsDir() {
			return os.MkdirAll(to, 0o755)
		}
		data, err := os.ReadFile(path)
		if err != nil {
			return err
		}
		return os.WriteFile(to, data, 0o644)
	})
	if err != nil {
		t.Fatal(err)
	}
	outside := filepath.Join(dir, "outside")
	if err := os.MkdirAll(outside, 0o755); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(filepath.Join(outside, "secret.txt"), []byte("the secret\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	if err := os.Symlink(outside, filepath.Join(proj, "escape")); err != nil {
		t.Fatal(err)
	}
	return proj
}

// connect serves o over in-memory transports and returns the server and
// a client session.
func connect(t *testing.T, o Options) (*Server, *mcp.ClientSession) {
	t.Helper()
	s, err := New(o)
	if err != nil {
		t.Fatal(err)
	}
	ct, st := mcp.NewInMemoryTransports()
	ctx := context.Background()
	ss, err := s.MCP().Connect(ctx, st, nil)
	if err != nil {
		t.Fatal(err)
	}
	cs, err := mcp.NewClient(&mcp.Implementation{Name: "test", Version: "1"}, nil).Connect(ctx, ct, nil)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() {
		cs.Close()
		ss.Wait()
	})
	return s, cs
}

// call calls a tool and returns its result, or the protocol error's message
// as an error result, so that both kinds of failure read alike.
func call(t *testing.T, cs *mcp.ClientSession, name string, args any) (*mcp.CallToolResult, string) {
	t.Helper()
	res, err := cs.CallTool(context.Background(), params(t, name, args))
	if err != nil {
		return nil, err.Error()
	}
	if res.IsError {
		var msg []string
		for _, c := range res.Content {
			if tc, ok := c.(*mcp.TextContent); ok {
				msg = append(msg, tc.Text)
			}
		}
		return res, strings.Join(msg, "\n")
	}
	return res, ""
}

// params are the parameters of a call of the operation name with args:
// the tests name each operation by its own name (memory_add, evidence_rank,
// show), which params turns into the tool that does it and its action,
// as an agent calls it (store_edit add with memory, evidence_edit rank,
// artifacts show).
func params(t testing.TB, name string, args any) *mcp.CallToolParams {
	t.Helper()
	p, err := opParams(name, args)
	if err != nil {
		t.Fatal(err)
	}
	return p
}

// opParams is params, for goroutines other than the test's.
func opParams(name string, args any) (*mcp.CallToolParams, error) {
	ops := map[string][2]string{
		"show": {"artifacts", "show"}, "list": {"artifacts", "list"}, "check": {"artifacts", "check"}, "explain": {"artifacts", "explain"},
		"premortem": {"store", "premortem"}, "values_derive": {"store", "derive"},
		"memory_list": {"store", "list"}, "experience_list": {"store", "list"}, "value_list": {"store", "list"},
		"memory_show": {"store", "show"}, "experience_show": {"store", "show"}, "value_show": {"store", "show"},
		"memory_add": {"store_edit", "add"}, "experience_add": {"store_edit", "add"}, "value_add": {"store_edit", "add"},
		"memory_rm": {"store_edit", "remove"}, "experience_rm": {"store_edit", "remove"}, "value_rm": {"store_edit", "remove"},
	}
	for _, a := range []string{"plan", "stale", "deps", "ask"} {
		ops["evidence_"+a] = [2]string{"evidence", a}
	}
	for _, a := range []string{"add", "toggle", "rank", "rebase", "remove", "focus", "assemble"} {
		ops["evidence_"+a] = [2]string{"evidence_edit", a}
	}
	op, ok := ops[name]
	if !ok && name != "pack" {
		return &mcp.CallToolParams{Name: name, Arguments: args}, nil
	}
	m := map[string]any{}
	if args != nil {
		b, err := json.Marshal(args)
		if err != nil {
			return nil, err
		}
		if err := json.Unmarshal(b, &m); err != nil {
			return nil, fmt.Errorf("%s: arguments %s are not an object", name, b)
		}
	}
	if name == "pack" {
		if m["paths"] == nil && m["query"] == nil {
			m["paths"] = []string{"."}
		}
		return &mcp.CallToolParams{Name: "context", Arguments: m}, nil
	}
	kind, verb, _ := strings.Cut(name, "_")
	switch {
	case name == "explain" && m["artifact"] != nil:
		m["id"] = m["artifact"]
		delete(m, "artifact")
	case op[0] == "store" && (verb == "list" || verb == "show"), op[0] == "store_edit" && verb == "rm":
		m["kind"] = kind
	case op[0] == "store_edit" && verb == "add":
		m = map[string]any{kind: m}
	}
	m["action"] = op[1]
	return &mcp.CallToolParams{Name: op[0], Arguments: m}, nil
}

// structured decodes a result's structured content into v.
func structured(t *testing.T, res *mcp.CallToolResult, v any) {
	t.Helper()
	data, err := json.Marshal(res.StructuredContent)
	if err != nil {
		t.Fatal(err)
	}
	if err := json.Unmarshal(data, v); err != nil {
		t.Fatalf("structured content %s: %v", data, err)
	}
}

func text(res *mcp.CallToolResult) string {
	if len(res.Content) == 0 {
		return ""
	}
	if tc, ok := res.Content[0].(*mcp.TextContent); ok {
		return tc.Text
	}
	return ""
}

// facadeDigest is the digest the facade (and so the CLI) gives for the
// same assembly.
func facadeDigest(t *testing.T, dir, target string, budget int) string {
	t.Helper()
	p, err := app.Open(dir, "")
	if err != nil {
		t.Fatal(err)
	}
	res, err := p.Context(context.Background(), target, app.Request{Budget: budget, Format: "json"})
	if err != nil {
		t.Fatal(err)
	}
	return res.Plan.Digest
}

func TestTools(t *testing.T) {
	dir := testProject(t)
	_, cs := connect(t, Options{Dir: dir, MaxBudget: 100_000})
	big := strings.Repeat("invoice ", 200_000) // 1.6 MB: over the request limit

	type check func(t *testing.T, res *mcp.CallToolResult)
	plan := func(mode string, budget int) check {
		return func(t *testing.T, res *mcp.CallToolResult) {
			var p app.Plan
			structured(t, res, &p)
			if p.Mode != mode || p.Digest == "" || p.TotalTokens > budget || len(p.Parts) == 0 {
				t.Errorf("plan: mode %q (want %q), digest %q, %d tokens of %d, %d parts", p.Mode, mode, p.Digest, p.TotalTokens, budget, len(p.Parts))
			}
		}
	}
	tests := []struct {
		name, tool string
		args       map[string]any
		wantErr    string // a part of the error's message; "" for success
		check      check
	}{
		// context: each mode, and the digest the facade gives.
		{"context links", "context", map[string]any{"target": "TASK-042", "budget": 600, "format": "json"}, "", func(t *testing.T, res *mcp.CallToolResult) {
			plan("links", 600)(t, res)
			var p app.Plan
			structured(t, res, &p)
			if want := facadeDigest(t, dir, "TASK-042", 600); p.Digest != want {
				t.Errorf("digest %s, the facade's %s", p.Digest, want)
			}
			if !strings.HasPrefix(text(res), "{") {
				t.Errorf("format json: the text content is not the json plan: %.80q", text(res))
			}
		}},
		{"context text format", "context", map[string]any{"target": "TASK-042", "budget": 600}, "", func(t *testing.T, res *mcp.CallToolResult) {
			if !strings.Contains(text(res), "=== TASK: TASK-042 ===") {
				t.Errorf("text content: %.200q", text(res))
			}
		}},
		{"context retrieval", "context", map[string]any{"target": "invoice total rounding", "budget": 2000}, "", plan("retrieval", 2000)},
		{"context pack", "context", map[string]any{"target": "src", "budget": 1500, "depth": "summary"}, "", plan("pack", 1500)},
		{"context diff on a task", "context", map[string]any{"target": "TASK-042", "diff": true}, "not to a task's links", nil},
		{"context log too many", "context", map[string]any{"paths": []string{"src"}, "log": 5000}, "from 1 to 1000", nil},
		{"context link depth", "context", map[string]any{"target": "TASK-042", "link_depth": 1, "overflow": "drop", "strategy": "greedy", "tokenizer": "cl100k_base"}, "", plan("links", app.DefaultBudget)},
		{"context unknown artifact", "context", map[string]any{"target": "TASK-999"}, "TASK-999", nil},
		{"context dotdot", "context", map[string]any{"target": "../.."}, "outside the project root", nil},
		{"context absolute", "context", map[string]any{"target": "/etc/passwd"}, "absolute path is refused", nil},
		{"context symlink out", "context", map[string]any{"target": "escape/secret.txt"}, "symlink leads outside the project root", nil},
		{"context missing path", "context", map[string]any{"target": "src/nope.py"}, "is not an artifact id, a file or a directory", nil},
		{"context empty", "context", map[string]any{"target": ""}, "target", nil},
		{"context stdin", "context", map[string]any{"target": "-"}, "give the text itself", nil},
		{"context no target", "context", map[string]any{"budget": 100}, "target", nil},
		{"context negative budget", "context", map[string]any{"target": "TASK-042", "budget": -1}, "budget", nil},
		{"context budget over the limit", "context", map[string]any{"target": "TASK-042", "budget": 200_000}, "budget", nil},
		{"context budget not a number", "context", map[string]any{"target": "TASK-042", "budget": "600"}, "budget", nil},
		{"context unknown format", "context", map[string]any{"target": "TASK-042", "format": "yaml"}, "format", nil},
		{"context unknown argument", "context", map[string]any{"target": "TASK-042", "bogus": 1}, "bogus", nil},
		{"context oversized", "context", map[string]any{"target": big}, "over the server's limit", nil},
		{"context error overflow", "context", map[string]any{"target": "TASK-042", "budget": 50, "overflow": "error"}, "budget", nil},

		{"pack", "pack", map[string]any{"paths": []string{"src"}, "budget": 1000}, "", plan("pack", 1000)},
		{"pack whole project", "pack", map[string]any{"budget": 3000, "format": "xml"}, "", func(t *testing.T, res *mcp.CallToolResult) {
			plan("pack", 3000)(t, res)
			var p app.Plan
			structured(t, res, &p)
			for _, part := range p.Parts {
				if strings.HasPrefix(part.Path, "escape") {
					t.Errorf("the pack holds %s, behind a symlink out of the project", part.Path)
				}
			}
		}},
		{"pack mdctx", "pack", map[string]any{"paths": []string{"src"}, "budget": 1000, "format": "mdctx"}, "", func(t *testing.T, res *mcp.CallToolResult) {
			plan("pack", 1000)(t, res)
			if text := res.Content[0].(*mcp.TextContent).Text; !strings.HasPrefix(text, "<!-- mdctx:") {
				t.Errorf("pack mdctx: text content %.60q", text)
			}
		}},
		{"pack by query", "pack", map[string]any{"paths": []string{"src"}, "query": "currency", "budget": 1000}, "", plan("pack", 1000)},
		{"pack dotdot", "pack", map[string]any{"paths": []string{"src/../../.."}}, "outside the project root", nil},
		{"pack absolute", "pack", map[string]any{"paths": []string{"/"}}, "absolute path is refused", nil},
		{"pack symlink out", "pack", map[string]any{"paths": []string{"escape"}}, "symlink leads outside", nil},
		{"pack paths not strings", "pack", map[string]any{"paths": []int{1}}, "paths", nil},

		{"search", "search", map[string]any{"query": "invoice total", "k": 3, "explain": true}, "", func(t *testing.T, res *mcp.CallToolResult) {
			var out SearchOut
			structured(t, res, &out)
			if len(out.Results) == 0 || len(out.Results) > 3 || len(out.Results[0].Factors) == 0 {
				t.Errorf("search: %+v", out)
			}
		}},
		{"search files", "search", map[string]any{"query": "currency", "files": true}, "", func(t *testing.T, res *mcp.CallToolResult) {
			var out SearchOut
			structured(t, res, &out)
			seen := map[string]bool{}
			for _, r := range out.Results {
				if seen[r.Path] {
					t.Errorf("search files: %s twice", r.Path)
				}
				seen[r.Path] = true
			}
		}},
		{"search empty", "search", map[string]any{"query": "  "}, "query is empty", nil},
		{"search k too large", "search", map[string]any{"query": "x", "k": 1000}, "k", nil},

		{"show", "show", map[string]any{"id": "SPEC-BILLING-001", "depth": "summary"}, "", func(t *testing.T, res *mcp.CallToolResult) {
			var out ShowOut
			structured(t, res, &out)
			if out.ID != "SPEC-BILLING-001" || out.Level != "summary" || !strings.Contains(text(res), "SPEC-BILLING-001") {
				t.Errorf("show: %+v / %.100q", out, text(res))
			}
			if sc, _ := json.Marshal(res.StructuredContent); strings.Contains(string(sc), `"text":`) {
				t.Errorf("show: the structured content holds the text the text content holds: %s", sc)
			}
		}},
		{"show identity", "show", map[string]any{"id": "identity", "format": "markdown"}, "", nil},
		{"show mdctx", "show", map[string]any{"id": "SPEC-BILLING-001", "format": "mdctx"}, "", nil},
		{"show unknown", "show", map[string]any{"id": "SPEC-BILING-001"}, "SPEC-BILING-001", nil},
		{"show path as id", "show", map[string]any{"id": "../../etc/passwd"}, "no artifact", nil},
		{"show bad depth", "show", map[string]any{"id": "SPEC-BILLING-001", "depth": "everything"}, "depth", nil},

		{"list", "list", map[string]any{}, "", func(t *testing.T, res *mcp.CallToolResult) {
			var out ListOut
			structured(t, res, &out)
			if len(out.Artifacts) < 10 || !slices.IsSortedFunc(out.Artifacts, func(a, b app.ArtifactInfo) int { return strings.Compare(a.ID, b.ID) }) {
				t.Errorf("list: %+v", out)
			}
		}},
		{"list specs", "list", map[string]any{"type": "spec"}, "", func(t *testing.T, res *mcp.CallToolResult) {
			var out ListOut
			structured(t, res, &out)
			for _, a := range out.Artifacts {
				if a.Type != "spec" {
					t.Errorf("list type spec: %+v", a)
				}
			}
		}},
		{"list bad type", "list", map[string]any{"type": "memo"}, "type", nil},

		{"check", "check", map[string]any{"strict": true}, "", func(t *testing.T, res *mcp.CallToolResult) {
			var out app.CheckReport
			structured(t, res, &out)
			if out.Summary.Specs == 0 || !strings.Contains(text(res), "specs") {
				t.Errorf("check: %+v / %q", out, text(res))
			}
		}},

		{"explain in", "explain", map[string]any{"task": "TASK-042", "artifact": "NORM-ERROR-001"}, "", func(t *testing.T, res *mcp.CallToolResult) {
			var e app.Explanation
			structured(t, res, &e)
			if !e.In || e.Kind != "included" {
				t.Errorf("explain: %+v", e)
			}
		}},
		{"explain budget", "explain", map[string]any{"task": "TASK-042", "artifact": "DEC-BILLING-003", "budget": 300}, "", func(t *testing.T, res *mcp.CallToolResult) {
			var e app.Explanation
			structured(t, res, &e)
			if e.In || e.Reason == "" {
				t.Errorf("explain under a small budget: %+v", e)
			}
		}},
		{"explain unknown task", "explain", map[string]any{"task": "TASK-999", "artifact": "NORM-ERROR-001"}, "TASK-999", nil},
		{"explain no artifact", "explain", map[string]any{"task": "TASK-042"}, "artifact", nil},

		// context of PATH:START-END: those lines of the file, at depth
		// (default full), as 'ctxpack summarize PATH:START-END' shows
		// them: what a part's header names to get it whole.
		{"context lines", "context", map[string]any{"target": "src/billing/invoice/generator.py:7-11"}, "", func(t *testing.T, res *mcp.CallToolResult) {
			data, err := os.ReadFile(filepath.Join(dir, "src", "billing", "invoice", "generator.py"))
			if err != nil {
				t.Fatal(err)
			}
			lines := strings.SplitAfter(string(data), "\n")
			if want := strings.Join(lines[6:11], ""); text(res) != want {
				t.Errorf("text %q, want lines 7-11: %q", text(res), want)
			}
			var out app.Summary
			structured(t, res, &out)
			if out.Path != "src/billing/invoice/generator.py" || out.Lines == nil || *out.Lines != [2]int{7, 11} || out.Shown != "full" || out.Text != "" || len(out.Levels) == 0 {
				t.Errorf("structured: %+v", out)
			}
		}},
		{"context lines summary", "context", map[string]any{"target": "src/billing/invoice/generator.py:7-11", "depth": "summary", "tokenizer": "cl100k_base"}, "", func(t *testing.T, res *mcp.CallToolResult) {
			if got := text(res); !strings.Contains(got, "def invoice_total(lines, tax_rate)") || strings.Contains(got, "subtotal =") {
				t.Errorf("summary of lines 7-11: %q", got)
			}
			var out app.Summary
			structured(t, res, &out)
			if out.Tokenizer != "cl100k_base" || out.Shown != "summary" {
				t.Errorf("structured: %+v", out)
			}
		}},
		{"context lines past the end", "context", map[string]any{"target": "src/billing/invoice/generator.py:7-40"}, "ctxpack: target src/billing/invoice/generator.py:7-40: src/billing/invoice/generator.py ends at line 11 (valid: PATH:START-END with 1 <= START <= END <= 11)", nil},
		{"context lines start after end", "context", map[string]any{"target": "src/billing/invoice/generator.py:9-7"}, "target src/billing/invoice/generator.py:9-7: START is after END (valid: PATH:START-END with 1 <= START <= END <= 11)", nil},
		{"context lines from zero", "context", map[string]any{"target": "src/billing/invoice/generator.py:0-7"}, "lines are numbered from 1", nil},
		{"context lines with a budget", "context", map[string]any{"target": "src/billing/invoice/generator.py:7-11", "budget": 100}, "only depth and tokenizer go with it", nil},
		{"context lines of no file", "context", map[string]any{"target": "src/nope.py:1-2"}, "is not an artifact id, a file or a directory", nil},
		{"context lines absolute", "context", map[string]any{"target": "/etc/passwd:1-2"}, "absolute path is refused", nil},
		{"context lines dotdot", "context", map[string]any{"target": "../outside/secret.txt:1-1"}, "is not an artifact id, a file or a directory", nil},
		{"context lines symlink out", "context", map[string]any{"target": "escape/secret.txt:1-1"}, "symlink leads outside the project root", nil},
		{"context free text with a colon", "context", map[string]any{"target": "src/billing/invoice/generator.py: invoice_total rounds twice", "budget": 1500}, "", plan("retrieval", 1500)},

		{"tokens paths", "tokens", map[string]any{"paths": []string{"src"}}, "", func(t *testing.T, res *mcp.CallToolResult) {
			var out app.TokenReport
			structured(t, res, &out)
			p, err := app.Open(dir, "")
			if err != nil {
				t.Fatal(err)
			}
			want, err := p.Tokens(context.Background(), []string{"src"}, "")
			if err != nil {
				t.Fatal(err)
			}
			if out.Total == 0 || out.Total != want.Total || len(out.Files) != len(want.Files) {
				t.Errorf("tokens: %d in %d files, the facade %d in %d", out.Total, len(out.Files), want.Total, len(want.Files))
			}
		}},
		{"tokens text", "tokens", map[string]any{"text": "hello world", "tokenizer": "cl100k_base"}, "", func(t *testing.T, res *mcp.CallToolResult) {
			var out app.TokenReport
			structured(t, res, &out)
			if out.Total != 2 || out.Tokenizer != "cl100k_base" {
				t.Errorf("tokens text: %+v", out)
			}
		}},
		{"tokens tree top", "tokens", map[string]any{"paths": []string{"src"}, "tree": true, "top": 2}, "", func(t *testing.T, res *mcp.CallToolResult) {
			var out app.TokenReport
			structured(t, res, &out)
			if out.Tree == nil || out.Tree.Tokens != out.Total || len(out.TopFiles) == 0 || len(out.TopFiles) > 2 || len(out.TopFolders) == 0 {
				t.Errorf("tokens tree top: tree %+v, top files %v, top folders %v", out.Tree, out.TopFiles, out.TopFolders)
			}
		}},
		{"tokens min without tree", "tokens", map[string]any{"paths": []string{"src"}, "min_tokens": 5}, "ask for the tree too", nil},
		{"tokens tree of text", "tokens", map[string]any{"text": "a", "tree": true}, "a text has none", nil},
		{"tokens neither", "tokens", map[string]any{}, "paths or text", nil},
		{"tokens both", "tokens", map[string]any{"text": "a", "paths": []string{"src"}}, "paths or text", nil},
		{"tokens dotdot", "tokens", map[string]any{"paths": []string{".."}}, "outside the project root", nil},
		{"tokens absolute", "tokens", map[string]any{"paths": []string{"/etc/passwd"}}, "absolute path is refused", nil},
		{"tokens symlink out", "tokens", map[string]any{"paths": []string{"escape/secret.txt"}}, "symlink leads outside", nil},
		{"tokens missing file", "tokens", map[string]any{"paths": []string{"src/nope.py"}}, "nope.py", nil},

		{"index", "index", map[string]any{}, "", func(t *testing.T, res *mcp.CallToolResult) {
			var out IndexOut
			structured(t, res, &out)
			if out.Files == 0 || out.Chunks == 0 || out.StateRoot == "" || out.Index != ".ctxpack/index.db" {
				t.Errorf("index: %+v", out)
			}
		}},
		{"index with arguments", "index", map[string]any{"force": true}, "force", nil},
		{"baseline", "baseline", map[string]any{}, "", func(t *testing.T, res *mcp.CallToolResult) {
			var out BaselineOut
			structured(t, res, &out)
			if _, err := os.Stat(filepath.Join(dir, filepath.FromSlash(out.Baseline))); err != nil {
				t.Errorf("baseline %+v: %v", out, err)
			}
		}},

		{"unknown tool", "delete", map[string]any{}, "delete", nil},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			res, msg := call(t, cs, tt.tool, tt.args)
			if msg != "" {
				t.Logf("error: %.300s", msg)
			}
			switch {
			case tt.wantErr == "" && msg != "":
				t.Fatalf("error: %s", msg)
			case tt.wantErr != "" && msg == "":
				t.Fatalf("no error; want one that says %q", tt.wantErr)
			case tt.wantErr != "" && !strings.Contains(msg, tt.wantErr):
				t.Fatalf("error %q; want one that says %q", msg, tt.wantErr)
			}
			if strings.Contains(msg, filepath.Dir(dir)) {
				t.Errorf("the error shows the server's path: %s", msg)
			}
			if tt.check != nil {
				tt.check(t, res)
			}
		})
	}
}

// The tools the server lists; a read-only server leaves out writeTools.
var (
	readTools  = []string{"context", "search", "artifacts", "tokens", "store", "evidence"}
	writeTools = []string{"index", "baseline", "store_edit", "evidence_edit"}
	// destructiveTools are the write tools that delete (store_edit
	// remove, evidence_edit remove).
	destructiveTools = []string{"store_edit", "evidence_edit"}
)

// TestToolList: the server lists every tool, each with a description and
// annotations that say whether it writes, and none with an output schema
// (an agent pays for tools/list in every session: TestToolListSize).
func TestToolList(t *testing.T) {
	s, cs := connect(t, Options{Dir: testProject(t)})
	res, err := cs.ListTools(context.Background(), nil)
	if err != nil {
		t.Fatal(err)
	}
	var names []string
	for _, tool := range res.Tools {
		names = append(names, tool.Name)
		if tool.OutputSchema != nil || tool.Description == "" || tool.Annotations == nil {
			t.Errorf("%s: an output schema, or no description or annotations", tool.Name)
		}
		if got, want := tool.Annotations.ReadOnlyHint, !slices.Contains(writeTools, tool.Name); got != want {
			t.Errorf("%s: readOnlyHint %v", tool.Name, got)
		}
		if d := tool.Annotations.DestructiveHint; !tool.Annotations.ReadOnlyHint && (d == nil || *d != slices.Contains(destructiveTools, tool.Name)) {
			t.Errorf("%s: destructiveHint %v", tool.Name, d)
		}
	}
	slices.Sort(names)
	want := slices.Sorted(slices.Values(append(slices.Clone(readTools), writeTools...)))
	if !slices.Equal(names, want) {
		t.Errorf("tools %v, want %v", names, want)
	}
	if got := s.Tools(); len(got) != len(want) {
		t.Errorf("Server.Tools %v", got)
	}
}

// TestFormatEnum: a tool's format argument takes the formats the CLI and
// the configuration take (project.Formats), mdctx included.
func TestFormatEnum(t *testing.T) {
	_, cs := connect(t, Options{Dir: testProject(t)})
	res, err := cs.ListTools(context.Background(), nil)
	if err != nil {
		t.Fatal(err)
	}
	var tools []string
	for _, tool := range res.Tools {
		b, err := json.Marshal(tool.InputSchema)
		if err != nil {
			t.Fatal(err)
		}
		var schema struct {
			Properties map[string]struct{ Enum []string }
		}
		if err := json.Unmarshal(b, &schema); err != nil {
			t.Fatal(err)
		}
		format, ok := schema.Properties["format"]
		if !ok {
			continue
		}
		tools = append(tools, tool.Name)
		if !slices.Equal(format.Enum, project.Formats()) {
			t.Errorf("%s: format takes %v, want %v", tool.Name, format.Enum, project.Formats())
		}
	}
	if len(tools) == 0 {
		t.Fatal("no tool has a format argument")
	}
}

// TestReadOnly: no tool that writes is listed or callable, and reading
// writes nothing under the project.
func TestReadOnly(t *testing.T) {
	dir := testProject(t)
	s, cs := connect(t, Options{Dir: dir, ReadOnly: true})
	res, err := cs.ListTools(context.Background(), nil)
	if err != nil {
		t.Fatal(err)
	}
	for _, tool := range res.Tools {
		if !tool.Annotations.ReadOnlyHint {
			t.Errorf("read-only server lists %s, which writes", tool.Name)
		}
	}
	if len(res.Tools) != len(readTools) || len(s.Tools()) != len(readTools) {
		t.Errorf("read-only server lists %d tools, want the %d that read", len(res.Tools), len(readTools))
	}
	for _, name := range writeTools {
		if _, msg := call(t, cs, name, map[string]any{}); !strings.Contains(msg, "unknown tool") {
			t.Errorf("calling %s on a read-only server: %q; want an unknown-tool error", name, msg)
		}
	}
	// Reads work and leave the project as it was.
	if _, msg := call(t, cs, "context", map[string]any{"target": "TASK-042", "budget": 600}); msg != "" {
		t.Errorf("context: %s", msg)
	}
	if _, msg := call(t, cs, "check", map[string]any{}); msg != "" {
		t.Errorf("check: %s", msg)
	}
	// Retrieval without an index says how to build one, and builds none.
	if _, msg := call(t, cs, "context", map[string]any{"target": "invoice total rounding"}); !strings.Contains(msg, "index") {
		t.Errorf("retrieval without an index on a read-only server: %q", msg)
	}
	for _, name := range []string{"index.db", "records.jsonl", "cache", ".baseline.json", "sources.db"} {
		if _, err := os.Stat(filepath.Join(dir, ".ctxpack", name)); !errors.Is(err, fs.ErrNotExist) {
			t.Errorf("the read-only server wrote .ctxpack/%s (%v)", name, err)
		}
	}
}

// TestReadOnlyRetrieval: with an index built beforehand, a read-only
// server retrieves from it as it is, with the digest of a writing one.
func TestReadOnlyRetrieval(t *testing.T) {
	dir := testProject(t)
	_, rw := connect(t, Options{Dir: dir})
	if _, msg := call(t, rw, "index", map[string]any{}); msg != "" {
		t.Fatal(msg)
	}
	args := map[string]any{"target": "invoice total rounding", "budget": 2000}
	res, msg := call(t, rw, "context", args)
	if msg != "" {
		t.Fatal(msg)
	}
	var want app.Plan
	structured(t, res, &want)
	_, ro := connect(t, Options{Dir: dir, ReadOnly: true})
	res, msg = call(t, ro, "context", args)
	if msg != "" {
		t.Fatal(msg)
	}
	var got app.Plan
	structured(t, res, &got)
	if got.Digest != want.Digest {
		t.Errorf("read-only digest %s, writing server's %s", got.Digest, want.Digest)
	}
}

func TestTimeout(t *testing.T) {
	_, cs := connect(t, Options{Dir: testProject(t), Timeout: time.Nanosecond})
	_, msg := call(t, cs, "tokens", map[string]any{"paths": []string{"src"}})
	if !strings.Contains(msg, "took longer than the server's limit") {
		t.Errorf("a request over the time limit: %q", msg)
	}
}

func readResource(cs *mcp.ClientSession, uri string) (string, error) {
	res, err := cs.ReadResource(context.Background(), &mcp.ReadResourceParams{URI: uri})
	if err != nil {
		return "", err
	}
	return res.Contents[0].Text, nil
}

func TestResources(t *testing.T) {
	_, cs := connect(t, Options{Dir: testProject(t)})
	ctx := context.Background()
	list, err := cs.ListResources(ctx, nil)
	if err != nil {
		t.Fatal(err)
	}
	var uris []string
	for _, r := range list.Resources {
		uris = append(uris, r.URI)
	}
	for _, want := range []string{uriIdentity, uriArtifacts, uriPlan, "ctxpack://artifact/SPEC-BILLING-001", "ctxpack://artifact/TASK-042"} {
		if !slices.Contains(uris, want) {
			t.Errorf("resources/list lacks %s: %v", want, uris)
		}
	}
	tmpl, err := cs.ListResourceTemplates(ctx, nil)
	if err != nil || len(tmpl.ResourceTemplates) != 1 || tmpl.ResourceTemplates[0].URITemplate != "ctxpack://artifact/{id}" {
		t.Errorf("templates: %+v, %v", tmpl, err)
	}

	if txt, err := readResource(cs, uriIdentity); err != nil || txt == "" {
		t.Errorf("identity: %q, %v", txt, err)
	}
	var index []app.ArtifactInfo
	if txt, err := readResource(cs, uriArtifacts); err != nil || json.Unmarshal([]byte(txt), &index) != nil || len(index) < 10 {
		t.Errorf("artifact index: %.100q, %v", txt, err)
	}
	if txt, err := readResource(cs, "ctxpack://artifact/SPEC-BILLING-001"); err != nil || !strings.Contains(txt, "SPEC-BILLING-001") {
		t.Errorf("artifact: %.100q, %v", txt, err)
	}

	notFound := func(uri, want string) {
		t.Helper()
		_, err := readResource(cs, uri)
		var je *jsonrpc.Error
		if !errors.As(err, &je) || je.Code != mcp.CodeResourceNotFound || !strings.Contains(je.Message, want) {
			t.Errorf("%s: %v; want resource-not-found saying %q", uri, err, want)
		}
	}
	notFound("ctxpack://artifact/SPEC-NOPE", "SPEC-NOPE")
	notFound("ctxpack://artifact/..%2F..%2Fetc%2Fpasswd", "not an artifact's uri")
	notFound(uriPlan, "call the context tool first")

	res, msg := call(t, cs, "context", map[string]any{"target": "TASK-042", "budget": 600})
	if msg != "" {
		t.Fatal(msg)
	}
	var want app.Plan
	structured(t, res, &want)
	txt, err := readResource(cs, uriPlan)
	if err != nil {
		t.Fatal(err)
	}
	var got app.Plan
	if err := json.Unmarshal([]byte(txt), &got); err != nil || got.Digest != want.Digest {
		t.Errorf("last plan: digest %s, %v; want %s", got.Digest, err, want.Digest)
	}
}

// TestPlanPerSession: a session's last plan is its own.
func TestPlanPerSession(t *testing.T) {
	s, a := connect(t, Options{Dir: testProject(t)})
	ct, st := mcp.NewInMemoryTransports()
	ss, err := s.MCP().Connect(context.Background(), st, nil)
	if err != nil {
		t.Fatal(err)
	}
	b, err := mcp.NewClient(&mcp.Implementation{Name: "b", Version: "1"}, nil).Connect(context.Background(), ct, nil)
	if err != nil {
		t.Fatal(err)
	}
	defer func() { b.Close(); ss.Wait() }()
	if _, msg := call(t, a, "context", map[string]any{"target": "TASK-042"}); msg != "" {
		t.Fatal(msg)
	}
	if _, err := readResource(b, uriPlan); err == nil {
		t.Errorf("session b reads session a's plan")
	}
}

func TestPrompts(t *testing.T) {
	_, cs := connect(t, Options{Dir: testProject(t)})
	ctx := context.Background()
	list, err := cs.ListPrompts(ctx, nil)
	if err != nil {
		t.Fatal(err)
	}
	var names []string
	for _, p := range list.Prompts {
		names = append(names, p.Name)
	}
	slices.Sort(names)
	if want := []string{"explain_context", "review_against_norms", "work_on_task"}; !slices.Equal(names, want) {
		t.Errorf("prompts %v, want %v", names, want)
	}
	get := func(name string, args map[string]string) (string, error) {
		res, err := cs.GetPrompt(ctx, &mcp.GetPromptParams{Name: name, Arguments: args})
		if err != nil {
			return "", err
		}
		return res.Messages[0].Content.(*mcp.TextContent).Text, nil
	}
	tests := []struct {
		name    string
		args    map[string]string
		want    []string // parts of the message, or of the error
		wantErr bool
	}{
		{"work_on_task", map[string]string{"task": "TASK-042", "budget": "800"}, []string{"Work on TASK-042", "digest sha256:", "=== TASK: TASK-042 ==="}, false},
		{"work_on_task", map[string]string{"task": "TASK-999"}, []string{"TASK-999"}, true},
		{"work_on_task", map[string]string{"task": "src"}, []string{"wants a task id"}, true},
		{"work_on_task", map[string]string{"task": "TASK-042", "budget": "lots"}, []string{"budget must be a number"}, true},
		{"review_against_norms", map[string]string{"paths": "src", "budget": "2000"}, []string{"NORM-ERROR-001", "NORM-ASYNC-001", "src/"}, false},
		{"review_against_norms", map[string]string{"paths": "src,../.."}, []string{"outside the project root"}, true},
		{"review_against_norms", map[string]string{"paths": "/etc"}, []string{"absolute path is refused"}, true},
		{"explain_context", map[string]string{"target": "TASK-042", "budget": "300"}, []string{`"TASK-042"`, `"dropped"`, "links mode"}, false},
		{"explain_context", map[string]string{"target": ""}, []string{"needs a target"}, true},
	}
	for _, tt := range tests {
		got, err := get(tt.name, tt.args)
		var je *jsonrpc.Error
		switch {
		case tt.wantErr && err == nil:
			t.Errorf("%s %v: no error", tt.name, tt.args)
			continue
		case tt.wantErr && (!errors.As(err, &je) || je.Code != jsonrpc.CodeInvalidParams):
			t.Errorf("%s %v: %v; want an invalid-params error", tt.name, tt.args, err)
			continue
		case tt.wantErr:
			got = je.Message
		case err != nil:
			t.Errorf("%s %v: %v", tt.name, tt.args, err)
			continue
		}
		for _, w := range tt.want {
			if !strings.Contains(got, w) {
				t.Errorf("%s %v: %.300q lacks %q", tt.name, tt.args, got, w)
			}
		}
	}
}

func TestListenAddr(t *testing.T) {
	tests := []struct {
		addr  string
		token bool
		want  string // "" for an error
	}{
		{":8765", false, "127.0.0.1:8765"},
		{"8765", false, "127.0.0.1:8765"},
		{"localhost:0", false, "127.0.0.1:0"},
		{"127.0.0.1:9", false, "127.0.0.1:9"},
		{"[::1]:9", false, "[::1]:9"},
		{"0.0.0.0:9", false, ""},
		{"0.0.0.0:9", true, "0.0.0.0:9"},
		{"example.com:9", false, ""},
		{"a:b:c", false, ""},
	}
	for _, tt := range tests {
		got, err := ListenAddr(tt.addr, tt.token)
		if tt.want == "" && err == nil || tt.want != "" && got != tt.want {
			t.Errorf("ListenAddr(%q, %v) = %q, %v; want %q", tt.addr, tt.token, got, err, tt.want)
		}
	}
}

// TestRunIO: over standard input and output, every request read is
// answered even when the input ends right after it, a line that is not
// JSON or is too long gets an error and the session goes on.
func TestRunIO(t *testing.T) {
	s, err := New(Options{Dir: testProject(t), MaxRequestBytes: 1000})
	if err != nil {
		t.Fatal(err)
	}
	in := strings.Join([]string{
		`{"jsonrpc":"2.0","id":1,"method":"initialize","params":{"protocolVersion":"2025-06-18","capabilities":{},"clientInfo":{"name":"t","version":"1"}}}`,
		`{"jsonrpc":"2.0","method":"notifications/initialized"}`,
		`{"jsonrpc":"2.0","id":2,"method":"tools/call","params":{"name":"context","arguments":{"target":"TASK-042","budget":600}}}`,
		`not json`,
		``,
		`{"jsonrpc":"2.0","id":3,"method":"tools/call","params":{"name":"tokens","arguments":{"text":"` + strings.Repeat("a", 10_000) + `"}}}`,
		`{"jsonrpc":"2.0","id":4,"method":"tools/list"}`, // no newline after the last line
	}, "\n")
	var out strings.Builder
	if err := s.RunIO(context.Background(), strings.NewReader(in), &out); err != nil {
		t.Fatal(err)
	}
	answered := map[string]bool{}
	var codes []int
	for _, line := range strings.Split(strings.TrimSpace(out.String()), "\n") {
		var m struct {
			ID     json.RawMessage     `json:"id"`
			Error  *struct{ Code int } `json:"error"`
			Result json.RawMessage     `json:"result"`
		}
		if err := json.Unmarshal([]byte(line), &m); err != nil {
			t.Fatalf("output line %.100q: %v", line, err)
		}
		if string(m.ID) == "null" {
			codes = append(codes, m.Error.Code)
			continue
		}
		answered[string(m.ID)] = m.Result != nil
	}
	for _, id := range []string{"1", "2", "4"} {
		if !answered[id] {
			t.Errorf("request %s has no result: %v", id, answered)
		}
	}
	if answered["3"] {
		t.Errorf("the request over the size limit was answered")
	}
	slices.Sort(codes)
	if !slices.Equal(codes, []int{-32700, -32600}) {
		t.Errorf("error codes %v, want a parse error and an invalid request", codes)
	}
}

// TestShutdownSpareConnection: a connection that never sends a request
// (a client's spare one) does not hold the shutdown up; net/http would
// wait five seconds for it, longer than this shutdown may take.
func TestShutdownSpareConnection(t *testing.T) {
	s, err := New(Options{Dir: testProject(t), ShutdownTimeout: 3 * time.Second})
	if err != nil {
		t.Fatal(err)
	}
	ln, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	ctx, cancel := context.WithCancel(context.Background())
	done := make(chan error, 1)
	go func() { done <- s.ServeHTTP(ctx, ln, HTTPOptions{}) }()
	c, err := net.Dial("tcp", ln.Addr().String())
	if err != nil {
		t.Fatal(err)
	}
	defer c.Close()
	if _, err := c.Write([]byte("POST /mcp HTTP/1.1\r\nHost: 127.0.0.1\r\n")); err != nil { // half a request
		t.Fatal(err)
	}
	idle, err := net.Dial("tcp", ln.Addr().String())
	if err != nil {
		t.Fatal(err)
	}
	defer idle.Close()
	cancel()
	if err := <-done; err != nil {
		t.Errorf("ServeHTTP with a spare connection open: %v", err)
	}
}

// TestParseLines: only PATH:START-END, two decimal numbers after the last
// colon, is read as lines of a file; any other target is what it was.
func TestParseLines(t *testing.T) {
	tests := []struct {
		target string
		file   string
		lines  [2]int
		ok     bool
	}{
		{"src/a.py:7-11", "src/a.py", [2]int{7, 11}, true},
		{"a:b.py:1-2", "a:b.py", [2]int{1, 2}, true},
		{"a.py:9-7", "a.py", [2]int{9, 7}, true}, // Summarize checks the values
		{"a.py:0-0", "a.py", [2]int{0, 0}, true},
		{"a.py:1-99999999999999999999999", "a.py", [2]int{1, math.MaxInt}, true},
		{"a.py", "", [2]int{}, false},
		{"a.py:7", "", [2]int{}, false},
		{"a.py:7-", "", [2]int{}, false},
		{"a.py:-7", "", [2]int{}, false},
		{"a.py:+1-2", "", [2]int{}, false},
		{"a.py: 1-2", "", [2]int{}, false},
		{":1-2", "", [2]int{}, false},
		{"main.go: panic: runtime error", "", [2]int{}, false},
		{"TASK-042", "", [2]int{}, false},
	}
	for _, tt := range tests {
		file, lines, ok := parseLines(tt.target)
		if file != tt.file || lines != tt.lines || ok != tt.ok {
			t.Errorf("parseLines(%q) = %q, %v, %v; want %q, %v, %v", tt.target, file, lines, ok, tt.file, tt.lines, tt.ok)
		}
	}
}
