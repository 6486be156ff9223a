package check

import (
	"context"
	"fmt"
	"io/fs"
	"slices"
	"strings"
	"testing"
	"testing/fstest"
	"time"

	"github.com/ctxpack/ctxpack/internal/artifact"
	"github.com/ctxpack/ctxpack/internal/project"
	"github.com/google/go-cmp/cmp"
)

// mapFS builds a project from file texts.
func mapFS(files map[string]string) fstest.MapFS {
	fsys := fstest.MapFS{}
	for p, text := range files {
		fsys[p] = &fstest.MapFile{Data: []byte(text)}
	}
	return fsys
}

// runCheck loads the project's artifacts and checks it, returning the
// findings as the text output prints them.
func runCheck(t *testing.T, fsys fstest.MapFS, cfg Config) []string {
	t.Helper()
	set, err := artifact.Load(fsys)
	if err != nil {
		t.Fatal(err)
	}
	r, err := Run(context.Background(), fsys, set, Options{Config: cfg, Walk: project.WalkOptions{IncludeHidden: true}})
	if err != nil {
		t.Fatal(err)
	}
	var out []string
	for _, f := range r.Findings {
		out = append(out, f.String())
	}
	return out
}

// art writes an artifact file: frontmatter lines, then a body.
func art(front ...string) string {
	return "---\n" + strings.Join(front, "\n") + "\n---\n\nBody.\n"
}

const (
	specs = ".ctxpack/system/specs/"
	decs  = ".ctxpack/system/rationale/"
	norms = ".ctxpack/system/norms/"
	tasks = ".ctxpack/work/tasks/"
)

// base is a clean project: a task links a spec that governs src/a.go, which
// names it, and the spec links a decision and a norm.
func base() map[string]string {
	return map[string]string{
		".ctxpack/config.yaml": "",
		tasks + "TASK-1.md":    art("id: TASK-1", "title: Do it", "status: in_progress", "links:", "  specs: [SPEC-A]"),
		specs + "SPEC-A.md":    art("id: SPEC-A", "title: A", "status: current", "paths: [src/**]", "links:", "  decisions: [DEC-1]", "  norms: [NORM-1]"),
		decs + "DEC-1.md":      art("id: DEC-1", "title: One", "status: current"),
		norms + "NORM-1.md":    art("id: NORM-1", "title: Norm", "status: current"),
		"src/a.go":             "package a\n\n// @spec SPEC-A\nfunc A() {}\n",
	}
}

// with returns base() with files changed (an empty text removes a file).
func with(changes map[string]string) fstest.MapFS {
	files := base()
	for p, text := range changes {
		if text == "" {
			delete(files, p)
		} else {
			files[p] = text
		}
	}
	return mapFS(files)
}

func TestCheckClean(t *testing.T) {
	if got := runCheck(t, with(nil), Config{}); len(got) != 0 {
		t.Errorf("findings in a clean project:\n%s", strings.Join(got, "\n"))
	}
}

