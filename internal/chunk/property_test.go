package chunk

import (
	"bytes"
	"fmt"
	"io/fs"
	"os"
	"path/filepath"
	"runtime"
	"slices"
	"strings"
	"testing"
)

// kinds is the closed vocabulary of Chunk.Kind.
var kinds = []string{KindPreamble, KindFunction, KindMethod, KindClass, KindType, KindInterface, KindEnum,
	KindImpl, KindModule, KindMacro, KindVariable, KindConstant, KindSection, KindBlock}

// tilingError returns what is wrong with chunks as a split of src (the
// package's contracts), or "".
func tilingError(src []byte, chunks []Chunk, maxBytes int) string {
	if len(src) == 0 {
		if len(chunks) != 0 {
			return fmt.Sprintf("%d chunks for empty input", len(chunks))
		}
		return ""
	}
	if len(chunks) == 0 {
		return "no chunks"
	}
	pos, line := 0, 1
	for i, c := range chunks {
		switch {
		case c.Seq != i:
			return fmt.Sprintf("chunk %d has Seq %d", i, c.Seq)
		case c.Start != pos:
			return fmt.Sprintf("chunk %d starts at %d, want %d (gap or overlap)", i, c.Start, pos)
		case c.End <= c.Start || c.End > len(src):
			return fmt.Sprintf("chunk %d is [%d, %d) of %d bytes", i, c.Start, c.End, len(src))
		case c.End-c.Start > maxBytes:
			return fmt.Sprintf("chunk %d has %d bytes, more than %d", i, c.End-c.Start, maxBytes)
		case !slices.Contains(kinds, c.Kind):
			return fmt.Sprintf("chunk %d has kind %q", i, c.Kind)
		case c.StartLine != line:
			return fmt.Sprintf("chunk %d starts on line %d, want %d", i, c.StartLine, line)
		}
		end := line + bytes.Count(src[c.Start:c.End-1], []byte{'\n'})
		if c.EndLine != end {
			return fmt.Sprintf("chunk %d ends on line %d, want %d", i, c.EndLine, end)
		}
		line = end
		if src[c.End-1] == '\n' {
			line++
		}
		pos = c.End
	}
	if pos != len(src) {
		return fmt.Sprintf("chunks end at %d of %d bytes", pos, len(src))
	}
	return ""
}

// checkSplit checks Split's contracts on one input: tiling (and, with
// again, determinism), the same for the heuristic front end, and that
// Levels keeps its own.
func checkSplit(t *testing.T, path string, src []byte, again bool) {
	t.Helper()
	chunks := Split(path, src)
	if e := tilingError(src, chunks, MaxChunkBytes); e != "" {
		t.Fatalf("%s: %s", path, e)
	}
	if again && !slices.Equal(chunks, Split(path, src)) {
		t.Fatalf("%s: two splits differ", path)
	}
	h := heuristicOutline(Language(path), src)
	tl := tiler{src: src, max: MaxChunkBytes, min: MinChunkBytes}
	if e := tilingError(src, tl.chunks(h.units), MaxChunkBytes); e != "" {
		t.Fatalf("%s: heuristics: %s", path, e)
	}
	checkLevels(t, path, src, again)
}

// checkLevels checks that levels are shorter than the text and never
// hold the text's bytes out of order for their own (summary lines are
// whole lines of the text or signatures; only the length is checked).
func checkLevels(t *testing.T, path string, src []byte, again bool) {
	t.Helper()
	s, d := Levels(path, src)
	if len(s) >= len(src) && s != "" {
		t.Fatalf("%s: summary (%d bytes) not shorter than the text (%d)", path, len(s), len(src))
	}
	if len(d) >= len(src) && d != "" {
		t.Fatalf("%s: detailed (%d bytes) not shorter than the text (%d)", path, len(d), len(src))
	}
	if !again {
		return
	}
	if s2, d2 := Levels(path, src); s2 != s || d2 != d {
		t.Fatalf("%s: two Levels calls differ", path)
	}
}

