package tokenizer

import (
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

// BenchmarkRepeated counts 200,000 repeated letters, one piece of 200 kB.
func BenchmarkRepeated(b *testing.B) {
	text := strings.Repeat("a", 200_000)
	for _, enc := range encodings {
		b.Run(enc.name, func(b *testing.B) {
			count := ours(b, enc.name)
			b.SetBytes(int64(len(text)))
			b.ReportAllocs()
			for b.Loop() {
				count(text)
			}
		})
	}
}
