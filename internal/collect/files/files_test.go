package files

import (
	"context"
	"errors"
	"io/fs"
	"maps"
	"os"
	"os/exec"
	"path/filepath"
	"runtime"
	"slices"
	"strings"
	"sync"
	"testing"
	"testing/fstest"

	"github.com/google/go-cmp/cmp"

	"github.com/ctxpack/ctxpack/internal/chunk"
	"github.com/ctxpack/ctxpack/internal/pack"
	"github.com/ctxpack/ctxpack/internal/project"
	"github.com/ctxpack/ctxpack/internal/tokenizer"
)

func mapFS(files map[string]string) fstest.MapFS {
	m := fstest.MapFS{}
	for p, c := range files {
		m[p] = &fstest.MapFile{Data: []byte(c)}
	}
	return m
}

// hubTree: z/hub.go is used by three files, a/leaf.go by none; by path
// alone the leaf would come first.
func hubTree() map[string]string {
	return map[string]string{
		"a/leaf.go":  "package a\n\n// Leaf is used by nobody.\nfunc Leaf() int { return 1 }\n",
		"b/b.go":     "package b\n\nfunc B() int { return z.Hub() + 1 }\n",
		"c/c.go":     "package c\n\nfunc C() int { return z.Hub() * 2 }\n",
		"d/d.go":     "package d\n\nfunc D() int { return z.Hub() - z.Hub() }\n",
		"z/hub.go":   "package z\n\n// Hub is used by everyone.\nfunc Hub() int { return 42 }\n",
		"README.md":  "# demo\n",
		"config.yml": "name: demo\n",
		"logo.png":   "\x89PNG\x00\x00",
		"latin1.txt": "caf\xe9\n",
		".hidden":    "not listed\n",
	}
}

// summary is what a test compares of a part.
type summary struct {
	Key, Type, Lang, Meta string
	Lines                 [2]int
	Score                 float64
	Components            map[string]float64
	Full                  bool // the full text is the file's
}

func summarize(fsys fs.FS, parts []pack.Part) []summary {
	out := make([]summary, len(parts))
	for i, p := range parts {
		data, _ := fs.ReadFile(fsys, p.Path)
		text, err := p.Loader.Load()
		out[i] = summary{
			Key: p.Key, Type: p.Type, Lang: p.Lang, Meta: p.Text[pack.Meta], Lines: p.Lines,
			Score: p.Score, Components: p.Components,
			Full: err == nil && text == strings.ToValidUTF8(string(data), "\uFFFD") && p.Loader.Len == len(text) && len(p.Text) == 1,
		}
	}
	return out
}