func TestRules(t *testing.T) {
	for _, tc := range []struct {
		name    string
		changes map[string]string
		cfg     Config
		want    []string
	}{
		{"duplicate-id", map[string]string{
			specs + "SPEC-A2.md": art("id: SPEC-A", "title: A again", "status: current", "paths: [src/**]"),
		}, Config{}, []string{
			"ERROR duplicate-id .ctxpack/system/specs/SPEC-A2.md:2: SPEC-A is already defined in .ctxpack/system/specs/SPEC-A.md",
		}},
		{"malformed-frontmatter", map[string]string{
			norms + "NORM-2.md": "---\nid: NORM-2\ntitle: [unclosed\n---\n",
			norms + "NORM-3.md": "no frontmatter\n",
		}, Config{}, []string{
			"ERROR malformed-frontmatter .ctxpack/system/norms/NORM-2.md:3: invalid YAML in frontmatter…",
			"ERROR malformed-frontmatter .ctxpack/system/norms/NORM-3.md:1: no frontmatter…",
		}},
		{"missing-required-field", map[string]string{
			tasks + "TASK-1.md": art("id: TASK-1", "links:", "  specs: [SPEC-A]"),
			decs + "DEC-1.md":   art("id: DEC-1", "title: One"),
		}, Config{}, []string{
			"ERROR missing-required-field .ctxpack/work/tasks/TASK-1.md:1: TASK-1 has no status (required for tasks)",
			"ERROR missing-required-field .ctxpack/work/tasks/TASK-1.md:1: TASK-1 has no title (required for tasks)",
		}},
		{"required fields configured", map[string]string{
			decs + "DEC-1.md": art("id: DEC-1", "title: One", "status: current", "owner: ''"),
		}, Config{RequiredFields: map[artifact.Type][]string{artifact.Decision: {"owner", "status"}, artifact.Task: {}}}, []string{
			"ERROR missing-required-field .ctxpack/system/rationale/DEC-1.md:1: DEC-1 has no owner (required for decisions)",
		}},
		{"broken-link", map[string]string{
			tasks + "TASK-1.md": art("id: TASK-1", "title: Do it", "status: in_progress", "links:", "  specs: [SPEC-A, SPEC-X]", "  decisions:", "    - DEC-9"),
		}, Config{}, []string{
			"WARN broken-link .ctxpack/work/tasks/TASK-1.md:6: TASK-1 links to SPEC-X, which does not exist",
			"WARN broken-link .ctxpack/work/tasks/TASK-1.md:8: TASK-1 links to DEC-9, which does not exist",
		}},
		{"broken superseded_by", map[string]string{
			decs + "DEC-1.md": art("id: DEC-1", "title: One", "status: superseded", "superseded_by: DEC-9"),
		}, Config{}, []string{
			"WARN broken-link .ctxpack/system/rationale/DEC-1.md:5: DEC-1 is superseded by DEC-9, which does not exist",
			"WARN superseded-link .ctxpack/system/specs/SPEC-A.md:7: SPEC-A links to DEC-1, which is superseded by DEC-9",
		}},
		{"superseded-link", map[string]string{
			decs + "DEC-1.md": art("id: DEC-1", "title: One", "status: superseded", "superseded_by: DEC-2"),
			decs + "DEC-2.md": art("id: DEC-2", "title: Two", "status: current"),
		}, Config{}, []string{
			"WARN superseded-link .ctxpack/system/specs/SPEC-A.md:7: SPEC-A links to DEC-1, which is superseded by DEC-2",
		}},
		{"deprecated-link", map[string]string{
			norms + "NORM-1.md": art("id: NORM-1", "title: Norm", "status: deprecated"),
		}, Config{}, []string{
			"WARN deprecated-link .ctxpack/system/specs/SPEC-A.md:8: SPEC-A links to NORM-1, which is deprecated",
		}},
		{"past artifacts' links are history", map[string]string{
			tasks + "TASK-1.md": art("id: TASK-1", "title: Do it", "status: done", "links:", "  specs: [SPEC-A]", "  norms: [NORM-1]"),
			norms + "NORM-1.md": art("id: NORM-1", "title: Norm", "status: deprecated"),
			specs + "SPEC-A.md": art("id: SPEC-A", "title: A", "status: current", "paths: [src/**]"),
		}, Config{}, nil},
		{"broken-ref", map[string]string{
			"src/a.go":       "package a\n\n// @spec SPEC-A, SPEC-X\nvar s = \"@spec SPEC-Y\"\n/* @decision DEC-1 */\n",
			"lib/b.py":       "# @spec SPEC-A\n# @spec DEC-1\n",
			"README.md":      "Annotate code with `// @spec SPEC-ID`.\n",
			specs + "SPEC-A": "",
		}, Config{}, []string{
			"WARN broken-ref lib/b.py:1: @spec SPEC-A, but SPEC-A does not list this path",
			"WARN broken-ref lib/b.py:2: @spec DEC-1, but DEC-1 is a decision",
			"WARN broken-ref src/a.go:3: @spec SPEC-X, which does not exist",
		}},
		{"decision paths", map[string]string{
			decs + "DEC-1.md": art("id: DEC-1", "title: One", "paths: [src/a.go]"),
			"src/b.go":        "// @decision DEC-1\n",
			"src/c.go":        "// @decision DEC-1\n",
		}, Config{}, []string{
			"WARN broken-ref src/b.go:1: @decision DEC-1, but DEC-1 does not list this path",
			"WARN broken-ref src/c.go:1: @decision DEC-1, but DEC-1 does not list this path",
		}},
		{"annotations to past artifacts", map[string]string{
			"src/a.go":          "// @spec SPEC-A\n// @decision DEC-1 @spec SPEC-OLD\n",
			decs + "DEC-1.md":   art("id: DEC-1", "title: One", "status: deprecated"),
			specs + "SPEC-O.md": art("id: SPEC-OLD", "title: Old", "status: superseded", "superseded_by: SPEC-A"),
		}, Config{}, []string{
			"WARN deprecated-link .ctxpack/system/specs/SPEC-A.md:7: SPEC-A links to DEC-1, which is deprecated",
			"WARN deprecated-link src/a.go:2: @decision DEC-1, which is deprecated",
			"WARN superseded-link src/a.go:2: @spec SPEC-OLD, which is superseded by SPEC-A",
		}},
		{"broken-path", map[string]string{
			specs + "SPEC-A.md": art("id: SPEC-A", "title: A", "status: current", "paths:", "  - src/**", "  - lib/*.py", "  - ./src/a.go", "  - src", "links:", "  decisions: [DEC-1]", "  norms: [NORM-1]"),
		}, Config{}, []string{
			"WARN broken-path .ctxpack/system/specs/SPEC-A.md:7: SPEC-A paths: lib/*.py matches no file",
		}},
		{"paths match binary and large files too", map[string]string{
			specs + "SPEC-A.md": art("id: SPEC-A", "title: A", "status: current", "paths: [src/**, img/*.png]", "links:", "  decisions: [DEC-1]", "  norms: [NORM-1]"),
			"img/logo.png":      "\x89PNG\x00\x00",
		}, Config{}, nil},
		{"orphan-spec", map[string]string{
			specs + "SPEC-B.md": art("id: SPEC-B", "title: B", "status: current", "links:", "  specs: [SPEC-B]"),
			specs + "SPEC-C.md": art("id: SPEC-C", "title: C", "status: current"),
			specs + "SPEC-D.md": art("id: SPEC-D", "title: D", "status: deprecated"),
			"src/c.go":          "// @spec SPEC-C\n",
			"src/d.go":          "x := 1\n",
		}, Config{}, []string{
			"WARN orphan-spec .ctxpack/system/specs/SPEC-B.md:2: SPEC-B is linked from no task or other artifact, and no code has @spec SPEC-B",
			"WARN broken-ref src/c.go:1: @spec SPEC-C, but SPEC-C lists no paths",
		}},
		{"nested projects and artifact files are not this project's", map[string]string{
			"sub/.ctxpack/system/specs/SPEC-S.md": art("id: SPEC-S", "title: S", "status: current", "paths: [x/**]"),
			"sub/x/a.go":                          "// @spec SPEC-S\n",
			".ctxpack/notes.go":                   "// @spec SPEC-X\n",
			".contextia/notes.go":                 "// @spec SPEC-X\n",
			"docs/.ctxpack.go":                    "// @spec SPEC-A\n",
		}, Config{}, []string{
			"WARN broken-ref docs/.ctxpack.go:1: @spec SPEC-A, but SPEC-A does not list this path",
		}},
		{"unknown-status", map[string]string{
			norms + "NORM-1.md": art("id: NORM-1", "title: Norm", "status: wip"),
		}, Config{}, []string{
			`WARN unknown-status .ctxpack/system/norms/NORM-1.md:4: NORM-1 has status "wip"; statuses are draft, current, in_progress, done, deprecated, superseded`,
		}},
		{"severities configured", map[string]string{
			specs + "SPEC-C.md": art("id: SPEC-C", "title: C", "status: current", "paths: [nowhere/**]"),
		}, Config{Rules: map[string]Severity{OrphanSpec: Error, BrokenPath: Off}}, []string{
			"ERROR orphan-spec .ctxpack/system/specs/SPEC-C.md:2: SPEC-C is linked from no task or other artifact, and no code has @spec SPEC-C",
		}},
	} {
		t.Run(tc.name, func(t *testing.T) {
			got := runCheck(t, with(tc.changes), tc.cfg)
			// A wanted line ending in "…" wants a finding that starts so:
			// the artifact package words the messages it passes on.
			want := slices.Clone(tc.want)
			for i, w := range want {
				if p, ok := strings.CutSuffix(w, "…"); ok && i < len(got) && strings.HasPrefix(got[i], p) {
					want[i] = got[i]
				}
			}
			if diff := cmp.Diff(want, got); diff != "" {
				t.Errorf("findings (-want +got):\n%s", diff)
			}
		})
	}
}

