package chunk

import (
	"fmt"
	"io/fs"
	"os"
	"path/filepath"
	"strings"
	"testing"
)

func TestZZAgree(t *testing.T) {
	dirs := os.Getenv("ZZAGREE")
	if dirs == "" {
		t.Skip()
	}
	for _, dir := range strings.Fields(dirs) {
		var ts, same, symOnly, files int
		filepath.WalkDir(dir, func(p string, d fs.DirEntry, err error) error {
			if err != nil || d.IsDir() || !d.Type().IsRegular() {
				return nil
			}
			l := Language(p)
			if !hasGrammar(l) {
				return nil
			}
			b, _ := os.ReadFile(p)
			if len(b) > 1<<20 {
				return nil
			}
			files++
			a := splitWith(p, b, 1<<30, 1)
			h := heuristicChunks(p, b, 1<<30, 1)
			hs := map[string]bool{}
			hsym := map[string]bool{}
			for _, c := range h {
				hs[fmt.Sprint(c.StartLine, c.Symbol)] = true
				hsym[c.Symbol] = true
			}
			miss := 0
			for _, c := range a {
				if c.Symbol == "" {
					continue
				}
				ts++
				if hs[fmt.Sprint(c.StartLine, c.Symbol)] {
					same++
				} else if hsym[c.Symbol] {
					symOnly++
				} else {
					miss++
				}
			}
			if miss > 300 {
				fmt.Println("  miss", miss, p)
			}
			return nil
		})
		fmt.Printf("%s: %d files, %d named units by tree-sitter, heuristics: %.1f%% same start line and symbol, %.1f%% same symbol elsewhere\n", dir, files, ts, 100*float64(same)/float64(ts), 100*float64(symOnly)/float64(ts))
	}
}
