package project

import (
	"bytes"
	"crypto/sha256"
	"encoding/binary"
	"encoding/hex"
	"errors"
	"fmt"
	"io/fs"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"testing/fstest"
)

func TestReadText(t *testing.T) {
	fsys := fstest.MapFS{
		"ok.txt":   {Data: []byte("héllo\r\nworld\n")},
		"bad.txt":  {Data: []byte("a\xffb\xe2\x82c")},
		"bom.txt":  {Data: []byte("\ufeffx")},
		"empty.md": {Data: nil},
	}
	for _, tt := range []struct {
		name, want string
		repaired   bool
	}{
		{"ok.txt", "héllo\r\nworld\n", false},
		{"bad.txt", "a\ufffdb\ufffdc", true},
		{"bom.txt", "\ufeffx", false},
		{"empty.md", "", false},
	} {
		text, repaired, err := ReadText(fsys, tt.name)
		if err != nil || text != tt.want || repaired != tt.repaired {
			t.Errorf("ReadText(%s) = %q, %v, %v; want %q, %v", tt.name, text, repaired, err, tt.want, tt.repaired)
		}
	}
	_, _, err := ReadText(fsys, "missing.txt")
	if err == nil || !strings.HasPrefix(err.Error(), "project: read: ") || !errors.Is(err, fs.ErrNotExist) {
		t.Errorf("ReadText(missing) error = %v", err)
	}
}

func TestContentID(t *testing.T) {
	for text, want := range map[string]string{
		"":    "sha256:e3b0c44298fc1c149afbf4c8996fb92427ae41e4649b934ca495991b7852b855",
		"abc": "sha256:ba7816bf8f01cfea414140de5dae2223b00361a396177a9cb410ff61f20015ad",
	} {
		if got := ContentID(text); got != want {
			t.Errorf("ContentID(%q) = %s, want %s", text, got, want)
		}
	}
}

// rfc6962 is RFC 6962's recursive Merkle Tree Hash over leaf hashes: the
// reference StateRoot's bottom-up construction must agree with.
func rfc6962(leaves [][]byte) []byte {
	switch len(leaves) {
	case 0:
		sum := sha256.Sum256(nil)
		return sum[:]
	case 1:
		return leaves[0]
	}
	k := 1
	for k*2 < len(leaves) {
		k *= 2
	}
	sum := sha256.Sum256(append(append([]byte{1}, rfc6962(leaves[:k])...), rfc6962(leaves[k:])...))
	return sum[:]
}

func leafHash(in Input) []byte {
	b := []byte{0}
	b = binary.BigEndian.AppendUint64(b, uint64(len(in.Path)))
	b = append(append(b, in.Path...), in.CID...)
	sum := sha256.Sum256(b)
	return sum[:]
}

func TestStateRoot(t *testing.T) {
	// The golden value was computed by an independent implementation (Python,
	// hashlib) of the definition in StateRoot's doc comment.
	inputs := []Input{
		{"z", ContentID("")},
		{"b/c.md", ContentID("# C\n")},
		{"a.go", ContentID("package a\n")},
		{"y", ContentID("y")},
		{"memory:42", ContentID("remember")},
	}
	const golden = "sha256:92b78981968daf28c29e1d698dfa97a80334dbbdfc34373d271e4c4552f8a4b3"
	if got := StateRoot(inputs); got != golden {
		t.Errorf("StateRoot = %s, want %s", got, golden)
	}
	if inputs[0].Path != "z" {
		t.Error("StateRoot modified its input")
	}
	if got, want := StateRoot(nil), ContentID(""); got != want {
		t.Errorf("StateRoot(nil) = %s, want SHA-256 of nothing, %s", got, want)
	}

	// Bottom-up with promotion equals RFC 6962 for every size.
	var all []Input
	for n := range 34 {
		var leaves [][]byte
		for _, in := range all {
			leaves = append(leaves, leafHash(in))
		}
		if got, want := StateRoot(all), "sha256:"+hex.EncodeToString(rfc6962(leaves)); got != want {
			t.Errorf("n=%d: StateRoot = %s, RFC 6962 gives %s", n, got, want)
		}
		all = append(all, Input{Path: fmt.Sprintf("f%03d", n), CID: ContentID(fmt.Sprint(n))})
	}

	// Sensitive to every part of the input; blind to order.
	base := StateRoot(inputs)
	for i, in := range []Input{{"ab", "c"}, {"a", "bc"}} {
		other := []Input{{"ab", "c"}, {"a", "bc"}}[1-i]
		if StateRoot([]Input{in}) == StateRoot([]Input{other}) {
			t.Error("the path/cid split is ambiguous")
		}
	}
	if StateRoot(append(inputs[:4:4], Input{"memory:42", ContentID("forget")})) == base {
		t.Error("a changed content id did not change the root")
	}
	if StateRoot([]Input{inputs[4], inputs[3], inputs[2], inputs[1], inputs[0]}) != base {
		t.Error("the root depends on input order")
	}
	if StateRoot(append(inputs, inputs[0])) == base {
		t.Error("a repeated input did not change the root")
	}
}

func TestCountLines(t *testing.T) {
	for text, want := range map[string]int{"": 0, "a": 1, "a\n": 1, "a\nb": 2, "\n": 1, "\n\n": 2, "a\r\nb\r\n": 2} {
		if got := CountLines(text); got != want {
			t.Errorf("CountLines(%q) = %d, want %d", text, got, want)
		}
		if got := CountLines([]byte(text)); got != want {
			t.Errorf("CountLines([]byte(%q)) = %d, want %d", text, got, want)
		}
	}
}

// BenchmarkReadText reads a 64 KiB file: one allocation of its size (and
// the file's own), not a buffer and a copy of it.
func BenchmarkReadText(b *testing.B) {
	dir := b.TempDir()
	if err := os.WriteFile(filepath.Join(dir, "a.go"), bytes.Repeat([]byte("package a // x\n"), 64<<10/15), 0o644); err != nil {
		b.Fatal(err)
	}
	fsys := os.DirFS(dir)
	b.ReportAllocs()
	for b.Loop() {
		if _, _, err := ReadText(fsys, "a.go"); err != nil {
			b.Fatal(err)
		}
	}
}