// TestRunHandBuilt checks a Set built by hand, as another loader would
// give it: missing lines fall back to line 1, a missing id is reported.
func TestRunHandBuilt(t *testing.T) {
	a := &artifact.Artifact{Type: artifact.Spec, Path: "x/SPEC.md", Title: "T", Status: "current",
		Links: artifact.Links{Norms: []string{"NORM-Z"}}}
	set := &artifact.Set{Dir: ".ctxpack", ByID: map[string]*artifact.Artifact{}, List: []*artifact.Artifact{a},
		Problems: []*artifact.ParseError{{Path: "x/bad.md", Msg: "bad"}}}
	r, err := Run(context.Background(), fstest.MapFS{}, set, Options{})
	if err != nil {
		t.Fatal(err)
	}
	var got []string
	for _, f := range r.Findings {
		got = append(got, f.String())
	}
	want := []string{
		"WARN broken-link x/SPEC.md:1: this spec links to NORM-Z, which does not exist",
		"ERROR missing-required-field x/SPEC.md:1: this spec has no id (required for specs)",
		"ERROR malformed-frontmatter x/bad.md:1: bad",
	}
	if diff := cmp.Diff(want, got); diff != "" {
		t.Errorf("(-want +got):\n%s", diff)
	}
	if r.Counts != (Counts{Specs: 1}) {
		t.Errorf("counts %+v", r.Counts)
	}
}

