package retrieve

import (
	"context"
	"flag"
	"fmt"
	"io/fs"
	"math"
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"testing"
	"testing/fstest"

	"github.com/ctxpack/ctxpack/internal/index"
	"github.com/google/go-cmp/cmp"
)

var update = flag.Bool("update", false, "rewrite testdata/rank_stats.txt")

const fixture = "../index/testdata/rank/repo"

// indexFS indexes the files of fsys into a new index under a temporary
// directory.
func indexFS(t testing.TB, fsys fs.FS) *index.Index {
	t.Helper()
	ix, _, err := index.Open(filepath.Join(t.TempDir(), "index.db"), index.Options{})
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { ix.Close() })
	if _, err := ix.Update(context.Background(), fsys, nil); err != nil {
		t.Fatal(err)
	}
	return ix
}

// mapFS is a project of the given files, by slash path.
func mapFS(files map[string]string) fstest.MapFS {
	fsys := fstest.MapFS{}
	for name, text := range files {
		fsys[name] = &fstest.MapFile{Data: []byte(text), Mode: 0o644}
	}
	return fsys
}

// TestRankStats ranks the files of the index's synthetic repository for
// the queries of testdata/queries.txt with the default options, and
// compares each query's rank of the expected file, with recall@1,
// recall@5 and MRR, to testdata/rank_stats.txt (go test -run
// TestRankStats -update rewrites it: a ranking change is a reviewable
// diff).
func TestRankStats(t *testing.T) {
	data, err := os.ReadFile("testdata/queries.txt")
	if err != nil {
		t.Fatal(err)
	}
	ix := indexFS(t, os.DirFS(fixture))
	var rows strings.Builder
	var n, r1, r5, mrr float64
	for _, line := range strings.Split(string(data), "\n") {
		if line == "" || strings.HasPrefix(line, "#") {
			continue
		}
		q, want, ok := strings.Cut(line, "\t")
		if !ok {
			t.Fatalf("queries.txt: %q: want QUERY<TAB>FILE", line)
		}
		if _, err := os.Stat(filepath.Join(fixture, want)); err != nil {
			t.Fatalf("queries.txt: %q: %v", line, err)
		}
		r, err := Rank(context.Background(), ix, q, Options{})
		if err != nil {
			t.Fatal(err)
		}
		rank := 0
		for i, f := range r.Files {
			if f.Path == want {
				rank = i + 1
				break
			}
		}
		n++
		if rank == 1 {
			r1++
		}
		if rank >= 1 && rank <= 5 {
			r5++
		}
		if rank > 0 {
			mrr += 1 / float64(rank)
		}
		top := "-"
		if len(r.Files) > 0 && rank != 1 {
			top = r.Files[0].Path
		}
		rs := "-"
		if rank > 0 {
			rs = strconv.Itoa(rank)
		}
		if len(q) > 60 {
			q = q[:57] + "..."
		}
		fmt.Fprintf(&rows, "%4s  %-60s %-30s %s\n", rs, q, want, top)
	}
	var b strings.Builder
	fmt.Fprintf(&b, "# Ranking fixture: %d queries (testdata/queries.txt) over %s, default options.\n", int(n), fixture)
	fmt.Fprintf(&b, "files  recall@1 %.3f  recall@5 %.3f  MRR %.3f\n\n", r1/n, r5/n, mrr/n)
	fmt.Fprintf(&b, "%4s  %-60s %-30s %s\n", "rank", "query", "expected", "top file when not first")
	b.WriteString(rows.String())
	got := b.String()
	const golden = "testdata/rank_stats.txt"
	if *update {
		if err := os.WriteFile(golden, []byte(got), 0o666); err != nil {
			t.Fatal(err)
		}
		return
	}
	want, err := os.ReadFile(golden)
	if err != nil {
		t.Fatalf("%v (run go test -run TestRankStats -update to write it)", err)
	}
	if d := cmp.Diff(string(want), got); d != "" {
		t.Errorf("ranking changed (-%s +got); if intended, run go test -run TestRankStats -update and review the diff:\n%s", golden, d)
	}
}

// wordEmbedder embeds a text as the sum of the vectors of the words of
// vecs it holds, or as other when it holds none.
type wordEmbedder struct {
	vecs  map[string][]float32
	other []float32
}

func (e wordEmbedder) ID() string { return "test:words" }

