package chunk

import (
	"bytes"
	"go/scanner"
	"go/token"
	"os"
	"path/filepath"
	"slices"
	"testing"
)

func TestComments(t *testing.T) {
	tests := []struct {
		path  string
		src   string
		want  []string // the comments' text
		known bool
	}{
		{"a.go", "package a // p\n/* b */ var s = \"//x\" + `/*y*/`\n//go:embed z\nvar r = '/' // c\n", []string{"// p", "/* b */", "// c"}, true},
		{"a.go", "package a\n/* open", []string{"/* open"}, true},
		{"a.py", "x = 'a#b'  # c\n\"\"\"#d\"\"\" # e\nf'{x}#' # g\n", []string{"# c", "# e", "# g"}, true},
		{"a.js", "a = b / c; // d\nx = /[/]\\//g; /* e */\ns = `${1}//`;\n", []string{"// d", "/* e */"}, true},
		{"a.rs", "/* a /* nested */ b */ let s = r#\"//\"#; // c\n", []string{"/* a /* nested */ b */", "// c"}, true},
		{"a.cpp", "#include <x> // i\nauto s = R\"(//)\";\n", []string{"// i"}, true},
		{"a.c", "#!weird\nint x; // c\n", []string{"// c"}, true},
		{"a.md", "# heading\n", nil, false},
		{"Makefile", "# c\n", nil, false},
	}
	for _, tt := range tests {
		spans, known := Comments(tt.path, []byte(tt.src))
		var got []string
		for _, s := range spans {
			got = append(got, tt.src[s[0]:s[1]])
		}
		if known != tt.known || !slices.Equal(got, tt.want) {
			t.Errorf("%s %q: got %q, %v; want %q, %v", tt.path, tt.src, got, known, tt.want, tt.known)
		}
	}
}

// commentExts are the languages FuzzComments reads its input as.
var commentExts = []string{".go", ".py", ".js", ".ts", ".java", ".rs", ".c", ".cpp", ".cs", ".kt", ".swift", ".scala"}

// FuzzComments checks, for any input read as any language, that the
// comment spans are in order, disjoint, within the input and each a
// comment by its first bytes; and for Go input, that the source with its
// comments taken out scans to the same tokens (comments aside): no code
// is taken for a comment, and no comment is left but directives.
func FuzzComments(f *testing.F) {
	files, _ := filepath.Glob("testdata/src/*")
	if len(files) == 0 {
		f.Fatal("no files in testdata/src")
	}
	for i, file := range files {
		src, err := os.ReadFile(file)
		if err != nil {
			f.Fatal(err)
		}
		f.Add(uint8(i), src)
	}
	f.Add(uint8(0), []byte("package a\nvar s = \"/*\" // x\n/* y */"))
	f.Fuzz(func(t *testing.T, lang uint8, src []byte) {
		path := "f" + commentExts[int(lang)%len(commentExts)]
		spans, known := Comments(path, src)
		if !known {
			t.Fatalf("%s: not known", path)
		}
		prev := 0
		for _, s := range spans {
			if s[0] < prev || s[1] <= s[0] || s[1] > len(src) {
				t.Fatalf("%s: span %v after %d in %d bytes", path, s, prev, len(src))
			}
			c := src[s[0]:s[1]]
			if !bytes.HasPrefix(c, []byte("//")) && !bytes.HasPrefix(c, []byte("/*")) && !bytes.HasPrefix(c, []byte("#")) {
				t.Fatalf("%s: span %v is %q, not a comment", path, s, c)
			}
			prev = s[1]
		}
		if path != "f.go" {
			return
		}
		var out []byte
		pos := 0
		for _, s := range spans {
			out = append(out, src[pos:s[0]]...)
			if bytes.IndexByte(src[s[0]:s[1]], '\n') >= 0 {
				out = append(out, '\n') // a comment over lines acts as a newline
			} else {
				out = append(out, ' ')
			}
			pos = s[1]
		}
		out = append(out, src[pos:]...)
		a, b := goTokens(src), goTokens(out)
		if !slices.Equal(a, b) {
			t.Fatalf("tokens differ once the comments are out:\n%q\n%q", a, b)
		}
	})
}

// goTokens are the tokens of src as go/scanner reads them, comments left
// out, positions left out.
func goTokens(src []byte) []string {
	var s scanner.Scanner
	fset := token.NewFileSet()
	file := fset.AddFile("", fset.Base(), len(src))
	errs := 0
	s.Init(file, src, func(token.Position, string) { errs++ }, scanner.ScanComments)
	var out []string
	for {
		_, tok, lit := s.Scan()
		if tok == token.EOF {
			break
		}
		if tok == token.COMMENT && !goDirective(lit) {
			continue
		}
		out = append(out, tok.String()+" "+lit)
	}
	return out
}
