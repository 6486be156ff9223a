package refgraph

import (
	"cmp"
	"fmt"
	"math/rand/v2"
	"runtime"
	"slices"
	"strings"
	"testing"

	gocmp "github.com/google/go-cmp/cmp"

	"github.com/ctxpack/ctxpack/internal/rank"
)

// refs lists the graph's edges as "from -> to", in order.
func (g *Graph) refs() []string {
	out := []string{}
	for i, p := range g.paths {
		for _, j := range g.to[g.outStart[i]:g.outStart[i+1]] {
			out = append(out, p+" -> "+g.paths[j])
		}
	}
	return out
}

// ranked lists the paths by centrality, highest first, ties by path.
func ranked(c map[string]float64) []string {
	var ps []string
	for p := range c {
		ps = append(ps, p)
	}
	slices.SortFunc(ps, func(a, b string) int {
		if x := cmp.Compare(c[b], c[a]); x != 0 {
			return x
		}
		return cmp.Compare(a, b)
	})
	return ps
}

// repo makes files from "path: text" pairs.
func repo(pairs ...string) []File {
	var fs []File
	for i := 0; i < len(pairs); i += 2 {
		fs = append(fs, File{Path: pairs[i], Text: pairs[i+1]})
	}
	return fs
}

func TestGraph(t *testing.T) {
	for _, tc := range []struct {
		name  string
		files []File
		refs  []string
		order []string // by centrality, when set
	}{{
		name: "a hub used by many ranks first",
		files: repo(
			"z/hub.go", "package z\n\nfunc Helper() int { return 1 }\n",
			"a.go", "package a\n\nfunc A() int { return z.Helper() }\n",
			"b.go", "package a\n\nfunc B() int { return z.Helper() + z.Helper() }\n",
			"c.go", "package a\n\nfunc C() int { return z.Helper() }\n",
			"leaf.go", "package a\n\nfunc Unused() {}\n",
		),
		refs:  []string{"a.go -> z/hub.go", "b.go -> z/hub.go", "c.go -> z/hub.go"},
		order: []string{"z/hub.go", "a.go", "b.go", "c.go", "leaf.go"},
	}, {
		name: "rank flows along a chain",
		files: repo(
			"a.go", "package p\n\nfunc Top() { Middle() }\n",
			"b.go", "package p\n\nfunc Middle() { Bottom() }\n",
			"c.go", "package p\n\nfunc Bottom() {}\n",
		),
		refs:  []string{"a.go -> b.go", "b.go -> c.go"},
		order: []string{"c.go", "b.go", "a.go"},
	}, {
		name: "ties go by path",
		files: repo(
			"y.go", "package p\n\nfunc Ping() { Pong() }\n",
			"x.go", "package p\n\nfunc Pong() { Ping() }\n",
			"w.go", "package p\n",
		),
		refs:  []string{"x.go -> y.go", "y.go -> x.go"},
		order: []string{"x.go", "y.go", "w.go"},
	}, {
		name: "rarer identifiers weigh more",
		files: repo(
			"user.go", "package p\n\nvar _ = Common + Common + Rare\n",
			"common1.go", "package p\n\nconst Common = 1\n",
			"common2.go", "package q\n\nconst Common = 2\n",
			"common3.go", "package r\n\nconst Common = 3\n",
			"rare.go", "package p\n\nconst Rare = 4\n",
		),
		refs:  []string{"user.go -> common1.go", "user.go -> common2.go", "user.go -> common3.go", "user.go -> rare.go"},
		order: []string{"rare.go", "common1.go", "common2.go", "common3.go", "user.go"},
	}, {
		name: "short, over-defined and self-defined identifiers make no edge",
		files: repo(
			"a.go", "package p\n\nfunc Do() {}\nfunc Own() {}\nfunc Everywhere() {}\n",
			"b.go", "package p\n\nfunc F() { Do(); Everywhere() }\n",
			"c.go", "package c\n\nfunc Everywhere() {}\nfunc Own() { Own() }\n",
			"d.go", "package d\n\nfunc Everywhere() {}\n",
			"e.go", "package e\n\nfunc Everywhere() {}\n",
			"f.go", "package f\n\nfunc Everywhere() {}\n",
			"g.go", "package g\n\nfunc Everywhere() {}\n",
		),
		refs: []string{},
	}, {
		name: "words in comments and strings are not uses in code; in docs they are, but not prose words",
		files: repo(
			"hub.go", "package p\n\nfunc NewHelper() {}\nfunc Help() {}\n",
			"a.go", "package p\n\n// NewHelper is not called here.\nvar s = \"NewHelper\" + `NewHelper` + 'H'\n",
			"README.md", "Call NewHelper to Help.\n",
		),
		refs: []string{"README.md -> hub.go"},
	}, {
		name: "uses match definitions of their own family",
		files: repo(
			"lib.c", "int helper_count(void) { return 1; }\n",
			"lib.py", "def helper_count():\n    return 2\n",
			"main.go", "package main\n\nfunc main() { helper_count() }\n",
			"main.py", "print(helper_count())\n",
			"main.c", "int main(void) { return helper_count(); }\n",
		),
		refs: []string{"main.c -> lib.c", "main.py -> lib.py"},
	}, {
		name: "unexported Go names are seen in their directory only",
		files: repo(
			"p/a.go", "package p\n\nfunc helper() {}\nfunc ExportedName() {}\n",
			"p/b/x.go", "package b\n\nfunc x() { helper() }\n",
			"p/c.go", "package p\n\nfunc c() { helper(); ExportedName() }\n",
			"q/c.go", "package q\n\nfunc c() { helper(); p.ExportedName() }\n",
			"doc.md", "helper and ExportedName\n",
		),
		refs: []string{"doc.md -> p/a.go", "p/c.go -> p/a.go", "q/c.go -> p/a.go"},
	}, {
		name: "Go's predeclared identifiers are nobody's",
		files: repo(
			"builtin.go", "package builtin\n\nfunc append() {}\nfunc copy() {}\ntype error interface{}\n",
			"a.go", "package a\n\nfunc F(x []int) error { x = append(x, 1); copy(x, x); return nil }\n",
		),
		refs: []string{},
	}} {
		t.Run(tc.name, func(t *testing.T) {
			g := Build(tc.files)
			if diff := gocmp.Diff(tc.refs, g.refs()); diff != "" {
				t.Errorf("edges (-want +got):\n%s", diff)
			}
			c := g.Centrality()
			if len(c) != len(tc.files) {
				t.Errorf("%d centralities for %d files", len(c), len(tc.files))
			}
			for p, v := range c {
				if v < 0 || v > 1 || v != rank.Round(v) {
					t.Errorf("%s: centrality %v not in [0, 1] in millionths", p, v)
				}
			}
			if tc.order != nil {
				if diff := gocmp.Diff(tc.order, ranked(c)); diff != "" {
					t.Errorf("order (-want +got):\n%s", diff)
				}
				if c[tc.order[0]] != 1 {
					t.Errorf("top file %s has centrality %v, want 1", tc.order[0], c[tc.order[0]])
				}
			}
		})
	}
}

