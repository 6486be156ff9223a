package refgraph

import (
	"io/fs"
	"os"
	"path/filepath"
	"runtime"
	"strings"
	"testing"
	"unicode/utf8"
)

// treeFiles reads the text files under dir (at most 1 MiB each, as a pack
// would), with slash paths relative to it, in walk order.
func treeFiles(tb testing.TB, dir string) ([]File, int64) {
	tb.Helper()
	var files []File
	var total int64
	err := filepath.WalkDir(dir, func(p string, d fs.DirEntry, err error) error {
		if err != nil || d.IsDir() {
			return err
		}
		info, err := d.Info()
		if err != nil || !info.Mode().IsRegular() || info.Size() > 1<<20 {
			return err
		}
		b, err := os.ReadFile(p)
		if err != nil {
			return err
		}
		if strings.IndexByte(string(b[:min(len(b), 8000)]), 0) >= 0 || !utf8.Valid(b) {
			return nil
		}
		rel, _ := filepath.Rel(dir, p)
		files = append(files, File{Path: filepath.ToSlash(rel), Text: string(b)})
		total += int64(len(b))
		return nil
	})
	if err != nil {
		tb.Fatal(err)
	}
	if len(files) == 0 {
		tb.Skipf("no files under %s", dir)
	}
	return files, total
}

// BenchmarkBuild builds the graph of Go's net/http (every text file under
// it: Go sources, tests and testdata).
func BenchmarkBuild(b *testing.B) {
	files, total := treeFiles(b, filepath.Join(runtime.GOROOT(), "src", "net", "http"))
	b.SetBytes(total)
	b.ReportAllocs()
	for b.Loop() {
		Build(files)
	}
}

// BenchmarkStaged makes the graph of net/http as a collector that holds
// no text does: Scan each file, NewNames, Uses of each file, Graph.
func BenchmarkStaged(b *testing.B) {
	files, total := treeFiles(b, filepath.Join(runtime.GOROOT(), "src", "net", "http"))
	b.SetBytes(2 * total) // every file is read twice
	b.ReportAllocs()
	for b.Loop() {
		defs := make([]Defs, len(files))
		for i, f := range files {
			defs[i] = Scan(f.Path, f.Text)
		}
		names := NewNames(defs)
		uses := make([]Uses, len(files))
		for i, f := range files {
			uses[i] = names.Uses(f.Path, f.Text)
		}
		names.Graph(uses).Centrality()
	}
}
