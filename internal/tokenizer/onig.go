package tokenizer

import (
	"sort"
	"sync"
)

// Oniguruma's class bits, as in onigtables.go.
const (
	onigL = 1 << iota
	onigM
	onigN
	onigP
	onigS
	onigSpace
)

// onigRange is a range of code points whose classes in Oniguruma differ
// from Go's unicode package.
type onigRange struct {
	lo, hi  rune
	classes uint8
}

// onigClasses returns Oniguruma's classes of r if they differ from Go's.
func onigClasses(r rune) (uint8, bool) {
	i := sort.Search(len(onigRanges), func(i int) bool { return onigRanges[i].hi >= r })
	if i < len(onigRanges) && onigRanges[i].lo <= r {
		return onigRanges[i].classes, true
	}
	return 0, false
}

// cl100kClassOf returns the splitter's class of a rune with Oniguruma's
// classes c (cl100k_base's pattern: \p{L}, \p{N}, \s).
func cl100kClassOf(r rune, c uint8) uint8 {
	var k uint8
	if c&onigL != 0 {
		k |= cLetter
	}
	if c&onigN != 0 {
		k |= cNumber
	}
	if c&onigSpace != 0 {
		k |= cSpace
	}
	if r == '\r' || r == '\n' {
		k |= cNewline
	}
	if k&(cLetter|cNumber|cNewline) == 0 {
		k |= cPrefix
	}
	if k&(cLetter|cNumber|cSpace) == 0 {
		k |= cPunct
	}
	return k
}

var (
	onigBMPOnce sync.Once
	onigBMP     *[1 << 16]uint8
)

// loadOnigClasses returns the splitter's BMP classes with Oniguruma's
// differences applied, for the cl100k_base pattern of llama3 and qwen3.
func loadOnigClasses() *[1 << 16]uint8 {
	onigBMPOnce.Do(func() {
		t := new([1 << 16]uint8)
		*t = *loadClasses()
		for _, rg := range onigRanges {
			for r := rg.lo; r <= rg.hi && r <= 0xFFFF; r++ {
				t[r] = cl100kClassOf(r, rg.classes)
			}
		}
		onigBMP = t
	})
	return onigBMP
}
