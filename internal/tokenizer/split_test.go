package tokenizer

import (
	"math"
	"math/rand/v2"
	"slices"
	"sync"
	"testing"
	"unicode"

	"github.com/dlclark/regexp2/v2"
)

// patterns are tiktoken's split patterns, as the reference library compiles
// them (codec/o200k_base.go and codec/cl100k_base.go).
var patterns = map[string]string{
	"o200k_base":  `[^\r\n\p{L}\p{N}]?[\p{Lu}\p{Lt}\p{Lm}\p{Lo}\p{M}]*[\p{Ll}\p{Lm}\p{Lo}\p{M}]+(?i:'s|'t|'re|'ve|'m|'ll|'d)?|[^\r\n\p{L}\p{N}]?[\p{Lu}\p{Lt}\p{Lm}\p{Lo}\p{M}]+[\p{Ll}\p{Lm}\p{Lo}\p{M}]*(?i:'s|'t|'re|'ve|'m|'ll|'d)?|\p{N}{1,3}| ?[^\s\p{L}\p{N}]+[\r\n/]*|\s*[\r\n]+|\s+(?!\S)|\s+`,
	"cl100k_base": `(?i:'s|'t|'re|'ve|'m|'ll|'d)|[^\r\n\p{L}\p{N}]?\p{L}+|\p{N}{1,3}| ?[^\s\p{L}\p{N}]+[\r\n]*|\s*[\r\n]+|\s+(?!\S)|\s+`,
}

// The reference library matches its patterns with code that regexp2cg
// generated and registered for the exact pattern strings, and that code has
// two bugs (see TestLibrarySplitBugs). regexp2's interpreter, used for the
// same pattern in a group that changes nothing, splits as OpenAI's tiktoken
// (Rust, fancy_regex) does, so it is the reference for splitting.
var (
	interpOnce sync.Once
	interp     map[string]*regexp2.Regexp // regexp2's interpreter
	generated  map[string]*regexp2.Regexp // the library's generated matcher
)

func splitRegexps() (interpreted, gen map[string]*regexp2.Regexp) {
	interpOnce.Do(func() {
		interp = map[string]*regexp2.Regexp{}
		generated = map[string]*regexp2.Regexp{}
		for name, p := range patterns {
			interp[name] = regexp2.MustCompile("(?:"+p+")", regexp2.None)
			generated[name] = regexp2.MustCompile(p, regexp2.None)
		}
	})
	return interp, generated
}

// regexpSplit returns the successive matches of re in text.
func regexpSplit(t testing.TB, re *regexp2.Regexp, text string) []string {
	t.Helper()
	var out []string
	m, err := re.FindStringMatch(text)
	for ; m != nil && err == nil; m, err = re.FindNextMatch(m) {
		out = append(out, m.String())
	}
	if err != nil {
		t.Fatal(err)
	}
	return out
}

// ourSplit returns the pieces our splitter cuts valid UTF-8 text into.
func ourSplit(e *bpe, text string) []string {
	var out []string
	for i := 0; i < len(text); {
		j := e.split.next(text, i)
		out = append(out, text[i:j])
		i = j
	}
	return out
}

// checkSplit compares our pieces of text with regexp2's interpreter's.
func checkSplit(t testing.TB, e *bpe, text string) {
	t.Helper()
	text = ToValidUTF8(text)
	interp, _ := splitRegexps()
	got := ourSplit(e, text)
	if want := regexpSplit(t, interp[e.name], text); !slices.Equal(got, want) {
		t.Fatalf("%s: split of %q:\n got  %q\n want %q", e.name, text, got, want)
	}
}

func TestSplitMatchesRegexp2(t *testing.T) {
	var texts []string
	for _, text := range edgeCases() {
		if len(text) < 20_000 { // the interpreter backtracks quadratically on long runs
			texts = append(texts, text)
		}
	}
	rng := rand.New(rand.NewPCG(9, 10))
	for i := range 5000 {
		texts = append(texts, randomText(rng, 1+i%50))
	}
	for _, f := range readTree(t, gorootSrc(t), "net/http", func(_ string, i int) bool { return i%8 == 0 }) {
		texts = append(texts, f.text)
	}
	for _, enc := range encodings {
		e := mustBPE(t, enc.name)
		for _, text := range texts {
			checkSplit(t, e, text)
		}
	}
}

