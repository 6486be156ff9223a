package cli

import (
	"bufio"
	"bytes"
	"context"
	"crypto/rand"
	"encoding/json"
	"fmt"
	"io/fs"
	"maps"
	"net/http"
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"slices"
	"strings"
	"sync"
	"testing"
	"time"
)

// mcpclientDir holds the MCP client of TestMCPClient: package.json and its
// lock file pin the official TypeScript SDK, client.mjs drives a server
// with it.
const mcpclientDir = "../../testdata/mcpclient"

// mcpclientInstall is the command, run at the repository root, that
// installs the client's packages.
const mcpclientInstall = "npm ci --prefix testdata/mcpclient"

// mcpSDK is the npm package client.mjs is written against.
const mcpSDK = "@modelcontextprotocol/sdk"

// The example project, relative to this package, and its assemblies that
// the CLI and the server must agree on: a task (links mode), free text
// (retrieval mode) and a directory (pack mode).
const mcpExample = "../../examples/billing"

var mcpTargets = []struct {
	target string
	budget int
	mode   string
}{
	{"TASK-042", 600, "links"},
	{"invoice total rounding", 2000, "retrieval"},
	{"src", 1500, "pack"},
}

// The tools `ctxpack serve` lists; --read-only leaves out mcpWriteTools.
var (
	mcpReadTools  = []string{"context", "search", "artifacts", "tokens", "store", "evidence"}
	mcpWriteTools = []string{"index", "baseline", "store_edit", "evidence_edit"}
)

// TestMCPClient is the acceptance check of `ctxpack serve`: the official
// MCP client, the npm package @modelcontextprotocol/sdk driven by
// testdata/mcpclient/client.mjs, talks to the real ctxpack binary over
// stdio and over streamable HTTP (with and without a bearer token, and
// read-only over stdio). Each round lists the tools, resources, resource
// templates and prompts; calls every tool, reads every resource and gets
// every prompt; checks the error paths; and requires the context tool's
// digest to be the one `ctxpack context TARGET --budget N --format json`
// prints for the same target and budget, for a task, free text and a
// directory. No tool lists an outputSchema (an agent pays for tools/list in
// every session); the structured results are checked here.
//
// Every round works on its own copy of examples/billing, made without the
// generated files, where the CLI runs first (which builds the index the
// server then finds current); the CLI's assembly cache is removed before
// the server starts, so the server assembles each context itself.
//
// It needs node and the packages of testdata/mcpclient; without them it
// skips, saying how to install them, except when CI is "true": CI must
// never skip the check silently.
func TestMCPClient(t *testing.T) {
	node := requireMCPClient(t)
	start := time.Now()
	t.Cleanup(func() { t.Logf("wall time %s", time.Since(start).Round(time.Millisecond)) })
	bin := buildCtxpack(t)
	t.Logf("built ctxpack in %s", time.Since(start).Round(time.Millisecond))

	var mu sync.Mutex
	seen := map[string]string{} // target -> the CLI's digest in the first round that got it
	// project copies the example for one round and returns its directory
	// and the CLI's digest of each of mcpTargets there.
	project := func(t *testing.T) (string, map[string]string) {
		t.Helper()
		dir := filepath.Join(t.TempDir(), "billing")
		copyExample(t, mcpExample, dir)
		digests := cliDigests(t, bin, dir)
		if err := os.RemoveAll(filepath.Join(dir, ".ctxpack", "cache")); err != nil {
			t.Fatal(err)
		}
		mu.Lock()
		defer mu.Unlock()
		for target, d := range digests {
			if prev, ok := seen[target]; !ok {
				seen[target] = d
			} else if prev != d {
				t.Errorf("ctxpack context %q: digest %s here, %s on another copy of the same project", target, d, prev)
			}
		}
		return dir, digests
	}

	t.Run("stdio", func(t *testing.T) {
		t.Parallel()
		dir, digests := project(t)
		tr := map[string]any{"type": "stdio", "command": bin, "args": []string{"serve", "-C", dir}}
		exerciseServer(t, node, bin, tr, dir, digests, false)
	})

	t.Run("http", func(t *testing.T) {
		t.Parallel()
		dir, digests := project(t)
		srv := startHTTPServe(t, bin, "serve", "--http", "127.0.0.1:0", "-C", dir)
		exerciseServer(t, node, bin, map[string]any{"type": "http", "url": srv.url}, dir, digests, false)
		srv.stop(t)
	})

	t.Run("http-token", func(t *testing.T) {
		t.Parallel()
		dir, digests := project(t)
		tok := rand.Text()
		tokenFile := filepath.Join(t.TempDir(), "token")
		if err := os.WriteFile(tokenFile, []byte(tok+"\n"), 0o600); err != nil {
			t.Fatal(err)
		}
		srv := startHTTPServe(t, bin, "serve", "--http", "127.0.0.1:0", "--token-file", tokenFile, "-C", dir)

		// Without the token, or with another, the endpoint answers 401:
		// the SDK's client fails to connect, and so does a bare request.
		run := runMCPClient(t, node, map[string]any{"type": "http", "url": srv.url}, nil)
		if run.ConnectError == nil {
			t.Errorf("client without the token: connected, want HTTP 401")
		} else if code := string(run.ConnectError.Code); code != "401" {
			t.Errorf("client without the token: connect error code %s (%s), want 401", code, run.ConnectError.Message)
		}
		for _, auth := range []string{"", "Bearer wrong-" + tok, tok} {
			req, _ := http.NewRequestWithContext(t.Context(), http.MethodPost, srv.url, strings.NewReader(`{"jsonrpc":"2.0","id":1,"method":"ping"}`))
			req.Header.Set("Content-Type", "application/json")
			req.Header.Set("Accept", "application/json, text/event-stream")
			if auth != "" {
				req.Header.Set("Authorization", auth)
			}
			resp, err := http.DefaultClient.Do(req)
			if err != nil {
				t.Fatal(err)
			}
			resp.Body.Close()
			if resp.StatusCode != http.StatusUnauthorized || !strings.HasPrefix(resp.Header.Get("WWW-Authenticate"), "Bearer") {
				t.Errorf("POST %s with Authorization %q: status %d, WWW-Authenticate %q; want 401 and a Bearer challenge",
					srv.url, strings.ReplaceAll(auth, tok, "TOKEN"), resp.StatusCode, resp.Header.Get("WWW-Authenticate"))
			}
		}

		// With it, everything works.
		exerciseServer(t, node, bin, map[string]any{"type": "http", "url": srv.url, "token": tok}, dir, digests, false)
		srv.stop(t)
	})

	t.Run("stdio-read-only", func(t *testing.T) {
		t.Parallel()
		dir, digests := project(t)
		before := snapshotTree(t, dir)
		tr := map[string]any{"type": "stdio", "command": bin, "args": []string{"serve", "--read-only", "-C", dir}}
		exerciseServer(t, node, bin, tr, dir, digests, true)
		after := snapshotTree(t, dir)
		// SQLite's companions of the index are the one exception, as
		// serve --help says: a read-only (mode=ro) connection to an index
		// in WAL mode creates index.db-wal and index.db-shm (so does the
		// CLI with --no-update). The index itself, the records, the cache
		// and everything else must stay as they were.
		for _, f := range []string{".ctxpack/index.db-wal", ".ctxpack/index.db-shm"} {
			if _, ok := before[f]; !ok {
				if _, ok := after[f]; ok {
					t.Logf("serve --read-only left SQLite's %s (%d bytes) under the project", f, len(after[f]))
					delete(after, f)
				}
			}
		}
		if !maps.Equal(before, after) {
			t.Errorf("serve --read-only changed the project:\n%s", diffTrees(before, after))
		}
	})
}

