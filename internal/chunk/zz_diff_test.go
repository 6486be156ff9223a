package chunk

import (
	"fmt"
	"os"
	"testing"
)

func TestZZDiff(t *testing.T) {
	f := os.Getenv("ZZDIFF")
	if f == "" {
		t.Skip()
	}
	b, _ := os.ReadFile(f)
	a := lines(splitWith(f, b, 1<<30, 1))
	h := lines(heuristicChunks(f, b, 1<<30, 1))
	for i := 0; i < len(a) || i < len(h); i++ {
		var x, y string
		if i < len(a) {
			x = a[i]
		}
		if i < len(h) {
			y = h[i]
		}
		m := " "
		if x != y {
			m = "*"
		}
		fmt.Printf("%s %-45s | %s\n", m, x, y)
	}
}
