package pack

import (
	"fmt"
	"math"
	"slices"

	"github.com/ctxpack/ctxpack/internal/render"
)

// allocate is the part of the allocate stage that comes before fitting,
// for a policy with WaterFill or Cut: it measures what each bucket's parts
// need, divides the budget among the buckets (entitlements), and, with
// Cut, cuts the parts over the item cap. It returns the items kept, in the
// order given, the parts the cap left out, in relevance order, and the
// shares the plan reports; with neither, items as they are.
func allocate(c *coster, items []*item, o *Options) ([]*item, []drop, []render.Share) {
	p := o.Policy
	if !p.WaterFill && !p.Cut {
		return items, nil, nil
	}
	var free []*item // the parts in buckets: not pinned
	for _, it := range items {
		if !it.Pinned {
			free = append(free, it)
		}
	}
	c.prefetch(free)
	shares := make([]float64, len(p.Buckets))
	for i, b := range p.Buckets {
		shares[i] = b.Share
	}
	demand := make([]int, len(p.Buckets))
	for _, it := range free {
		demand[it.bucket] += c.body(it, it.start)
	}
	var entitled []int
	if p.WaterFill {
		entitled = waterFill(o.Budget, shares, demand)
	} else {
		entitled = nominal(o.Budget, shares)
	}
	caps := make([]int, len(p.Buckets))
	report := make([]render.Share, len(p.Buckets))
	for i, b := range p.Buckets {
		report[i] = render.Share{Source: b.Name, Weight: b.Share, Budget: entitled[i], Demand: demand[i]}
		if p.Cut && p.ItemCap > 0 && o.Budget > 0 {
			caps[i] = int(math.Floor(p.ItemCap * float64(entitled[i])))
			report[i].ItemCap = caps[i]
		}
	}
	if !p.Cut {
		return items, nil, report
	}
	order := slices.Clone(free)
	slices.SortFunc(order, compareRelevance)
	var dropped []drop
	out := map[*item]bool{}
	for _, it := range order {
		limit, size := caps[it.bucket], c.body(it, it.start)
		if limit <= 0 || size <= limit {
			continue
		}
		of := fmt.Sprintf("%g of the %s share", p.ItemCap, p.Buckets[it.bucket].Name)
		if p.Buckets[it.bucket].Name == "" {
			of = fmt.Sprintf("%g of the budget", p.ItemCap)
		}
		if !c.cut(it, size, limit, of) {
			what := "the truncation marker"
			if it.Item != nil {
				what = "the item's heading"
			}
			reason := fmt.Sprintf("%s: %d tokens (%s) cannot hold even %s", render.ReasonItemCap, limit, of, what)
			dropped = append(dropped, drop{it: it, reason: reason})
			out[it] = true
		}
	}
	return slices.DeleteFunc(slices.Clone(items), func(it *item) bool { return out[it] }), dropped, report
}

// waterFill divides budget among buckets by share, as each is entitled
// to: a bucket whose demand is within its part keeps its part but passes
// what it does not need to the others, in rounds, until every bucket left
// needs more than its part; those divide what is left by share. A bucket
// with no demand is entitled to nothing. Entitlements are rounded down.
func waterFill(budget int, shares []float64, demand []int) []int {
	out := make([]int, len(shares))
	left := make([]bool, len(shares))
	n := 0
	for i, d := range demand {
		if d > 0 {
			left[i] = true
			n++
		}
	}
	rem := float64(budget)
	for n > 0 {
		total := 0.0
		for i, s := range shares {
			if left[i] {
				total += s
			}
		}
		if total <= 0 { // only buckets without a share are left
			break
		}
		done, next := false, rem
		for i, s := range shares {
			if !left[i] {
				continue
			}
			if part := rem * s / total; float64(demand[i]) <= part {
				out[i] = int(math.Floor(part))
				left[i], n = false, n-1
				next -= float64(demand[i])
				done = true
			}
		}
		rem = next
		if !done {
			for i, s := range shares {
				if left[i] {
					out[i] = int(math.Floor(rem * s / total))
				}
			}
			break
		}
	}
	return out
}

// nominal divides budget among buckets by share alone.
func nominal(budget int, shares []float64) []int {
	total := 0.0
	for _, s := range shares {
		total += s
	}
	out := make([]int, len(shares))
	for i, s := range shares {
		if total > 0 {
			out[i] = int(math.Floor(float64(budget) * s / total))
		}
	}
	return out
}

// cut cuts the item's text at its start level, which measures size, to
// the largest text that measures at most limit with its note, and
// records why (the cap is "of" share); it reports false, changing
// nothing, when not even the note fits. An Item keeps its heading and
// metadata line and loses the end of its body ("..." and its note);
// another part loses the end of its text, as the truncate overflow cuts
// it (withNewline and marker). The cut text's content id is its own.
func (c *coster) cut(it *item, size, limit int, of string) bool {
	var body string
	var with func(n int) string
	where := ""
	if it.Item != nil {
		body, where = it.Item.Body, it.Item.Where
		with = func(n int) string { return it.Item.Cut(c.tok.Truncate(body, n)) }
	} else {
		body, where = it.textAt(it.start), truncatedWhere(it, "")
		with = func(n int) string {
			shown := c.tok.Truncate(body, n)
			return withNewline(shown) + marker(it, shown)
		}
	}
	measure := func(text string) int {
		b := it.block(it.start, text)
		b.CID = contentID(text)
		return c.tok.Count(render.Body(c.format, b))
	}
	text, n, ok := longestFit(c.tok.Count(body), limit, with, measure)
	if !ok {
		return false
	}
	it.text[it.start], it.cid = text, contentID(text)
	c.counts(it)[it.start] = int32(n)
	it.cut = fmt.Sprintf("%s: cut to %d tokens (%s) from %d; the whole is at %s", render.ReasonItemCap, n, of, size, where)
	return true
}

// longestFit finds, by bisection over n in [0, most], the text(n) of the
// largest n that measures at most limit, taking the measure to grow with
// n, and returns it with its measure; false when text(0) does not fit.
func longestFit(most, limit int, text func(n int) string, measure func(string) int) (string, int, bool) {
	best := text(0)
	size := measure(best)
	if size > limit {
		return "", 0, false
	}
	lo, hi := 0, most // text(lo) fits, as best
	for lo < hi {
		mid := (lo + hi + 1) / 2
		t := text(mid)
		if n := measure(t); n <= limit {
			lo, best, size = mid, t, n
		} else {
			hi = mid - 1
		}
	}
	return best, size, true
}
