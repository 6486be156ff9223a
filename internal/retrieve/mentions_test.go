package retrieve

import (
	"context"
	"os"
	"path/filepath"
	"slices"
	"testing"

	"github.com/ctxpack/ctxpack/internal/index"
	"github.com/google/go-cmp/cmp"
	"github.com/google/go-cmp/cmp/cmpopts"
)

func TestParseMentions(t *testing.T) {
	for _, tc := range []struct {
		q      string
		idents []string
		paths  []string
	}{
		{"the total drifts", nil, nil},
		{"RoundTotal is off", []string{"RoundTotal"}, nil},
		{"call `total` twice", []string{"total"}, nil},
		{"g.map(sns.scatterplot, hue=x)", []string{"map", "scatterplot"}, []string{"g.map", "sns.scatterplot"}},
		{`File "/usr/lib/python3/site-packages/seaborn/_core.py", line 144, in _lookup_single`, []string{"python3", "_core", "_lookup_single"}, []string{"usr/lib/python3/site-packages/seaborn/_core.py"}},
		{"see src\\app\\main.go and README.md.", nil, []string{"src/app/main.go", "README.md"}},
		{"parse_args() fails", []string{"parse_args"}, nil},
		{"version 1.2.3 breaks", nil, nil},
		{"utf8Decode and HTTPServer", []string{"utf8Decode", "HTTPServer"}, nil},
	} {
		m := ParseMentions(tc.q)
		if d := cmp.Diff(tc.idents, m.Idents); d != "" {
			t.Errorf("%q idents (-want +got):\n%s", tc.q, d)
		}
		if d := cmp.Diff(tc.paths, m.Paths); d != "" {
			t.Errorf("%q paths (-want +got):\n%s", tc.q, d)
		}
	}
}

func TestPathMention(t *testing.T) {
	for _, tc := range []struct {
		path      string
		mentioned []string
		want      float64
	}{
		{"requests/models.py", []string{"requests/models.py"}, 1},
		{"src/flask/cli.py", []string{"flask/cli.py"}, 0.9},
		{"requests/models.py", []string{"usr/lib/site-packages/requests/models.py"}, 1},
		{"lib/requests/models.py", []string{"site-packages/requests/models.py"}, 0.9},
		{"xarray/core/dataset.py", []string{"xarray.core.dataset"}, 1},
		{"src/_pytest/python.py", []string{"_pytest.python"}, 0.8},
		{"xarray/core/__init__.py", []string{"xarray.core"}, 1},
		{"a/models.py", []string{"models.py"}, 0.6},
		{"a/__init__.py", []string{"__init__.py"}, 0},
		{"a/models.py", []string{"views.py"}, 0},
	} {
		if got := pathMention(tc.path, tc.mentioned); got != tc.want {
			t.Errorf("pathMention(%q, %q) = %v, want %v", tc.path, tc.mentioned, got, tc.want)
		}
	}
}

func TestFileKind(t *testing.T) {
	for p, want := range map[string]string{
		"src/app.py": "source", "tests/test_app.py": "test", "app_test.go": "test", "pkg/testdata/x.go": "test",
		"docs/index.rst": "documentation", "README.md": "documentation", "examples/demo.py": "documentation",
		"doc/requirements/UC-1.md": "requirements", "setup.py": "config", ".github/workflows/ci.yml": "config",
		"pyproject.toml": "config", "logo.svg": "other", "testing/conftest.py": "test",
		"web/app.mts": "source", "lib/x.hh": "source", "build.gradle.kts": "source", "gui/app.pyw": "source", "ui/App.vue": "source", "page.html": "other", "data.xml": "other",
		"dist/axios.js": "other", "build/lib/pkg/mod.py": "other", "static/app.min.js": "other", "web/vendor.bundle.js": "other", "cmd/dist/main.go": "source",
		"CHANGES.markdown": "documentation", "docs/intro.mdx": "documentation", "Makefile": "config",
	} {
		if got := FileKind(p); got != want {
			t.Errorf("FileKind(%q) = %s, want %s", p, got, want)
		}
	}
}

