package refgraph

import (
	"maps"
	"math/rand/v2"
	"path/filepath"
	"runtime"
	"testing"
)

// TestStaged: a graph made from texts read one at a time (Scan, then
// NewNames, then Uses, in any order) is Build's, centrality and distances.
func TestStaged(t *testing.T) {
	files, _ := treeFiles(t, filepath.Join(runtime.GOROOT(), "src", "net", "http"))
	want := Build(files)
	r := rand.New(rand.NewPCG(5, 6))
	shuffled := func() []File {
		s := append([]File(nil), files...)
		r.Shuffle(len(s), func(i, j int) { s[i], s[j] = s[j], s[i] })
		return s
	}
	var defs []Defs
	for _, f := range shuffled() {
		defs = append(defs, Scan(f.Path, f.Text))
	}
	names := NewNames(defs)
	var uses []Uses
	for _, f := range shuffled() {
		uses = append(uses, names.Uses(f.Path, f.Text))
	}
	uses = append(uses, names.Uses("not/in/the/graph.go", "package x\n\nvar _ = ServeHTTP\n"))
	got := names.Graph(uses)
	if !maps.Equal(want.Centrality(), got.Centrality()) {
		t.Error("staged centrality differs from Build's")
	}
	seeds := []string{"server.go", "transport.go"}
	if !maps.Equal(want.Distances(seeds, 2), got.Distances(seeds, 2)) {
		t.Error("staged distances differ from Build's")
	}
	if len(want.to) == 0 || len(want.to) != len(got.to) {
		t.Errorf("%d edges built, %d staged", len(want.to), len(got.to))
	}
}
