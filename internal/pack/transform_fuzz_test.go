package pack

import (
	"go/scanner"
	"go/token"
	"os"
	"path/filepath"
	"regexp"
	"slices"
	"strconv"
	"strings"
	"testing"
)

// FuzzTransform checks the transforms on any input: with line numbers
// alone, each line is its number (consecutive from the first) and the
// line as it was; with comments removed from Go source, the source scans
// to the same tokens but the comments (so no code is lost or joined), and
// with line numbers too, every line kept is numbered by its line in the
// input.
func FuzzTransform(f *testing.F) {
	files, _ := filepath.Glob("../chunk/testdata/src/*.go")
	if len(files) == 0 {
		f.Fatal("no Go files in ../chunk/testdata/src")
	}
	for _, file := range files {
		src, err := os.ReadFile(file)
		if err != nil {
			f.Fatal(err)
		}
		f.Add(string(src), uint16(1))
	}
	f.Add("package a\nvar x = 1 /* a\n b */ + 2 // c\n\n// d\n", uint16(120))
	f.Add("a\r\n// b\r\n\r\nc", uint16(7))
	f.Fuzz(func(t *testing.T, text string, first uint16) {
		start := int(first)%1000 + 1
		numbered, _ := (&Transform{LineNumbers: true}).apply("a.go", start, text)
		want := strings.SplitAfter(text, "\n")
		if want[len(want)-1] == "" {
			want = want[:len(want)-1]
		}
		got := strings.SplitAfter(numbered, "\n")
		if got[len(got)-1] == "" {
			got = got[:len(got)-1]
		}
		if len(got) != len(want) {
			t.Fatalf("%d lines numbered, %d in the text", len(got), len(want))
		}
		for i, line := range got {
			n, rest, ok := cutNumber(line)
			if !ok || n != start+i || rest != want[i] {
				t.Fatalf("line %d: %q, want %d: %q", i+1, line, start+i, want[i])
			}
		}

		stripped, _ := (&Transform{RemoveComments: true}).apply("a.go", 1, text)
		if a, b := goCode(text), goCode(stripped); !slices.Equal(a, b) {
			t.Fatalf("tokens differ once the comments are out:\n%q\n%q\n%q", stripped, a, b)
		}
		both, _ := (&Transform{RemoveComments: true, LineNumbers: true}).apply("a.go", start, text)
		lines := strings.SplitAfter(text, "\n")
		prev := start - 1
		for _, line := range strings.SplitAfter(both, "\n") {
			if line == "" {
				continue
			}
			n, _, ok := cutNumber(line)
			if !ok || n <= prev || n-start >= len(lines) {
				t.Fatalf("line %q after %d", line, prev)
			}
			prev = n
		}
	})
}

var numberPrefix = regexp.MustCompile(`^ *([0-9]+): `)

// cutNumber splits a numbered line into its number and the rest.
func cutNumber(line string) (int, string, bool) {
	m := numberPrefix.FindStringSubmatch(line)
	if m == nil {
		return 0, "", false
	}
	n, err := strconv.Atoi(m[1])
	return n, line[len(m[0]):], err == nil
}

// goCode is the tokens of src as go/scanner reads them, but its comments
// that are not directives.
func goCode(src string) []string {
	var s scanner.Scanner
	fset := token.NewFileSet()
	b := []byte(src)
	file := fset.AddFile("", fset.Base(), len(b))
	s.Init(file, b, nil, scanner.ScanComments)
	var out []string
	for {
		_, tok, lit := s.Scan()
		if tok == token.EOF {
			return out
		}
		if tok == token.COMMENT && !strings.HasPrefix(lit, "//go:") && !strings.HasPrefix(lit, "//line ") && !strings.HasPrefix(lit, "// +build") && !strings.HasPrefix(lit, "/*line ") {
			continue
		}
		if tok == token.SEMICOLON && lit == "\n" {
			lit = "newline"
		}
		out = append(out, tok.String()+" "+lit)
	}
}
