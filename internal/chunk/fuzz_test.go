package chunk

import (
	"maps"
	"os"
	"path/filepath"
	"slices"
	"testing"
)

// fuzzExts are the languages FuzzSplit reads its input as.
var fuzzExts = []string{".go", ".py", ".js", ".ts", ".tsx", ".java", ".rs", ".c", ".cpp", ".h", ".cs", ".md", ".txt"}

// FuzzSplit checks, for any input read as any language, that Split tiles
// it, that it does so the same way twice, that the heuristics tile it too,
// and that Levels does not panic.
func FuzzSplit(f *testing.F) {
	files, _ := filepath.Glob("testdata/src/*")
	for i, file := range files {
		src, err := os.ReadFile(file)
		if err != nil {
			f.Fatal(err)
		}
		f.Add(uint8(i), src)
	}
	aw := awkward()
	names := slices.Sorted(maps.Keys(aw))
	for i, name := range names {
		if src := aw[name]; len(src) <= 4096 {
			f.Add(uint8(i), src)
		}
	}
	f.Fuzz(func(t *testing.T, lang uint8, src []byte) {
		path := "f" + fuzzExts[int(lang)%len(fuzzExts)]
		chunks := Split(path, src)
		if e := tilingError(src, chunks, MaxChunkBytes); e != "" {
			t.Fatalf("%s: %s", path, e)
		}
		if !slices.Equal(chunks, Split(path, src)) {
			t.Fatalf("%s: two splits differ", path)
		}
		small := splitWith(path, src, 64, 16)
		if e := tilingError(src, small, 64); e != "" {
			t.Fatalf("%s, max 64: %s", path, e)
		}
		if e := tilingError(src, heuristicChunks(path, src, 64, 16), 64); e != "" {
			t.Fatalf("%s, heuristics: %s", path, e)
		}
		s, d := Levels(path, src)
		if s != "" && len(s) >= len(src) || d != "" && len(d) >= len(src) {
			t.Fatalf("%s: levels not shorter than the text", path)
		}
	})
}
