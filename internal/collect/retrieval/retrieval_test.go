package retrieval

import (
	"context"
	"io/fs"
	"slices"
	"strings"
	"testing"
	"testing/fstest"

	"github.com/ctxpack/ctxpack/internal/index"
	"github.com/ctxpack/ctxpack/internal/pack"
	"github.com/ctxpack/ctxpack/internal/project"
	"github.com/ctxpack/ctxpack/internal/retrieve"
)

func TestTierFor(t *testing.T) {
	tiers := DefaultTiers()
	for _, tt := range []struct {
		rel  float64
		want string
	}{
		{1, "primary"}, {0.7, "primary"}, {0.699999, "supporting"}, {0.5, "supporting"},
		{0.3, "reference"}, {0.29, "history"}, {0, "history"}, {-1, "history"},
	} {
		if got := TierFor(tt.rel, tiers).Name; got != tt.want {
			t.Errorf("TierFor(%v) = %s, want %s", tt.rel, got, tt.want)
		}
	}
	p := Policy(tiers)
	var got []string
	var sum float64
	for _, b := range p.Buckets {
		got = append(got, b.Name)
		sum += b.Share
	}
	if !slices.Equal(got, []string{"primary", "supporting", "reference", "history"}) || sum != 100 {
		t.Errorf("Policy buckets %v, shares summing to %v", got, sum)
	}
}

// countFS counts the opens of each file.
type countFS struct {
	fs.FS
	opens map[string]int
}

func (c countFS) Open(name string) (fs.File, error) {
	c.opens[name]++
	return c.FS.Open(name)
}

func TestFilesReadOnce(t *testing.T) {
	fsys := countFS{fstest.MapFS{"a.go": {Data: []byte("package a\n")}}, map[string]int{}}
	f := NewFiles(fsys)
	for range 3 {
		text, err := f.Read("a.go")
		if err != nil || text != "package a\n" {
			t.Fatalf("Read: %q, %v", text, err)
		}
		if _, err := f.Read("missing.go"); err == nil {
			t.Fatal("Read of a missing file: no error")
		}
	}
	if fsys.opens["a.go"] != 1 || fsys.opens["missing.go"] != 1 {
		t.Errorf("opens %v, want each file once", fsys.opens)
	}
}

const goFile = `package a

// Add adds.
func Add(a, b int) int {
	s := a + b
	return s
}

func Sub(a, b int) int { return a - b }
`

func chunkOf(path, text, sub string, seq int, rel float64) retrieve.Chunk {
	start := strings.Index(text, sub)
	end := start + len(sub)
	return retrieve.Chunk{
		Hit: index.Hit{
			Path: path, Seq: seq, Start: start, End: end,
			StartLine: strings.Count(text[:start], "\n") + 1, EndLine: strings.Count(text[:end], "\n"),
			Kind: "function", Symbol: "Add", CID: project.ContentID(sub),
		},
		Relevance: rel,
		Factors:   map[string]float64{"task_alignment": rel},
	}
}

func TestParts(t *testing.T) {
	fsys := fstest.MapFS{
		"a.go":        {Data: []byte(goFile)},
		"docs/b.md":   {Data: []byte("# B\n\nText.\n")},
		"changed.go":  {Data: []byte("package changed\n")},
		"short.go":    {Data: []byte("x\n")},
		"a_test.go":   {Data: []byte(goFile)},
		"unreadable/": {Mode: fs.ModeDir},
	}
	add := "// Add adds.\nfunc Add(a, b int) int {\n\ts := a + b\n\treturn s\n}\n"
	good := chunkOf("a.go", goFile, add, 0, 0.9)
	test := chunkOf("a_test.go", goFile, add, 0, 0.4)
	doc := chunkOf("docs/b.md", "# B\n\nText.\n", "# B\n\nText.\n", 0, 0.6)
	doc.Kind, doc.Symbol = "", ""
	changed := chunkOf("changed.go", "package other\n", "package other\n", 0, 0.8)
	past := good
	past.Path, past.Seq = "short.go", 1
	missing := good
	missing.Path, missing.Seq = "gone.go", 2
	missing2 := missing
	missing2.Seq = 3

	parts, dropped, warnings := Parts([]retrieve.Chunk{good, changed, doc, past, test, missing, missing2}, NewFiles(fsys), DefaultTiers(), true, nil)
	var keys []string
	for _, p := range parts {
		keys = append(keys, p.Key+" "+p.Type+" "+p.Bucket)
	}
	if want := []string{"a.go#0 code primary", "docs/b.md#0 doc supporting", "a_test.go#0 test reference"}; !slices.Equal(keys, want) {
		t.Errorf("parts %q, want %q", keys, want)
	}
	var drops []string
	for _, d := range dropped {
		drops = append(drops, d.Key+": "+d.Reason)
	}
	if len(drops) != 4 || !strings.Contains(drops[0], "changed.go#0: the file changed since it was indexed") ||
		!strings.Contains(drops[1], "short.go#1: the file changed") || !strings.HasPrefix(drops[2], "gone.go#2: ") {
		t.Errorf("dropped %q", drops)
	}
	// One warning per file.
	if len(warnings) != 3 || !strings.HasPrefix(warnings[2], "skipped chunks of gone.go: ") {
		t.Errorf("warnings %q", warnings)
	}

	p := parts[0]
	if p.Text[pack.Full] != add || p.Label != "a.go:3-7" || p.Lines != [2]int{3, 7} || p.Lang != "go" ||
		p.Text[pack.Meta] != "function Add, lines 3-7\n" || p.CID != good.CID || p.Score != 0.9 || p.Doc != "a.go" {
		t.Errorf("part %+v", p)
	}
	if s := p.Text[pack.Summary]; s == "" || len(s) >= len(add) {
		t.Errorf("summary %q of %q", s, add)
	}
	p.Components["task_alignment"] = 0 // the part's components are its own
	if good.Factors["task_alignment"] != 0.9 {
		t.Error("Part shares the chunk's factors")
	}
	if m := parts[1].Text[pack.Meta]; m != "chunk b.md, lines 1-3\n" {
		t.Errorf("meta of a chunk with no kind or symbol: %q", m)
	}
}

func TestInputs(t *testing.T) {
	var opt retrieve.Options
	files := NewFiles(fstest.MapFS{"a.go": {Data: []byte("package a\n")}})
	Inputs(context.Background(), t.TempDir(), files, &opt)
	if text, err := opt.Read("a.go"); err != nil || text != "package a\n" {
		t.Errorf("Read: %q, %v", text, err)
	}
	changed, err := opt.Changed([]string{"a.go"})
	if err != nil || len(changed) != 0 {
		t.Errorf("Changed outside git: %v, %v", changed, err)
	}
}
