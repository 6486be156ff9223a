package refgraph

import (
	"cmp"
	"math"
	"path"
	"runtime"
	"slices"
	"strings"
	"sync"
	"sync/atomic"
	"unicode"
	"unicode/utf8"

	"github.com/ctxpack/ctxpack/internal/rank"
)

// The graph's fixed parameters.
const (
	// MinIdentLen is the shortest identifier that is a definition or a
	// use: "i", "n", "ok" say nothing about which file they refer to.
	MinIdentLen = 3
	// MaxDefiners is the most files an identifier may be defined in and
	// still make edges: one defined in more ("String", "init", "Error") is
	// ignored.
	MaxDefiners = 5
	// Damping is PageRank's damping factor.
	Damping = 0.85
	// Tolerance ends the iteration once the ranks (which sum to 1) change
	// by less than this in total (L1).
	Tolerance = 1e-9
	// MaxIterations bounds the iteration when it converges slowly.
	MaxIterations = 200
)

// File is one file of a project.
type File struct {
	Path string // slash path relative to the project root: the node's name
	Text string
}

// Graph is the reference graph of a set of files and its PageRank. It
// does not change once built (PageRank is computed once, on first use)
// and is safe for concurrent use.
type Graph struct {
	paths []string // sorted: node i is paths[i]
	// Out-edges of node i: to[outStart[i]:outStart[i+1]], with weights.
	outStart []int32
	to       []int32
	weight   []float64
	// In-edges of node i: from[inStart[i]:inStart[i+1]], each with the
	// share of its source's out-weight it carries.
	inStart []int32
	from    []int32
	share   []float64
	// centrality of each node: PageRank over the maximum, in millionths,
	// computed by the first Centrality (Distances needs none of it).
	rankOnce   sync.Once
	centrality []float64
	iterations int
}

// use is how often a file names an identifier it does not define.
type use struct {
	id, n int32
}

// edge is an out-edge before the graph is laid out.
type edge struct {
	to int32
	w  float64
}

// Build makes the reference graph of files; its PageRank is computed when
// Centrality first asks for it. A
// file gets an edge to every file that defines an identifier it uses,
// weighted by how often it uses it and how specific the identifier is
// (see the package documentation). Files are nodes in path order; a path
// given twice is one node, the first in (path, text) order. The result
// does not depend on the order of files or on GOMAXPROCS.
//
// Build holds every text; Scan, NewNames, Names.Uses and Names.Graph make
// the same graph from texts read one at a time, twice.
func Build(files []File) *Graph {
	files = slices.Clone(files)
	slices.SortFunc(files, func(a, b File) int {
		if c := cmp.Compare(a.Path, b.Path); c != 0 {
			return c
		}
		return cmp.Compare(a.Text, b.Text)
	})
	files = slices.CompactFunc(files, func(a, b File) bool { return a.Path == b.Path })
	defs := make([]Defs, len(files))
	forEach(len(files), func() struct{} { return struct{}{} }, func(_ struct{}, i int) {
		defs[i] = Scan(files[i].Path, files[i].Text)
	})
	names := NewNames(defs)
	uses := make([]Uses, len(files))
	forEach(len(files), names.scratch, func(s *scratch, i int) {
		uses[i] = names.uses(s, files[i].Path, files[i].Text)
	})
	return names.Graph(uses)
}

// Defs are the names one file defines: the first of the two things the
// graph needs of a file's text (Scan).
type Defs struct {
	path  string
	fam   string
	names string // distinct, sorted, each followed by a newline
}

// each calls f with each of the names.
func (d *Defs) each(f func(name string)) {
	for rest := d.names; rest != ""; {
		i := strings.IndexByte(rest, '\n')
		f(rest[:i])
		rest = rest[i+1:]
	}
}

// Scan returns the names a file defines. It holds nothing of text; it is
// safe for concurrent use.
func Scan(path, text string) Defs {
	fam := family(path)
	var b strings.Builder
	for _, name := range definitions(fam, text) {
		b.WriteString(name)
		b.WriteByte('\n')
	}
	return Defs{path: path, fam: fam, names: b.String()}
}

// Names are the names the files of a graph define and the scope of each:
// with them, a file's text gives its uses (Uses), the second thing the
// graph needs of it.
type Names struct {
	paths    []string  // sorted: node i is paths[i]
	own      [][]int32 // each file's useful definitions, sorted
	definers [][]int32 // by name: files, in path order
	ids      map[string]int32
	sc       *scope
	pool     sync.Pool // of *scratch
}

