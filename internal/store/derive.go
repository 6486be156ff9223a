package store

import (
	"cmp"
	"container/heap"
	"context"
	"fmt"
	"math"
	"slices"
	"strconv"

	"github.com/ctxpack/ctxpack/internal/lexical"
)

// DeriveOptions say how DeriveValues clusters experiences.
type DeriveOptions struct {
	Axis           Axis // "" means every axis, in Axes() order
	MinClusterSize int  // the fewest experiences a cluster needs to give a proposal; 0 means 3
	// Threshold is the least cosine similarity between two clusters (the
	// average over their pairs of experiences) for them to merge, from 0
	// to 1; 0 means DefaultThreshold.
	Threshold float64
}

// DefaultThreshold is the Threshold of DeriveOptions' zero value, chosen
// on generated experiences (TestDeriveThreshold: 12 topics of 8
// experiences among 60 unrelated ones; a topic's words make 20 to 30% of
// each field, its domain's (shared by 4 topics) 10 to 20%, words every
// experience uses the rest). On the full axis 0.15 and 0.2 recover all 12
// topics whole and unmixed in each of three mixes; at 0.1 topics of one
// domain merge in one mix, at 0.25 topics split in another, and from 0.35
// in all. On the strategy axis 0.15 keeps more topics whole than 0.2,
// with as many mixed clusters; on the short axes (surprise, root_cause:
// about 25 words) topics split into parts at every threshold, and 0.2
// mixes fewer than 0.15. A mixed cluster proposes a misleading value, a
// split one the same value twice: hence 0.2.
const DefaultThreshold = 0.2

// DefaultMinClusterSize is the MinClusterSize of DeriveOptions' zero
// value.
const DefaultMinClusterSize = 3

// Proposal is a value DeriveValues proposes: the lesson of the most
// central experience of a cluster. Store it with AddValue(Value{Text,
// Axis, Cluster, ClusterSize: Size, Similarity, Experience, Tags}).
type Proposal struct {
	Axis       Axis
	Cluster    string  // "<axis>/<n>", n from 1 in the order the axis's clusters are listed
	Size       int     // how many experiences the cluster holds
	Members    []int64 // their IDs, ascending
	Experience int64   // the member most similar to the cluster's centroid (the lowest ID of those equally so)
	Text       string  // its lesson
	Similarity float64 // its cosine similarity to the centroid, rounded to 1e-4
	Tags       []string
}