// randomRepo makes n Go files in a few directories that define and use
// each other's names.
func randomRepo(r *rand.Rand, n int) []File {
	names := make([]string, n*2)
	for i := range names {
		names[i] = fmt.Sprintf("Name%d", r.IntN(n*3))
		if r.IntN(4) == 0 {
			names[i] = strings.ToLower(names[i])
		}
	}
	files := make([]File, n)
	for i := range files {
		var b strings.Builder
		b.WriteString("package p\n\n")
		for range 1 + r.IntN(3) {
			fmt.Fprintf(&b, "func %s() {\n", names[r.IntN(len(names))])
			for range r.IntN(6) {
				fmt.Fprintf(&b, "\t%s()\n", names[r.IntN(len(names))])
			}
			b.WriteString("}\n")
		}
		files[i] = File{Path: fmt.Sprintf("d%d/f%03d.go", r.IntN(4), i), Text: b.String()}
	}
	return files
}

// TestDeterministic: the same files in any order, on any number of
// goroutines, give the same graph and the same centralities.
func TestDeterministic(t *testing.T) {
	r := rand.New(rand.NewPCG(1, 2))
	files := randomRepo(r, 300)
	defer runtime.GOMAXPROCS(runtime.GOMAXPROCS(0))
	runtime.GOMAXPROCS(1)
	want := Build(files)
	if len(want.to) == 0 {
		t.Fatal("the random repository has no references")
	}
	for _, procs := range []int{1, 4} {
		runtime.GOMAXPROCS(procs)
		for range 3 {
			shuffled := slices.Clone(files)
			r.Shuffle(len(shuffled), func(i, j int) { shuffled[i], shuffled[j] = shuffled[j], shuffled[i] })
			got := Build(shuffled)
			if diff := gocmp.Diff(want.refs(), got.refs()); diff != "" {
				t.Fatalf("GOMAXPROCS %d: edges differ (-want +got):\n%s", procs, diff)
			}
			if diff := gocmp.Diff(want.Centrality(), got.Centrality()); diff != "" {
				t.Fatalf("GOMAXPROCS %d: centralities differ (-want +got):\n%s", procs, diff)
			}
			if got.iterations != want.iterations {
				t.Fatalf("GOMAXPROCS %d: %d iterations, want %d", procs, got.iterations, want.iterations)
			}
		}
	}
}

