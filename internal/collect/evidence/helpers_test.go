package evidence

import (
	"context"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"testing"

	workspace "github.com/ctxpack/ctxpack/internal/evidence"
	"github.com/ctxpack/ctxpack/internal/pack"
	"github.com/ctxpack/ctxpack/internal/render"
	"github.com/ctxpack/ctxpack/internal/tokenizer"
)

// testEnv writes a project of files (slash path → text) into dir and
// returns its Env, with no index.
func testEnv(t testing.TB, dir string, files map[string]string) Env {
	t.Helper()
	for name, text := range files {
		writeFile(t, filepath.Join(dir, filepath.FromSlash(name)), text)
	}
	return Env{Root: dir, FS: os.DirFS(dir)}
}

func writeFile(t testing.TB, p, text string) {
	t.Helper()
	if err := os.MkdirAll(filepath.Dir(p), 0o755); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(p, []byte(text), 0o644); err != nil {
		t.Fatal(err)
	}
}

// openWS opens the workspace dir of e's project.
func openWS(t testing.TB, e Env, dir string) *workspace.Workspace {
	t.Helper()
	ws, err := OpenWorkspace(e.Root, e.Root, dir)
	if err != nil {
		t.Fatal(err)
	}
	return ws
}

// numbered is n lines "name line i".
func numbered(name string, n int) string {
	var b strings.Builder
	for i := 1; i <= n; i++ {
		fmt.Fprintf(&b, "%s line %d\n", name, i)
	}
	return b.String()
}

func mustWrite(t testing.TB, e Env, ws *workspace.Workspace, ar AddRequest) *Added {
	t.Helper()
	if ar.Rank == 0 {
		ar.Rank = -1
	}
	a, err := e.Write(ws, ar)
	if err != nil {
		t.Fatalf("write %s: %v", ar.Selector, err)
	}
	return a
}

// assemble runs evidence mode as the facade does: collect, the engine
// under the collection's options, ctxplan.json rendered from its plan.
func assemble(t testing.TB, e Env, ws *workspace.Workspace, budget int, overflow pack.Overflow) *Result {
	t.Helper()
	c, err := e.Collect(context.Background(), ws, "")
	if err != nil {
		t.Fatal(err)
	}
	tok, err := tokenizer.Get("o200k_base")
	if err != nil {
		t.Fatal(err)
	}
	o := pack.Options{Budget: budget, Tokenizer: tok, Overflow: overflow, DedupThreshold: 0.5, MaxChunksPerDoc: 1, PreferRecent: true}
	c.Options(&o)
	res, err := pack.Assemble(c.Parts, o)
	if err != nil {
		t.Fatal(err)
	}
	return &Result{Plan: render.CtxPlan(&res.Plan, c.Workspace, tok.Count), Prompt: res.Output, Entries: c.Entries}
}

// states is the workspace's files as "id=state", in order.
func states(t testing.TB, ws *workspace.Workspace) string {
	t.Helper()
	entries, _, err := ws.List()
	if err != nil {
		t.Fatal(err)
	}
	var s []string
	for _, e := range entries {
		s = append(s, e.ID()+"="+string(e.State))
	}
	return strings.Join(s, " ")
}