// TestTilingGoroot checks the contracts on every file of
// $GOROOT/src/net/http.
func TestTilingGoroot(t *testing.T) {
	root := filepath.Join(runtime.GOROOT(), "src", "net", "http")
	n := 0
	err := filepath.WalkDir(root, func(p string, d fs.DirEntry, err error) error {
		if err != nil || d.IsDir() {
			return err
		}
		src, err := os.ReadFile(p)
		if err != nil {
			return err
		}
		n++
		checkSplit(t, p, src, true)
		return nil
	})
	if err != nil {
		t.Fatal(err)
	}
	if n < 100 {
		t.Fatalf("only %d files under %s", n, root)
	}
}

// TestTilingSamples checks the contracts on the samples in testdata/src,
// read as every language, and on inputs made to be awkward.
func TestTilingSamples(t *testing.T) {
	files, err := filepath.Glob("testdata/src/*")
	if err != nil {
		t.Fatal(err)
	}
	if len(files) == 0 {
		t.Fatal("no testdata/src files")
	}
	exts := []string{".go", ".py", ".js", ".ts", ".tsx", ".java", ".rs", ".c", ".cpp", ".h", ".cs", ".kt", ".md", ".txt"}
	for _, f := range files {
		src, err := os.ReadFile(f)
		if err != nil {
			t.Fatal(err)
		}
		checkSplit(t, f, src, true)
		for _, ext := range exts {
			checkSplit(t, f+ext, src, false)
			// Cut in the middle: unfinished code.
			checkSplit(t, f+ext, src[:len(src)/3+1], false)
		}
	}
	for name, src := range awkward() {
		e := exts
		if len(src) > MaxChunkBytes {
			// Parsing these with every grammar is slow (tree-sitter's error
			// recovery); they are here for the tiler.
			e = []string{".py", ".js", ".rs", ".cpp", ".md", ".txt"}
		}
		for _, ext := range e {
			checkSplit(t, name+ext, src, false)
		}
	}
}

// awkward returns inputs that have broken chunkers before or might.
func awkward() map[string][]byte {
	long := strings.Repeat("x", 3*MaxChunkBytes+7)
	return map[string][]byte{
		"empty":        {},
		"newline":      []byte("\n"),
		"blank":        []byte("\n\n  \n\t\n"),
		"crlf":         []byte("package a\r\n\r\nfunc f() {\r\n}\r\n"),
		"nul":          []byte("package a\x00\nfunc f() {}\x00\x00"),
		"invalid":      []byte("package a\n\xff\xfe func \xc3( {\n\xe2\x82"),
		"minified":     []byte("function a(){return 1}function b(){return 2}var c={d:1};" + strings.Repeat("a.b(c);", 3000)),
		"one-long":     []byte(long),
		"long-utf8":    []byte(strings.Repeat("é€😀", MaxChunkBytes/4)),
		"unclosed":     []byte("class A {\n  void f() {\n    if (x) {\n" + strings.Repeat("  int y;\n", 1100)),
		"closers":      []byte("}}}\n)))\n]]]\nfn f() {}\n}}}"),
		"deep":         []byte(strings.Repeat("{[(", 1000) + strings.Repeat(")]}", 1000)),
		"namespaces":   []byte(strings.Repeat("namespace a {\n", 50) + "int f() { return 1; }\n" + strings.Repeat("}\n", 50)),
		"quotes":       []byte("'\"`\n/* unterminated\n\"\"\"\n'''\nr#\"\n"),
		"headings":     []byte("# A\n```\n# not\n```\n## B\n~~~\n## not\n" + strings.Repeat("text\n", 10)),
		"comment-only": []byte("// a\n// b\n\n/* c */\n"),
		"big-function": []byte("package a\n\nfunc f() {\n" + strings.Repeat("\tx := 1\n\n", 1500) + "}\n"),
		"python-tabs":  []byte("class A:\n\tdef f(self):\n\t\treturn 1\n\n\tdef g(self): pass\n"),
	}
}