func TestCollect(t *testing.T) {
	fsys := mapFS(hubTree())
	relevance := func(_ context.Context, query string) (map[string]float64, []string, error) {
		if query != "hub" {
			return nil, nil, errors.New("unexpected query " + query)
		}
		return map[string]float64{"z/hub.go": 0.9, "b/b.go": 1.5, "c/c.go": -1}, []string{"index is stale"}, nil
	}
	tests := []struct {
		name      string
		req       Request
		want      []summary
		keys      []string // when want is nil: the part keys
		scores    map[string]float64
		warnings  []string
		skipped   []project.Skipped
		wantError string
	}{
		{
			name: "unranked: file type only",
			req:  Request{},
			want: []summary{
				{Key: "README.md", Type: "doc", Lang: "markdown", Meta: "markdown, 1 lines, 7 bytes\n", Lines: [2]int{1, 1}, Score: 0.7, Components: map[string]float64{"file_type": 0.7}, Full: true},
				{Key: "a/leaf.go", Type: "source", Lang: "go", Meta: "go, 4 lines, 67 bytes\n", Lines: [2]int{1, 4}, Score: 1, Components: map[string]float64{"file_type": 1}, Full: true},
				{Key: "b/b.go", Type: "source", Lang: "go", Meta: "go, 3 lines, 47 bytes\n", Lines: [2]int{1, 3}, Score: 1, Components: map[string]float64{"file_type": 1}, Full: true},
				{Key: "c/c.go", Type: "source", Lang: "go", Meta: "go, 3 lines, 47 bytes\n", Lines: [2]int{1, 3}, Score: 1, Components: map[string]float64{"file_type": 1}, Full: true},
				{Key: "config.yml", Type: "config", Lang: "yaml", Meta: "yaml, 1 lines, 11 bytes\n", Lines: [2]int{1, 1}, Score: 0.6, Components: map[string]float64{"file_type": 0.6}, Full: true},
				{Key: "d/d.go", Type: "source", Lang: "go", Meta: "go, 3 lines, 53 bytes\n", Lines: [2]int{1, 3}, Score: 1, Components: map[string]float64{"file_type": 1}, Full: true},
				{Key: "latin1.txt", Type: "doc", Lang: "", Meta: "text, 1 lines, 7 bytes\n", Lines: [2]int{1, 1}, Score: 0.7, Components: map[string]float64{"file_type": 0.7}, Full: true},
				{Key: "z/hub.go", Type: "source", Lang: "go", Meta: "go, 4 lines, 68 bytes\n", Lines: [2]int{1, 4}, Score: 1, Components: map[string]float64{"file_type": 1}, Full: true},
			},
			warnings: []string{"latin1.txt: invalid UTF-8 replaced with U+FFFD"},
			skipped:  []project.Skipped{{Path: "logo.png", Reason: "binary"}},
		},
		{
			name:     "query: relevance, clamped, 0 when absent",
			req:      Request{Query: "hub", Relevance: relevance, Roots: []string{"b", "c", "z"}},
			keys:     []string{"b/b.go", "c/c.go", "z/hub.go"},
			scores:   map[string]float64{"b/b.go": 1, "c/c.go": 0, "z/hub.go": 0.9},
			warnings: []string{"index is stale"},
		},
		{
			name:     "ranked: centrality and file type",
			req:      Request{Ranked: true, Roots: []string{"a", "b", "c", "d", "z", "README.md"}},
			keys:     []string{"README.md", "a/leaf.go", "b/b.go", "c/c.go", "d/d.go", "z/hub.go"},
			warnings: []string{},
		},
		{name: "query without a ranking", req: Request{Query: "hub"}, wantError: "needs Request.Relevance"},
		{name: "ranking fails", req: Request{Query: "other", Relevance: relevance}, wantError: "unexpected query other"},
		{name: "root outside", req: Request{Roots: []string{"../x"}}, wantError: "invalid root"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			c, err := Collect(context.Background(), Env{FS: fsys}, tt.req)
			if tt.wantError != "" {
				if err == nil || !strings.Contains(err.Error(), tt.wantError) {
					t.Fatalf("error %v, want %q", err, tt.wantError)
				}
				return
			}
			if err != nil {
				t.Fatal(err)
			}
			got := summarize(fsys, c.Parts)
			if tt.want != nil {
				if d := cmp.Diff(tt.want, got); d != "" {
					t.Errorf("parts (-want +got):\n%s", d)
				}
			} else {
				var keys []string
				for _, p := range c.Parts {
					keys = append(keys, p.Key)
				}
				if d := cmp.Diff(tt.keys, keys); d != "" {
					t.Errorf("keys (-want +got):\n%s", d)
				}
			}
			if d := cmp.Diff(tt.warnings, c.Warnings, cmpEmpty); d != "" {
				t.Errorf("warnings (-want +got):\n%s", d)
			}
			if d := cmp.Diff(tt.skipped, c.Skipped, cmpEmpty); d != "" {
				t.Errorf("skipped (-want +got):\n%s", d)
			}
			var inputs []project.Input
			for _, p := range c.Parts {
				if want, ok := tt.scores[p.Path]; ok && (p.Score != want || !maps.Equal(p.Components, map[string]float64{"relevance": want})) {
					t.Errorf("%s: score %v, components %v; want relevance %v", p.Key, p.Score, p.Components, want)
				}
				text, err := p.Loader.Load()
				if err != nil {
					t.Fatal(err)
				}
				inputs = append(inputs, project.Input{Path: p.Path, CID: project.ContentID(text)})
				if p.CID != project.ContentID(text) {
					t.Errorf("%s: cid %s is not the full text's", p.Key, p.CID)
				}
				if p.More == nil { // ranked or not: a depth means the same either way
					t.Errorf("%s: no More", p.Key)
				}
			}
			if c.StateRoot != project.StateRoot(inputs) {
				t.Errorf("state root %s is not over the parts read", c.StateRoot)
			}
			if want := strings.Join(tt.req.Roots, " "); c.Target != want && !(want == "" && c.Target == ".") {
				t.Errorf("target %q, want %q", c.Target, want)
			}
		})
	}
}

var cmpEmpty = cmp.Transformer("empty", func(s []string) []string {
	if len(s) == 0 {
		return nil
	}
	return s
})

