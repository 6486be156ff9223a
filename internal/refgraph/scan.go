package refgraph

import (
	"slices"
	"strings"

	"github.com/ctxpack/ctxpack/internal/chunk"
)

// identByte marks the bytes an identifier is made of: ASCII letters,
// digits, '_', and every byte of a multi-byte UTF-8 character (so that
// identifiers with non-ASCII letters stay whole). identStart is the same
// without the digits.
var identByte, identStart = func() (b, s [256]bool) {
	for c := range 256 {
		letter := c == '_' || c >= 'a' && c <= 'z' || c >= 'A' && c <= 'Z' || c >= 0x80
		s[c] = letter
		b[c] = letter || c >= '0' && c <= '9'
	}
	return b, s
}()

// family is the group of languages whose files can refer to each other's
// definitions: a use in a Go file is matched with definitions in Go files
// only, so that a C global named count does not collect every Go file
// that has a local count. Files of no family (documentation, data,
// languages without definitions here) define nothing and their uses match
// definitions of any family.
func family(path string) string {
	switch lang := chunk.Language(path); lang {
	case "go", "python", "rust", "swift", "csharp":
		return lang
	case "javascript", "jsx", "typescript", "tsx":
		return "js"
	case "c", "cpp":
		return "c"
	case "java", "kotlin", "scala":
		return "jvm"
	}
	return ""
}

// definitions returns the distinct names a file of a family defines, at
// least MinIdentLen bytes long, sorted: the names of the units chunk.Split
// finds (the last part of "(*T).M", "Invoice.total" or "Money::new"),
// found by a lexical scan, goDefs for Go and otherDefs for the rest.
// chunk.Split itself parses: go/parser reads Go at 65 MB/s and tree-sitter
// other languages at about 5 MB/s on the 2-core machine of the
// measurements, which on Go's tree alone is more than the whole budget of
// a pack's ranking.
func definitions(fam, text string) []string {
	var names []string
	add := func(name string) {
		if len(name) >= MinIdentLen {
			names = append(names, name)
		}
	}
	switch fam {
	case "":
		return nil
	case "go":
		goDefs(text, func(name string) {
			if !goPredeclared[name] {
				add(name)
			}
		})
	default:
		otherDefs(fam, text, add)
	}
	return sortedSet(names)
}

func sortedSet(s []string) []string {
	slices.Sort(s)
	return slices.Clip(slices.Compact(s))
}

// quoted returns the index after the string or rune literal that starts
// at src[i] with quote q; an unterminated literal ends at the line's end.
func quoted(src string, i int, q byte) int {
	for j := i + 1; j < len(src); j++ {
		switch src[j] {
		case '\\':
			j++
		case q:
			return j + 1
		case '\n':
			return j
		}
	}
	return len(src)
}

// syntax says which bytes of a file are code, for finding uses: in
// code, words in comments and strings ("All rights reserved", "DO NOT
// EDIT") are not references.
type syntax int8

const (
	plain syntax = iota // every word counts: documentation, data
	cLike               // // and /* */ comments, "", '' and `` literals
	hashy               // # comments, '', "" and triple-quoted literals
)

func syntaxOf(fam string) syntax {
	switch fam {
	case "":
		return plain
	case "python":
		return hashy
	}
	return cLike
}

// countUses adds to counts[id] the number of times the text has each
// identifier of ids outside comments and literals (for its syntax), and
// appends to touched every id counted for the first time (counts[id] was
// 0).
func countUses(text string, syn syntax, ids map[string]int32, counts []int32, touched []int32) []int32 {
	for i, n := 0, len(text); i < n; {
		c := text[i]
		if !identByte[c] {
			if syn != plain && mayOpen[c] {
				i = skipNonCode(text, i, syn)
			} else {
				i++
			}
			continue
		}
		j := i + 1
		for j < n && identByte[text[j]] {
			j++
		}
		if identStart[c] && j-i >= MinIdentLen {
			if id, ok := ids[text[i:j]]; ok {
				if counts[id] == 0 {
					touched = append(touched, id)
				}
				counts[id]++
			}
		}
		i = j
	}
	return touched
}

// mayOpen marks the bytes that may start a comment or a literal.
var mayOpen = func() (b [256]bool) {
	for _, c := range []byte("\"'`/#") {
		b[c] = true
	}
	return b
}()

// skipNonCode returns the index after the comment or literal that starts
// at text[i], or i+1 when none does.
func skipNonCode(text string, i int, syn syntax) int {
	c := text[i]
	switch {
	case c == '"' || c == '\'':
		if syn == hashy && i+2 < len(text) && text[i+1] == c && text[i+2] == c {
			q := `"""`
			if c == '\'' {
				q = `'''`
			}
			if j := strings.Index(text[i+3:], q); j >= 0 {
				return i + 3 + j + 3
			}
			return len(text)
		}
		return quoted(text, i, c)
	case syn == hashy && c == '#':
		if j := strings.IndexByte(text[i:], '\n'); j >= 0 {
			return i + j
		}
		return len(text)
	case syn == cLike && c == '`':
		if j := strings.IndexByte(text[i+1:], '`'); j >= 0 {
			return i + 1 + j + 1
		}
		return len(text)
	case syn == cLike && c == '/' && i+1 < len(text) && text[i+1] == '/':
		if j := strings.IndexByte(text[i:], '\n'); j >= 0 {
			return i + j
		}
		return len(text)
	case syn == cLike && c == '/' && i+1 < len(text) && text[i+1] == '*':
		if j := strings.Index(text[i+2:], "*/"); j >= 0 {
			return i + 2 + j + 2
		}
		return len(text)
	}
	return i + 1
}
