package secrets

import (
	"bytes"
	"fmt"
	"io/fs"
	"os"
	"path/filepath"
	"runtime"
	"strings"
	"testing"
)

// treeFiles reads the text files under root the way the file walk lists
// them: regular, at most 1 MiB, no NUL in the first 8000 bytes, .git
// left out.
func treeFiles(tb testing.TB, root string) (paths []string, texts []string) {
	tb.Helper()
	err := filepath.WalkDir(root, func(p string, d fs.DirEntry, err error) error {
		if err != nil {
			return err
		}
		if d.IsDir() {
			if d.Name() == ".git" {
				return filepath.SkipDir
			}
			return nil
		}
		if !d.Type().IsRegular() {
			return nil
		}
		info, err := d.Info()
		if err != nil || info.Size() > 1<<20 {
			return nil
		}
		b, err := os.ReadFile(p)
		if err != nil {
			return nil
		}
		if bytes.IndexByte(b[:min(len(b), 8000)], 0) >= 0 {
			return nil
		}
		rel, _ := filepath.Rel(root, p)
		paths = append(paths, filepath.ToSlash(rel))
		texts = append(texts, string(b))
		return nil
	})
	if err != nil {
		tb.Fatal(err)
	}
	return paths, texts
}

// TestTreeFindings lists every finding in the tree CTXPACK_SECRETS_TREE
// names, for review: path:line rule and the value's first and last
// characters, never more. It is how docs/security.md's false-positive
// figures are made; without the variable it does nothing.
func TestTreeFindings(t *testing.T) {
	root := os.Getenv("CTXPACK_SECRETS_TREE")
	if root == "" {
		t.Skip("set CTXPACK_SECRETS_TREE to a directory to list its findings")
	}
	paths, texts := treeFiles(t, root)
	s := &Scanner{}
	n, files := 0, 0
	byRule := map[string]int{}
	for i, text := range texts {
		fs := s.Scan(paths[i], text)
		if len(fs) > 0 {
			files++
		}
		for _, f := range fs {
			n++
			byRule[f.Rule]++
			v := text[f.Start:f.End]
			if len(v) > 8 {
				v = v[:4] + "…" + v[len(v)-2:]
			}
			line := text[strings.LastIndexByte(text[:f.Start], '\n')+1 : f.Start]
			if len(line) > 50 {
				line = line[len(line)-50:]
			}
			fmt.Printf("%s:%d\t%s\t%q\t%s\n", paths[i], f.Line, f.Rule, strings.TrimSpace(line), v)
		}
	}
	fmt.Printf("files %d, findings %d in %d files, by rule %v (GOMAXPROCS %d)\n", len(texts), n, files, byRule, runtime.GOMAXPROCS(0))
}
