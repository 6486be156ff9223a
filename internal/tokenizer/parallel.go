package tokenizer

import (
	"runtime"
	"sync"
)

// parallelMin is the size below which CountParallel counts in one piece.
const parallelMin = 1 << 20

// CountParallel returns exactly t.Count(text), counting large texts on
// GOMAXPROCS goroutines.
//
// For o200k_base and cl100k_base it splits the text only where a new
// pre-tokenizer piece must start whatever came before: at a position whose
// byte is not white space and follows a '\n'. In both encodings' patterns
// the only pieces that can contain '\n' are a white-space run ending in
// newlines (`\s*[\r\n]+`) and punctuation with trailing newlines
// (`[^\s\p{L}\p{N}]+[\r\n]*`); both end at the last newline before a
// character that is neither white space nor a newline, and matching then
// starts afresh. BPE merges never cross pieces, so the counts of the parts
// add up to the count of the whole. TestCountParallelExact checks this
// against Count. Other tokenizers are counted in one piece.
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
	var wg sync.WaitGroup
	next := make(chan int, len(cuts))
	for i := range cuts {
		next <- i
	}
	close(next)
	for range workers {
		wg.Go(func() {
			for i := range next {
				start := 0
				if i > 0 {
					start = cuts[i-1]
				}
				counts[i] = t.Count(text[start:cuts[i]])
			}
		})
	}
	wg.Wait()
	n := 0
	for _, c := range counts {
		n += c
	}
	return n
}

// safeCut returns the first safe boundary at or after i (or len(text)): a
// position after a '\n' whose byte is not ASCII white space and not the
// start of a multi-byte character (which could be Unicode white space).
func safeCut(text string, i int) int {
	for ; i < len(text); i++ {
		if i == 0 || text[i-1] != '\n' {
			continue
		}
		switch c := text[i]; {
		case c == ' ' || c == '\t' || c == '\n' || c == '\r' || c == '\v' || c == '\f':
		case c >= 0x80:
		default:
			return i
		}
	}
	return len(text)
}
