package artifact

import (
	"flag"
	"os"
	"path/filepath"
	"strings"
	"sync"
	"testing"
	"unicode/utf8"

	"github.com/google/go-cmp/cmp"
	"github.com/rogpeppe/go-internal/txtar"
)

var update = flag.Bool("update", false, "rewrite the level sections of testdata/levels/*.txtar")

// TestLevelsGolden parses the "input.md" section of each
// testdata/levels/*.txtar (as the file named by its "path" section) and
// compares each level's text with the section of that name.
func TestLevelsGolden(t *testing.T) {
	files, err := filepath.Glob("testdata/levels/*.txtar")
	if err != nil {
		t.Fatal(err)
	}
	if len(files) == 0 {
		t.Fatal("no testdata/levels/*.txtar files")
	}
	for _, file := range files {
		t.Run(strings.TrimSuffix(filepath.Base(file), ".txtar"), func(t *testing.T) {
			ar, err := txtar.ParseFile(file)
			if err != nil {
				t.Fatal(err)
			}
			sections := make(map[string]string)
			for _, f := range ar.Files {
				sections[f.Name] = string(f.Data)
			}
			path := strings.TrimSpace(sections["path"])
			input, ok := sections["input.md"]
			if path == "" || !ok {
				t.Fatal(`need a "path" and an "input.md" section`)
			}
			a, err := Parse(path, []byte(input))
			if err != nil {
				t.Fatal(err)
			}
			checkLevels(t, a)
			if *update {
				ar.Files = ar.Files[:0]
				ar.Files = append(ar.Files, txtar.File{Name: "path", Data: []byte(path + "\n")}, txtar.File{Name: "input.md", Data: []byte(input)})
				for l := Meta; l <= Full; l++ {
					ar.Files = append(ar.Files, txtar.File{Name: l.String(), Data: []byte(a.Text(l))})
				}
				if err := os.WriteFile(file, txtar.Format(ar), 0o644); err != nil {
					t.Fatal(err)
				}
				return
			}
			for l := Meta; l <= Full; l++ {
				want, ok := sections[l.String()]
				if !ok {
					t.Errorf("no %q section; run go test -update", l)
					continue
				}
				if diff := cmp.Diff(want, a.Text(l)); diff != "" {
					t.Errorf("%s (-want +got):\n%s", l, diff)
				}
			}
		})
	}
}

// checkLevels checks the contracts every artifact's levels keep.
func checkLevels(t *testing.T, a *Artifact) {
	t.Helper()
	var text [Full + 1]string
	for l := Meta; l <= Full; l++ {
		s := a.Text(l)
		text[l] = s
		if !utf8.ValidString(s) {
			t.Errorf("%s is not valid UTF-8: %q", l, s)
		}
		if s != "" && (!strings.HasSuffix(s, "\n") || strings.HasSuffix(s, "\n\n")) {
			t.Errorf("%s does not end with exactly one newline: %q", l, s)
		}
		if strings.Contains(s, "\r\n") {
			t.Errorf("%s holds a CRLF: %q", l, s)
		}
		if a.Text(l) != s {
			t.Errorf("%s differs between two calls", l)
		}
	}
	if a.Text(Meta-1) != text[Meta] || a.Text(Full+1) != text[Full] {
		t.Error("levels out of range are not clamped to meta and full")
	}
	for _, p := range [][2]Level{{Meta, Summary}, {Summary, Detailed}, {Summary, Full}} {
		if !strings.HasPrefix(text[p[1]], text[p[0]]) {
			t.Errorf("%s is not a prefix of %s:\n%q\n%q", p[0], p[1], text[p[0]], text[p[1]])
		}
	}
	if !subsequence(nonBlankLines(text[Detailed]), nonBlankLines(text[Full])) {
		t.Errorf("the lines of detailed are not a subsequence of full's:\n%q\n%q", text[Detailed], text[Full])
	}
	for _, line := range strings.Split(strings.TrimSuffix(text[Meta], "\n"), "\n") {
		if text[Meta] != "" && !strings.Contains(line, ": ") {
			t.Errorf("meta line %q is not key: value", line)
		}
	}
}

func nonBlankLines(s string) []string {
	var out []string
	for _, ln := range strings.Split(s, "\n") {
		if strings.TrimSpace(ln) != "" {
			out = append(out, ln)
		}
	}
	return out
}

// subsequence reports whether a's items appear in b in the same order.
func subsequence(a, b []string) bool {
	i := 0
	for _, s := range b {
		if i < len(a) && a[i] == s {
			i++
		}
	}
	return i == len(a)
}

