package pack

import (
	"bytes"
	"errors"
	"fmt"
	"math/rand/v2"
	"strings"
	"sync/atomic"
	"testing"

	"github.com/google/go-cmp/cmp"

	"github.com/ctxpack/ctxpack/internal/render"
)

// loadify moves every part's full text into a Loader, which counts its
// loads in loads[i]; with lazy, its intermediate levels into More (as
// lazify), whose argument must be the full text.
func loadify(t *testing.T, parts []Part, loads []atomic.Int32, lazy bool) []Part {
	out := parts
	if lazy {
		out = lazify(parts, make([]atomic.Int32, len(parts)))
	}
	out = append([]Part(nil), out...)
	for i := range out {
		p := &out[i]
		full, ok := p.Text[Full]
		if !ok {
			continue
		}
		text := map[Level]string{}
		for l, s := range p.Text {
			if l != Full {
				text[l] = s
			}
		}
		p.Text = text
		p.Loader = &Loader{Len: len(full), Load: func() (string, error) {
			loads[i].Add(1)
			return strings.Clone(full), nil
		}}
		if more := p.More; more != nil {
			p.More = func(s string) map[Level]string {
				if s != full {
					t.Errorf("%s: More given %q, not the full text", p.Key, s)
				}
				return more(s)
			}
		}
	}
	return out
}

// TestLoader: parts whose full text comes from a Loader assemble exactly
// as parts that hold it, in every format, strategy and overflow, with
// lazy levels or without; AssembleTo writes what Assemble outputs, with
// the same plan (less the content when it streams).
func TestLoader(t *testing.T) {
	toks := tokenizers(t)
	cases := 300
	if testing.Short() {
		cases = 60
	}
	streamed := 0
	for seed := range cases {
		r := rand.New(rand.NewPCG(uint64(seed), 7))
		parts := randomParts(r)
		o := randomOptions(r, toks)
		if r.IntN(3) == 0 {
			o.FullSequence = 1 + r.IntN(len(parts))
		}
		lazy := r.IntN(2) == 0
		for _, b := range []int{1 + r.IntN(60), 20 + r.IntN(400), 100 + r.IntN(3000)} {
			o := o
			o.Budget = b
			want, werr := Assemble(parts, o)
			if lazy {
				want, werr = Assemble(lazify(parts, make([]atomic.Int32, len(parts))), o)
			}
			loads := make([]atomic.Int32, len(parts))
			loaded := loadify(t, parts, loads, lazy)
			got, err := Assemble(loaded, o)
			if (err == nil) != (werr == nil) || err != nil && err.Error() != werr.Error() {
				t.Fatalf("seed %d budget %d: error %v, want %v", seed, b, err, werr)
			}
			if err != nil {
				continue
			}
			if d := cmp.Diff(want.Plan, got.Plan); d != "" || !bytes.Equal(want.Output, got.Output) {
				t.Fatalf("seed %d budget %d: the loaded parts assemble differently (-want +got):\n%s", seed, b, d)
			}
			checkInvariants(t, loaded, o, got)
			var w bytes.Buffer
			to, err := AssembleTo(&w, loaded, o)
			if err != nil {
				t.Fatalf("seed %d budget %d: AssembleTo: %v", seed, b, err)
			}
			if !bytes.Equal(w.Bytes(), want.Output) {
				t.Fatalf("seed %d budget %d: AssembleTo wrote other bytes", seed, b)
			}
			plan := want.Plan
			if to.Output == nil {
				streamed++
				plan.Content = ""
			}
			if d := cmp.Diff(plan, to.Plan); d != "" {
				t.Fatalf("seed %d budget %d: AssembleTo's plan (-want +got):\n%s", seed, b, d)
			}
		}
	}
	if streamed == 0 {
		t.Fatal("no case streamed")
	}
}

func TestLoaderErrors(t *testing.T) {
	tok := runeCounter{}
	part := func(load func() (string, error), n int) []Part {
		return []Part{
			{Key: "a", Path: "a.go", Text: map[Level]string{Meta: "a\n"}, Loader: &Loader{Len: n, Load: load}},
			{Key: "b", Path: "b.go", Text: full("bee\n")},
		}
	}
	failing := func() (string, error) { return "", errors.New("disk on fire") }
	for _, tc := range []struct {
		name  string
		parts []Part
		o     Options
		want  string
	}{
		{"load fails", part(failing, 4), Options{Budget: 100, Tokenizer: tok}, `pack: part "a": disk on fire`},
		{"load fails, allow", part(failing, 4), Options{Budget: 100, Tokenizer: tok, Overflow: Allow}, "disk on fire"},
		{"load fails, no dedup", part(failing, 4), Options{Budget: 100, Tokenizer: tok, DedupThreshold: -1}, "disk on fire"},
		{"length changed", part(func() (string, error) { return "abc\n", nil }, 5), Options{Budget: 100, Tokenizer: tok}, "loaded 4 bytes, not 5"},
		{"no load", []Part{{Key: "a", Loader: &Loader{Len: 1}}}, Options{Budget: 100, Tokenizer: tok}, "Loader without Load"},
		{"both", []Part{{Key: "a", Text: full("x"), Loader: &Loader{Len: 1, Load: failing}}}, Options{Budget: 100, Tokenizer: tok}, "both a full text and a Loader"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			_, err := Assemble(tc.parts, tc.o)
			if err == nil || !strings.Contains(err.Error(), tc.want) {
				t.Fatalf("error %v, want %q", err, tc.want)
			}
			var w bytes.Buffer
			if _, err := AssembleTo(&w, tc.parts, tc.o); err == nil || !strings.Contains(err.Error(), tc.want) {
				t.Fatalf("AssembleTo: error %v, want %q", err, tc.want)
			}
		})
	}
	// A Loader alone is a part's only text.
	res, err := Assemble([]Part{{Key: "a", Loader: &Loader{Len: 4, Load: func() (string, error) { return "abc\n", nil }}}}, Options{Budget: 100, Tokenizer: tok})
	if err != nil || !strings.Contains(string(res.Output), "abc\n") {
		t.Fatalf("%v: %q", err, res.Output)
	}
}

// errWriter fails after n bytes.
type errWriter struct{ n int }

func (w *errWriter) Write(p []byte) (int, error) {
	if len(p) > w.n {
		return w.n, errors.New("pipe closed")
	}
	w.n -= len(p)
	return len(p), nil
}

// TestAssembleToWriteError: a writer's error is AssembleTo's, streaming
// or not.
func TestAssembleToWriteError(t *testing.T) {
	var parts []Part
	for i := range 200 {
		text := strings.Repeat(fmt.Sprintf("line %d\n", i), 100)
		parts = append(parts, Part{Key: fmt.Sprintf("p%03d", i), Path: fmt.Sprintf("p%03d.txt", i), Text: full(text)})
	}
	for _, o := range []Options{
		{Tokenizer: runeCounter{}, Overflow: Allow, Format: render.XML},
		{Tokenizer: runeCounter{}, Overflow: Allow, Format: render.JSON},
		{Tokenizer: runeCounter{}, Budget: 1 << 30},
	} {
		if _, err := AssembleTo(&errWriter{n: 1000}, parts, o); err == nil || !strings.Contains(err.Error(), "pipe closed") {
			t.Errorf("%s %s: error %v", o.Format, o.Overflow, err)
		}
	}
}
