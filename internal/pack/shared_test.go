package pack

import (
	"fmt"
	"math/rand/v2"
	"slices"
	"strings"
	"testing"
	"unicode"
)

// refShingles is shingles as first written: every shingle, then the
// sample of them all when there are more than sampleAbove.
func refShingles(text string) shingleSet {
	ws := strings.FieldsFunc(text, unicode.IsSpace)
	hash := func(w string) uint64 {
		h := uint64(14695981039346656037)
		for i := 0; i < len(w); i++ {
			h = (h ^ uint64(w[i])) * 1099511628211
		}
		return h
	}
	var out []uint64
	for i := 2; i < len(ws); i++ {
		out = append(out, mix(mix(hash(ws[i-2]), hash(ws[i-1])), hash(ws[i])))
	}
	switch len(ws) {
	case 1:
		out = append(out, hash(ws[0]))
	case 2:
		out = append(out, mix(hash(ws[0]), hash(ws[1])))
	}
	set := shingleSet{rate: 1}
	if len(out) > sampleAbove {
		out, set.rate = sample(out), sampleRate
	}
	slices.Sort(out)
	out = slices.Compact(out)
	set.hashes, set.size = out, max(1, len(out)*set.rate)
	return set
}

// TestShingles: sampling as the shingles are found gives the set of
// sampling them all, at every size around sampleAbove.
func TestShingles(t *testing.T) {
	r := rand.New(rand.NewPCG(1, 1))
	for n := range 600 {
		text := strings.Join(words(r, n), []string{" ", "\n", "\t ", "\u00a0"}[n%4])
		got, want := shingles(text), refShingles(text)
		if got.rate != want.rate || got.size != want.size || !slices.Equal(got.hashes, want.hashes) {
			t.Fatalf("%d words: rate %d size %d (%d hashes), want rate %d size %d (%d hashes)", n, got.rate, got.size, len(got.hashes), want.rate, want.size, len(want.hashes))
		}
	}
}

// TestSharedDecidesAlike: dedup decides as it was first written (refDedup,
// every shingle in a map of posting lists) on parts that copy, overlap
// and repeat each other, at every threshold, while it indexes only the
// shingles that may be shared: most of those of unrelated parts are not.
func TestSharedDecidesAlike(t *testing.T) {
	r := rand.New(rand.NewPCG(7, 8))
	overlaps := 0
	for round := range 40 {
		var items []*item
		var texts []string
		for i := range 5 + r.IntN(60) {
			var text string
			switch k := r.IntN(4); {
			case k == 0 && len(texts) > 0: // a near copy of an earlier part
				w := strings.Fields(texts[r.IntN(len(texts))])
				for range 1 + len(w)/(5+r.IntN(40)) {
					w[r.IntN(len(w))] = fmt.Sprintf("x%d", r.IntN(100))
				}
				text = strings.Join(w, " ")
			case k == 1 && len(texts) > 1: // halves of two earlier parts
				a, b := strings.Fields(texts[r.IntN(len(texts))]), strings.Fields(texts[r.IntN(len(texts))])
				text = strings.Join(append(a[:len(a)/2], b[len(b)/2:]...), " ")
			default:
				text = strings.Join(words(r, 1+r.IntN(900)), " ")
			}
			texts = append(texts, text)
			p := &Part{Key: fmt.Sprintf("p%02d", i), Pinned: r.IntN(10) == 0}
			items = append(items, &item{Part: p, cid: contentID(text), text: [numLevels]string{Full: text}, start: Full})
		}
		all := make([]shingleSet, len(items))
		for i, it := range items {
			all[i] = shingles(it.text[Full])
		}
		some := allShingles(items)
		kept, had := 0, 0
		for i := range all {
			had += len(all[i].hashes)
			kept += len(some[i].hashes)
			if some[i].size != all[i].size || some[i].rate != all[i].rate {
				t.Fatalf("round %d: set %d changed its size or rate", round, i)
			}
		}
		for _, th := range []float64{0.05, 0.3, 0.5, 0.8, 0.95} {
			k1, d1 := refDedup(items, all, th)
			k2, d2 := dedupSets(items, cloneSets(some), th)
			if !slices.Equal(k1, k2) || fmt.Sprint(reasons(d1)) != fmt.Sprint(reasons(d2)) {
				t.Fatalf("round %d, threshold %g: kept %d/%d, dropped %v / %v", round, th, len(k1), len(k2), reasons(d1), reasons(d2))
			}
			overlaps += strings.Count(fmt.Sprint(reasons(d1)), "overlaps")
		}
		if kept == had && had > 1000 {
			t.Errorf("round %d: all %d shingles kept", round, had)
		}
	}
	if overlaps < 100 {
		t.Errorf("only %d parts dropped for overlaps: the test no longer exercises them", overlaps)
	}
}