// Rank fuses the mention ranking: a definition the query names comes
// first even when its words are rare in the text, every chunk of the best
// file comes in (expansion), and ranking twice gives the same answer.
func TestRankMentionsAndExpansion(t *testing.T) {
	ix := indexFS(t, os.DirFS(fixture))
	ctx := context.Background()
	r, err := Rank(ctx, ix, "calling `compute_backoff` with attempt 40", Options{})
	if err != nil {
		t.Fatal(err)
	}
	if len(r.Chunks) == 0 || r.Chunks[0].Symbol != "compute_backoff" {
		t.Fatalf("first chunk %+v, want compute_backoff", r.Chunks[0].Hit)
	}
	if r.Chunks[0].Ranks["mentions"] != 1 || r.Chunks[0].Factors["mention_density"] != 1 {
		t.Errorf("compute_backoff: ranks %v, factors %v: want first in mentions with density 1", r.Chunks[0].Ranks, r.Chunks[0].Factors)
	}
	all, err := ix.FileChunks(ctx, "worker/queue.py")
	if err != nil {
		t.Fatal(err)
	}
	n := 0
	for _, c := range r.Chunks {
		if c.Path == "worker/queue.py" {
			n++
		}
	}
	if n != len(all) {
		t.Errorf("%d of the best file's %d chunks ranked, want all (expansion)", n, len(all))
	}
	again, err := Rank(ctx, ix, "calling `compute_backoff` with attempt 40", Options{})
	if err != nil {
		t.Fatal(err)
	}
	if d := cmp.Diff(r, again, cmpopts.IgnoreUnexported(index.Hit{}, Ranking{})); d != "" {
		t.Errorf("second ranking differs:\n%s", d)
	}
	none, err := Rank(ctx, ix, "calling `compute_backoff` with attempt 40", Options{Expand: -1})
	if err != nil {
		t.Fatal(err)
	}
	for _, c := range none.Chunks {
		if c.Factors["file_relevance"] != 0 {
			t.Errorf("Expand -1 still expanded %s#%d", c.Path, c.Seq)
		}
	}
	// Expansion changes no file's relevance or place (the facade's
	// rankFiles ranks without it), even at a share of 1.
	full, err := Rank(ctx, ix, "calling `compute_backoff` with attempt 40", Options{ExpandShare: 1})
	if err != nil {
		t.Fatal(err)
	}
	ignoreBest := cmpopts.IgnoreFields(File{}, "Best")
	if d := cmp.Diff(full.Files, none.Files, ignoreBest); d != "" {
		t.Errorf("files with and without expansion differ (-with +without):\n%s", d)
	}
	if d := cmp.Diff(r.Files, none.Files, ignoreBest); d != "" {
		t.Errorf("files with and without expansion differ (-with +without):\n%s", d)
	}
}

// With Read, every ranked chunk gets a dependency depth: 1 in the best
// files, less in files that reference them or that they reference.
func TestRankDependencyDepth(t *testing.T) {
	ix := indexFS(t, os.DirFS(fixture))
	read := func(p string) (string, error) {
		b, err := os.ReadFile(filepath.Join(fixture, p))
		return string(b), err
	}
	r, err := Rank(context.Background(), ix, "invoice total rounded to the cent", Options{Read: read, Seeds: 1})
	if err != nil {
		t.Fatal(err)
	}
	best := r.Files[0].Path
	for _, c := range r.Chunks {
		d, ok := c.Factors["dependency_depth"]
		switch {
		case !ok && c.Factors["file_relevance"] == 0:
			t.Errorf("%s#%d has no dependency_depth", c.Path, c.Seq)
		case c.Path == best && ok && d != 1:
			t.Errorf("%s#%d in the seed file has depth factor %v, want 1", c.Path, c.Seq, d)
		case c.Path != best && d > 0.75:
			t.Errorf("%s#%d outside the seed has depth factor %v, want at most 0.75", c.Path, c.Seq, d)
		}
	}
}

// Small units merged into one chunk ("Alpha, Beta, Gamma") each count as
// a definition the query can name, not only the last one.
func TestRankMergedChunkDefinitions(t *testing.T) {
	ix := indexFS(t, mapFS(map[string]string{
		"g.go": "package g\n\nfunc Alpha() int { return 1 }\n\nfunc Beta() int { return 2 }\n\nfunc Gamma() int { return 3 }\n",
	}))
	defs, err := ix.Definitions(context.Background(), []string{"Alpha"})
	if err != nil {
		t.Fatal(err)
	}
	if len(defs) != 1 || defs[0].Symbol != "Alpha, Beta, Gamma" {
		t.Fatalf("Definitions(Alpha) = %+v, want the merged chunk", defs)
	}
	r, err := Rank(context.Background(), ix, "why does `Alpha` return one", Options{})
	if err != nil {
		t.Fatal(err)
	}
	if len(r.Chunks) == 0 || !slices.Contains(r.Chunks[0].Named, "defines Alpha") {
		t.Errorf("first chunk named %v, want defines Alpha", r.Chunks[0].Named)
	}
}