// DeriveValues clusters the experiences that have a lesson, on each axis
// asked for (only those the axis holds, see Axis), and proposes one value
// per cluster of at least MinClusterSize experiences. It stores nothing.
//
// Each experience is a TF-IDF vector of the terms (lexical.Terms) of its
// axis fields: a term's count is the sum of the column weights of its
// occurrences (as search weighs them, axes.go), dampened to 1+ln(count),
// times the term's inverse document frequency ln(1 + (N-df+0.5)/(df+0.5))
// for N experiences on the axis of which df hold it (BM25's, in the form
// that stays above 0, so that words every experience uses weigh almost
// nothing but a cluster that is the whole axis still links); the vector
// is then scaled to length 1. The clusters are those of
// average-linkage agglomerative clustering under cosine similarity: the
// two clusters with the highest average similarity merge while it is at
// least Threshold (ties: the pair whose lowest, then other, member ID is
// lowest). Pairs of experiences less similar than Threshold count as 0 in
// those averages: clusters merge only where most of their pairs are
// alike, and the similarity graph stays sparse.
//
// To stay fast on thousands of experiences, the pairs compared are those
// that share a term; when that is too many (over linkBudget updates), the
// most common terms stop proposing pairs, though they still count in the
// similarity of the pairs that are compared.
//
// Proposals come by axis in Axes() order; an axis's clusters by size
// descending, then lowest member ID. The result depends only on the rows:
// not on the order they were added in beyond their IDs, map order or
// timing.
func (s *Store) DeriveValues(ctx context.Context, opt DeriveOptions) ([]Proposal, error) {
	axes := Axes()
	if opt.Axis != "" {
		a, err := ParseAxis(string(opt.Axis))
		if err != nil {
			return nil, err
		}
		axes = []Axis{a}
	}
	minSize := cmp.Or(opt.MinClusterSize, DefaultMinClusterSize)
	if minSize < 1 {
		return nil, invalid("min_cluster_size", "must be a whole number from 1, or 0 for the default %d (got %d)", DefaultMinClusterSize, opt.MinClusterSize)
	}
	threshold := cmp.Or(opt.Threshold, DefaultThreshold)
	if !(threshold > 0 && threshold <= 1) {
		return nil, invalid("threshold", "must be from 0 to 1, 0 for the default %v (got %v)", DefaultThreshold, opt.Threshold)
	}
	var all []Experience
	err := s.read(ctx, func(tx conn) (err error) {
		all, err = queryRows(ctx, tx, scanExperience, `SELECT `+experienceCols+` FROM experiences WHERE ns = ? AND lesson != '' ORDER BY id`, s.ns)
		return err
	})
	if err != nil {
		return nil, fmt.Errorf("store: derive values: %w", err)
	}
	var out []Proposal
	for _, a := range axes {
		d := defOf(a)
		var exps []Experience
		for i := range all {
			if d.on(&all[i]) {
				exps = append(exps, all[i])
			}
		}
		if err := ctx.Err(); err != nil {
			return nil, err
		}
		out = append(out, deriveAxis(d, exps, minSize, threshold)...)
	}
	return out, nil
}

// linkBudget bounds the work of finding similar pairs: the number of
// (experience, experience) updates made through the terms they share.
// 5,000 experiences that all share a term cost 12.5 million, so the
// words every experience uses stop proposing pairs at that size (they
// weigh little anyway). On 5,000 generated experiences (60 topics of 70,
// 800 others) budgets from 10 million to a billion found the same
// clusters; this one halves the time of 120 million.
const linkBudget = 20_000_000

// vec is a sparse vector: term indexes ascending, with their weights.
type vec struct {
	terms []int32
	w     []float64
}

func (v vec) dot(u vec) float64 {
	var s float64
	i, j := 0, 0
	for i < len(v.terms) && j < len(u.terms) {
		switch {
		case v.terms[i] < u.terms[j]:
			i++
		case v.terms[i] > u.terms[j]:
			j++
		default:
			s += v.w[i] * u.w[j]
			i++
			j++
		}
	}
	return s
}

// vectors returns the TF-IDF vectors of exps on axis d, and the number of
// terms.
func vectors(d *axisDef, exps []Experience) ([]vec, int) {
	ids := map[string]int32{}
	var df []int
	counts := make([]map[int32]float64, len(exps))
	for i := range exps {
		c := map[int32]float64{}
		for col, text := range d.texts(&exps[i]) {
			for _, t := range lexical.Terms(text) {
				id, ok := ids[t]
				if !ok {
					id = int32(len(df))
					ids[t] = id
					df = append(df, 0)
				}
				if c[id] == 0 {
					df[id]++
				}
				c[id] += d.table.weights[col]
			}
		}
		counts[i] = c
	}
	n := float64(len(exps))
	out := make([]vec, len(exps))
	for i, c := range counts {
		v := vec{terms: make([]int32, 0, len(c)), w: make([]float64, 0, len(c))}
		for id := range c {
			v.terms = append(v.terms, id)
		}
		slices.Sort(v.terms)
		var norm float64
		for _, id := range v.terms {
			w := (1 + math.Log(c[id])) * math.Log(1+(n-float64(df[id])+0.5)/(float64(df[id])+0.5))
			v.w = append(v.w, w)
			norm += w * w
		}
		if norm > 0 {
			norm = math.Sqrt(norm)
			for j := range v.w {
				v.w[j] /= norm
			}
		}
		out[i] = v
	}
	return out, len(df)
}

