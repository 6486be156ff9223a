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

// TestSafeBoundary: where SafeBoundary holds, counts add exactly; checked
// on every pair of adjacent lines of real files joined at their newline.
func TestSafeBoundary(t *testing.T) {
	tok, _ := Get("o200k_base")
	cl, _ := Get("cl100k_base")
	data, err := os.ReadFile(filepath.Join(runtime.GOROOT(), "src", "net", "http", "server.go"))
	if err != nil {
		t.Skip(err)
	}
	// Every line boundary of the file, plus punctuation-newline-slash
	// traps that a naive rule gets wrong.
	lines := strings.SplitAfter(string(data)+"x.\n//y\n}\n/z\n'\n's\n", "\n")
	checked := 0
	for i := 1; i < len(lines); i++ {
		a, b := strings.Join(lines[max(0, i-3):i], ""), strings.Join(lines[i:min(len(lines), i+3)], "")
		if !SafeBoundary(a, b) {
			continue
		}
		checked++
		for _, e := range []Tokenizer{tok, cl} {
			if e.Count(a)+e.Count(b) != e.Count(a+b) {
				t.Fatalf("%s: not additive at line %d: %q | %q", e.Name(), i, a, b)
			}
		}
	}
	if checked < 100 {
		t.Fatalf("only %d safe boundaries checked", checked)
	}
	for _, tc := range []struct {
		a, b string
		want bool
	}{{"x\n", "y", true}, {"x\n", " y", false}, {"x", "y", false}, {"x\n", "\ny", false}, {"x\n", "é", false}, {"x.\n", "// c", false}, {"", "y", true}} {
		if got := SafeBoundary(tc.a, tc.b); got != tc.want {
			t.Errorf("SafeBoundary(%q, %q) = %v", tc.a, tc.b, got)
		}
	}
	if !Additive(tok) || Additive(Approx{}) {
		t.Error("Additive")
	}
}

// TestSafeCutsAddUp is the property CountParallel and the engine rely on:
// cut a text at every safe boundary and the counts of the pieces sum to
// the count of the whole. Checked on every file under net/http and on
// random text built from the characters that matter at a boundary.
func TestSafeCutsAddUp(t *testing.T) {
	var texts []string
	dir := filepath.Join(runtime.GOROOT(), "src", "net", "http")
	entries, err := os.ReadDir(dir)
	if err != nil {
		t.Skip(err)
	}
	for _, e := range entries {
		if data, err := os.ReadFile(filepath.Join(dir, e.Name())); err == nil && !e.IsDir() {
			texts = append(texts, string(data))
		}
	}
	r := rand.New(rand.NewPCG(7, 8))
	atoms := []string{"\n", "\r\n", " ", "\t", "/", "//", ".", "}", "'", "'s", "x", "Y", "1", "é", "\u00a0", "\u0085", "-", "\n/", ".\n", "'\n"}
	for range 300 {
		var s strings.Builder
		for range 200 {
			s.WriteString(atoms[r.IntN(len(atoms))])
		}
		texts = append(texts, s.String())
	}
	for _, name := range []string{"o200k_base", "cl100k_base"} {
		tok, _ := Get(name)
		for i, text := range texts {
			sum, start := 0, 0
			for cut := safeCut(text, 1); ; cut = safeCut(text, cut+1) {
				sum += tok.Count(text[start:cut])
				start = cut
				if cut >= len(text) {
					break
				}
			}
			if want := tok.Count(text); sum != want {
				t.Fatalf("%s text %d: pieces sum to %d, whole is %d", name, i, sum, want)
			}
		}
	}
}