func TestDuplicatesAndEmpty(t *testing.T) {
	g := Build(nil)
	if len(g.Centrality()) != 0 || len(g.Distances([]string{"a"}, -1)) != 0 || len(g.paths) != 0 {
		t.Errorf("empty graph: %v", g.Centrality())
	}
	files := repo("a.go", "package p\n\nfunc F() { Gee() }\n", "b.go", "package p\n\nfunc Gee() {}\n", "a.go", "package q\n")
	g1 := Build(files)
	slices.Reverse(files)
	g2 := Build(files)
	if len(g1.paths) != 2 || !slices.Equal(g1.refs(), g2.refs()) || !slices.Equal(g1.refs(), []string{"a.go -> b.go"}) {
		t.Errorf("a path given twice: %v and %v", g1.refs(), g2.refs())
	}
}

func TestDistances(t *testing.T) {
	g := Build(repo(
		"a.go", "package p\n\nfunc Aaa() { Bbb() }\n",
		"b.go", "package p\n\nfunc Bbb() { Ccc() }\n",
		"c.go", "package p\n\nfunc Ccc() {}\n",
		"d.go", "package p\n\nfunc Ddd() { Ccc() }\n",
		"e.go", "package p\n\nfunc Eee() {}\n",
	))
	for _, tc := range []struct {
		from []string
		max  int
		want map[string]int
	}{
		{[]string{"a.go"}, -1, map[string]int{"a.go": 0, "b.go": 1, "c.go": 2, "d.go": 3}},
		{[]string{"a.go"}, 2, map[string]int{"a.go": 0, "b.go": 1, "c.go": 2}},
		{[]string{"c.go"}, 1, map[string]int{"c.go": 0, "b.go": 1, "d.go": 1}},
		{[]string{"a.go", "d.go", "missing.go"}, 1, map[string]int{"a.go": 0, "d.go": 0, "b.go": 1, "c.go": 1}},
		{[]string{"e.go"}, -1, map[string]int{"e.go": 0}},
		{[]string{"b.go"}, 0, map[string]int{"b.go": 0}},
		{nil, -1, map[string]int{}},
	} {
		if diff := gocmp.Diff(tc.want, g.Distances(tc.from, tc.max)); diff != "" {
			t.Errorf("Distances(%v, %d) (-want +got):\n%s", tc.from, tc.max, diff)
		}
	}
}
