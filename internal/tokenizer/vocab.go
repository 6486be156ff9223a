package tokenizer

import (
	_ "embed"
	"encoding/binary"
	"fmt"
	"math/bits"
)

// The vocabularies are generated from the reference library,
// github.com/tiktoken-go/tokenizer, which ctxpack links only in tests. See
// internal/genvocab for the file format.
//
//go:generate go run ./internal/genvocab -dir vocab

//go:embed vocab/o200k_base.bpe
var o200kFile string

//go:embed vocab/cl100k_base.bpe
var cl100kFile string

// vocabMagic starts every vocabulary file.
const vocabMagic = "ctxbpe1\n"

// noRank is the rank of a byte string that is not a token.
const noRank = -1

// vocab maps byte strings to their BPE ranks (which are also the token ids)
// and back. It is read-only once built.
type vocab struct {
	blob  string   // the tokens' bytes, concatenated in rank order
	start []uint32 // token r is blob[start[r]:start[r+1]]
	// pair holds the rank of every two-byte token, indexed by
	// first<<8 | second, and noRank for the other pairs of bytes. Most
	// lookups during a merge are of two bytes.
	pair []int32
	// slots is an open-addressing hash table with linear probing, keyed
	// by a token's bytes. Its length is a power of two, at most half full.
	slots  []slot
	shift  uint // 64 - log2(len(slots)): a hash's top bits pick the home slot
	maxLen int  // the length of the longest token
}

// slot is one entry of vocab.slots. A token of up to 8 bytes is compared
// with head and size alone; a longer one also with its bytes in blob.
type slot struct {
	head uint64 // the token's first 8 bytes, little-endian, zero padded
	size uint32 // the token's length; 0 marks an empty slot
	rank int32
}

// parseVocab builds a vocab from a vocabulary file. The vocab keeps
// references into data, which must not change.
func parseVocab(name, data string) (*vocab, error) {
	if len(data) < len(vocabMagic)+4 || data[:len(vocabMagic)] != vocabMagic {
		return nil, fmt.Errorf("tokenizer: %s: not a vocabulary file", name)
	}
	data = data[len(vocabMagic):]
	n := int(binary.LittleEndian.Uint32([]byte(data[:4])))
	data = data[4:]
	if n < 256 || n > len(data) {
		return nil, fmt.Errorf("tokenizer: %s: bad token count %d", name, n)
	}
	lens := make([]int, n)
	for r := range n {
		if lens[r] = int(data[r]); lens[r] == 0 {
			return nil, fmt.Errorf("tokenizer: %s: token %d is empty", name, r)
		}
	}
	v, err := buildVocab(name, lens, data[n:], false)
	if err != nil {
		return nil, err
	}
	for b := range 256 {
		if v.rank(string([]byte{byte(b)})) == noRank {
			return nil, fmt.Errorf("tokenizer: %s: byte %#02x is not a token", name, b)
		}
	}
	return v, nil
}

// buildVocab builds a vocab from the tokens' lengths, in rank order, and
// their bytes, concatenated. With allowEmpty, a token of length 0 is a rank
// that no byte string has (an added token that the encoder never makes).
func buildVocab(name string, lens []int, blob string, allowEmpty bool) (*vocab, error) {
	n := len(lens)
	v := &vocab{
		blob:  blob,
		start: make([]uint32, n+1),
		pair:  make([]int32, 1<<16),
	}
	for i := range v.pair {
		v.pair[i] = noRank
	}
	size := 1 << bits.Len(uint(2*n-1)) // a power of two ≥ 2n
	v.slots = make([]slot, size)
	v.shift = uint(64 - bits.TrailingZeros(uint(size)))
	mask := uint64(size - 1)

	off := 0
	for r := range n {
		l := lens[r]
		if l == 0 && !allowEmpty || off+l > len(blob) {
			return nil, fmt.Errorf("tokenizer: %s: token %d overruns the file", name, r)
		}
		v.start[r] = uint32(off)
		tok := blob[off : off+l]
		off += l
		if l == 0 {
			continue
		}
		v.maxLen = max(v.maxLen, l)
		if l == 2 {
			v.pair[int(tok[0])<<8|int(tok[1])] = int32(r)
		}
		head := loadHead(tok)
		i := hashKey(head, tok) >> v.shift
		for ; v.slots[i].size != 0; i = (i + 1) & mask {
			if v.slots[i].head == head && v.slots[i].size == uint32(l) && v.token(v.slots[i].rank) == tok {
				return nil, fmt.Errorf("tokenizer: %s: token %d repeats token %d", name, r, v.slots[i].rank)
			}
		}
		v.slots[i] = slot{head: head, size: uint32(l), rank: int32(r)}
	}
	if off != len(blob) {
		return nil, fmt.Errorf("tokenizer: %s: %d bytes after the last token", name, len(blob)-off)
	}
	v.start[n] = uint32(off)
	return v, nil
}

