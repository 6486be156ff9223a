package tokenizer

import (
	"maps"
	"slices"
	"testing"

	"github.com/tiktoken-go/tokenizer/codec"
)

// fuzzSeeds are the starting corpus of the fuzz targets. Inputs that make
// a fuzzer fail go to testdata/fuzz.
func fuzzSeeds() []string {
	seeds := []string{"", "a", "hello world", "It's", "x\n  \ny", "a\x7fb", "\xff\xfe", "e\u0301'S", "ǅ's"}
	cases := edgeCases()
	for _, name := range slices.Sorted(maps.Keys(cases)) {
		if text := cases[name]; len(text) <= 4096 {
			seeds = append(seeds, text)
		}
	}
	return seeds
}

// FuzzCount checks Count and the token ids against the reference for both
// encodings. New inputs are slow to minimize (the reference's interpreter
// backtracks); run it with a short -fuzzminimizetime:
//
//	go test -run '^$' -fuzz '^FuzzCount$' -fuzztime 3m -fuzzminimizetime 3s ./internal/tokenizer
func FuzzCount(f *testing.F) {
	for _, s := range fuzzSeeds() {
		f.Add(s)
	}
	refs := make(map[string]*codec.Codec)
	for _, enc := range encodings {
		refs[enc.name] = enc.ref()
	}
	f.Fuzz(func(t *testing.T, text string) {
		if len(text) > 1<<12 {
			t.Skip("long inputs make the reference's interpreter slow")
		}
		for _, enc := range encodings {
			e := mustBPE(t, enc.name)
			checkSplit(t, e, text)
			want, _ := wantEncode(t, e, refs[enc.name], text)
			got := e.encode(text)
			if i := firstDiff(got, want); i >= 0 {
				t.Fatalf("%s: %q: token %d differs:\n%s", enc.name, text, i, diffContext(e, got, want, i))
			}
			if n := e.Count(text); n != len(want) {
				t.Fatalf("%s: %q: Count = %d, want %d", enc.name, text, n, len(want))
			}
		}
	})
}

// FuzzTruncate checks Truncate's contract (see checkTruncate).
func FuzzTruncate(f *testing.F) {
	for i, s := range fuzzSeeds() {
		f.Add(s, i%7)
	}
	f.Fuzz(func(t *testing.T, text string, max int) {
		if len(text) > 1<<12 {
			t.Skip("the maximality check is quadratic")
		}
		for _, enc := range encodings {
			e := mustBPE(t, enc.name)
			n := e.Count(text)
			max := max % (n + 2)
			checkTruncate(t, e, text, max)
		}
	})
}