// NewNames numbers the names files define, files being every node of the
// graph (each path once, in any order).
func NewNames(files []Defs) *Names {
	files = slices.Clone(files)
	slices.SortFunc(files, func(a, b Defs) int { return cmp.Compare(a.path, b.path) })
	n := len(files)
	x := &Names{paths: make([]string, n)}
	fams := make([]string, n)
	for i, f := range files {
		x.paths[i], fams[i] = f.path, f.fam
	}
	// Names are numbered in the order files define them, which is
	// deterministic: files in path order, each file's names sorted.
	total := 0
	for _, f := range files {
		total += strings.Count(f.names, "\n")
	}
	number := make(map[string]int32, total/2)
	definers := make([][]int32, 0, total/2) // by name: files, in path order
	private := make([]bool, 0, total/2)     // by name: unexported in Go
	prose := make([]bool, 0, total/2)       // by name: could be a word
	for i, f := range files {
		f.each(func(s string) {
			id, ok := number[s]
			if !ok {
				id = int32(len(definers))
				number[s] = id
				definers = append(definers, nil)
				private = append(private, !exported(s))
				prose = append(prose, proseWord(s))
			}
			definers[id] = append(definers[id], int32(i))
		})
	}
	dirs := make([]int32, n) // files in one directory have one number
	dirID := map[string]int32{}
	for i, p := range x.paths {
		d := path.Dir(p)
		id, ok := dirID[d]
		if !ok {
			id = int32(len(dirID))
			dirID[d] = id
		}
		dirs[i] = id
	}
	// Only names that can make an edge are looked up and kept, numbered
	// again in the same order (edge weights are summed in name order).
	sc := &scope{fams: fams, dirs: dirs, private: private, prose: prose}
	renum := make([]int32, len(definers))
	kept := 0
	for id := range definers {
		renum[id] = -1
		if sc.useful(int32(id), definers[id]) {
			renum[id] = int32(kept)
			definers[kept], private[kept], prose[kept] = definers[id], private[id], prose[id]
			kept++
		}
	}
	x.definers = slices.Clone(definers[:kept])
	x.sc = &scope{fams: fams, dirs: dirs, private: slices.Clone(private[:kept]), prose: slices.Clone(prose[:kept])}
	x.ids = make(map[string]int32, kept)
	for s, id := range number {
		if r := renum[id]; r >= 0 {
			x.ids[strings.Clone(s)] = r // not the files' strings of names, which go
		}
	}
	x.own = make([][]int32, n)
	for i, f := range files {
		f.each(func(s string) {
			if id, ok := x.ids[s]; ok {
				x.own[i] = append(x.own[i], id)
			}
		})
		slices.Sort(x.own[i])
	}
	return x
}

// Uses are the names one file uses that some other file defines, with
// how often.
type Uses struct {
	node int32 // -1: not a file of the graph
	uses []use
}

// scratch is what counting one file's uses needs, kept between files.
type scratch struct {
	counts  []int32
	touched []int32
}

func (x *Names) scratch() *scratch {
	return &scratch{counts: make([]int32, len(x.definers))}
}

// Uses returns the uses of the file at path, one of the graph's, whose
// text is text: every identifier token that some other file defines. It
// holds nothing of text; it is safe for concurrent use.
func (x *Names) Uses(path, text string) Uses {
	s, _ := x.pool.Get().(*scratch)
	if s == nil {
		s = x.scratch()
	}
	u := x.uses(s, path, text)
	x.pool.Put(s)
	return u
}

func (x *Names) uses(s *scratch, path, text string) Uses {
	i, ok := slices.BinarySearch(x.paths, path)
	if !ok {
		return Uses{node: -1}
	}
	s.touched = countUses(text, syntaxOf(x.sc.fams[i]), x.ids, s.counts, s.touched[:0])
	slices.Sort(s.touched)
	var out []use
	for _, id := range s.touched {
		if _, self := slices.BinarySearch(x.own[i], id); !self {
			out = append(out, use{id: id, n: s.counts[id]})
		}
		s.counts[id] = 0
	}
	return Uses{node: int32(i), uses: out}
}