// size returns the number of tokens.
func (v *vocab) size() int { return len(v.start) - 1 }

// token returns the bytes of the token with rank r.
func (v *vocab) token(r int32) string { return v.blob[v.start[r]:v.start[r+1]] }

// rank returns the rank of the token s, or noRank if s is not a token.
func (v *vocab) rank(s string) int32 {
	if len(s) > v.maxLen || len(s) == 0 {
		return noRank
	}
	head := loadHead(s)
	if len(s) <= 8 {
		return v.short(head, len(s))
	}
	mask := uint64(len(v.slots) - 1)
	for i := hashKey(head, s) >> v.shift; ; i = (i + 1) & mask {
		sl := &v.slots[i]
		if sl.size == uint32(len(s)) && sl.head == head && v.blob[v.start[sl.rank]+8:v.start[sl.rank+1]] == s[8:] {
			return sl.rank
		} else if sl.size == 0 {
			return noRank
		}
	}
}

// rankIn returns the rank of s[i:j], 0 <= i < j <= len(s), or noRank. It
// is rank, but reads a short key with one load when s has 8 bytes at i.
func (v *vocab) rankIn(s string, i, j int) int32 {
	if n := j - i; n <= 8 && i+8 <= len(s) {
		return v.short(load64(s[i:])&(^uint64(0)>>(64-8*uint(n))), n)
	}
	return v.rank(s[i:j])
}

// short returns the rank of the token of n <= 8 bytes whose loadHead is
// head, or noRank.
func (v *vocab) short(head uint64, n int) int32 {
	mask := uint64(len(v.slots) - 1)
	for i := (head ^ uint64(n)<<59) * hashMul >> v.shift; ; i = (i + 1) & mask {
		sl := &v.slots[i]
		if sl.head == head && sl.size == uint32(n) {
			return sl.rank
		} else if sl.size == 0 {
			return noRank
		}
	}
}

// loadHead returns the first 8 bytes of s, little-endian, zero padded.
// Short strings are read with two loads that may overlap.
func loadHead(s string) uint64 {
	switch n := len(s); {
	case n >= 8:
		return load64(s)
	case n >= 4:
		return uint64(load32(s)) | uint64(load32(s[n-4:]))<<(8*(n-4))
	case n >= 2:
		return uint64(load16(s)) | uint64(load16(s[n-2:]))<<(8*(n-2))
	case n == 1:
		return uint64(s[0])
	}
	return 0
}

func load16(s string) uint16 {
	_ = s[1]
	return uint16(s[0]) | uint16(s[1])<<8
}

func load32(s string) uint32 {
	_ = s[3]
	return uint32(s[0]) | uint32(s[1])<<8 | uint32(s[2])<<16 | uint32(s[3])<<24
}

// load64 returns the first 8 bytes of s, little-endian.
func load64(s string) uint64 {
	_ = s[7]
	return uint64(s[0]) | uint64(s[1])<<8 | uint64(s[2])<<16 | uint64(s[3])<<24 |
		uint64(s[4])<<32 | uint64(s[5])<<40 | uint64(s[6])<<48 | uint64(s[7])<<56
}

// hashMul is the odd multiplier of the hash, 2^64 divided by the golden
// ratio.
const hashMul = 0x9E3779B97F4A7C15

// hashKey hashes a key given its head (loadHead(s)) and its bytes. The
// table uses the top bits of the result. For keys of up to 8 bytes it is
// the computation in vocab.short.
func hashKey(head uint64, s string) uint64 {
	h := (head ^ uint64(len(s))<<59) * hashMul
	for s = s[min(len(s), 8):]; len(s) > 0; s = s[min(len(s), 8):] {
		h = (h ^ h>>29 ^ loadHead(s)) * hashMul
	}
	return h
}
