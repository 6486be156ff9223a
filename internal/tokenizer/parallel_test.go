package tokenizer

import (
	"math/rand/v2"
	"os"
	"path/filepath"
	"runtime"
	"strings"
	"testing"
)

// TestCountParallelExact: splitting at safe boundaries never changes the
// count, on real files joined into large texts and on adversarial text
// built around the boundaries (white space, CRLF, punctuation before and
// after newlines, contractions, digits, non-ASCII).
func TestCountParallelExact(t *testing.T) {
	old := runtime.GOMAXPROCS(4)
	defer runtime.GOMAXPROCS(old)
	var texts []string
	dir := filepath.Join(runtime.GOROOT(), "src", "net", "http")
	entries, err := os.ReadDir(dir)
	if err != nil {
		t.Skip(err)
	}
	var b strings.Builder
	for _, e := range entries {
		if data, err := os.ReadFile(filepath.Join(dir, e.Name())); err == nil && !e.IsDir() {
			b.Write(data)
		}
	}
	texts = append(texts, b.String())
	r := rand.New(rand.NewPCG(1, 2))
	atoms := []string{"\n", "\r\n", " ", "\t", "  \n", "}\n", "};\n\n", "'s", "'S", "x", "Word", " word", "123", "4567", "é", "日本", "\u00a0", "\u2028", "\u0085", "\ufeff", ".", "...\n", "//", "\n\n\n", "a\n b", "\n'll", "\n123"}
	for range 4 {
		var s strings.Builder
		for s.Len() < 3<<20 {
			s.WriteString(atoms[r.IntN(len(atoms))])
		}
		texts = append(texts, s.String())
	}
	for _, name := range []string{"o200k_base", "cl100k_base"} {
		tok, err := Get(name)
		if err != nil {
			t.Fatal(err)
		}
		for i, text := range texts {
			if got, want := CountParallel(tok, text), tok.Count(text); got != want {
				t.Errorf("%s text %d (%d bytes): CountParallel %d, Count %d", name, i, len(text), got, want)
			}
		}
	}
	if got := CountParallel(Approx{}, "abcdefgh"); got != 2 {
		t.Errorf("approx: %d", got)
	}
}
