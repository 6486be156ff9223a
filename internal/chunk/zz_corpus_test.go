package chunk

import (
	"fmt"
	"io/fs"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"
)

func TestZZCorpus(t *testing.T) {
	dirs := os.Getenv("ZZCORPUS")
	if dirs == "" {
		t.Skip()
	}
	for _, dir := range strings.Fields(dirs) {
		var n, total int
		var dur time.Duration
		var slow time.Duration
		var slowName string
		var worstRatio float64
		var worstRatioName string
		byLang := map[string][2]float64{}
		filepath.WalkDir(dir, func(p string, d fs.DirEntry, err error) error {
			if err != nil || d.IsDir() || !d.Type().IsRegular() {
				return nil
			}
			b, err := os.ReadFile(p)
			if err != nil || len(b) > 4<<20 {
				return nil
			}
			t0 := time.Now()
			chunks := Split(p, b)
			dd := time.Since(t0)
			if e := tilingError(b, chunks, MaxChunkBytes); e != "" {
				t.Errorf("%s: %s", p, e)
			}
			Levels(p, b)
			n++
			total += len(b)
			dur += dd
			l := Language(p)
			x := byLang[l]
			x[0] += float64(len(b))
			x[1] += dd.Seconds()
			byLang[l] = x
			if hasGrammar(l) {
				if r := float64(dd) / float64(parseTimeout(len(b))); r > worstRatio {
					worstRatio, worstRatioName = r, p
				}
			}
			if dd > slow {
				slow, slowName = dd, p
			}
			return nil
		})
		fmt.Printf("%s: %d files %.1f MB, Split %.1f MB/s, slowest %v %s\n", dir, n, float64(total)/1e6, float64(total)/1e6/dur.Seconds(), slow, slowName)
		fmt.Printf("   worst time/limit %.3f %s\n", worstRatio, worstRatioName)
		for l, x := range byLang {
			if x[0] > 1e6 {
				fmt.Printf("   %-12q %7.1f MB %6.1f MB/s\n", l, x[0]/1e6, x[0]/1e6/x[1])
			}
		}
	}
}
