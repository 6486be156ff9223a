package tokenizer

import (
	"os"
	"runtime"
	"strings"
	"sync"
	"sync/atomic"
	"testing"

	"github.com/tiktoken-go/tokenizer/codec"
)

// The benchmarks count a corpus of Go's source tree: every fourth .go file
// under $(go env GOROOT)/src in walk order (about 22 MB with Go 1.26), read
// once. Each operation counts the whole corpus, with ours or with the
// reference library, in one goroutine ("serial") or in GOMAXPROCS workers
// taking files in turn ("parallel"). Compare ours with the library:
//
//	go test -run '^$' -bench 'Corpus' -benchtime 1x ./internal/tokenizer
var (
	corpusOnce  sync.Once
	corpusFiles []treeFile
	corpusBytes int64
)

func benchCorpus(b testing.TB) ([]treeFile, int64) {
	fsys := gorootSrc(b)
	corpusOnce.Do(func() {
		corpusFiles = readTree(b, fsys, ".", func(name string, i int) bool {
			return strings.HasSuffix(name, ".go") && i%4 == 0
		})
		for _, f := range corpusFiles {
			corpusBytes += int64(len(f.text))
		}
	})
	return corpusFiles, corpusBytes
}

// countFunc counts the tokens of one text.
type countFunc func(string) int

func ours(b *testing.B, name string) countFunc {
	tok, err := Get(name)
	if err != nil {
		b.Fatal(err)
	}
	return tok.Count
}

func library(name string) countFunc {
	var c *codec.Codec
	switch name {
	case "o200k_base":
		c = codec.NewO200kBase()
	default:
		c = codec.NewCl100kBase()
	}
	return func(s string) int {
		n, _ := c.Count(ToValidUTF8(s))
		return n
	}
}

func BenchmarkCorpus(b *testing.B) {
	for _, enc := range encodings {
		for _, impl := range []string{"ours", "library"} {
			for _, mode := range []string{"serial", "parallel"} {
				b.Run(enc.name+"/"+impl+"/"+mode, func(b *testing.B) {
					files, size := benchCorpus(b)
					var count countFunc
					if impl == "ours" {
						count = ours(b, enc.name)
					} else {
						count = library(enc.name)
					}
					b.SetBytes(size)
					b.ReportAllocs()
					var tokens int64
					for b.Loop() {
						if mode == "serial" {
							tokens = 0
							for _, f := range files {
								tokens += int64(count(f.text))
							}
						} else {
							tokens = countParallel(files, count)
						}
					}
					b.ReportMetric(float64(size)/float64(tokens), "bytes/token")
				})
			}
		}
	}
}

// countParallel counts files in GOMAXPROCS goroutines.
func countParallel(files []treeFile, count countFunc) int64 {
	var next, total atomic.Int64
	var wg sync.WaitGroup
	for range runtime.GOMAXPROCS(0) {
		wg.Go(func() {
			var n int64
			for i := next.Add(1) - 1; i < int64(len(files)); i = next.Add(1) - 1 {
				n += int64(count(files[i].text))
			}
			total.Add(n)
		})
	}
	wg.Wait()
	return total.Load()
}

// BenchmarkRepeated counts 200,000 repeated letters: one piece of 200 kB,
// merged with the heap.
func BenchmarkRepeated(b *testing.B) {
	text := strings.Repeat("a", 200_000)
	for _, enc := range encodings {
		for _, impl := range []string{"ours", "library"} {
			b.Run(enc.name+"/"+impl, func(b *testing.B) {
				count := library(enc.name)
				if impl == "ours" {
					count = ours(b, enc.name)
				}
				b.SetBytes(int64(len(text)))
				b.ReportAllocs()
				for b.Loop() {
					count(text)
				}
			})
		}
	}
}

