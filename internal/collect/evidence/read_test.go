package evidence

import (
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"

	workspace "github.com/ctxpack/ctxpack/internal/evidence"
	"github.com/ctxpack/ctxpack/internal/project"
)

func TestReadSelector(t *testing.T) {
	dir := t.TempDir()
	e := testEnv(t, dir, map[string]string{
		"src/a.go":   numbered("a", 5),
		"bin/x.dat":  "abc\x00def",
		"big.txt":    strings.Repeat("x", 200),
		"bad.txt":    "ok\xffok\n",
		"src/sub/.k": "",
	})
	e.MaxFileBytes = 100
	ex, err := e.ReadSelector("src/a.go::2,3#b,a")
	if err != nil {
		t.Fatal(err)
	}
	if ex.Text != "a line 2\na line 3\n" || ex.Lines != 5 || ex.StartLine != 2 || ex.EndLine != 3 || !strings.HasPrefix(ex.CID, "sha256:") {
		t.Errorf("excerpt %+v", ex)
	}
	if pv := ex.Provenance(); pv.URI != "file://src/a.go" || pv.Span != "lines=2:3" || !slices.Equal(pv.Tags, []string{"a", "b"}) || pv.CID != ex.CID {
		t.Errorf("provenance %+v", pv)
	}
	if ex, err := e.ReadSelector("bad.txt"); err != nil || len(ex.Warnings) != 1 || !strings.Contains(ex.Text, "\uFFFD") {
		t.Errorf("invalid UTF-8: %+v, %v", ex, err)
	}
	for sel, want := range map[string]string{
		"src/missing.go":  "no such file in the project",
		"src":             "is a folder",
		"bin/x.dat":       "is binary",
		"big.txt":         "over walk.max_file_bytes (100)",
		"src/a.go::4,9":   "the file has 5 lines",
		"../x":            "escapes the project root",
		"src/a.go::1,2#!": "",
	} {
		_, err := e.ReadSelector(sel)
		if err == nil || !strings.Contains(err.Error(), want) {
			t.Errorf("%s: error %v, want one that says %q", sel, err, want)
		}
	}
	if e.maxFileBytes() != 100 || (Env{}).maxFileBytes() <= 0 {
		t.Error("maxFileBytes")
	}
}

// TestRefusesEscapes checks that selectors, links and workspace folders
// that leave the project root are refused, and that no absolute path
// reaches the plan.
func TestRefusesEscapes(t *testing.T) {
	outside := t.TempDir()
	writeFile(t, filepath.Join(outside, "secret.txt"), "secret\n")
	dir := t.TempDir()
	e := testEnv(t, dir, map[string]string{"src/a.go": numbered("a", 5)})
	if err := os.Symlink(filepath.Join(outside, "secret.txt"), filepath.Join(dir, "src", "leak.txt")); err != nil {
		t.Skip("no symlinks:", err)
	}
	ws := openWS(t, e, "ctx")
	for _, sel := range []string{"../secret.txt", "/etc/passwd", "src/../../x", "src/leak.txt", "src/a.go::3,9", "src"} {
		if _, err := e.Write(ws, AddRequest{Selector: sel, Rank: -1}); err == nil {
			t.Errorf("add %s: no error", sel)
		}
	}
	for _, d := range []string{"..", "../ctx", outside, "."} {
		if _, err := OpenWorkspace(dir, dir, d); err == nil {
			t.Errorf("workspace %s: no error", d)
		}
	}
	if ws, err := OpenWorkspace(dir, filepath.Join(dir, "src"), ""); err != nil || ws.Shown != "src/ctx" {
		t.Errorf("the default workspace from src: %+v, %v", ws, err)
	}
	// A .link that is a symlink out of the project is dropped with its
	// reason; so is a .link file holding an escaping selector.
	mustWrite(t, e, ws, AddRequest{Selector: "src/a.go"})
	if err := os.Symlink(filepath.Join(outside, "secret.txt"), filepath.Join(ws.Dir, "evidence", "200_leak.evidence.link")); err != nil {
		t.Fatal(err)
	}
	writeFile(t, filepath.Join(ws.Dir, "evidence", "210_up.evidence.link"), "../secret.txt\n")
	res := assemble(t, e, ws, 4000, "")
	if strings.Contains(string(res.Prompt), "secret") {
		t.Errorf("the prompt holds the secret:\n%s", res.Prompt)
	}
	dropped := 0
	for _, pt := range res.Plan.Parts {
		if pt.Status == "dropped" && pt.Reason != "" {
			dropped++
		}
	}
	if dropped != 2 || len(res.Plan.Warnings) < 2 {
		t.Errorf("want both links dropped with a reason and warned about: %+v %v", res.Plan.Parts, res.Plan.Warnings)
	}
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

func TestSplitEvidence(t *testing.T) {
	comment := workspace.Provenance{URI: "file://src/a.go", CID: project.ContentID("x\n"), Span: "lines=1:2"}.Comment()
	tests := []struct {
		role              workspace.Role
		text              string
		title, body, prov string
	}{
		{workspace.Evidence, "## Evidence: src/a.go\n" + comment + "\n\nx\n", "src/a.go", comment + "\n\nx\n", "file://src/a.go"},
		{workspace.Evidence, comment + "\n\nx\n", "src/a.go", comment + "\n\nx\n", "file://src/a.go"},
		{workspace.Evidence, "by hand\n", "ctx/e.md", "by hand\n", ""},
		{workspace.Evidence, "## Evidence:   \nx\n", "ctx/e.md", "## Evidence:   \nx\n", ""},
		{workspace.System, comment + "\n\npolicy\n", "ctx/e.md", comment + "\n\npolicy\n", "file://src/a.go"},
	}
	for _, tt := range tests {
		title, body, prov := splitEvidence(workspace.Entry{Role: tt.role}, tt.text, "ctx/e.md")
		uri := ""
		if prov != nil {
			uri = prov.URI
		}
		if title != tt.title || body != tt.body || uri != tt.prov {
			t.Errorf("splitEvidence(%s, %q) = %q, %q, %q; want %q, %q, %q", tt.role, tt.text, title, body, uri, tt.title, tt.body, tt.prov)
		}
	}
}