// mcpStep is one step of client.mjs's script, with what the test checks
// of its result.
type mcpStep struct {
	Tool      string         `json:"tool,omitempty"`
	Resource  string         `json:"resource,omitempty"`
	Prompt    string         `json:"prompt,omitempty"`
	Arguments map[string]any `json:"arguments,omitempty"`
	check     func(t *testing.T, r mcpResult)
}

// mcpRun is what client.mjs prints.
type mcpRun struct {
	Transport    string    `json:"transport"`
	ConnectError *mcpError `json:"connectError"`
	Server       struct {
		Name    string `json:"name"`
		Version string `json:"version"`
	} `json:"server"`
	Tools []struct {
		Name            string `json:"name"`
		HasOutputSchema bool   `json:"hasOutputSchema"`
		ReadOnlyHint    *bool  `json:"readOnlyHint"`
	} `json:"tools"`
	Resources         []string    `json:"resources"`
	ResourceTemplates []string    `json:"resourceTemplates"`
	Prompts           []string    `json:"prompts"`
	Results           []mcpResult `json:"results"`
	TerminateError    *mcpError   `json:"terminateError"`
}

// mcpResult is the result of one step.
type mcpResult struct {
	Kind              string          `json:"kind"`
	Name              string          `json:"name"`
	URI               string          `json:"uri"`
	IsError           bool            `json:"isError"`
	Text              string          `json:"text"`
	StructuredContent json.RawMessage `json:"structuredContent"`
	Contents          []struct {
		URI      string `json:"uri"`
		MIMEType string `json:"mimeType"`
		Text     string `json:"text"`
	} `json:"contents"`
	Description string `json:"description"`
	Messages    []struct {
		Role string `json:"role"`
		Text string `json:"text"`
	} `json:"messages"`
	Error *mcpError `json:"error"`
}

// mcpError is a protocol error (code: the JSON-RPC code), or a failed
// connection (code: the HTTP status, when there was one).
type mcpError struct {
	Code    json.RawMessage `json:"code"`
	Message string          `json:"message"`
}

func (r mcpResult) String() string {
	what := r.Kind + " " + r.Name + r.URI
	if r.Error != nil {
		return fmt.Sprintf("%s: protocol error %s: %s", what, r.Code(), r.Error.Message)
	}
	if r.IsError {
		return fmt.Sprintf("%s: tool error: %s", what, r.Text)
	}
	return what
}

// Code is the JSON-RPC code of a protocol error, or "".
func (r mcpResult) Code() string {
	if r.Error == nil {
		return ""
	}
	return string(r.Error.Code)
}

