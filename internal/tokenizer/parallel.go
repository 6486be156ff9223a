package tokenizer

import (
	"runtime"

	"golang.org/x/sync/errgroup"
)

// parallelMin is the size below which CountParallel counts in one piece.
const parallelMin = 1 << 20

// CountParallel returns exactly t.Count(text), counting large texts on
// GOMAXPROCS goroutines.
//
// For o200k_base and cl100k_base it splits the text only where a new
// pre-tokenizer piece must start whatever came before: at a position that
// follows a '\n' and whose byte is neither white space nor '/'. In both
// encodings' patterns the only pieces that can contain '\n' are a
// white-space run ending in newlines (`\s*[\r\n]+`) and punctuation with
// trailing newlines (`[^\s\p{L}\p{N}]+[\r\n]*`, which in o200k_base also
// takes trailing '/': `[\r\n/]*`); both end before a byte that is none of
// white space, '\r', '\n' and '/', and matching then starts afresh. BPE
// merges never cross pieces, so the counts of the parts add up to the
// count of the whole. TestCountParallelExact and TestSafeBoundary check
// this against Count. Other tokenizers are counted in one piece.
func CountParallel(t Tokenizer, text string) int {
	text = ToValidUTF8(text)
	if _, ok := t.(*bpe); !ok || len(text) < parallelMin {
		return t.Count(text)
	}
	workers := runtime.GOMAXPROCS(0)
	if workers < 2 {
		return t.Count(text)
	}
	// Cut into about 4 segments per worker, at safe boundaries.
	target := max(len(text)/(4*workers), parallelMin/4)
	var cuts []int
	for start := 0; start < len(text); {
		end := safeCut(text, start+target)
		cuts = append(cuts, end)
		start = end
	}
	counts := make([]int, len(cuts))
	var g errgroup.Group
	g.SetLimit(workers)
	for i := range cuts {
		g.Go(func() error {
			start := 0
			if i > 0 {
				start = cuts[i-1]
			}
			counts[i] = t.Count(text[start:cuts[i]])
			return nil
		})
	}
	g.Wait()
	n := 0
	for _, c := range counts {
		n += c
	}
	return n
}

// Additive reports whether t is one of the BPE encodings for which
// SafeBoundary holds: counts add up across safe boundaries.
func Additive(t Tokenizer) bool {
	_, ok := t.(*bpe)
	return ok
}

// SafeBoundary reports whether, for o200k_base and cl100k_base, the count
// of a+b is exactly the count of a plus the count of b, because b starts
// where a new piece must start: a ends with '\n' and b starts with a byte
// that is not white space, not '/' and not the start of a multi-byte
// character.
// See CountParallel for why.
func SafeBoundary(a, b string) bool {
	if a == "" || b == "" {
		return true
	}
	return a[len(a)-1] == '\n' && safeCut(a[len(a)-1:]+b[:1], 1) == 1
}

// safeCut returns the first safe boundary at or after i (or len(text)): a
// position after a '\n' whose byte is not ASCII white space, not '/', and
// not the start of a multi-byte character (which could be Unicode white
// space).
func safeCut(text string, i int) int {
	for ; i < len(text); i++ {
		if i == 0 || text[i-1] != '\n' {
			continue
		}
		if safeStart(text[i]) {
			return i
		}
	}
	return len(text)
}