// TestLibrarySplitBugs documents where the reference library's split
// differs from the patterns' (and OpenAI's tiktoken's): it drops DEL, and
// \s*[\r\n]+ ends at the first run of newlines in a run of white space
// instead of the last (its generated backtracking looks for the first \r
// or \n, not the last). The token ids in want are OpenAI tiktoken's (npm
// tiktoken 1.0.22, encode_ordinary).
func TestLibrarySplitBugs(t *testing.T) {
	interp, gen := splitRegexps()
	cases := []struct {
		text string
		want map[string][]int
	}{
		{"a\x7fb !\x7f!", map[string][]int{"o200k_base": {64, 221, 65, 1073, 221, 0}, "cl100k_base": {64, 221, 65, 758, 221, 0}}},
		{"a\n  \nb", map[string][]int{"o200k_base": {64, 31835, 65}, "cl100k_base": {64, 14211, 65}}},
		{"x\n\t\n\ty", map[string][]int{"o200k_base": {87, 40612, 32013}, "cl100k_base": {87, 18108, 14862}}},
		{"a\n \n \n b", map[string][]int{"o200k_base": {64, 47812, 793, 287}, "cl100k_base": {64, 27907, 720, 293}}},
	}
	for _, enc := range encodings {
		e := mustBPE(t, enc.name)
		for _, c := range cases {
			if lib, re := regexpSplit(t, gen[enc.name], c.text), regexpSplit(t, interp[enc.name], c.text); slices.Equal(lib, re) {
				t.Errorf("%s: %q: the library now splits as the interpreter does (%q); compare with it again", enc.name, c.text, lib)
			}
			checkSplit(t, e, c.text)
			if got := e.encode(c.text); !slices.Equal(got, c.want[enc.name]) {
				t.Errorf("%s: encode(%q) = %v, want %v", enc.name, c.text, got, c.want[enc.name])
			}
			if got := oracleEncode(t, e, c.text); !slices.Equal(got, c.want[enc.name]) {
				t.Errorf("%s: oracleEncode(%q) = %v, want %v", enc.name, c.text, got, c.want[enc.name])
			}
		}
	}
}

// oracleEncode is a slow, independent encoder: the interpreter's split, then
// tiktoken's merge loop written plainly over a map of the vocabulary.
func oracleEncode(t testing.TB, e *bpe, text string) []int {
	t.Helper()
	interp, _ := splitRegexps()
	ranks := vocabMap(e)
	var ids []int
	for _, piece := range regexpSplit(t, interp[e.name], ToValidUTF8(text)) {
		if r, ok := ranks[piece]; ok {
			ids = append(ids, r)
			continue
		}
		// tiktoken's loop: parts[i] starts part i, and rank[i] is the
		// rank of parts i and i+1 merged.
		parts := make([]int, len(piece)+1)
		for i := range parts {
			parts[i] = i
		}
		rankOf := func(i int) int {
			if i+2 >= len(parts) {
				return math.MaxInt
			}
			if r, ok := ranks[piece[parts[i]:parts[i+2]]]; ok {
				return r
			}
			return math.MaxInt
		}
		rank := make([]int, len(parts))
		for i := range rank {
			rank[i] = rankOf(i)
		}
		for {
			at := 0
			for i := range rank {
				if rank[i] < rank[at] {
					at = i
				}
			}
			if rank[at] == math.MaxInt {
				break
			}
			parts = slices.Delete(parts, at+1, at+2)
			rank = slices.Delete(rank, at+1, at+2)
			rank[at] = rankOf(at)
			if at > 0 {
				rank[at-1] = rankOf(at - 1)
			}
		}
		for i := range len(parts) - 1 {
			ids = append(ids, ranks[piece[parts[i]:parts[i+1]]])
		}
	}
	return ids
}

var (
	vocabMapMu sync.Mutex
	vocabMaps  = map[string]map[string]int{}
)

// vocabMap returns e's vocabulary as a map (TestVocab checks it against the
// reference library).
func vocabMap(e *bpe) map[string]int {
	vocabMapMu.Lock()
	defer vocabMapMu.Unlock()
	m := vocabMaps[e.name]
	if m == nil {
		m = make(map[string]int, e.vocab.size())
		for r := range e.vocab.size() {
			m[e.vocab.token(int32(r))] = r
		}
		vocabMaps[e.name] = m
	}
	return m
}

// TestUnicodeVersion pins the one known way our split differs from OpenAI's
// tiktoken: the character classes come from Go's unicode package (Unicode
// 15.0.0 in Go 1.26), tiktoken's from Rust's regex crate (Unicode 16 in npm
// tiktoken 1.0.22). U+1C8A CYRILLIC SMALL LETTER TJE, new in Unicode 16, is
// not a letter to us, so "'s" after it is not a contraction. The reference
// library uses Go's tables too and splits as we do.
func TestUnicodeVersion(t *testing.T) {
	text := "x\u1c8a's"
	want := map[string][]int{ // tiktoken's: "x", "\u1c8a" (3 bytes), "'s"
		"o200k_base":  {87, 157, 110, 232, 885},
		"cl100k_base": {87, 157, 110, 232, 596},
	}
	if unicode.Version < "16" {
		want = map[string][]int{ // "x", "\u1c8a'" (4 bytes), "s"
			"o200k_base":  {87, 157, 110, 232, 6, 82},
			"cl100k_base": {87, 157, 110, 232, 6, 82},
		}
	}
	for _, enc := range encodings {
		e := mustBPE(t, enc.name)
		checkSplit(t, e, text)
		if got := e.encode(text); !slices.Equal(got, want[enc.name]) {
			t.Errorf("%s: Unicode %s: encode(%q) = %v, want %v", enc.name, unicode.Version, text, got, want[enc.name])
		}
	}
}
