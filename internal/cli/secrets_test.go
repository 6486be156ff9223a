package cli

import (
	"encoding/json"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/ctxpack/ctxpack/internal/cli/cmdutil"
	"github.com/ctxpack/ctxpack/internal/fakesecrets"
)

// TestNoSecretLeaks is bench/secrets/run.sh in-process: the project of
// internal/fakesecrets (seed 1), with secrets of every kind it knows and
// values that only look like secrets, assembled by every mode of the CLI
// and through the MCP server's tools over stdio. No output may hold a
// secret; each must keep 90% of the look-alikes whose surroundings it
// shows, and the outputs of the whole project every look-alike.
func TestNoSecretLeaks(t *testing.T) {
	dir := filepath.Join(t.TempDir(), "project")
	p := fakesecrets.Generate(1)
	if err := p.Write(dir); err != nil {
		t.Fatal(err)
	}
	if err := p.Commit(dir); err != nil {
		t.Fatal(err)
	}
	m := p.Manifest()
	run := func(stdin string, args ...string) string {
		t.Helper()
		ios, out, errOut := cmdutil.Test(stdin)
		if code := Run(t.Context(), append([]string{"-C", dir}, args...), ios); code != 0 {
			t.Fatalf("ctxpack %s: exit %d: %s", strings.Join(args, " "), code, errOut)
		}
		return out.String()
	}
	for _, args := range m.Setup() {
		run("", args...)
	}
	run("", "index")

	// mcp is one session of `ctxpack serve` over stdio: initialize, then
	// one call of tool with args.
	mcp := func(tool string, args map[string]any) string {
		t.Helper()
		call, err := json.Marshal(map[string]any{"jsonrpc": "2.0", "id": 2, "method": "tools/call",
			"params": map[string]any{"name": tool, "arguments": args}})
		if err != nil {
			t.Fatal(err)
		}
		in := `{"jsonrpc":"2.0","id":1,"method":"initialize","params":{"protocolVersion":"2025-06-18","capabilities":{},"clientInfo":{"name":"test","version":"1"}}}` + "\n" +
			`{"jsonrpc":"2.0","method":"notifications/initialized"}` + "\n" + string(call) + "\n"
		out := run(in, "serve", "--log-level", "error")
		if !strings.Contains(out, `"id":2,"result"`) {
			t.Fatalf("mcp %s: no result: %.600s", tool, out)
		}
		return out
	}
	sources := []string{"code", "memories", "commits"}
	outputs := []struct {
		name string
		full bool // holds the whole project
		out  func() string
	}{
		{"pack", false, func() string { return run("", "pack", "--no-record") }}, // the default budget, 8000
		{"pack-8k", false, func() string { return run("", "pack", "--no-record", "--budget", "8000") }},
		// The whole project: its lock files (go.sum, web/package-lock.json)
		// are asked for.
		{"pack-all", true, func() string { return run("", "pack", "--no-record", "--overflow", "allow", "--include-generated") }},
		{"links", false, func() string { return run("", "context", m.Task, "--no-record") }},
		{"retrieval", false, func() string { return run("", "context", m.Query, "--no-record", "--budget", "32000") }},
		{"sources", false, func() string {
			return run("", "context", m.SourcesQuery, "--sources", strings.Join(sources, ","), "--no-record", "--budget", "16000")
		}},
		{"evidence", false, func() string {
			run("", "evidence", "assemble", "--budget", "32000")
			data, err := os.ReadFile(filepath.Join(dir, "build", "prompt.mdctx"))
			if err != nil {
				t.Fatal(err)
			}
			return string(data)
		}},
		{"mcp-pack", true, func() string {
			return mcp("context", map[string]any{"paths": []string{".", "go.sum", "web/package-lock.json"}, "overflow": "allow"})
		}},
		{"mcp-links", false, func() string { return mcp("context", map[string]any{"target": m.Task}) }},
		{"mcp-retrieval", false, func() string { return mcp("context", map[string]any{"target": m.Query, "budget": 32000}) }},
		{"mcp-sources", false, func() string {
			return mcp("context", map[string]any{"target": m.SourcesQuery, "sources": sources, "budget": 16000})
		}},
		{"mcp-evidence", false, func() string {
			return mcp("evidence", map[string]any{"action": "plan", "include_prompt": true, "budget": 32000})
		}},
	}
	table := fmt.Sprintf("\n%-14s %-18s %-22s %s\n", "output", "secrets leaked", "look-alikes kept", "in scope")
	for _, o := range outputs {
		s := m.Check(o.out())
		table += fmt.Sprintf("%-14s %-18s %-22s %d\n", o.name, fmt.Sprintf("%d/%d", len(s.Leaked), s.Secrets),
			fmt.Sprintf("%d/%d (%.0f%%)", s.KeptInScope, s.InScope, 100*s.KeptShare()), s.InScope)
		if len(s.Leaked) > 0 {
			t.Errorf("%s: %d/%d secrets leak, %d/%d kinds: %s", o.name, len(s.Leaked), s.Secrets,
				len(s.LeakedKinds()), len(m.Kinds()), strings.Join(s.LeakedKinds(), " "))
		}
		if s.KeptShare() < 0.9 {
			var lost []string
			for _, l := range s.Lost {
				lost = append(lost, l.Kind+" in "+l.Path)
			}
			t.Errorf("%s: keeps %d of the %d look-alikes in scope, under 90%%; lost: %s", o.name, s.KeptInScope, s.InScope, strings.Join(lost, ", "))
		}
		if o.full && s.InScope < s.LookAlikes {
			t.Errorf("%s: shows the surroundings of %d of the %d look-alikes: files with look-alikes were left out", o.name, s.InScope, s.LookAlikes)
		}
	}
	t.Log(table)
}