// ok fails unless the step succeeded.
func (r mcpResult) ok(t *testing.T) bool {
	t.Helper()
	if r.Error != nil || r.IsError {
		t.Errorf("%s", r)
		return false
	}
	return true
}

// structured decodes a tool's structured content into v.
func (r mcpResult) structured(t *testing.T, v any) bool {
	t.Helper()
	if !r.ok(t) {
		return false
	}
	if len(r.StructuredContent) == 0 || string(r.StructuredContent) == "null" {
		t.Errorf("%s: no structuredContent", r)
		return false
	}
	if err := json.Unmarshal(r.StructuredContent, v); err != nil {
		t.Errorf("%s: structuredContent: %v", r, err)
		return false
	}
	return true
}

// resourceText is the text of a resource's one content.
func (r mcpResult) resourceText(t *testing.T) (string, bool) {
	t.Helper()
	if !r.ok(t) {
		return "", false
	}
	if len(r.Contents) != 1 || r.Contents[0].URI != r.URI {
		t.Errorf("%s: contents %+v, want one, of that uri", r, r.Contents)
		return "", false
	}
	return r.Contents[0].Text, true
}

// promptText is the text of a prompt's one user message.
func (r mcpResult) promptText(t *testing.T) (string, bool) {
	t.Helper()
	if !r.ok(t) {
		return "", false
	}
	if len(r.Messages) != 1 || r.Messages[0].Role != "user" {
		t.Errorf("%s: messages %+v, want one user message", r, r.Messages)
		return "", false
	}
	return r.Messages[0].Text, true
}

// mcpPlan is the part of an assembly plan the test reads.
type mcpPlan struct {
	Mode        string `json:"mode"`
	Target      string `json:"target"`
	Budget      int    `json:"budget"`
	TotalTokens int    `json:"total_tokens"`
	Digest      string `json:"digest"`
	Parts       []struct {
		Path string `json:"path"`
	} `json:"parts"`
}

