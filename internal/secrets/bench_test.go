package secrets

import (
	"path/filepath"
	"runtime"
	"testing"
)

// BenchmarkScanGoTree scans the text files of Go's source tree, one
// goroutine: bytes per second is the scanner's speed on real code.
func BenchmarkScanGoTree(b *testing.B) {
	paths, texts := treeFiles(b, filepath.Join(runtime.GOROOT(), "src"))
	total := 0
	for _, t := range texts {
		total += len(t)
	}
	s := &Scanner{}
	b.SetBytes(int64(total))
	b.ResetTimer()
	for b.Loop() {
		for i, t := range texts {
			s.Scan(paths[i], t)
		}
	}
}
