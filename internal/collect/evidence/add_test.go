package evidence

import (
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"

	workspace "github.com/ctxpack/ctxpack/internal/evidence"
	"github.com/ctxpack/ctxpack/internal/pack"
	"github.com/ctxpack/ctxpack/internal/project"
	"github.com/ctxpack/ctxpack/internal/render"
)

func TestWrite(t *testing.T) {
	dir := t.TempDir()
	e := testEnv(t, dir, map[string]string{"src/a.go": "package a\n\nfunc A() {}\n", "notes/x": "no newline"})
	ws := openWS(t, e, "ctx")
	if ws.Exists() {
		t.Fatal("the workspace exists before the first write")
	}
	tests := []struct {
		ar   AddRequest
		path string
		text string
	}{
		{AddRequest{Selector: "-", Text: "Fix it.", Role: "user"}, "ctx/000_request.user.md", "Fix it.\n"},
		{AddRequest{Selector: "-", Text: "Be brief.\n", Role: "system"}, "ctx/010_policy.system.md", "Be brief.\n"},
		{AddRequest{Selector: "-", Text: "see also", Kind: "aside"}, "ctx/evidence/100_aside.evidence.md", "## Evidence: aside\n\nsee also\n"},
		{AddRequest{Selector: "-", Text: "a note"}, "ctx/evidence/110_note.evidence.md", "## Evidence: note\n\na note\n"},
		{AddRequest{Selector: "src/a.go::3#fn"}, "ctx/evidence/120_a_go.evidence.md", "## Evidence: src/a.go\n<!-- source_uri=file://src/a.go; cid=" + project.ContentID("func A() {}\n") + "; span=lines=3:; tags=fn -->\n\n```go\nfunc A() {}\n```\n"},
		{AddRequest{Selector: "notes/x", Role: "system", Rank: 50}, "ctx/050_x.system.md", "<!-- source_uri=file://notes/x; cid=" + project.ContentID("no newline") + "; span=file -->\n\nno newline\n"},
		{AddRequest{Selector: "notes/x", Kind: "plain"}, "ctx/evidence/130_plain.evidence.md", "## Evidence: notes/x\n<!-- source_uri=file://notes/x; cid=" + project.ContentID("no newline") + "; span=file -->\n\n```text\nno newline\n```\n"},
		{AddRequest{Selector: "src/a.go::1,1", Link: true, Rank: 300}, "ctx/evidence/300_a_go.evidence.link", "src/a.go::1,1\n"},
	}
	for _, tt := range tests {
		a := mustWrite(t, e, ws, tt.ar)
		data, err := os.ReadFile(filepath.Join(dir, filepath.FromSlash(a.Path)))
		if err != nil {
			t.Fatal(err)
		}
		if a.Path != tt.path || string(data) != tt.text || a.Bytes != len(data) {
			t.Errorf("%+v: wrote %s (%d bytes):\n%s\nwant %s:\n%s", tt.ar, a.Path, a.Bytes, data, tt.path, tt.text)
		}
	}
	if !ws.Exists() {
		t.Error("no workspace after writes")
	}
	for _, tt := range []struct {
		ar   AddRequest
		want string
	}{
		{AddRequest{Selector: "-", Text: "x", Link: true, Rank: -1}, "a link names a project file"},
		{AddRequest{Selector: "-", Text: " \n", Rank: -1}, "the text is empty"},
		{AddRequest{Selector: "-", Text: "x", Role: "assistant", Rank: -1}, "unknown role"},
		{AddRequest{Selector: "src/a.go", Kind: "a b", Rank: -1}, "kind \"a b\" is not"},
		{AddRequest{Selector: "src/a.go", Rank: 120}, "rank 120 is taken"},
		{AddRequest{Selector: "src/nope.go", Rank: -1}, "no such file"},
	} {
		if _, err := e.Write(ws, tt.ar); err == nil || !strings.Contains(err.Error(), tt.want) {
			t.Errorf("%+v: error %v, want %q", tt.ar, err, tt.want)
		}
	}
}

func TestText(t *testing.T) {
	prov := workspace.Provenance{URI: "file://a.md", CID: project.ContentID("x"), Span: "file"}
	got := Text(workspace.Evidence, prov, "a\nb.md", "markdown", "```\nx")
	want := "## Evidence: a b.md\n" + prov.Comment() + "\n\n````markdown\n```\nx\n````\n"
	if d := cmp.Diff(want, got); d != "" {
		t.Errorf("evidence text (-want +got):\n%s", d)
	}
	if got := Text(workspace.User, prov, "a.md", "markdown", ""); got != prov.Comment()+"\n\n" {
		t.Errorf("user text %q", got)
	}
	if fenceLang("x.go") != "go" || fenceLang("x.unknown") != "text" {
		t.Errorf("fenceLang: %s, %s", fenceLang("x.go"), fenceLang("x.unknown"))
	}
}

// TestSetTotal checks that an added file's tokens are its section whole
// in the assembled total, whatever the budget shows of it.
func TestSetTotal(t *testing.T) {
	e := testEnv(t, t.TempDir(), map[string]string{"a.txt": numbered("a", 50)})
	ws := openWS(t, e, "ctx")
	mustWrite(t, e, ws, AddRequest{Selector: "-", Text: "Why?", Role: "user"})
	a := mustWrite(t, e, ws, AddRequest{Selector: "a.txt"})
	total := assemble(t, e, ws, 100, pack.Allow)
	a.SetTotal(total)
	i := slices.IndexFunc(total.Plan.Parts, func(p render.EvidencePart) bool { return p.URI == "file://"+a.Path })
	if a.Total != total || i < 0 || a.Tokens == 0 || a.Tokens != total.Plan.Parts[i].FullTokens {
		t.Errorf("tokens %d, plan %+v", a.Tokens, total.Plan.Parts)
	}
}