// exerciseServer runs one round of client.mjs against the server that
// transport reaches, serving the project in dir, and checks everything it
// got; bin is the ctxpack binary, digests the CLI's for mcpTargets.
func exerciseServer(t *testing.T, node, bin string, transport map[string]any, dir string, digests map[string]string, readOnly bool) {
	t.Helper()
	var steps []mcpStep
	add := func(s mcpStep) { steps = append(steps, s) }

	// No plan yet in this session.
	add(mcpStep{Resource: "ctxpack://plan/last", check: func(t *testing.T, r mcpResult) {
		if r.Error == nil || !strings.Contains(r.Error.Message, "call the context tool first") {
			t.Errorf("%s before any context: %s, want an error saying to call context first", r.URI, r)
		}
	}})

	// context: the CLI's digest for each target; the session's last plan
	// is the one just assembled.
	for _, tg := range mcpTargets {
		want := digests[tg.target]
		add(mcpStep{Tool: "context", Arguments: map[string]any{"target": tg.target, "budget": tg.budget, "format": "json"}, check: func(t *testing.T, r mcpResult) {
			var plan mcpPlan
			if !r.structured(t, &plan) {
				return
			}
			if plan.Digest != want {
				t.Errorf("context %q budget %d: digest %s, the CLI's is %s", tg.target, tg.budget, plan.Digest, want)
			} else {
				t.Logf("context %q (%s, budget %d): digest %s, equal to the CLI's", tg.target, plan.Mode, tg.budget, plan.Digest)
			}
			if plan.Mode != tg.mode || plan.Budget != tg.budget || plan.TotalTokens > tg.budget {
				t.Errorf("context %q: mode %s, budget %d, %d tokens; want mode %s within budget %d", tg.target, plan.Mode, plan.Budget, plan.TotalTokens, tg.mode, tg.budget)
			}
			// format json: the text content is the CLI's JSON, with the same digest.
			var text mcpPlan
			if err := json.Unmarshal([]byte(r.Text), &text); err != nil || text.Digest != want {
				t.Errorf("context %q: text content is not the JSON plan with digest %s (%v): %.200s", tg.target, want, err, r.Text)
			}
		}})
		add(mcpStep{Resource: "ctxpack://plan/last", check: checkPlanResource(want)})
	}

	add(mcpStep{Tool: "search", Arguments: map[string]any{"query": "invoice total"}, check: func(t *testing.T, r mcpResult) {
		var out struct {
			Results []struct {
				Path string `json:"path"`
			} `json:"results"`
		}
		if r.structured(t, &out) && (len(out.Results) == 0 || !slices.ContainsFunc(out.Results, func(h struct {
			Path string `json:"path"`
		}) bool {
			return h.Path == "src/billing/invoice/generator.py"
		})) {
			t.Errorf("search invoice total: %d results, want src/billing/invoice/generator.py among them: %s", len(out.Results), r.StructuredContent)
		}
	}})
	add(mcpStep{Tool: "artifacts", Arguments: map[string]any{"action": "show", "id": "SPEC-BILLING-001"}, check: func(t *testing.T, r mcpResult) {
		var out struct {
			ID    string `json:"id"`
			Level string `json:"level"`
		}
		if r.structured(t, &out) && (out.ID != "SPEC-BILLING-001" || out.Level != "full" || !strings.Contains(r.Text, "SPEC-BILLING-001")) {
			t.Errorf("show SPEC-BILLING-001: id %q level %q, text %.100q", out.ID, out.Level, r.Text)
		}
	}})
	var listed []string // the ids the list tool gives, checked against the resources
	add(mcpStep{Tool: "artifacts", Arguments: map[string]any{"action": "list"}, check: func(t *testing.T, r mcpResult) {
		var out struct {
			Artifacts []struct {
				ID string `json:"id"`
			} `json:"artifacts"`
		}
		if !r.structured(t, &out) {
			return
		}
		for _, a := range out.Artifacts {
			listed = append(listed, a.ID)
		}
		for _, id := range []string{"TASK-042", "TASK-043", "SPEC-BILLING-001", "DEC-BILLING-001", "NORM-ERROR-001"} {
			if !slices.Contains(listed, id) {
				t.Errorf("list: %s is not among %v", id, listed)
			}
		}
	}})
	add(mcpStep{Tool: "artifacts", Arguments: map[string]any{"action": "check"}, check: func(t *testing.T, r mcpResult) {
		var out struct {
			Summary struct {
				OK     bool `json:"ok"`
				Errors int  `json:"errors"`
				Specs  int  `json:"specs"`
			} `json:"summary"`
		}
		if r.structured(t, &out) && (!out.Summary.OK || out.Summary.Errors != 0 || out.Summary.Specs != 3) {
			t.Errorf("check: %s, want ok with 3 specs and no errors", r.StructuredContent)
		}
	}})
	add(mcpStep{Tool: "artifacts", Arguments: map[string]any{"action": "explain", "task": "TASK-042", "id": "NORM-ERROR-001"}, check: func(t *testing.T, r mcpResult) {
		var out struct {
			Artifact string `json:"artifact"`
			In       bool   `json:"in"`
		}
		if r.structured(t, &out) && (out.Artifact != "NORM-ERROR-001" || !out.In || !strings.Contains(r.Text, "NORM-ERROR-001")) {
			t.Errorf("explain TASK-042 NORM-ERROR-001: %s, text %q; want it in, through a link chain", r.StructuredContent, r.Text)
		}
	}})
	add(mcpStep{Tool: "tokens", Arguments: map[string]any{"paths": []string{"src"}}, check: func(t *testing.T, r mcpResult) {
		var out struct {
			Files []struct {
				Path   string `json:"path"`
				Tokens int    `json:"tokens"`
			} `json:"files"`
			Total int `json:"total"`
		}
		if !r.structured(t, &out) {
			return
		}
		var cli strings.Builder
		for _, f := range out.Files {
			fmt.Fprintf(&cli, "%d\t%s\n", f.Tokens, f.Path)
		}
		fmt.Fprintf(&cli, "%d\ttotal\n", out.Total)
		if want := runCtxpack(t, bin, "-C", dir, "tokens", "src"); cli.String() != want {
			t.Errorf("tokens src: the server counts\n%s\nthe CLI\n%s", cli.String(), want)
		}
	}})
	add(mcpStep{Tool: "context", Arguments: map[string]any{"paths": []string{"src"}, "budget": 1000}, check: func(t *testing.T, r mcpResult) {
		var plan mcpPlan
		if r.structured(t, &plan) && (plan.Mode != "pack" || plan.Budget != 1000 || plan.TotalTokens > 1000 || len(plan.Parts) == 0 || !strings.HasPrefix(plan.Digest, "sha256:")) {
			t.Errorf("pack src budget 1000: mode %s, budget %d, %d tokens, %d parts, digest %q", plan.Mode, plan.Budget, plan.TotalTokens, len(plan.Parts), plan.Digest)
		}
	}})
	add(mcpStep{Resource: "ctxpack://plan/last", check: func(t *testing.T, r mcpResult) {
		// The pack just before: its plan.
		text, ok := r.resourceText(t)
		var plan mcpPlan
		if ok && (json.Unmarshal([]byte(text), &plan) != nil || plan.Mode != "pack" || plan.Budget != 1000) {
			t.Errorf("%s after pack: %.200s, want the pack's plan", r.URI, text)
		}
	}})
	add(mcpStep{Tool: "store", Arguments: map[string]any{"action": "list", "kind": "memory"}, check: func(t *testing.T, r mcpResult) {
		var out struct {
			Items []json.RawMessage `json:"items"`
		}
		if r.structured(t, &out) && out.Items == nil {
			t.Errorf("store list memory: %s, want the items", r.StructuredContent)
		}
	}})
	add(mcpStep{Tool: "evidence", Arguments: map[string]any{"action": "stale"}, check: func(t *testing.T, r mcpResult) {
		if !r.IsError || !strings.Contains(r.Text, "no such workspace") {
			t.Errorf("evidence stale without a workspace: %s (text %q), want a tool error saying there is none", r, r.Text)
		}
	}})
	if readOnly {
		for _, tool := range mcpWriteTools {
			add(mcpStep{Tool: tool, Arguments: map[string]any{}, check: func(t *testing.T, r mcpResult) {
				msg := r.Text
				if r.Error != nil {
					msg = r.Error.Message
				}
				if r.Error == nil && !r.IsError || !strings.Contains(msg, tool) {
					t.Errorf("%s under --read-only: %s, want an error naming the tool", tool, r)
				}
			}})
		}
	} else {
		add(mcpStep{Tool: "index", Arguments: map[string]any{}, check: func(t *testing.T, r mcpResult) {
			var out struct {
				Index     string `json:"index"`
				Files     int    `json:"files"`
				Chunks    int    `json:"chunks"`
				StateRoot string `json:"state_root"`
			}
			if r.structured(t, &out) && (out.Index != ".ctxpack/index.db" || out.Files == 0 || out.Chunks == 0 || !strings.HasPrefix(out.StateRoot, "sha256:")) {
				t.Errorf("index: %s", r.StructuredContent)
			}
		}})
		add(mcpStep{Tool: "store_edit", Arguments: map[string]any{"action": "add", "memory": map[string]any{"content": "Invoices round half to even."}}, check: func(t *testing.T, r mcpResult) {
			var out struct {
				Content string `json:"content"`
			}
			if r.structured(t, &out) && out.Content != "Invoices round half to even." {
				t.Errorf("store_edit add memory: %s", r.StructuredContent)
			}
		}})
		add(mcpStep{Tool: "evidence_edit", Arguments: map[string]any{"action": "add", "selector": "src/billing/invoice/generator.py::1,5"}, check: func(t *testing.T, r mcpResult) {
			var out struct {
				Tokens int `json:"tokens"`
			}
			if r.structured(t, &out) && out.Tokens == 0 {
				t.Errorf("evidence_edit add: %s", r.StructuredContent)
			}
		}})
		add(mcpStep{Tool: "baseline", Arguments: map[string]any{}, check: func(t *testing.T, r mcpResult) {
			var out struct {
				Findings *int   `json:"findings"`
				Baseline string `json:"baseline"`
			}
			if r.structured(t, &out) && (out.Findings == nil || *out.Findings != 0 || out.Baseline == "") {
				t.Errorf("baseline: %s, want 0 findings and the baseline's path", r.StructuredContent)
			} else if out.Baseline != "" {
				if _, err := os.Stat(filepath.Join(dir, filepath.FromSlash(out.Baseline))); err != nil {
					t.Errorf("baseline: %v", err)
				}
			}
		}})
	}

	// Errors a model can act on.
	add(mcpStep{Tool: "artifacts", Arguments: map[string]any{"action": "show", "id": "NOPE-404"}, check: func(t *testing.T, r mcpResult) {
		if !r.IsError || !strings.Contains(r.Text, "NOPE-404") {
			t.Errorf("show NOPE-404: %s (text %q), want a tool error naming NOPE-404", r, r.Text)
		}
	}})
	add(mcpStep{Tool: "context", Arguments: map[string]any{"target": "../..", "format": "json"}, check: func(t *testing.T, r mcpResult) {
		if !r.IsError || !strings.Contains(r.Text, "outside the project root") {
			t.Errorf("context ../..: %s (text %q), want a tool error saying it is outside the project root", r, r.Text)
		}
		if strings.Contains(r.Text, dir) {
			t.Errorf("context ../..: the error shows the server's path: %s", r.Text)
		}
	}})

	// Resources.
	add(mcpStep{Resource: "ctxpack://identity", check: func(t *testing.T, r mcpResult) {
		if text, ok := r.resourceText(t); ok && !strings.Contains(text, "acme-billing") {
			t.Errorf("%s: %.200q, want the identity of acme-billing", r.URI, text)
		}
	}})
	add(mcpStep{Resource: "ctxpack://artifacts", check: func(t *testing.T, r mcpResult) {
		text, ok := r.resourceText(t)
		if !ok {
			return
		}
		var list []struct {
			ID string `json:"id"`
		}
		if err := json.Unmarshal([]byte(text), &list); err != nil || !slices.ContainsFunc(list, func(a struct {
			ID string `json:"id"`
		}) bool {
			return a.ID == "TASK-042"
		}) {
			t.Errorf("%s: %.200q (%v), want a JSON list with TASK-042", r.URI, text, err)
		}
	}})
	add(mcpStep{Resource: "ctxpack://artifact/TASK-042", check: func(t *testing.T, r mcpResult) {
		if text, ok := r.resourceText(t); ok && !strings.Contains(text, "Add multi-currency support to invoice generation") {
			t.Errorf("%s: %.200q, want TASK-042 in full", r.URI, text)
		}
	}})
	add(mcpStep{Resource: "ctxpack://artifact/NOPE-404", check: func(t *testing.T, r mcpResult) {
		if r.Error == nil || !strings.Contains(r.Error.Message, "NOPE-404") {
			t.Errorf("%s: %s, want a protocol error naming NOPE-404", r.URI, r)
		}
	}})

	// Prompts: each assembles as the context tool does.
	taskDigest := digests["TASK-042"]
	add(mcpStep{Prompt: "work_on_task", Arguments: map[string]any{"task": "TASK-042", "budget": "600"}, check: func(t *testing.T, r mcpResult) {
		if text, ok := r.promptText(t); ok && (!strings.Contains(text, "Work on TASK-042") || !strings.Contains(text, "digest "+taskDigest)) {
			t.Errorf("work_on_task TASK-042 budget 600: %.300q, want the task's context with the CLI's digest %s", text, taskDigest)
		}
	}})
	add(mcpStep{Resource: "ctxpack://plan/last", check: checkPlanResource(taskDigest)})
	add(mcpStep{Prompt: "review_against_norms", Arguments: map[string]any{"paths": "src", "budget": "1000"}, check: func(t *testing.T, r mcpResult) {
		if text, ok := r.promptText(t); ok && (!strings.Contains(text, "NORM-ERROR-001") || !strings.Contains(text, "NORM-ASYNC-001") || !strings.Contains(text, "src/billing/invoice/generator.py")) {
			t.Errorf("review_against_norms src: %.300q, want both norms and the code of src", text)
		}
	}})
	add(mcpStep{Prompt: "explain_context", Arguments: map[string]any{"target": "TASK-042", "budget": "600"}, check: func(t *testing.T, r mcpResult) {
		if text, ok := r.promptText(t); ok && (!strings.Contains(text, `"TASK-042" (links mode)`) || !strings.Contains(text, taskDigest)) {
			t.Errorf("explain_context TASK-042 budget 600: %.300q, want the plan with the CLI's digest %s", text, taskDigest)
		}
	}})
	add(mcpStep{Prompt: "work_on_task", Arguments: map[string]any{"task": "NOPE-404"}, check: func(t *testing.T, r mcpResult) {
		if r.Error == nil || !strings.Contains(r.Error.Message, "NOPE-404") {
			t.Errorf("work_on_task NOPE-404: %s, want a protocol error naming NOPE-404", r)
		}
	}})

	run := runMCPClient(t, node, transport, steps)
	if run.ConnectError != nil {
		t.Fatalf("client.mjs could not connect: %s (code %s)", run.ConnectError.Message, run.ConnectError.Code)
	}
	if run.Server.Name != "ctxpack" {
		t.Errorf("server name %q, want ctxpack", run.Server.Name)
	}
	if run.TerminateError != nil {
		t.Errorf("ending the HTTP session: %s", run.TerminateError.Message)
	}

	// What the server lists.
	wantTools := slices.Clone(mcpReadTools)
	if !readOnly {
		wantTools = append(wantTools, mcpWriteTools...)
	}
	var tools []string
	for _, tool := range run.Tools {
		tools = append(tools, tool.Name)
		if tool.HasOutputSchema {
			t.Errorf("tool %s lists an outputSchema, which every session pays for", tool.Name)
		}
		if ro := tool.ReadOnlyHint; ro == nil || *ro != slices.Contains(mcpReadTools, tool.Name) {
			t.Errorf("tool %s: readOnlyHint %v, want %v", tool.Name, ro, slices.Contains(mcpReadTools, tool.Name))
		}
	}
	if !sameSet(tools, wantTools) {
		t.Errorf("tools %v, want %v", tools, wantTools)
	}
	for _, uri := range []string{"ctxpack://identity", "ctxpack://artifacts", "ctxpack://plan/last", "ctxpack://artifact/TASK-042"} {
		if !slices.Contains(run.Resources, uri) {
			t.Errorf("resources %v: %s is missing", run.Resources, uri)
		}
	}
	if !sameSet(run.ResourceTemplates, []string{"ctxpack://artifact/{id}"}) {
		t.Errorf("resource templates %v, want ctxpack://artifact/{id}", run.ResourceTemplates)
	}
	if want := []string{"work_on_task", "review_against_norms", "explain_context"}; !sameSet(run.Prompts, want) {
		t.Errorf("prompts %v, want %v", run.Prompts, want)
	}

	if len(run.Results) != len(steps) {
		t.Fatalf("client.mjs gave %d results for %d steps", len(run.Results), len(steps))
	}
	for i, s := range steps {
		r := run.Results[i]
		if r.Name != s.Tool+s.Prompt || r.URI != s.Resource {
			t.Fatalf("result %d is %s, want the step %+v", i, r, s)
		}
		s.check(t, r)
	}

	// Each artifact the list tool gives is a resource, and no other.
	var artifacts []string
	for _, uri := range run.Resources {
		if id, ok := strings.CutPrefix(uri, "ctxpack://artifact/"); ok {
			artifacts = append(artifacts, id)
		}
	}
	if !sameSet(artifacts, listed) {
		t.Errorf("artifact resources %v, the list tool's artifacts %v", artifacts, listed)
	}
	t.Logf("%s: server %s %s, tools %v, %d resources, prompts %v, %d steps checked",
		run.Transport, run.Server.Name, run.Server.Version, tools, len(run.Resources), run.Prompts, len(steps))
}