// edge is a pair of experiences (indexes, a < b) and their similarity.
type edge struct {
	a, b int
	sim  float64
}

// posting is a vector that holds a term, with the term's weight in it.
type posting struct {
	doc int32
	w   float64
}

// links returns the pairs of vectors at least floor similar, by a then b.
func links(vs []vec, nterms int, floor float64) []edge {
	postings := make([][]posting, nterms)
	for i, v := range vs {
		for j, t := range v.terms {
			postings[t] = append(postings[t], posting{int32(i), v.w[j]})
		}
	}
	// Leave the most common terms out of the pairing while the pairs they
	// make cost more than linkBudget; ties by term index, which is the
	// order of first use.
	order := make([]int32, nterms)
	for i := range order {
		order[i] = int32(i)
	}
	slices.SortFunc(order, func(a, b int32) int {
		return cmp.Or(cmp.Compare(len(postings[b]), len(postings[a])), cmp.Compare(a, b))
	})
	var work float64
	for _, p := range postings {
		work += float64(len(p)) * float64(len(p)-1) / 2
	}
	pruned := make([]bool, nterms)
	anyPruned := false
	for _, t := range order {
		if work <= linkBudget {
			break
		}
		l := float64(len(postings[t]))
		work -= l * (l - 1) / 2
		pruned[t] = true
		anyPruned = true
	}
	// common[i] is the length of the part of vs[i] over pruned terms: it
	// bounds what they add to a dot product (Cauchy-Schwarz).
	common := make([]float64, len(vs))
	if anyPruned {
		for i, v := range vs {
			var s float64
			for j, t := range v.terms {
				if pruned[t] {
					s += v.w[j] * v.w[j]
				}
			}
			common[i] = math.Sqrt(s)
		}
	}
	var out []edge
	acc := make([]float64, len(vs))
	var touched []int32
	for a, v := range vs {
		touched = touched[:0]
		for j, t := range v.terms {
			if pruned[t] {
				continue
			}
			for _, p := range postings[t] {
				if int(p.doc) <= a {
					continue
				}
				if acc[p.doc] == 0 { // weights are positive
					touched = append(touched, p.doc)
				}
				acc[p.doc] += v.w[j] * p.w
			}
		}
		for _, b := range touched { // in an order the rows decide; the edges' order does not matter
			sim := acc[b]
			acc[b] = 0
			if anyPruned {
				if sim+common[a]*common[b] < floor {
					continue
				}
				sim = v.dot(vs[b])
			}
			if sim >= floor {
				out = append(out, edge{a, int(b), sim})
			}
		}
	}
	return out
}

// deriveAxis clusters exps (by ID ascending) on axis d and returns the
// proposals of the clusters of at least minSize.
func deriveAxis(d *axisDef, exps []Experience, minSize int, threshold float64) []Proposal {
	if len(exps) < minSize {
		return nil
	}
	vs, nterms := vectors(d, exps)
	groups := averageLinkage(len(exps), links(vs, nterms, threshold), threshold)
	groups = slices.DeleteFunc(groups, func(g []int) bool { return len(g) < minSize })
	slices.SortFunc(groups, func(a, b []int) int { return cmp.Or(cmp.Compare(len(b), len(a)), cmp.Compare(a[0], b[0])) })
	out := make([]Proposal, 0, len(groups))
	centroid := make([]float64, nterms)
	for n, g := range groups {
		var ts []int32 // the terms of the cluster, in order of first use
		for _, i := range g {
			for j, t := range vs[i].terms {
				if centroid[t] == 0 { // weights are positive
					ts = append(ts, t)
				}
				centroid[t] += vs[i].w[j]
			}
		}
		var norm float64
		for _, t := range ts {
			norm += centroid[t] * centroid[t]
		}
		norm = math.Sqrt(norm)
		best, bestSim := -1, -1.0
		for _, i := range g {
			var dot float64
			for j, t := range vs[i].terms {
				dot += vs[i].w[j] * centroid[t]
			}
			if norm > 0 {
				dot /= norm
			}
			if dot > bestSim {
				best, bestSim = i, dot
			}
		}
		for _, t := range ts {
			centroid[t] = 0
		}
		p := Proposal{
			Axis:       d.axis,
			Cluster:    string(d.axis) + "/" + strconv.Itoa(n+1),
			Size:       len(g),
			Experience: exps[best].ID,
			Text:       exps[best].Lesson,
			Similarity: math.Round(min(max(bestSim, 0), 1)*1e4) / 1e4,
		}
		for _, i := range g {
			p.Members = append(p.Members, exps[i].ID)
			p.Tags = append(p.Tags, exps[i].Domain)
			if exps[i].Strategy != "" {
				p.Tags = append(p.Tags, exps[i].Strategy)
			}
		}
		p.Tags = normalTags(p.Tags)
		out = append(out, p)
	}
	return out
}

