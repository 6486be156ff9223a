package index

import (
	"context"
	"fmt"
	"os"
	"path/filepath"
	"testing"
	"time"
)

// BenchmarkUpdate measures updates of a generated project: a cold build, an
// update that finds nothing changed, and one after a file was edited.
// bench/index-goroot.sh measures the same on Go's source tree, through the
// CLI.
func BenchmarkUpdate(b *testing.B) {
	for _, n := range []int{500, 2000} {
		dir := b.TempDir()
		writeTree(b, dir, genProject(9, n))
		ctx := context.Background()
		b.Run(fmt.Sprintf("files=%d/cold", n), func(b *testing.B) {
			b.ReportAllocs()
			i := 0
			for b.Loop() {
				i++
				ix, _, err := Open(filepath.Join(b.TempDir(), fmt.Sprintf("%d.db", i)), Options{Now: testNow})
				if err != nil {
					b.Fatal(err)
				}
				if _, err := ix.Update(ctx, os.DirFS(dir), nil); err != nil {
					b.Fatal(err)
				}
				ix.Close()
			}
		})
		ix, _ := build(b, dir, filepath.Join(b.TempDir(), "warm.db"), Options{})
		b.Run(fmt.Sprintf("files=%d/nochange", n), func(b *testing.B) {
			b.ReportAllocs()
			for b.Loop() {
				st, err := ix.Update(ctx, os.DirFS(dir), nil)
				if err != nil || st.Wrote {
					b.Fatal(err, st)
				}
			}
		})
		b.Run(fmt.Sprintf("files=%d/edit1", n), func(b *testing.B) {
			b.ReportAllocs()
			i := 0
			for b.Loop() {
				i++
				writeFile(b, dir, "pkg00/sub0/file0.go", fmt.Sprintf("package sub0\n\nfunc Edit%d() {}\n", i), epoch.Add(time.Duration(i)*time.Second))
				st, err := ix.Update(ctx, os.DirFS(dir), nil)
				if err != nil || st.Changed != 1 {
					b.Fatal(err, st)
				}
			}
		})
	}
}

// BenchmarkSearch measures queries on a generated project of 2000 files.
func BenchmarkSearch(b *testing.B) {
	dir := b.TempDir()
	writeTree(b, dir, genProject(10, 2000))
	ix, _ := build(b, dir, filepath.Join(b.TempDir(), "s.db"), Options{})
	for _, q := range []string{"RoundTotal", "invoice total currency", "why does the ledger balance drift after a currency conversion"} {
		for _, files := range []bool{false, true} {
			b.Run(fmt.Sprintf("%q/files=%t", q, files), func(b *testing.B) {
				b.ReportAllocs()
				for b.Loop() {
					if _, err := ix.Search(context.Background(), q, 10, SearchOptions{Files: files}); err != nil {
						b.Fatal(err)
					}
				}
			})
		}
	}
}

// BenchmarkUpdateTree builds an index of the tree named by
// CTXPACK_BENCH_TREE (for example a copy of $(go env GOROOT)/src), for
// profiling: go test -run XXX -bench UpdateTree -benchtime 1x -cpuprofile cpu.out.
func BenchmarkUpdateTree(b *testing.B) {
	tree := os.Getenv("CTXPACK_BENCH_TREE")
	if tree == "" {
		b.Skip("set CTXPACK_BENCH_TREE to a directory")
	}
	for b.Loop() {
		ix, _, err := Open(filepath.Join(b.TempDir(), "tree.db"), Options{})
		if err != nil {
			b.Fatal(err)
		}
		st, err := ix.Update(context.Background(), os.DirFS(tree), nil)
		if err != nil {
			b.Fatal(err)
		}
		b.ReportMetric(float64(st.Files), "files")
		b.ReportMetric(float64(st.Chunks), "chunks")
		ix.Close()
	}
}
