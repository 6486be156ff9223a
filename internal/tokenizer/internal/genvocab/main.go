// Command genvocab writes the BPE vocabularies that package tokenizer embeds.
// It takes every rank from the reference library,
// github.com/tiktoken-go/tokenizer, by decoding each token id on its own into
// raw bytes, so ctxpack needs neither the network nor the library at run time.
//
// Run it through go generate from internal/tokenizer:
//
//	go generate ./internal/tokenizer
//
// which runs
//
//	go run ./internal/genvocab -dir vocab
//
// and writes vocab/o200k_base.bpe and vocab/cl100k_base.bpe. The format
// (little-endian) is:
//
//	magic  "ctxbpe1\n"
//	n      uint32, the number of tokens; their ranks are 0..n-1
//	lens   n bytes, the length of each token in rank order (1..255)
//	bytes  the tokens' bytes, concatenated in rank order
package main

import (
	"bytes"
	"encoding/binary"
	"flag"
	"fmt"
	"os"
	"path/filepath"

	"github.com/tiktoken-go/tokenizer/codec"
)

// magic starts every vocabulary file; the loader checks it.
const magic = "ctxbpe1\n"

func main() {
	dir := flag.String("dir", "vocab", "directory to write the vocabulary files to")
	flag.Parse()
	encodings := []struct {
		name  string
		codec *codec.Codec
	}{
		{"o200k_base", codec.NewO200kBase()},
		{"cl100k_base", codec.NewCl100kBase()},
	}
	for _, e := range encodings {
		data, n, err := build(e.codec)
		if err != nil {
			fmt.Fprintf(os.Stderr, "genvocab: %s: %v\n", e.name, err)
			os.Exit(1)
		}
		path := filepath.Join(*dir, e.name+".bpe")
		if err := os.WriteFile(path, data, 0o644); err != nil {
			fmt.Fprintf(os.Stderr, "genvocab: %v\n", err)
			os.Exit(1)
		}
		fmt.Printf("genvocab: %s: %d tokens, %d bytes\n", path, n, len(data))
	}
}

// build decodes the ids 0, 1, 2, … until the first one that does not decode,
// checks that no larger id below the special tokens decodes either (the ranks
// are dense), and returns the encoded file and the number of tokens.
func build(c *codec.Codec) ([]byte, int, error) {
	c.SetErrorMode(codec.ErrorModeNone) // raw bytes, even for partial UTF-8
	var tokens []string
	for id := uint(0); ; id++ {
		tok, err := c.Decode([]uint{id})
		if err != nil {
			break
		}
		tokens = append(tokens, tok)
	}
	n := len(tokens)
	if n < 256 {
		return nil, 0, fmt.Errorf("only %d tokens decode", n)
	}
	for id := uint(n); id < uint(n)+1<<16; id++ {
		if _, err := c.Decode([]uint{id}); err == nil {
			return nil, 0, fmt.Errorf("ranks are not dense: %d decodes but %d does not", id, n)
		}
	}
	seen := make(map[string]int, n)
	var lens, blob bytes.Buffer
	for id, tok := range tokens {
		if len(tok) == 0 || len(tok) > 255 {
			return nil, 0, fmt.Errorf("token %d has length %d", id, len(tok))
		}
		if prev, ok := seen[tok]; ok {
			return nil, 0, fmt.Errorf("tokens %d and %d are both %q", prev, id, tok)
		}
		seen[tok] = id
		lens.WriteByte(byte(len(tok)))
		blob.WriteString(tok)
	}
	for b := range 256 {
		if _, ok := seen[string([]byte{byte(b)})]; !ok {
			return nil, 0, fmt.Errorf("byte %#02x is not a token", b)
		}
	}
	var out bytes.Buffer
	out.WriteString(magic)
	out.Write(binary.LittleEndian.AppendUint32(nil, uint32(n)))
	out.Write(lens.Bytes())
	out.Write(blob.Bytes())
	return out.Bytes(), n, nil
}
