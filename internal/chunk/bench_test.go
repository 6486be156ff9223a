package chunk

import (
	"io/fs"
	"os"
	"path/filepath"
	"runtime"
	"strings"
	"testing"
)

type benchFile struct {
	path string
	src  []byte
}

// gorootFiles reads the files under $GOROOT/src/<dir> whose names end in
// one of exts, in walk (lexical) order.
func gorootFiles(b *testing.B, dirs []string, exts ...string) ([]benchFile, int64) {
	b.Helper()
	var files []benchFile
	var total int64
	for _, dir := range dirs {
		root := filepath.Join(runtime.GOROOT(), "src", dir)
		err := filepath.WalkDir(root, func(p string, d fs.DirEntry, err error) error {
			if err != nil || d.IsDir() {
				return err
			}
			for _, e := range exts {
				if strings.HasSuffix(p, e) {
					src, err := os.ReadFile(p)
					if err != nil {
						return err
					}
					files = append(files, benchFile{p, src})
					total += int64(len(src))
					break
				}
			}
			return nil
		})
		if err != nil {
			b.Fatal(err)
		}
	}
	if len(files) == 0 {
		b.Skipf("no %v files under %v", exts, dirs)
	}
	return files, total
}

// BenchmarkSplit measures Split's throughput. "go" is every .go file of
// five packages of Go's source tree (go/parser in every build); "c" is
// the C files of Go's runtime/cgo and cmd (tree-sitter with cgo, the
// heuristics without); "js" the JavaScript of Go's tree.
func BenchmarkSplit(b *testing.B) {
	sets := []struct {
		name string
		dirs []string
		exts []string
	}{
		{"go", []string{"net/http", "strings", "go/ast", "go/parser", "encoding/json"}, []string{".go"}},
		{"c", []string{"runtime/cgo", "cmd"}, []string{".c", ".h"}},
		{"js", []string{""}, []string{".js"}},
	}
	for _, set := range sets {
		b.Run(set.name, func(b *testing.B) {
			files, total := gorootFiles(b, set.dirs, set.exts...)
			b.SetBytes(total)
			b.ReportAllocs()
			for b.Loop() {
				for _, f := range files {
					Split(f.path, f.src)
				}
			}
		})
	}
	b.Run("heuristics/go", func(b *testing.B) {
		files, total := gorootFiles(b, []string{"net/http"}, ".go")
		b.SetBytes(total)
		b.ReportAllocs()
		for b.Loop() {
			for _, f := range files {
				heuristicChunks(f.path, f.src, MaxChunkBytes, MinChunkBytes)
			}
		}
	})
}

// BenchmarkLevels measures Levels on the .go files of net/http.
func BenchmarkLevels(b *testing.B) {
	files, total := gorootFiles(b, []string{"net/http"}, ".go")
	b.SetBytes(total)
	b.ReportAllocs()
	for b.Loop() {
		for _, f := range files {
			Levels(f.path, f.src)
		}
	}
}