// TestRankByStructure: the file the others refer to ranks above a leaf;
// without git history recency is left out and the weights renormalized.
func TestRankByStructure(t *testing.T) {
	c, err := Collect(context.Background(), Env{FS: mapFS(hubTree())}, Request{Ranked: true})
	if err != nil {
		t.Fatal(err)
	}
	by := map[string]pack.Part{}
	for _, p := range c.Parts {
		by[p.Path] = p
		keys := slices.Sorted(maps.Keys(p.Components))
		if !slices.Equal(keys, []string{"centrality", "file_type"}) {
			t.Errorf("%s: components %v", p.Path, p.Components)
		}
		want := (0.6*p.Components["centrality"] + 0.1*p.Components["file_type"]) / 0.7
		if d := p.Score - want; d > 1e-9 || d < -1e-9 {
			t.Errorf("%s: score %v, want the weighted mean %v", p.Path, p.Score, want)
		}
	}
	hub, leaf := by["z/hub.go"], by["a/leaf.go"]
	if hub.Components["centrality"] != 1 || leaf.Components["centrality"] >= 1 || hub.Score <= leaf.Score {
		t.Errorf("hub %v (%v), leaf %v (%v)", hub.Components, hub.Score, leaf.Components, leaf.Score)
	}
}

// TestRecency: with git history, recency is a factor under a budget (the
// newest file 1, a file a week older 0.5) and Changed is set on request
// without one.
func TestRecency(t *testing.T) {
	if _, err := exec.LookPath("git"); err != nil {
		t.Skip("git is not installed")
	}
	dir := t.TempDir()
	files := hubTree()
	for name, text := range files {
		p := filepath.Join(dir, filepath.FromSlash(name))
		if err := os.MkdirAll(filepath.Dir(p), 0o755); err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(p, []byte(text), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	git := func(date string, args ...string) {
		t.Helper()
		cmd := exec.Command("git", args...)
		cmd.Dir = dir
		cmd.Env = append(os.Environ(), "GIT_CONFIG_GLOBAL=/dev/null", "GIT_CONFIG_NOSYSTEM=1",
			"GIT_AUTHOR_NAME=a", "GIT_AUTHOR_EMAIL=a@b", "GIT_COMMITTER_NAME=a", "GIT_COMMITTER_EMAIL=a@b",
			"GIT_COMMITTER_DATE="+date, "GIT_AUTHOR_DATE="+date)
		if out, err := cmd.CombinedOutput(); err != nil {
			t.Fatalf("git %v: %v\n%s", args, err, out)
		}
	}
	git("", "init", "-q")
	git("1700000000 +0000", "add", ".")
	git("1700000000 +0000", "commit", "-qm", "one")
	if err := os.WriteFile(filepath.Join(dir, "a", "leaf.go"), []byte(files["a/leaf.go"]+"\n// Changed.\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	git("1700604800 +0000", "commit", "-qam", "a week later")
	env := Env{FS: os.DirFS(dir), Root: dir}

	c, err := Collect(context.Background(), env, Request{Ranked: true})
	if err != nil {
		t.Fatal(err)
	}
	for _, p := range c.Parts {
		want := map[string]float64{"z/hub.go": 0.5, "a/leaf.go": 1}[p.Path]
		if p.Path == "z/hub.go" || p.Path == "a/leaf.go" {
			if p.Components["recency"] != want {
				t.Errorf("%s: recency %v, want %v", p.Path, p.Components["recency"], want)
			}
		}
		score := (0.6*p.Components["centrality"] + 0.3*p.Components["recency"] + 0.1*p.Components["file_type"]) / 1.0
		if d := p.Score - score; d > 1e-9 || d < -1e-9 {
			t.Errorf("%s: score %v, want %v", p.Path, p.Score, score)
		}
	}

	c, err = Collect(context.Background(), env, Request{Changed: true})
	if err != nil {
		t.Fatal(err)
	}
	for _, p := range c.Parts {
		want := map[string]int64{"z/hub.go": 1700000000, "a/leaf.go": 1700604800}[p.Path]
		if want != 0 && p.Changed != want {
			t.Errorf("%s: changed %d, want %d", p.Path, p.Changed, want)
		}
	}
}

// TestDeterministic: the collection is the same for any GOMAXPROCS, and
// a reversed walk gives the same parts in reverse.
func TestDeterministic(t *testing.T) {
	tree := hubTree()
	for i := range 40 {
		tree[filepath.ToSlash(filepath.Join("pkg", string(rune('a'+i%26))+strings.Repeat("x", i)+".go"))] = "package pkg\n\nfunc F() int { return z.Hub() }\n"
	}
	fsys := mapFS(tree)
	var first *Collection
	for _, procs := range []int{1, 4} {
		for _, reverse := range []bool{false, true} {
			old := runtime.GOMAXPROCS(procs)
			c, err := Collect(context.Background(), Env{FS: fsys}, Request{Ranked: true, Reverse: reverse})
			runtime.GOMAXPROCS(old)
			if err != nil {
				t.Fatal(err)
			}
			if reverse {
				slices.Reverse(c.Parts)
			}
			if first == nil {
				first = c
				continue
			}
			if d := cmp.Diff(summarize(fsys, first.Parts), summarize(fsys, c.Parts)); d != "" {
				t.Fatalf("GOMAXPROCS=%d reverse=%v (-first +got):\n%s", procs, reverse, d)
			}
			if c.StateRoot != first.StateRoot || !slices.Equal(c.Warnings, first.Warnings) {
				t.Fatalf("GOMAXPROCS=%d reverse=%v: state root or warnings differ", procs, reverse)
			}
		}
	}
}

// nthOpenFS opens one file as open says, by how many times it has been
// opened (the walk opens every file once, to tell binary files apart).
type nthOpenFS struct {
	fstest.MapFS
	path  string
	open  func(n int) (fs.File, error)
	mu    sync.Mutex
	opens int
}

func (f *nthOpenFS) Open(name string) (fs.File, error) {
	if name != f.path {
		return f.MapFS.Open(name)
	}
	f.mu.Lock()
	f.opens++
	n := f.opens
	f.mu.Unlock()
	return f.open(n)
}

func TestUnreadableAndCanceled(t *testing.T) {
	tree := mapFS(hubTree())
	fsys := &nthOpenFS{MapFS: tree, path: "b/b.go", open: func(n int) (fs.File, error) {
		if n > 1 {
			return nil, &fs.PathError{Op: "open", Path: "b/b.go", Err: fs.ErrPermission}
		}
		return tree.Open("b/b.go")
	}}
	c, err := Collect(context.Background(), Env{FS: fsys}, Request{})
	if err != nil {
		t.Fatal(err)
	}
	if !slices.ContainsFunc(c.Skipped, func(s project.Skipped) bool { return s.Path == "b/b.go" && s.Kind() == project.SkipUnreadable }) {
		t.Errorf("skipped %q lack the unreadable file", c.Skipped)
	}
	for _, p := range c.Parts {
		if p.Path == "b/b.go" {
			t.Error("the unreadable file is a part")
		}
	}
	ctx, cancel := context.WithCancel(context.Background())
	cancel()
	if _, err := Collect(ctx, Env{FS: mapFS(hubTree())}, Request{}); !errors.Is(err, context.Canceled) {
		t.Errorf("canceled: error %v", err)
	}
}

// TestCodeLevels: a ranked code file gives its extractive levels through
// More, the ones chunk.Levels makes.
func TestCodeLevels(t *testing.T) {
	src := "// Package z is a hub.\npackage z\n\n// Hub is used by everyone.\nfunc Hub() int {\n\tx := 42\n\ty := x * 2\n\treturn x + y\n}\n"
	c, err := Collect(context.Background(), Env{FS: mapFS(map[string]string{"z/hub.go": src, "notes.txt": ""})}, Request{Ranked: true})
	if err != nil {
		t.Fatal(err)
	}
	summary, detailed := chunk.Levels("z/hub.go", []byte(src))
	if summary == "" || detailed == "" {
		t.Fatal("chunk.Levels gives no levels for the fixture")
	}
	var hub pack.Part
	for _, p := range c.Parts {
		switch p.Path {
		case "z/hub.go":
			hub = p
		case "notes.txt":
			if p.Lines != [2]int{} || p.Text[pack.Meta] != "text, 0 lines, 0 bytes\n" {
				t.Errorf("empty file: lines %v, meta %q", p.Lines, p.Text[pack.Meta])
			}
		}
	}
	got := hub.More(src)
	want := map[pack.Level]string{pack.Summary: summary, pack.Detailed: detailed}
	if d := cmp.Diff(want, got); d != "" {
		t.Errorf("More (-want +got):\n%s", d)
	}
}

// TestClassify: a packed file's kind is the one retrieval's file-type
// factor gives it (retrieve.FileKind), with its priority, and its
// language is the one the chunker and the index use.

func TestUnitScore(t *testing.T) {
	for _, tt := range []struct{ in, want float64 }{
		{-1, 0}, {0, 0}, {0.1234567, 0.123457}, {1, 1}, {2, 1},
	} {
		if got := unitScore(tt.in); got != tt.want {
			t.Errorf("unitScore(%v) = %v, want %v", tt.in, got, tt.want)
		}
	}
}

// TestChangedWhilePacked: a part loads its file again, and fails when the
// file is not the one read: changed, of another length, or gone.
func TestChangedWhilePacked(t *testing.T) {
	fsys := mapFS(map[string]string{"a.go": "package a\n", "b.go": "package b\n", "c.go": "package c\n"})
	c, err := Collect(context.Background(), Env{FS: fsys}, Request{})
	if err != nil {
		t.Fatal(err)
	}
	fsys["a.go"].Data = []byte("package x\n") // same length
	fsys["b.go"].Data = []byte("package bb\n")
	delete(fsys, "c.go")
	for i, want := range []string{"files: a.go changed while it was packed", "files: b.go changed while it was packed", "project: read: open c.go"} {
		if _, err := c.Parts[i].Loader.Load(); err == nil || !strings.Contains(err.Error(), want) {
			t.Errorf("%s: error %v, want %q", c.Parts[i].Path, err, want)
		}
	}
	// Under a budget the reference graph reads every file again.
	fsys = mapFS(hubTree())
	c, err = Collect(context.Background(), Env{FS: fsys}, Request{Ranked: true})
	if err != nil {
		t.Fatal(err)
	}
	if _, err := pack.Assemble(c.Parts, pack.Options{Budget: 1000, Tokenizer: tokenizer.Approx{}}); err != nil {
		t.Fatal(err)
	}
	fsys["z/hub.go"].Data = append(fsys["z/hub.go"].Data, '\n')
	if _, err := pack.Assemble(c.Parts, pack.Options{Budget: 1000, Tokenizer: tokenizer.Approx{}}); err == nil || !strings.Contains(err.Error(), "z/hub.go changed") {
		t.Errorf("assembling a changed file: %v", err)
	}
}

// TestChangedWhileRanked: under a budget the reference graph reads every
// file twice; a file that changes in between fails the collection.
func TestChangedWhileRanked(t *testing.T) {
	tree := mapFS(hubTree())
	fsys := &nthOpenFS{MapFS: tree, path: "z/hub.go", open: func(n int) (fs.File, error) {
		if n > 2 { // after the walk's and the first read's
			return fstest.MapFS{"z/hub.go": {Data: append(slices.Clone(tree["z/hub.go"].Data), "// changed\n"...)}}.Open("z/hub.go")
		}
		return tree.Open("z/hub.go")
	}}
	_, err := Collect(context.Background(), Env{FS: fsys}, Request{Ranked: true})
	if err == nil || !strings.Contains(err.Error(), "z/hub.go changed while it was packed") {
		t.Fatalf("error %v", err)
	}
}

func TestClassify(t *testing.T) {
	tests := []struct {
		path, lang, kind string
		score            float64
	}{
		{"internal/a.go", "go", "source", 1},
		{"internal/a_test.go", "go", "test", 0.9},
		{"test/helper.go", "go", "test", 0.9},
		{"conftest.py", "python", "test", 0.9},
		{"docs/REQUIREMENTS.md", "markdown", "doc", 0.8},
		{"README.markdown", "markdown", "doc", 0.7},
		{"examples/demo.go", "go", "doc", 0.7},
		{"setup.py", "python", "config", 0.6},
		{"Makefile", "make", "config", 0.6},
		{".github/scripts/release.py", "python", "config", 0.6},
		{"lib/types.pyi", "python", "source", 1},
		{"logo.svg", "", "file", 0.5},
	}
	for _, tt := range tests {
		lang, kind, score := classify(tt.path)
		if lang != tt.lang || kind != tt.kind || score != tt.score {
			t.Errorf("classify(%q) = %q, %q, %v; want %q, %q, %v", tt.path, lang, kind, score, tt.lang, tt.kind, tt.score)
		}
		if lang != chunk.Language(tt.path) {
			t.Errorf("%s: language %q, the chunker's %q", tt.path, lang, chunk.Language(tt.path))
		}
	}
}