// checkPlanResource checks that ctxpack://plan/last is the plan with
// digest want.
func checkPlanResource(want string) func(t *testing.T, r mcpResult) {
	return func(t *testing.T, r mcpResult) {
		text, ok := r.resourceText(t)
		if !ok {
			return
		}
		var plan mcpPlan
		if err := json.Unmarshal([]byte(text), &plan); err != nil || plan.Digest != want {
			t.Errorf("%s: digest %q (%v), want the last context's, %s", r.URI, plan.Digest, err, want)
		}
	}
}

// runMCPClient runs client.mjs with the transport and steps, and returns
// what it printed.
func runMCPClient(t *testing.T, node string, transport map[string]any, steps []mcpStep) mcpRun {
	t.Helper()
	script, err := json.Marshal(map[string]any{"transport": transport, "steps": steps})
	if err != nil {
		t.Fatal(err)
	}
	client, err := filepath.Abs(filepath.Join(mcpclientDir, "client.mjs"))
	if err != nil {
		t.Fatal(err)
	}
	ctx, cancel := context.WithTimeout(t.Context(), 2*time.Minute)
	defer cancel()
	cmd := exec.CommandContext(ctx, node, client)
	cmd.Stdin = bytes.NewReader(script)
	var stdout, stderr bytes.Buffer
	cmd.Stdout, cmd.Stderr = &stdout, &stderr
	cmd.WaitDelay = 5 * time.Second
	start := time.Now()
	err = cmd.Run()
	if err != nil {
		t.Fatalf("node client.mjs: %v\nscript: %s\nstderr:\n%s", err, script, stderr.String())
	}
	var run mcpRun
	if err := json.Unmarshal(stdout.Bytes(), &run); err != nil {
		t.Fatalf("client.mjs printed no JSON document (%v):\n%s\nstderr:\n%s", err, stdout.String(), stderr.String())
	}
	t.Logf("client.mjs over %s: %d steps in %s", transport["type"], len(steps), time.Since(start).Round(time.Millisecond))
	t.Cleanup(func() {
		if t.Failed() {
			t.Logf("client.mjs stderr (with the stdio server's log):\n%s", stderr.String())
		}
	})
	return run
}