func reasons(ds []drop) []string {
	var out []string
	for _, d := range ds {
		out = append(out, d.it.Key+": "+d.reason)
	}
	return out
}

func cloneSets(sets []shingleSet) []shingleSet {
	out := slices.Clone(sets)
	for i := range out {
		out[i].hashes = slices.Clone(out[i].hashes)
	}
	return out
}

// refDedup is dedup as first written: every shingle of every set, in a
// map of posting lists of at most maxPosting kept parts.
func refDedup(items []*item, sets []shingleSet, threshold float64) (kept []*item, dropped []drop) {
	byCID := map[string]*item{}
	type list struct{ head, n int32 }
	type node struct{ part, next int32 }
	index := map[uint64]int32{}
	var lists []list
	var slab []node
	var keptSets []shingleSet
	var counts, touched, found []int32
	for i, it := range items {
		if first, ok := byCID[it.cid]; ok && !it.Pinned {
			dropped = append(dropped, drop{it: it, reason: "duplicate of " + first.Key})
			continue
		}
		set := sets[i]
		found = found[:0]
		for _, s := range set.hashes {
			l, ok := index[s]
			if !ok {
				found = append(found, -1)
				continue
			}
			found = append(found, l)
			if lists[l].n >= maxPosting {
				continue
			}
			for n := lists[l].head; n >= 0; n = slab[n].next {
				k := slab[n].part
				if counts[k] == 0 {
					touched = append(touched, k)
				}
				counts[k]++
			}
		}
		best, bestOverlap := int32(-1), 0.0
		for _, k := range touched {
			other := keptSets[k]
			o := resemblance(float64(counts[k])*float64(max(set.rate, other.rate)), set.size, other.size)
			if o > threshold && (o > bestOverlap || (o == bestOverlap && k < best)) {
				best, bestOverlap = k, o
			}
			counts[k] = 0
		}
		touched = touched[:0]
		if best >= 0 && !it.Pinned {
			dropped = append(dropped, drop{it: it, reason: fmt.Sprintf("overlaps %s (%.2f)", kept[best].Key, min(bestOverlap, 1))})
			continue
		}
		if _, ok := byCID[it.cid]; !ok {
			byCID[it.cid] = it
		}
		k := int32(len(kept))
		kept = append(kept, it)
		keptSets = append(keptSets, set)
		counts = append(counts, 0)
		for j, s := range set.hashes {
			l := found[j]
			if l < 0 {
				l = int32(len(lists))
				lists = append(lists, list{head: -1})
				index[s] = l
			}
			if lists[l].n >= maxPosting {
				continue
			}
			slab = append(slab, node{part: k, next: lists[l].head})
			lists[l].head = int32(len(slab) - 1)
			lists[l].n++
		}
	}
	return kept, dropped
}

// TestDedupManySharers: a shingle that more than maxPosting kept parts
// have is no longer counted, as refDedup does: parts that share a
// boilerplate header, some near copies among them.
func TestDedupManySharers(t *testing.T) {
	r := rand.New(rand.NewPCG(9, 10))
	header := "// Copyright 2009 The Go Authors. All rights reserved.\n// Use of this source code is governed by a BSD-style\n"
	var items []*item
	var bodies []string
	for i := range 300 {
		body := strings.Join(words(r, 5+r.IntN(60)), " ")
		if i > 0 && r.IntN(5) == 0 {
			body = bodies[r.IntN(len(bodies))] + " tail"
		}
		bodies = append(bodies, body)
		text := strings.Repeat(header, 1+r.IntN(3)) + body
		p := &Part{Key: fmt.Sprintf("p%03d", i)}
		items = append(items, &item{Part: p, cid: contentID(text), text: [numLevels]string{Full: text}, start: Full})
	}
	all := make([]shingleSet, len(items))
	for i, it := range items {
		all[i] = shingles(it.text[Full])
	}
	some := allShingles(items)
	drops := 0
	for _, th := range []float64{0.1, 0.5, 0.8} {
		k1, d1 := refDedup(items, all, th)
		k2, d2 := dedupSets(items, cloneSets(some), th)
		if !slices.Equal(k1, k2) || fmt.Sprint(reasons(d1)) != fmt.Sprint(reasons(d2)) {
			t.Fatalf("threshold %g: kept %d/%d, dropped %v / %v", th, len(k1), len(k2), reasons(d1), reasons(d2))
		}
		drops += len(d1)
	}
	if drops == 0 {
		t.Fatal("nothing dropped: the test no longer exercises overlaps")
	}
}