// Graph makes the graph from the uses of its files, in any order; a file
// whose uses are not given uses nothing.
func (x *Names) Graph(files []Uses) *Graph {
	n := len(x.paths)
	g := &Graph{paths: x.paths}
	uses := make([][]use, n)
	for _, f := range files {
		if f.node >= 0 {
			uses[f.node] = f.uses
		}
	}
	definers, sc := x.definers, x.sc

	// How many files use each identifier: its specificity.
	users := make([]int32, len(definers))
	for _, us := range uses {
		for _, u := range us {
			users[u.id]++
		}
	}
	idf := make([]float64, len(definers))
	for id, u := range users {
		if u > 0 {
			idf[id] = math.Log(1 + float64(n)/float64(u))
		}
	}

	// Edges, in parallel; each file's are summed in identifier order.
	type acc struct {
		w       []float64
		touched []int32
	}
	out := make([][]edge, n)
	forEach(n, func() *acc { return &acc{w: make([]float64, n)} }, func(a *acc, i int) {
		for _, u := range uses[i] {
			d := definers[u.id]
			k := 0
			for _, j := range d {
				if sc.sees(int32(i), j, u.id) {
					k++
				}
			}
			if k == 0 || k > MaxDefiners {
				continue
			}
			w := math.Sqrt(float64(u.n)) * idf[u.id] / float64(k)
			for _, j := range d {
				if sc.sees(int32(i), j, u.id) {
					if a.w[j] == 0 {
						a.touched = append(a.touched, j)
					}
					a.w[j] += w
				}
			}
		}
		slices.Sort(a.touched)
		es := make([]edge, len(a.touched))
		for k, j := range a.touched {
			es[k] = edge{to: j, w: a.w[j]}
			a.w[j] = 0
		}
		a.touched = a.touched[:0]
		out[i] = es
	})
	g.layout(out)
	return g
}

// scope says which definitions a use can refer to.
type scope struct {
	fams    []string // by file: its family
	dirs    []int32  // by file: its directory
	private []bool   // by name: not exported in Go
	prose   []bool   // by name: could be a word of prose
}

// sees reports whether a use of name id in file i can refer to its
// definition in file j: both are of one family, or i is of none and the
// name is not a plain word (see proseWord); and an unexported Go name is
// visible to the Go files of its directory only.
func (s *scope) sees(i, j, id int32) bool {
	fi, fj := s.fams[i], s.fams[j]
	switch {
	case fj == "go" && s.private[id]:
		return fi == "go" && s.dirs[i] == s.dirs[j]
	case fi == "":
		return !s.prose[id]
	}
	return fi == fj
}

// proseWord reports whether a name could be a word of prose: letters only,
// lower case after the first ("list", "Server"). In documentation and
// other files that are not code, only names that are not (ServeHTTP,
// buf_append, utf8) are references.
func proseWord(name string) bool {
	for i, r := range name {
		if !unicode.IsLetter(r) || i > 0 && unicode.IsUpper(r) {
			return false
		}
	}
	return true
}

// useful reports whether a name with these definers can make an edge:
// whether some file can see at most MaxDefiners of them, that is, whether
// a family (or, for an unexported Go name, a directory) defines it in at
// most MaxDefiners files.
func (s *scope) useful(id int32, definers []int32) bool {
	if len(definers) <= MaxDefiners {
		return true
	}
	type group struct {
		fam string
		dir int32
	}
	count := map[group]int{}
	for _, j := range definers {
		k := group{fam: s.fams[j], dir: -1}
		if k.fam == "go" && s.private[id] {
			k.dir = s.dirs[j]
		}
		count[k]++
	}
	for _, c := range count {
		if c <= MaxDefiners {
			return true
		}
	}
	return false
}

// exported reports whether a Go name is exported: whether it starts with
// an upper-case letter.
func exported(name string) bool {
	r, _ := utf8.DecodeRuneInString(name)
	return unicode.IsUpper(r)
}

// layout stores the edges as out- and in-adjacency arrays.
func (g *Graph) layout(out [][]edge) {
	n := len(g.paths)
	g.outStart = make([]int32, n+1)
	total := make([]float64, n)
	indeg := make([]int32, n+1)
	for i, es := range out {
		g.outStart[i+1] = g.outStart[i] + int32(len(es))
		for _, e := range es {
			g.to = append(g.to, e.to)
			g.weight = append(g.weight, e.w)
			total[i] += e.w
			indeg[e.to+1]++
		}
	}
	g.inStart = make([]int32, n+1)
	for i := range n {
		g.inStart[i+1] = g.inStart[i] + indeg[i+1]
	}
	g.from = make([]int32, len(g.to))
	g.share = make([]float64, len(g.to))
	fill := slices.Clone(g.inStart[:n])
	for i, es := range out { // sources in order, so each node's in-edges are sorted
		for _, e := range es {
			k := fill[e.to]
			fill[e.to]++
			g.from[k] = int32(i)
			g.share[k] = e.w / total[i]
		}
	}
}