// httpServe is a `ctxpack serve --http` subprocess.
type httpServe struct {
	cmd    *exec.Cmd
	url    string
	mu     sync.Mutex
	log    bytes.Buffer  // its standard error
	exited chan struct{} // closed when it has exited, and err is its Wait
	err    error
}

func (s *httpServe) stderr() string {
	s.mu.Lock()
	defer s.mu.Unlock()
	return s.log.String()
}

var serveURL = regexp.MustCompile(`\bmsg=serving url=(http://\S+)`)

// startHTTPServe starts `bin args...` and waits for the line of its log
// that gives its URL.
func startHTTPServe(t *testing.T, bin string, args ...string) *httpServe {
	t.Helper()
	s := &httpServe{exited: make(chan struct{})}
	s.cmd = exec.CommandContext(t.Context(), bin, args...)
	s.cmd.WaitDelay = 10 * time.Second
	pipe, err := s.cmd.StderrPipe()
	if err != nil {
		t.Fatal(err)
	}
	if err := s.cmd.Start(); err != nil {
		t.Fatal(err)
	}
	urls := make(chan string, 1)
	go func() {
		defer close(s.exited)
		sc := bufio.NewScanner(pipe)
		for sc.Scan() {
			line := sc.Text()
			s.mu.Lock()
			s.log.WriteString(line + "\n")
			s.mu.Unlock()
			if m := serveURL.FindStringSubmatch(line); m != nil {
				select {
				case urls <- m[1]:
				default:
				}
			}
		}
		s.err = s.cmd.Wait() // once its standard error is read to the end
	}()
	t.Cleanup(func() {
		select {
		case <-s.exited:
		default: // not stopped: the test failed before
			s.cmd.Process.Kill()
			<-s.exited
		}
		if t.Failed() {
			t.Logf("ctxpack %s log:\n%s", strings.Join(args, " "), s.stderr())
		}
	})
	select {
	case s.url = <-urls:
	case <-s.exited:
		t.Fatalf("ctxpack %s ended without serving:\n%s", strings.Join(args, " "), s.stderr())
	case <-time.After(30 * time.Second):
		t.Fatalf("ctxpack %s did not say where it serves in 30s:\n%s", strings.Join(args, " "), s.stderr())
	}
	if !strings.HasSuffix(s.url, "/mcp") {
		t.Fatalf("ctxpack serve: url %s, want the /mcp endpoint", s.url)
	}
	return s
}