// averageLinkage clusters n items given the similar pairs: the two
// clusters of the highest average similarity (the sum of their pairs'
// similarities over the number of pairs, absent pairs counting 0) merge
// while it is at least threshold. It returns the clusters as sorted
// index lists, each non-empty, in order of their lowest index.
func averageLinkage(n int, edges []edge, threshold float64) [][]int {
	members := make([][]int, n) // by representative (the lowest index); nil once merged away
	sums := make([]map[int]float64, n)
	version := make([]int, n)
	for i := range members {
		members[i] = []int{i}
		sums[i] = map[int]float64{}
	}
	var h mergeHeap
	for _, e := range edges {
		sums[e.a][e.b] = e.sim
		sums[e.b][e.a] = e.sim
		if e.sim >= threshold {
			h = append(h, merge{avg: e.sim, a: e.a, b: e.b})
		}
	}
	heap.Init(&h)
	for h.Len() > 0 {
		m := heap.Pop(&h).(merge)
		if members[m.a] == nil || members[m.b] == nil || version[m.a] != m.va || version[m.b] != m.vb {
			continue // a cluster changed since this pair was weighed
		}
		a, b := m.a, m.b // a < b: a stays the representative
		members[a] = append(members[a], members[b]...)
		slices.Sort(members[a])
		members[b] = nil
		version[a]++
		delete(sums[a], b)
		for c, s := range sums[b] {
			if c == a {
				continue
			}
			sums[a][c] += s
			delete(sums[c], b)
		}
		sums[b] = nil
		for c, s := range sums[a] {
			sums[c][a] = s
			avg := s / float64(len(members[a])*len(members[c]))
			if avg >= threshold {
				x, y := min(a, c), max(a, c)
				heap.Push(&h, merge{avg: avg, a: x, b: y, va: version[x], vb: version[y]})
			}
		}
	}
	var out [][]int
	for _, m := range members {
		if m != nil {
			out = append(out, m)
		}
	}
	return out
}

// merge is a candidate merge of clusters a < b (representatives) at the
// versions they had when weighed.
type merge struct {
	avg    float64
	a, b   int
	va, vb int
}

// mergeHeap pops the highest average first, then the lowest a, then the
// lowest b: a total order, so the merges do not depend on push order.
type mergeHeap []merge

func (h mergeHeap) Len() int { return len(h) }
func (h mergeHeap) Less(i, j int) bool {
	if h[i].avg != h[j].avg {
		return h[i].avg > h[j].avg
	}
	if h[i].a != h[j].a {
		return h[i].a < h[j].a
	}
	return h[i].b < h[j].b
}
func (h mergeHeap) Swap(i, j int) { h[i], h[j] = h[j], h[i] }
func (h *mergeHeap) Push(x any)   { *h = append(*h, x.(merge)) }
func (h *mergeHeap) Pop() any {
	old := *h
	x := old[len(old)-1]
	*h = old[:len(old)-1]
	return x
}