func TestLevelsSections(t *testing.T) {
	meta := "title: T\n"
	tests := []struct {
		name, body              string
		summary, detailed, full string // after meta and its blank line
	}{{
		name:    "empty body",
		body:    "\n\n",
		summary: "", detailed: "", full: "",
	}, {
		name:    "lead only",
		body:    "\nOne.\n\nTwo.\n\n",
		summary: "One.\n\nTwo.\n", detailed: "One.\n\nTwo.\n", full: "One.\n\nTwo.\n",
	}, {
		name:     "blank lead, first heading's section",
		body:     "\n# A\na1\n\na2\n## B\nb1\n\nb2\n### C\n",
		summary:  "# A\na1\n\na2\n",
		detailed: "# A\na1\n\na2\n\n## B\nb1\n\n### C\n",
		full:     "# A\na1\n\na2\n## B\nb1\n\nb2\n### C\n",
	}, {
		name:     "lead then every heading",
		body:     "Lead.\n# A\n\n\na1\na1b\n\na2\n",
		summary:  "Lead.\n",
		detailed: "Lead.\n\n# A\n\n\na1\na1b\n",
		full:     "Lead.\n# A\n\n\na1\na1b\n\na2\n",
	}, {
		name:     "not headings",
		body:     "#tag\n    # indented code\n####### seven\n\\# escaped\n",
		summary:  "#tag\n    # indented code\n####### seven\n\\# escaped\n",
		detailed: "#tag\n    # indented code\n####### seven\n\\# escaped\n",
		full:     "#tag\n    # indented code\n####### seven\n\\# escaped\n",
	}, {
		name:     "headings",
		body:     "# a\n   ## b\n###\n#\tc\n",
		summary:  "# a\n",
		detailed: "# a\n\n   ## b\n\n###\n\n#\tc\n",
		full:     "# a\n   ## b\n###\n#\tc\n",
	}, {
		name:     "fenced code hides headings and keeps its blank lines",
		body:     "# A\n```md\n# not\n\nstill code\n```\nafter\n\nlater\n# B\n~~~~\n# not\n~~~\n\n~~~~\ntext\n",
		summary:  "# A\n```md\n# not\n\nstill code\n```\nafter\n\nlater\n",
		detailed: "# A\n```md\n# not\n\nstill code\n```\nafter\n\nlater\n\n# B\n~~~~\n# not\n~~~\n\n~~~~\n",
		full:     "# A\n```md\n# not\n\nstill code\n```\nafter\n\nlater\n# B\n~~~~\n# not\n~~~\n\n~~~~\ntext\n",
	}, {
		name:     "a paragraph that opens a fence is the fence",
		body:     "# A\nx\n# B\n\n```\ncode\n\n```\nafter\n",
		summary:  "# A\nx\n",
		detailed: "# A\nx\n\n# B\n\n```\ncode\n\n```\n",
		full:     "# A\nx\n# B\n\n```\ncode\n\n```\nafter\n",
	}, {
		name:     "unclosed fence runs to the end",
		body:     "# A\n```\n# not\n\n",
		summary:  "# A\n```\n# not\n",
		detailed: "# A\n```\n# not\n",
		full:     "# A\n```\n# not\n",
	}, {
		name:     "backtick fence info with a backtick is not a fence",
		body:     "# A\n``` a`b\n# B\nb\n",
		summary:  "# A\n``` a`b\n",
		detailed: "# A\n``` a`b\n\n# B\nb\n",
		full:     "# A\n``` a`b\n# B\nb\n",
	}, {
		name:     "setext headings are text",
		body:     "Title\n=====\n\nBody\n",
		summary:  "Title\n=====\n\nBody\n",
		detailed: "Title\n=====\n\nBody\n",
		full:     "Title\n=====\n\nBody\n",
	}}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			a := &Artifact{ID: "SPEC-1", Type: Spec, Title: "T", Body: tt.body}
			with := func(s string) string {
				if s == "" {
					return meta
				}
				return meta + "\n" + s
			}
			for _, c := range []struct {
				l    Level
				want string
			}{{Meta, meta}, {Summary, with(tt.summary)}, {Detailed, with(tt.detailed)}, {Full, with(tt.full)}} {
				if diff := cmp.Diff(c.want, a.Text(c.l)); diff != "" {
					t.Errorf("%s (-want +got):\n%s", c.l, diff)
				}
			}
			checkLevels(t, a)
			// Without meta, the text starts with the body.
			a.Title = ""
			if got := a.Text(Full); got != tt.full {
				t.Errorf("full without meta = %q, want %q", got, tt.full)
			}
		})
	}
}

func TestMetaOrder(t *testing.T) {
	a := &Artifact{
		Title: "T", Status: "done", SupersededBy: "X-2",
		Links: Links{Specs: []string{"S-1", "S-2"}, Decisions: []string{"D-1"}, Norms: []string{"N-1"}, Tasks: []string{"T-1"}},
		Paths: []string{"a/**", "b/*"},
		Extra: []Field{{Key: "z", Value: "1"}, {Key: "a", Value: "two\nlines"}, {Key: "empty"}, {Key: "", Value: "no key"}},
	}
	want := "title: T\nstatus: done\nspecs: S-1, S-2\ndecisions: D-1\nnorms: N-1\ntasks: T-1\npaths: a/**, b/*\nsuperseded_by: X-2\nz: 1\na: two lines\n"
	if diff := cmp.Diff(want, a.Text(Meta)); diff != "" {
		t.Errorf("(-want +got):\n%s", diff)
	}
}

func TestTextConcurrent(t *testing.T) {
	a, err := Parse(specPath, []byte("---\nid: SPEC-1\ntitle: T\n---\n# A\na\n# B\nb\n"))
	if err != nil {
		t.Fatal(err)
	}
	want := a.Text(Detailed)
	var wg sync.WaitGroup
	for range 8 {
		wg.Go(func() {
			for range 100 {
				if got := a.Text(Detailed); got != want {
					t.Errorf("Text = %q, want %q", got, want)
					return
				}
			}
		})
	}
	wg.Wait()
}