// stop sends SIGINT and checks the shutdown is graceful: exit 0, after
// logging that it stopped.
func (s *httpServe) stop(t *testing.T) {
	t.Helper()
	if err := s.cmd.Process.Signal(os.Interrupt); err != nil {
		t.Fatal(err)
	}
	select {
	case <-s.exited:
		if s.err != nil {
			t.Errorf("ctxpack serve after SIGINT: %v, want exit 0", s.err)
		}
	case <-time.After(30 * time.Second):
		t.Fatalf("ctxpack serve did not stop within 30s of SIGINT")
	}
	log := s.stderr()
	if !strings.Contains(log, "msg=stopped") {
		t.Errorf("ctxpack serve did not log that it stopped:\n%s", log)
	}
	if strings.Contains(log, "level=ERROR") {
		t.Errorf("ctxpack serve logged an error:\n%s", log)
	}
}

// cliDigests runs `ctxpack -C dir context TARGET --budget N --format json`
// for each of mcpTargets and returns the digests.
func cliDigests(t *testing.T, bin, dir string) map[string]string {
	t.Helper()
	digests := map[string]string{}
	for _, tg := range mcpTargets {
		out := runCtxpack(t, bin, "-C", dir, "context", tg.target, "--budget", fmt.Sprint(tg.budget), "--format", "json")
		var plan mcpPlan
		if err := json.Unmarshal([]byte(out), &plan); err != nil {
			t.Fatalf("ctxpack context %q --format json: %v", tg.target, err)
		}
		if plan.Mode != tg.mode || !strings.HasPrefix(plan.Digest, "sha256:") {
			t.Fatalf("ctxpack context %q: mode %q digest %q, want mode %s and a digest", tg.target, plan.Mode, plan.Digest, tg.mode)
		}
		digests[tg.target] = plan.Digest
	}
	return digests
}

