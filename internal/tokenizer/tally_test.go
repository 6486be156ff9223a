package tokenizer

import (
	"fmt"
	"math/rand/v2"
	"os"
	"path/filepath"
	"runtime"
	"strings"
	"testing"
)

// runes is a tokenizer that is neither BPE nor approx: one token per rune.
type runes struct{}

func (runes) Name() string                    { return "runes" }
func (runes) Count(s string) int              { return len([]rune(ToValidUTF8(s))) }
func (runes) Truncate(s string, n int) string { return s }

// TestTallyExact: a text added piece by piece, with or without the
// pieces' own counts, counts exactly as the whole, for every tokenizer:
// on pieces built around the boundaries (white space, '/', CRLF,
// invalid and split UTF-8) and on real files rendered as a pack renders
// them.
func TestTallyExact(t *testing.T) {
	var toks []Tokenizer
	for _, name := range Names() {
		tok, err := Get(name)
		if err != nil {
			t.Fatal(err)
		}
		toks = append(toks, tok)
	}
	toks = append(toks, runes{})
	atoms := []string{"\n", "\r\n", " ", "\t", "  \n", "}\n", "};\n\n", "'s", "x", "Word", " word", "123", "é", "日本", "\u00a0", "\u2028",
		"\u0085", "/", "//", "\n\n\n", "a\n b", "\n'll", "\n/x", "\xff", "\xe6\x97", "\xa5", "<document>\n", "</document>\n", "=== SOURCE: a.go ===\n"}
	var cases [][]string
	r := rand.New(rand.NewPCG(3, 4))
	for range 300 {
		var pieces []string
		for range 1 + r.IntN(30) {
			var p strings.Builder
			for range 1 + r.IntN(6) {
				p.WriteString(atoms[r.IntN(len(atoms))])
			}
			pieces = append(pieces, p.String())
		}
		cases = append(cases, pieces)
	}
	// Joined pieces past tallyFlush, which the tally counts in part.
	var long []string
	for i := 0; i < 3*tallyFlush/100; i++ {
		long = append(long, " x"+strings.Repeat("y", 90)+"\n\nZ\n")
	}
	cases = append(cases, long)
	// Real files, as the xml format renders them.
	if entries, err := os.ReadDir(filepath.Join(runtime.GOROOT(), "src", "net", "http")); err == nil {
		pieces := []string{"<documents>\n"}
		for _, e := range entries {
			data, err := os.ReadFile(filepath.Join(runtime.GOROOT(), "src", "net", "http", e.Name()))
			if err != nil || e.IsDir() {
				continue
			}
			pieces = append(pieces, "<document>\n<source>"+e.Name()+"</source>\n<document_content>\n"+string(data)+"</document_content>\n</document>\n")
		}
		cases = append(cases, append(pieces, "</documents>\n"))
	}
	for _, tok := range toks {
		for i, pieces := range cases {
			c := NewTally(tok)
			for _, p := range pieces {
				n := -1
				if r.IntN(2) == 0 {
					n = tok.Count(p)
				}
				c.Add(p, n)
			}
			whole := strings.Join(pieces, "")
			if got, want := c.Total(), tok.Count(whole); got != want {
				t.Errorf("%s case %d (%d pieces, %d bytes): Total %d, Count %d", tok.Name(), i, len(pieces), len(whole), got, want)
			}
		}
	}
}

// TestTallyHoldsOnePiece: pieces that meet at safe boundaries are never
// held together.
func TestTallyHoldsOnePiece(t *testing.T) {
	tok, err := Get("o200k_base")
	if err != nil {
		t.Fatal(err)
	}
	c := NewTally(tok)
	want := 0
	for i := range 1000 {
		p := "=== SOURCE: f.go ===\npackage f\n\nfunc F" + strings.Repeat("x", i%50) + "() {}\n"
		c.Add(p, tok.Count(p))
		want += tok.Count(p)
		if len(c.buf) > 0 {
			t.Fatalf("piece %d: %d bytes joined", i, len(c.buf))
		}
	}
	if got := c.Total(); got != want {
		t.Errorf("Total %d, want %d", got, want)
	}
	if got := NewTally(tok).Total(); got != 0 {
		t.Errorf("empty tally: %d", got)
	}
}

// BenchmarkTally counts net/http's files rendered as the xml format
// renders them: whole (Count of the joined text) and piece by piece
// through a Tally, with the pieces' counts unknown and known.
func BenchmarkTally(b *testing.B) {
	tok, err := Get("o200k_base")
	if err != nil {
		b.Fatal(err)
	}
	dir := filepath.Join(runtime.GOROOT(), "src", "net", "http")
	entries, err := os.ReadDir(dir)
	if err != nil {
		b.Skip(err)
	}
	var pieces []string
	for _, e := range entries {
		if data, err := os.ReadFile(filepath.Join(dir, e.Name())); err == nil && !e.IsDir() {
			pieces = append(pieces, "<document>\n<source>"+e.Name()+"</source>\n<document_content>\n"+string(data)+"</document_content>\n</document>\n")
		}
	}
	whole := strings.Join(pieces, "")
	counts := make([]int, len(pieces))
	for i, p := range pieces {
		counts[i] = tok.Count(p)
	}
	b.SetBytes(int64(len(whole)))
	b.Run("whole", func(b *testing.B) {
		b.ReportAllocs()
		for b.Loop() {
			tok.Count(whole)
		}
	})
	for _, known := range []bool{false, true} {
		b.Run(fmt.Sprintf("tally/known=%v", known), func(b *testing.B) {
			b.ReportAllocs()
			for b.Loop() {
				c := NewTally(tok)
				for i, p := range pieces {
					n := -1
					if known {
						n = counts[i]
					}
					c.Add(p, n)
				}
				c.Total()
			}
		})
	}
}