// TestRunDeterministic checks that the findings do not depend on the
// number of workers or on map order.
func TestRunDeterministic(t *testing.T) {
	files := base()
	for i := range 40 {
		files[fmt.Sprintf("src/f%02d.go", i)] = fmt.Sprintf("// @spec SPEC-X%d, SPEC-A\n", i%7)
	}
	fsys := mapFS(files)
	set, err := artifact.Load(fsys)
	if err != nil {
		t.Fatal(err)
	}
	var first []Finding
	for _, w := range []int{1, 2, 7} {
		r, err := Run(context.Background(), fsys, set, Options{Workers: w, Walk: project.WalkOptions{IncludeHidden: true, Reverse: w == 7}})
		if err != nil {
			t.Fatal(err)
		}
		if first == nil {
			first = r.Findings
			if len(first) != 40 {
				t.Fatalf("%d findings, want 40", len(first))
			}
			continue
		}
		if diff := cmp.Diff(first, r.Findings); diff != "" {
			t.Errorf("workers %d (-first +got):\n%s", w, diff)
		}
	}
}

func TestRunCancelled(t *testing.T) {
	ctx, cancel := context.WithCancel(context.Background())
	cancel()
	fsys := with(nil)
	set, _ := artifact.Load(fsys)
	if _, err := Run(ctx, fsys, set, Options{}); err == nil {
		t.Error("no error from a cancelled context")
	}
}

