package project

import (
	"os"
	"path/filepath"
	"runtime"
	"strconv"
	"testing"
)

// BenchmarkWalkGOROOT walks Go's source tree ($GOROOT/src, about 11,500
// files): directory reads, ignore rules, and the 8000-byte binary probe of
// every file.
func BenchmarkWalkGOROOT(b *testing.B) {
	fsys := os.DirFS(filepath.Join(runtime.GOROOT(), "src"))
	for _, workers := range []int{1, 0} {
		name := "workers=" + strconv.Itoa(workers)
		if workers == 0 {
			name = "workers=GOMAXPROCS"
		}
		b.Run(name, func(b *testing.B) {
			b.ReportAllocs()
			var n int
			for b.Loop() {
				files, _, err := Walk(fsys, nil, WalkOptions{IncludeHidden: true, Workers: workers})
				if err != nil {
					b.Fatal(err)
				}
				n = len(files)
			}
			b.ReportMetric(float64(n), "files")
		})
	}
}

func BenchmarkIgnored(b *testing.B) {
	l := parseIgnore([]byte("*.log\n/build/\ndocs/**/*.tmp\n!keep.log\n**/node_modules/\nfoo/*/bar\n*.[oa]\n"), "")
	stack := []*ignoreList{&l}
	paths := []string{"src/main.go", "docs/a/b/c.tmp", "x/keep.log", "lib/x.o", "a/b/c/d/e/f.txt"}
	b.ReportAllocs()
	for b.Loop() {
		for _, p := range paths {
			ignored(stack, p, false)
		}
	}
}