// rank computes PageRank: rank flows along edges in proportion to their
// weight, a file without edges spreads its rank evenly, and every file
// gets (1-Damping)/n. Each node's new rank is summed over its in-edges in
// source order, and the totals that decide convergence are summed in
// node order, so the result is the same on any number of goroutines.
func (g *Graph) rank() {
	n := len(g.paths)
	if n == 0 {
		return
	}
	r := make([]float64, n)
	next := make([]float64, n)
	for i := range r {
		r[i] = 1 / float64(n)
	}
	const blocks = 64
	for g.iterations < MaxIterations {
		g.iterations++
		dangling := 0.0
		for i := range n {
			if g.outStart[i] == g.outStart[i+1] {
				dangling += r[i]
			}
		}
		base := (1-Damping)/float64(n) + Damping*dangling/float64(n)
		size := (n + blocks - 1) / blocks
		forEach(blocks, func() struct{} { return struct{}{} }, func(_ struct{}, b int) {
			for i := b * size; i < min(n, (b+1)*size); i++ {
				// The conversions round each product, so that no
				// platform fuses them into a multiply-add (Go spec,
				// "Arithmetic operators"): the ranks are the same on
				// every machine, not only on every GOMAXPROCS.
				s := 0.0
				for k := g.inStart[i]; k < g.inStart[i+1]; k++ {
					s += float64(r[g.from[k]] * g.share[k])
				}
				next[i] = base + float64(Damping*s)
			}
		})
		diff := 0.0
		for i := range n {
			diff += math.Abs(next[i] - r[i])
		}
		r, next = next, r
		if diff < Tolerance {
			break
		}
	}
	top := slices.Max(r)
	g.centrality = make([]float64, n)
	for i, v := range r {
		g.centrality[i] = rank.Round(v / top)
	}
}

// Centrality returns every file's PageRank divided by the largest, in
// [0, 1], rounded to millionths, by path. With no references at all,
// every file has 1.
func (g *Graph) Centrality() map[string]float64 {
	g.rankOnce.Do(g.rank)
	m := make(map[string]float64, len(g.paths))
	for i, p := range g.paths {
		m[p] = g.centrality[i]
	}
	return m
}

// Distances returns, for every file within maxDepth references of a file
// in from (following edges either way), the least number of references
// between them: 0 for the files of from. A negative maxDepth is no limit.
// Paths of from that are not in the graph are ignored.
func (g *Graph) Distances(from []string, maxDepth int) map[string]int {
	dist := make([]int32, len(g.paths))
	for i := range dist {
		dist[i] = -1
	}
	var queue []int32
	for _, p := range from {
		if i, ok := slices.BinarySearch(g.paths, p); ok && dist[i] < 0 {
			dist[i] = 0
			queue = append(queue, int32(i))
		}
	}
	for len(queue) > 0 {
		i := queue[0]
		queue = queue[1:]
		if maxDepth >= 0 && int(dist[i]) >= maxDepth {
			continue
		}
		visit := func(j int32) {
			if dist[j] < 0 {
				dist[j] = dist[i] + 1
				queue = append(queue, j)
			}
		}
		for _, j := range g.to[g.outStart[i]:g.outStart[i+1]] {
			visit(j)
		}
		for _, j := range g.from[g.inStart[i]:g.inStart[i+1]] {
			visit(j)
		}
	}
	m := map[string]int{}
	for i, d := range dist {
		if d >= 0 {
			m[g.paths[i]] = int(d)
		}
	}
	return m
}

// forEach calls f(s, i) for i in [0, n) on up to GOMAXPROCS goroutines,
// each with its own scratch value s, and waits. Callers store results by
// i, so the scheduling never shows.
func forEach[S any](n int, scratch func() S, f func(s S, i int)) {
	workers := min(runtime.GOMAXPROCS(0), n)
	if workers <= 1 {
		s := scratch()
		for i := range n {
			f(s, i)
		}
		return
	}
	var next atomic.Int64
	var wg sync.WaitGroup
	for range workers {
		wg.Go(func() {
			s := scratch()
			for {
				i := int(next.Add(1)) - 1
				if i >= n {
					return
				}
				f(s, i)
			}
		})
	}
	wg.Wait()
}