func (e wordEmbedder) Embed(_ context.Context, texts []string) ([][]float32, error) {
	out := make([][]float32, len(texts))
	for i, text := range texts {
		v := make([]float32, len(e.other))
		found := false
		for w, wv := range e.vecs {
			if strings.Contains(strings.ToLower(text), w) {
				found = true
				for j := range v {
					v[j] += wv[j]
				}
			}
		}
		if !found {
			copy(v, e.other)
		}
		out[i] = v
	}
	return out, nil
}

// TestRankFactorsInRange: every factor is in [0, 1], even for a chunk
// whose cosine to the query is negative: its similarity counts as none.
func TestRankFactorsInRange(t *testing.T) {
	ctx := context.Background()
	fsys := mapFS(map[string]string{
		"a.go": "package a\n\n// Alpha is the first.\nfunc Alpha() {}\n",
		"b.go": "package b\n\n// Beta is the second.\nfunc Beta() {}\n",
		"c.go": "package c\n\n// Gamma is the third.\nfunc Gamma() {}\n",
	})
	ix := indexFS(t, fsys)
	e := wordEmbedder{vecs: map[string][]float32{"alpha": {1, 0}, "beta": {-1, 0.1}}, other: []float32{0, 1}}
	if _, err := ix.Embed(ctx, fsys, e, nil); err != nil {
		t.Fatal(err)
	}
	r, err := Rank(ctx, ix, "alpha", Options{Embedder: e})
	if err != nil {
		t.Fatal(err)
	}
	rrf := func(c Chunk) float64 {
		var s float64
		for _, rank := range c.Ranks {
			s += 1 / float64(60+rank)
		}
		return s
	}
	var top float64
	for _, c := range r.Chunks {
		top = max(top, rrf(c))
	}
	negative := false
	for _, c := range r.Chunks {
		for name, v := range c.Factors {
			if v < 0 || v > 1 {
				t.Errorf("%s#%d: %s = %v, outside [0, 1]", c.Path, c.Seq, name, v)
			}
		}
		if c.Path == "b.go" && c.Symbol == "Beta" {
			negative = true
			// Half its fused score over the best, half no similarity.
			if want := rrf(c) / top / 2; math.Abs(c.Factors["task_alignment"]-want) > 1e-6 {
				t.Errorf("b.go task_alignment %v, want %v", c.Factors["task_alignment"], want)
			}
		}
		if c.Relevance < 0 || c.Relevance > 1 {
			t.Errorf("%s#%d: relevance %v", c.Path, c.Seq, c.Relevance)
		}
	}
	if !negative {
		t.Errorf("b.go, whose cosine is negative, not ranked: %+v", r.Chunks)
	}
}

// TestBestChunks: one search over many files finds each file's best chunk
// as a search of that file alone does, and the first chunk of a file
// that does not match.
func TestBestChunks(t *testing.T) {
	ctx := context.Background()
	ix := indexFS(t, os.DirFS(fixture))
	paths, err := ix.Paths(ctx)
	if err != nil || len(paths) < 10 {
		t.Fatalf("paths %v, %v", paths, err)
	}
	data, err := os.ReadFile("testdata/queries.txt")
	if err != nil {
		t.Fatal(err)
	}
	queries := []string{"", "zzzz nothing matches this"}
	for _, line := range strings.Split(string(data), "\n") {
		if q, _, ok := strings.Cut(line, "\t"); ok && !strings.HasPrefix(line, "#") {
			queries = append(queries, q)
		}
	}
	for _, q := range queries[:min(len(queries), 12)] {
		got, err := bestChunks(ctx, ix, q, nil, paths)
		if err != nil {
			t.Fatal(err)
		}
		want := map[string]index.Hit{}
		for _, p := range paths {
			hits, err := ix.Search(ctx, q, 1, index.SearchOptions{Paths: []string{p}})
			if err != nil {
				t.Fatal(err)
			}
			if len(hits) == 0 {
				if hits, err = ix.FileChunks(ctx, p); err != nil {
					t.Fatal(err)
				}
			}
			if len(hits) > 0 {
				want[p] = hits[0]
			}
		}
		if d := cmp.Diff(want, got, cmp.AllowUnexported(index.Hit{})); d != "" {
			t.Errorf("%q (-one search per file +one search):\n%s", q, d)
		}
	}
}