// BenchmarkLoad builds an encoding's tables from its embedded file, the
// work of the first Get.
func BenchmarkLoad(b *testing.B) {
	loadClasses()
	for _, c := range []struct{ name, file string }{{"o200k_base", o200kFile}, {"cl100k_base", cl100kFile}} {
		b.Run(c.name, func(b *testing.B) {
			b.ReportAllocs()
			for b.Loop() {
				if _, err := parseVocab(c.name, c.file); err != nil {
					b.Fatal(err)
				}
			}
		})
	}
}

// BenchmarkTruncate cuts the largest file of the corpus to 1,000 tokens.
func BenchmarkTruncate(b *testing.B) {
	files, _ := benchCorpus(b)
	text := ""
	for _, f := range files {
		if len(f.text) > len(text) {
			text = f.text
		}
	}
	for _, enc := range encodings {
		b.Run(enc.name, func(b *testing.B) {
			e := mustBPE(b, enc.name)
			b.ReportAllocs()
			for b.Loop() {
				e.Truncate(text, 1000)
			}
		})
	}
}

// BenchmarkLookup compares the rank table with a Go map on the pieces of a
// quarter of the corpus (whole-piece lookups, as Count makes first).
func BenchmarkLookup(b *testing.B) {
	files, _ := benchCorpus(b)
	e := mustBPE(b, "o200k_base")
	var pieces []string
	for _, f := range files[:len(files)/4] {
		pieces = append(pieces, ourSplit(e, f.text)...)
	}
	m := make(map[string]int32, e.vocab.size())
	for r := range e.vocab.size() {
		m[e.vocab.token(int32(r))] = int32(r)
	}
	lookups := map[string]func(string) bool{
		"table": func(p string) bool { return e.vocab.rank(p) != noRank },
		"map":   func(p string) bool { _, ok := m[p]; return ok },
	}
	for _, name := range []string{"table", "map"} {
		b.Run(name, func(b *testing.B) {
			found := lookups[name]
			for b.Loop() {
				for _, p := range pieces {
					found(p)
				}
			}
			b.ReportMetric(float64(b.Elapsed().Nanoseconds())/float64(b.N*len(pieces)), "ns/lookup")
		})
	}
}

// BenchmarkFamilies counts every file under $(go env GOROOT)/src/net/http
// with each open-weight family and, for comparison, o200k_base, serially:
//
//	go test -run '^$' -bench Families -benchtime 5x ./internal/tokenizer
func BenchmarkFamilies(b *testing.B) {
	files := readTree(b, gorootSrc(b), "net/http", func(string, int) bool { return true })
	var size int64
	for _, f := range files {
		size += int64(len(f.text))
	}
	for _, name := range append([]string{"o200k_base"}, familyNames()...) {
		b.Run(name, func(b *testing.B) {
			count := ours(b, name)
			b.SetBytes(size)
			b.ReportAllocs()
			var tokens int64
			for b.Loop() {
				tokens = 0
				for _, f := range files {
					tokens += int64(count(f.text))
				}
			}
			b.ReportMetric(float64(size)/float64(tokens), "bytes/token")
		})
	}
}

// BenchmarkFamiliesLoad builds each family's tables from its compiled
// vocabulary, the work of the first Get (for llama3 and gemma3, compiling
// the user's tokenizer.json comes first; it is not timed).
func BenchmarkFamiliesLoad(b *testing.B) {
	for _, f := range families {
		var raw []byte
		var err error
		if f.file != nil {
			raw, err = gunzip(*f.file)
		} else if path := os.Getenv(f.env); path != "" {
			var data []byte
			if data, err = os.ReadFile(path); err == nil {
				raw, _, err = CompileHF(data, f.pre != preMetaspace)
			}
		} else {
			continue
		}
		if err != nil {
			b.Fatal(err)
		}
		b.Run(f.name, func(b *testing.B) {
			b.ReportAllocs()
			for b.Loop() {
				if _, err := newHF(f, raw); err != nil {
					b.Fatal(err)
				}
			}
		})
	}
}
