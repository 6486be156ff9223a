package tokenizer

import (
	"fmt"
	"strings"
	"unicode/utf8"
)

// Tokenizer counts the tokens of a text in one encoding.
type Tokenizer interface {
	// Name is the encoding's name, for example "o200k_base".
	Name() string
	// Count returns the number of tokens in text.
	Count(text string) int
	// Truncate returns the longest prefix of text that ends on a token
	// boundary, does not split a UTF-8 character and has at most max tokens.
	// The boundaries considered are where the first max tokens of text end;
	// the prefix is counted again on its own, as its last tokens can differ.
	Truncate(text string, max int) string
}

// Default is the name of the tokenizer used when none is chosen.
const Default = "o200k_base"

// Names lists the available tokenizers in sorted order.
func Names() []string {
	return []string{"approx", "cl100k_base", "deepseek_v3", "gemma3", "llama3", "o200k_base", "qwen3"}
}

// Bundled lists, in sorted order, the tokenizers Get gives without any
// file of the user's: all but the families whose vocabulary the user
// supplies (llama3, gemma3; see hf.go).
func Bundled() []string {
	var out []string
	for _, n := range Names() {
		if f := familyNamed(n); f == nil || f.file != nil {
			out = append(out, n)
		}
	}
	return out
}

// familyNamed returns the open-weight family of that name; nil if none is.
func familyNamed(name string) *family {
	for _, f := range families {
		if f.name == name {
			return f
		}
	}
	return nil
}

// Get returns the tokenizer with the given name. The BPE tables are loaded
// on first use and shared.
func Get(name string) (Tokenizer, error) {
	switch name {
	case "approx":
		return Approx{}, nil
	case "cl100k_base":
		return load(cl100k)
	case "o200k_base", "":
		return load(o200k)
	}
	for i, f := range families {
		if f.name == name {
			return loadFamily(i)
		}
	}
	return nil, fmt.Errorf("tokenizer: unknown tokenizer %q (valid: %s)", name, strings.Join(Names(), ", "))
}

// load returns the encoding that get loads, or its error.
func load(get func() (*bpe, error)) (Tokenizer, error) {
	e, err := get()
	if err != nil {
		return nil, err
	}
	return e, nil
}

// Approx is the seeds' estimate: (bytes+3)/4 tokens. On source code it
// undercounts real BPE encodings by about 1.5× (2.7 bytes per token on Go's
// source tree), so a budget kept with it is a promise about an estimate.
type Approx struct{}

// Name returns "approx".
func (Approx) Name() string { return "approx" }

// Count returns (len+3)/4 of the repaired text.
func (Approx) Count(text string) int {
	text = ToValidUTF8(text)
	return (len(text) + 3) / 4
}

// Truncate returns the longest prefix of at most 4*max bytes that does not
// split a UTF-8 character.
func (Approx) Truncate(text string, max int) string {
	text = ToValidUTF8(text)
	if max <= 0 {
		return ""
	}
	n := 4 * max
	if n >= len(text) {
		return text
	}
	for n > 0 && !utf8.RuneStart(text[n]) {
		n--
	}
	return text[:n]
}

// ToValidUTF8 returns text with every maximal ill-formed subsequence replaced
// by U+FFFD, following the WHATWG Encoding Standard's UTF-8 decoder (the
// decoding browsers, Node.js and Python's errors="replace" use). Valid text is
// returned unchanged without copying.
func ToValidUTF8(text string) string {
	if utf8.ValidString(text) {
		return text
	}
	var b strings.Builder
	b.Grow(len(text) + 8)
	for i := 0; i < len(text); {
		c := text[i]
		if c < utf8.RuneSelf {
			b.WriteByte(c)
			i++
			continue
		}
		r, size := utf8.DecodeRuneInString(text[i:])
		if r != utf8.RuneError || size > 1 {
			b.WriteString(text[i : i+size])
			i += size
			continue
		}
		// Invalid: skip the maximal subpart of a well-formed sequence.
		i += maximalSubpart(text[i:])
		b.WriteRune(utf8.RuneError)
	}
	return b.String()
}

// maximalSubpart returns the length (at least 1) of the longest prefix of s
// that starts a well-formed UTF-8 sequence but does not complete one, per the
// WHATWG decoder's lower and upper boundaries for the second byte.
func maximalSubpart(s string) int {
	c := s[0]
	var need int
	lo, hi := byte(0x80), byte(0xBF)
	switch {
	case c >= 0xC2 && c <= 0xDF:
		need = 1
	case c >= 0xE0 && c <= 0xEF:
		need = 2
		if c == 0xE0 {
			lo = 0xA0
		} else if c == 0xED {
			hi = 0x9F
		}
	case c >= 0xF0 && c <= 0xF4:
		need = 3
		if c == 0xF0 {
			lo = 0x90
		} else if c == 0xF4 {
			hi = 0x8F
		}
	default:
		return 1
	}
	n := 1
	for k := 0; k < need && n < len(s); k++ {
		b := s[n]
		if b < lo || b > hi {
			break
		}
		lo, hi = 0x80, 0xBF
		n++
	}
	return n
}
