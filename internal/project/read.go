package project

import (
	"bytes"
	"cmp"
	"crypto/sha256"
	"encoding/binary"
	"encoding/hex"
	"fmt"
	"hash"
	"io"
	"io/fs"
	"slices"
	"strings"
	"sync"
	"unicode/utf8"

	"github.com/ctxpack/ctxpack/internal/tokenizer"
)

// ReadText reads the file name from fsys as text. Invalid UTF-8 is repaired
// with tokenizer.ToValidUTF8 (each maximal ill-formed sequence becomes
// U+FFFD) and repaired reports whether that happened. Nothing else changes:
// CRLF line ends and a byte order mark are kept as they are.
//
// Only a regular file is read: a named pipe, a socket, a device or a
// directory is a *NotRegularError (see OpenRegular), so that a path
// naming one never blocks or reads without end.
//
// The file is read into the string directly: reading a file takes one
// allocation of its size.
func ReadText(fsys fs.FS, name string) (text string, repaired bool, err error) {
	return ReadTextLimit(fsys, name, 0)
}

// ReadTextLimit is ReadText refusing, when limit > 0, a file over limit
// bytes with a *TooLargeError, also one that grows past it while being
// read; no more than limit+1 bytes are read.
func ReadTextLimit(fsys fs.FS, name string, limit int64) (text string, repaired bool, err error) {
	var b strings.Builder
	if err := readInto(fsys, name, limit, &b); err != nil {
		return "", false, fmt.Errorf("project: read: %w", err)
	}
	text = b.String()
	if utf8.ValidString(text) {
		return text, false, nil
	}
	return tokenizer.ToValidUTF8(text), true, nil
}

// onlyReader hides a file's other methods (WriteTo), so that io.CopyBuffer
// reads it into the buffer given.
type onlyReader struct{ io.Reader }

// copyBufs are the buffers files are read through.
var copyBufs = sync.Pool{New: func() any { b := make([]byte, 32<<10); return &b }}

// CountLines counts lines as editors number them: a final line without a
// newline counts; the empty text has none.
func CountLines[T string | []byte](text T) int {
	var n int
	switch t := any(text).(type) {
	case string:
		n = strings.Count(t, "\n")
	case []byte:
		n = bytes.Count(t, []byte{'\n'})
	}
	if len(text) > 0 && text[len(text)-1] != '\n' {
		n++
	}
	return n
}

// ContentID returns the content id of text: "sha256:" and the lower-case hex
// SHA-256 of its bytes.
func ContentID(text string) string {
	h := sha256.New()
	hashString(h, text)
	return "sha256:" + hex.EncodeToString(h.Sum(nil))
}

// hashString writes text to h through a small buffer: h.Write([]byte(text))
// would copy the whole text first.
func hashString(h hash.Hash, text string) {
	var buf [8 << 10]byte
	for len(text) > 0 {
		n := copy(buf[:], text)
		h.Write(buf[:n])
		text = text[n:]
	}
}

// Input is one input to StateRoot: a path (or another stable key, such as
// "memory:42") and the content id of what it held.
type Input struct{ Path, CID string }

// StateRoot returns the state root of DESIGN §2: "sha256:" and the lower-case
// hex of the root of a Merkle tree over inputs sorted by Path (then by CID;
// repeated entries count each time). It is RFC 6962's Merkle Tree Hash:
//
//	leaf(i)     = SHA-256(0x00 || uint64be(len(Path)) || Path || CID)
//	node(l, r)  = SHA-256(0x01 || l || r)
//	root([])    = SHA-256("")
//	root([x])   = leaf(x)
//
// built bottom-up: each level pairs adjacent hashes left to right, and an odd
// last hash is promoted to the next level unchanged (never paired with
// itself, so two different input lists cannot share a root). The length
// prefix keeps any (Path, CID) split unambiguous. The order of inputs does
// not matter; the input slice is not modified.
func StateRoot(inputs []Input) string {
	if len(inputs) == 0 {
		sum := sha256.Sum256(nil)
		return "sha256:" + hex.EncodeToString(sum[:])
	}
	sorted := slices.Clone(inputs)
	slices.SortFunc(sorted, func(a, b Input) int {
		return cmp.Or(strings.Compare(a.Path, b.Path), strings.Compare(a.CID, b.CID))
	})
	level := make([][sha256.Size]byte, len(sorted))
	h := sha256.New()
	var n [8]byte
	for i, in := range sorted {
		h.Reset()
		h.Write([]byte{0x00})
		binary.BigEndian.PutUint64(n[:], uint64(len(in.Path)))
		h.Write(n[:])
		h.Write([]byte(in.Path))
		h.Write([]byte(in.CID))
		h.Sum(level[i][:0])
	}
	for len(level) > 1 {
		next := level[:0]
		for i := 0; i < len(level); i += 2 {
			if i+1 == len(level) {
				next = append(next, level[i])
				break
			}
			h.Reset()
			h.Write([]byte{0x01})
			h.Write(level[i][:])
			h.Write(level[i+1][:])
			var sum [sha256.Size]byte
			h.Sum(sum[:0])
			next = append(next, sum)
		}
		level = next
	}
	return "sha256:" + hex.EncodeToString(level[0][:])
}
