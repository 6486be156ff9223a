// Package textsim says how alike two texts are, for sources mode's
// cross-source deduplication (the ContextAssembler seed's "same text
// content, fuzzy match with 90% similarity").
//
// Similarity is 1 − d / n, where d is the Levenshtein distance between the
// two texts after Normalize, in runes, and n the length of the longer one:
// the share of characters that would not have to change. It depends on its
// inputs alone and is symmetric.
package textsim

import (
	"strings"
	"unicode"
)

// Normalize lower-cases s and turns every run of white space into one
// space, with none at either end: texts that differ only in case, line
// breaks or indentation normalize alike.
func Normalize(s string) string {
	var b strings.Builder
	b.Grow(len(s))
	space := false
	for _, r := range s {
		if unicode.IsSpace(r) {
			space = b.Len() > 0
			continue
		}
		if space {
			b.WriteByte(' ')
			space = false
		}
		b.WriteRune(unicode.ToLower(r))
	}
	return b.String()
}

// Similarity returns how alike a and b are, from 0 to 1 (1 for two texts
// that normalize alike, two empty texts included).
func Similarity(a, b string) float64 {
	sim, _ := Prepare(a).AtLeast(Prepare(b), 0)
	return sim
}

// Text is a text prepared for many comparisons: normalized once.
type Text struct{ r []rune }

// Prepare normalizes s for comparisons with Text.AtLeast.
func Prepare(s string) Text { return Text{[]rune(Normalize(s))} }

// AtLeast reports whether the texts t and u were prepared from are at
// least min alike, and when they are, their Similarity (0 when they are
// not). It does no more work than deciding needs: the texts' lengths
// alone rule out most pairs, and the distance is only followed within the
// band min allows, so a long pair costs O(n·(1−min)·n) at worst rather
// than O(n²). A min of 0 or less follows the whole table.
func (t Text) AtLeast(u Text, min float64) (float64, bool) {
	ra, rb := t.r, u.r
	n := max(len(ra), len(rb))
	switch {
	case !(min <= 1): // NaN too
		return 0, false
	case n == 0:
		return 1, true
	}
	// d ≤ k ⇔ 1 − d/n ≥ min; k is the most changes min allows.
	k := n
	if min > 0 {
		// Float rounding may put the product on either side of a whole
		// number: settle k on the exact test the similarity makes.
		k = int((1 - min) * float64(n))
		for k < n && 1-float64(k+1)/float64(n) >= min {
			k++
		}
		for k > 0 && 1-float64(k)/float64(n) < min {
			k--
		}
	}
	if abs(len(ra)-len(rb)) > k {
		return 0, false
	}
	d := distance(ra, rb, k)
	if d > k {
		return 0, false
	}
	return 1 - float64(d)/float64(n), true
}

// distance is the Levenshtein distance between a and b when it is at most
// k, and some number above k otherwise. Only cells within k of the
// diagonal are computed.
func distance(a, b []rune, k int) int {
	if len(a) < len(b) {
		a, b = b, a
	}
	if len(a)-len(b) > k {
		return k + 1
	}
	if len(b) == 0 {
		return len(a)
	}
	inf := k + 1
	prev := make([]int, len(b)+1)
	cur := make([]int, len(b)+1)
	for j := range prev {
		prev[j] = min(j, inf)
	}
	for i := 1; i <= len(a); i++ {
		lo, hi := max(1, i-k), min(len(b), i+k)
		if lo > 1 {
			cur[lo-1] = inf
		}
		cur[0] = min(i, inf)
		best := cur[0]
		if lo > 1 {
			best = inf
		}
		for j := lo; j <= hi; j++ {
			c := prev[j-1]
			if a[i-1] != b[j-1] {
				c++
			}
			c = min(c, prev[j]+1, cur[j-1]+1, inf)
			cur[j] = c
			best = min(best, c)
		}
		if hi < len(b) {
			cur[hi+1] = inf
		}
		if best >= inf {
			return inf
		}
		prev, cur = cur, prev
	}
	return min(prev[len(b)], inf)
}

func abs(x int) int {
	if x < 0 {
		return -x
	}
	return x
}
