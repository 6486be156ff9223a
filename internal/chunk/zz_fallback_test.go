package chunk

import (
	"fmt"
	"io/fs"
	"os"
	"path/filepath"
	"strings"
	"testing"
)

func TestZZFallback(t *testing.T) {
	dirs := os.Getenv("ZZFALLBACK")
	if dirs == "" {
		t.Skip()
	}
	for _, dir := range strings.Fields(dirs) {
		n, bad := 0, 0
		filepath.WalkDir(dir, func(p string, d fs.DirEntry, err error) error {
			if err != nil || d.IsDir() || !d.Type().IsRegular() {
				return nil
			}
			l := Language(p)
			if !hasGrammar(l) {
				return nil
			}
			b, _ := os.ReadFile(p)
			if len(b) > maxSyntaxBytes {
				return nil
			}
			if l == "c" && looksLikeCPP(p, b) {
				l = "cpp"
			}
			n++
			if _, ok := treeSitterOutline(l, b); !ok {
				bad++
			}
			return nil
		})
		fmt.Printf("%s: %d of %d files fall back to the heuristics\n", dir, bad, n)
	}
}
