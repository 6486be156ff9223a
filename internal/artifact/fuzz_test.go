package artifact

import (
	"errors"
	"path/filepath"
	"slices"
	"strings"
	"testing"

	"github.com/ctxpack/ctxpack/internal/project"
	"github.com/rogpeppe/go-internal/txtar"
)

// FuzzParse checks that Parse never panics, that its errors are
// *ParseErrors on one line, and that what it accepts keeps the package's
// contracts: valid ids, lines inside the file, and levels that are valid
// UTF-8 and cumulative.
func FuzzParse(f *testing.F) {
	files, _ := filepath.Glob("testdata/levels/*.txtar")
	if len(files) == 0 {
		f.Fatal("no testdata/levels/*.txtar seeds")
	}
	for _, file := range files {
		ar, err := txtar.ParseFile(file)
		if err != nil {
			f.Fatal(err)
		}
		var path string
		for _, fl := range ar.Files {
			if fl.Name == "path" {
				path = strings.TrimSpace(string(fl.Data))
			}
		}
		for _, fl := range ar.Files {
			if fl.Name == "input.md" {
				f.Add(path, fl.Data)
			}
		}
	}
	for _, s := range []string{
		"",
		"---",
		"---\n---\n",
		"\ufeff---\r\nid: SPEC-1\r\n...\r\n# A\r\n",
		"---\nid: SPEC-1\nlinks:\n  specs: [SPEC-2, &a SPEC-3]\n  norms: *a\n---\n",
		"---\nid: SPEC-1\nx: &a [*a]\n---\n",
		"---\nid: SPEC-1\ntitle: [\n---\n",
		"---\nid: DEC-1\nsuperseded_by: DEC-2\nstatus: superseded\n---\n```\n# x\n",
		"---\n- a\n---\n",
		"---\nid: \"A\\u0000\"\n---\n",
		"---\ntype: identity\n---\n~~~\n\n~~~\n# H\n\n    # not\n",
	} {
		f.Add(specPath, []byte(s))
	}
	f.Fuzz(func(t *testing.T, path string, data []byte) {
		if len(path) > 256 {
			return
		}
		a, err := Parse(path, data)
		if err != nil {
			var pe *ParseError
			if !errors.As(err, &pe) {
				t.Fatalf("error %T is not a *ParseError: %v", err, err)
			}
			msg := err.Error()
			if !strings.HasPrefix(msg, "artifact: ") {
				t.Errorf("error does not start with \"artifact: \": %q", msg)
			}
			if strings.ContainsAny(pe.Msg, "\n\r") {
				t.Errorf("error message is not one line: %q", pe.Msg)
			}
			if pe.Line < 0 || pe.Line > project.CountLines(data)+1 {
				t.Errorf("error line %d outside the file (%d lines): %q", pe.Line, project.CountLines(data), msg)
			}
			if a != nil {
				t.Error("Parse returned an artifact with its error")
			}
			return
		}
		if !ValidID(a.ID) {
			t.Errorf("invalid id %q accepted", a.ID)
		}
		if !slices.Contains(Types(), a.Type) {
			t.Errorf("type %q", a.Type)
		}
		for _, ids := range [][]string{a.Links.Specs, a.Links.Decisions, a.Links.Norms, a.Links.Tasks} {
			for _, id := range ids {
				if !ValidID(id) {
					t.Errorf("invalid link target %q accepted", id)
				}
			}
		}
		if a.SupersededBy != "" && !ValidID(a.SupersededBy) {
			t.Errorf("invalid superseded_by %q accepted", a.SupersededBy)
		}
		for k, line := range a.Line {
			if line < 1 || line > a.Lines {
				t.Errorf("Line[%q] = %d, outside the file's %d lines", k, line, a.Lines)
			}
		}
		for _, x := range a.Extra {
			if strings.ContainsAny(x.Value, "\n\r") || strings.ContainsAny(x.Key, "\n\r") {
				t.Errorf("extra field %q: %q is not one line", x.Key, x.Value)
			}
		}
		checkLevels(t, a)
	})
}