func TestSummary(t *testing.T) {
	fs := []Finding{{Severity: Warning}, {Severity: Warning}, {Severity: Error}}
	for _, tc := range []struct {
		findings  []Finding
		baselined int
		strict    bool
		want      string
	}{
		{nil, 0, false, "OK 14 specs, 8 decisions, 5 norms  0 warnings, 0 errors"},
		{fs[:2], 0, false, "OK 14 specs, 8 decisions, 5 norms  2 warnings, 0 errors"},
		{fs[:2], 0, true, "FAIL 14 specs, 8 decisions, 5 norms  2 warnings, 0 errors"},
		{fs, 3, false, "FAIL 14 specs, 8 decisions, 5 norms  2 warnings, 1 error  (3 baselined)"},
	} {
		s := Summarize(Counts{Specs: 14, Decisions: 8, Norms: 5, Tasks: 2}, tc.findings, tc.baselined, tc.strict)
		if got := s.String(); got != tc.want {
			t.Errorf("got  %q\nwant %q", got, tc.want)
		}
	}
	if got := Summarize(Counts{Specs: 1, Decisions: 1, Norms: 1}, fs[:1], 0, false).String(); got != "OK 1 spec, 1 decision, 1 norm  1 warning, 0 errors" {
		t.Errorf("singular: %q", got)
	}
}

func TestRules_DocumentedDefaults(t *testing.T) {
	ids := map[string]Severity{}
	for _, r := range Rules() {
		ids[r.ID] = r.Default
	}
	want := map[string]Severity{
		DuplicateID: Error, MalformedFrontmatter: Error, MissingRequiredField: Error,
		BrokenLink: Warning, SupersededLink: Warning, DeprecatedLink: Warning, BrokenRef: Warning,
		BrokenPath: Warning, OrphanSpec: Warning, UnknownStatus: Warning,
	}
	if diff := cmp.Diff(want, ids); diff != "" {
		t.Errorf("(-want +got):\n%s", diff)
	}
	if got := (Config{}).Severity("no-such-rule"); got != Off {
		t.Errorf("unknown rule severity %q", got)
	}
}

// TestRunOddFiles checks that a 50 MB file (read, with the size limit
// raised), a file that is not UTF-8 and symlinks out of the project and in
// a loop neither crash nor hang Run.
func TestRunOddFiles(t *testing.T) {
	if testing.Short() {
		t.Skip("50 MB")
	}
	files := base()
	var big strings.Builder
	line := "x = 'it''s' + \"#\" # a comment, then code /* not a block */\n"
	for big.Len() < 50<<20 {
		big.WriteString(line)
	}
	big.WriteString("# @spec SPEC-BIG-1\n")
	files["src/big.py"] = big.String()
	files["src/latin1.go"] = "// caf\xe9 @spec SPEC-A \xff\xfe\npackage a\n"
	fsys := mapFS(files)
	fsys["src/out.go"] = &fstest.MapFile{Data: []byte("../../outside.go"), Mode: fs.ModeSymlink}
	fsys["src/loop.go"] = &fstest.MapFile{Data: []byte("loop.go"), Mode: fs.ModeSymlink}
	set, err := artifact.Load(fsys)
	if err != nil {
		t.Fatal(err)
	}
	start := time.Now()
	r, err := Run(context.Background(), fsys, set, Options{Walk: project.WalkOptions{IncludeHidden: true, MaxFileBytes: 64 << 20}})
	if err != nil {
		t.Fatal(err)
	}
	var got []string
	for _, f := range r.Findings {
		got = append(got, f.String())
	}
	want := []string{fmt.Sprintf("WARN broken-ref src/big.py:%d: @spec SPEC-BIG-1, which does not exist", strings.Count(big.String(), "\n"))}
	if diff := cmp.Diff(want, got); diff != "" {
		t.Errorf("(-want +got):\n%s", diff)
	}
	t.Logf("checked a 50 MB file in %v", time.Since(start))
}
