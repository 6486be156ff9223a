package files

import (
	"context"
	"os"
	"path/filepath"
	"runtime"
	"testing"
)

// BenchmarkCollect collects Go's net/http (every text file under it: Go
// sources, tests and testdata), unranked as an unbudgeted pack does, and
// ranked by structure as a pack under a budget does (no git history).
func BenchmarkCollect(b *testing.B) {
	dir := filepath.Join(runtime.GOROOT(), "src", "net", "http")
	if _, err := os.Stat(dir); err != nil {
		b.Skipf("no %s: %v", dir, err)
	}
	env := Env{FS: os.DirFS(dir)}
	for _, tc := range []struct {
		name string
		req  Request
	}{
		{"unranked", Request{}},
		{"ranked", Request{Ranked: true}},
	} {
		b.Run(tc.name, func(b *testing.B) {
			b.ReportAllocs()
			for b.Loop() {
				c, err := Collect(context.Background(), env, tc.req)
				if err != nil {
					b.Fatal(err)
				}
				if len(c.Parts) == 0 {
					b.Fatal("no parts")
				}
			}
		})
	}
}
