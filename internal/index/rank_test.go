package index

import (
	"context"
	"flag"
	"fmt"
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"
)

var update = flag.Bool("update", false, "rewrite testdata/rank_stats.txt")

// TestRankStats searches the synthetic repository in testdata/rank/repo
// for the queries in testdata/rank/queries.txt and writes each query's
// rank of the expected file, with recall@1, recall@5 and MRR, to
// testdata/rank_stats.txt: a ranking change is a reviewable diff of that
// file (go test -run TestRankStats -update). CTXPACK_RANK_WEIGHTS=S,P,B
// prints the stats for other column weights instead of comparing.
func TestRankStats(t *testing.T) {
	data, err := os.ReadFile("testdata/rank/queries.txt")
	if err != nil {
		t.Fatal(err)
	}
	type query struct{ text, want string }
	var queries []query
	for _, line := range strings.Split(string(data), "\n") {
		if line == "" || strings.HasPrefix(line, "#") {
			continue
		}
		q, want, ok := strings.Cut(line, "\t")
		if !ok {
			t.Fatalf("queries.txt: %q: want QUERY<TAB>FILE", line)
		}
		if _, err := os.Stat(filepath.Join("testdata/rank/repo", want)); err != nil {
			t.Fatalf("queries.txt: %q: %v", line, err)
		}
		queries = append(queries, query{q, want})
	}
	if len(queries) == 0 {
		t.Fatal("no queries in testdata/rank/queries.txt")
	}
	w := DefaultWeights()
	custom := os.Getenv("CTXPACK_RANK_WEIGHTS")
	if custom != "" {
		f := strings.Split(custom, ",")
		if len(f) != 3 {
			t.Fatalf("CTXPACK_RANK_WEIGHTS=%q: want S,P,B", custom)
		}
		var v [3]float64
		for i := range f {
			if v[i], err = strconv.ParseFloat(f[i], 64); err != nil {
				t.Fatal(err)
			}
		}
		w = Weights{Symbol: v[0], Path: v[1], Body: v[2]}
	}

	ix, st := build(t, "testdata/rank/repo", filepath.Join(t.TempDir(), "rank.db"), Options{})
	const k = 10
	rankOf := func(hits []Hit, want string) int {
		for i, h := range hits {
			if h.Path == want {
				return i + 1
			}
		}
		return 0
	}
	type metrics struct{ r1, r5, mrr float64 }
	var files, chunks metrics
	add := func(m *metrics, rank int) {
		if rank == 1 {
			m.r1++
		}
		if rank >= 1 && rank <= 5 {
			m.r5++
		}
		if rank > 0 {
			m.mrr += 1 / float64(rank)
		}
	}
	var rows strings.Builder
	for _, q := range queries {
		fh, err := ix.Search(context.Background(), q.text, k, SearchOptions{Files: true, Weights: w})
		if err != nil {
			t.Fatal(err)
		}
		ch, err := ix.Search(context.Background(), q.text, k, SearchOptions{Weights: w})
		if err != nil {
			t.Fatal(err)
		}
		fr, cr := rankOf(fh, q.want), rankOf(ch, q.want)
		add(&files, fr)
		add(&chunks, cr)
		top := "-"
		if len(fh) > 0 && fr != 1 {
			top = fh[0].Path
		}
		fmt.Fprintf(&rows, "%4s %5s  %-58s %-30s %s\n", rankString(fr), rankString(cr), q.text, q.want, top)
	}
	n := float64(len(queries))
	var b strings.Builder
	fmt.Fprintf(&b, "# Ranking fixture: %d queries over testdata/rank/repo (%d files, %d chunks).\n", len(queries), st.Files, st.Chunks)
	fmt.Fprintf(&b, "# Weights symbol %g, path %g, body %g. Ranks are within the top %d; - is not found.\n", w.Symbol, w.Path, w.Body, k)
	fmt.Fprintf(&b, "files   recall@1 %.3f  recall@5 %.3f  MRR %.3f\n", files.r1/n, files.r5/n, files.mrr/n)
	fmt.Fprintf(&b, "chunks  recall@1 %.3f  recall@5 %.3f  MRR %.3f\n\n", chunks.r1/n, chunks.r5/n, chunks.mrr/n)
	fmt.Fprintf(&b, "%4s %5s  %-58s %-30s %s\n", "file", "chunk", "query", "expected", "top file when not first")
	b.WriteString(rows.String())
	got := b.String()

	const golden = "testdata/rank_stats.txt"
	switch {
	case custom != "":
		t.Logf("\n%s", got)
	case *update:
		if err := os.WriteFile(golden, []byte(got), 0o666); err != nil {
			t.Fatal(err)
		}
	default:
		want, err := os.ReadFile(golden)
		if err != nil {
			t.Fatalf("%v (run go test -run TestRankStats -update to write it)", err)
		}
		if d := cmp.Diff(string(want), got); d != "" {
			t.Errorf("ranking changed (-%s +got); if intended, run go test -run TestRankStats -update and review the diff:\n%s", golden, d)
		}
	}
}

func rankString(r int) string {
	if r == 0 {
		return "-"
	}
	return strconv.Itoa(r)
}