// runCtxpack runs the built binary and returns its standard output.
func runCtxpack(t *testing.T, bin string, args ...string) string {
	t.Helper()
	cmd := exec.CommandContext(t.Context(), bin, args...)
	cmd.Dir = t.TempDir() // nothing may depend on the working directory
	var stderr bytes.Buffer
	cmd.Stderr = &stderr
	out, err := cmd.Output()
	if err != nil {
		t.Fatalf("ctxpack %s: %v\n%s", strings.Join(args, " "), err, stderr.String())
	}
	return string(out)
}

// buildCtxpack builds ./cmd/ctxpack of this module into a temporary
// directory and returns its path.
func buildCtxpack(t *testing.T) string {
	t.Helper()
	root := filepath.Dir(goEnv(t, "GOMOD"))
	bin := filepath.Join(t.TempDir(), "ctxpack")
	cmd := exec.CommandContext(t.Context(), "go", "build", "-o", bin, "./cmd/ctxpack")
	cmd.Dir = root
	if out, err := cmd.CombinedOutput(); err != nil {
		t.Fatalf("go build ./cmd/ctxpack: %v\n%s", err, out)
	}
	return bin
}

// copyExample copies the project src to dst, without the files ctxpack
// generates (the index, the budget records, the caches).
func copyExample(t *testing.T, src, dst string) {
	t.Helper()
	err := filepath.WalkDir(src, func(p string, d fs.DirEntry, err error) error {
		if err != nil {
			return err
		}
		rel, err := filepath.Rel(src, p)
		if err != nil {
			return err
		}
		rel = filepath.ToSlash(rel)
		name := d.Name()
		switch {
		case rel == ".ctxpack/cache":
			return filepath.SkipDir
		case strings.HasPrefix(rel, ".ctxpack/") && !strings.Contains(strings.TrimPrefix(rel, ".ctxpack/"), "/") &&
			(strings.HasPrefix(name, "index.db") || strings.HasPrefix(name, "records.jsonl")):
			return nil
		case d.IsDir():
			return os.MkdirAll(filepath.Join(dst, rel), 0o755)
		case !d.Type().IsRegular():
			return fmt.Errorf("%s: not a regular file", p)
		}
		data, err := os.ReadFile(p)
		if err != nil {
			return err
		}
		return os.WriteFile(filepath.Join(dst, rel), data, 0o644)
	})
	if err != nil {
		t.Fatal(err)
	}
}

// snapshotTree maps each file under dir to its content.
func snapshotTree(t *testing.T, dir string) map[string]string {
	t.Helper()
	files := map[string]string{}
	err := filepath.WalkDir(dir, func(p string, d fs.DirEntry, err error) error {
		if err != nil || d.IsDir() {
			return err
		}
		data, err := os.ReadFile(p)
		rel, _ := filepath.Rel(dir, p)
		files[filepath.ToSlash(rel)] = string(data)
		return err
	})
	if err != nil {
		t.Fatal(err)
	}
	return files
}

// diffTrees says which files were added, removed or changed.
func diffTrees(before, after map[string]string) string {
	var lines []string
	for k, v := range after {
		if w, ok := before[k]; !ok {
			lines = append(lines, "added "+k)
		} else if w != v {
			lines = append(lines, "changed "+k)
		}
	}
	for k := range before {
		if _, ok := after[k]; !ok {
			lines = append(lines, "removed "+k)
		}
	}
	slices.Sort(lines)
	return strings.Join(lines, "\n")
}

// sameSet reports whether a and b hold the same strings, in any order.
func sameSet(a, b []string) bool {
	a, b = slices.Clone(a), slices.Clone(b)
	slices.Sort(a)
	slices.Sort(b)
	return slices.Equal(a, b)
}

// requireMCPClient returns the path of node once it has checked that the
// client's SDK is installed; see requireNodePackages.
func requireMCPClient(t *testing.T) (node string) {
	t.Helper()
	return requireNodePackages(t, mcpclientDir, mcpclientInstall, mcpSDK)
}
