package chunk

import (
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"testing"
)

func TestZZUnits(t *testing.T) {
	if os.Getenv("ZZUNITS") == "" {
		t.Skip()
	}
	files, _ := filepath.Glob("testdata/src/*")
	for _, f := range files {
		src, _ := os.ReadFile(f)
		var a, b []string
		for _, c := range splitWith(f, src, maxFromEnv(), 1) {
			a = append(a, fmt.Sprintf("%q,", fmt.Sprintf("%d-%d %s %s", c.StartLine, c.EndLine, c.Kind, c.Symbol)))
		}
		o := heuristicOutline(Language(f), src)
		tl := tiler{src: src, max: maxFromEnv(), min: 1}
		for _, c := range tl.chunks(o.units) {
			b = append(b, fmt.Sprintf("%q,", fmt.Sprintf("%d-%d %s %s", c.StartLine, c.EndLine, c.Kind, c.Symbol)))
		}
		fmt.Printf("==== %s\n%s\n", filepath.Base(f), strings.Join(a, "\n"))
		if strings.Join(a, "") != strings.Join(b, "") {
			fmt.Printf("---- heuristic\n%s\n", strings.Join(b, "\n"))
		}
	}
}

func maxFromEnv() int {
	var n int
	fmt.Sscan(os.Getenv("ZZMAX"), &n)
	if n == 0 {
		return MaxChunkBytes
	}
	return n
}
