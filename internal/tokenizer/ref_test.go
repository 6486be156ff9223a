package tokenizer

import (
	"io/fs"
	"os"
	"os/exec"
	"path"
	"slices"
	"strings"
	"sync"
	"testing"

	"github.com/tiktoken-go/tokenizer/codec"
)

// The reference implementation is github.com/tiktoken-go/tokenizer, whose
// counts and token ids match OpenAI's tiktoken (see
// /work/shared/reference/dependency-survey.md §1). It is linked only into
// the tests.

// encodings lists the BPE encodings with their reference codecs.
var encodings = []struct {
	name string
	ref  func() *codec.Codec
}{
	{"o200k_base", codec.NewO200kBase},
	{"cl100k_base", codec.NewCl100kBase},
}

// mustBPE returns our encoder of the given name.
func mustBPE(t testing.TB, name string) *bpe {
	t.Helper()
	tok, err := Get(name)
	if err != nil {
		t.Fatal(err)
	}
	return tok.(*bpe)
}

// refEncode returns the reference library's token ids for the repaired text.
func refEncode(t testing.TB, c *codec.Codec, text string) []int {
	t.Helper()
	ids, _, err := c.Encode(ToValidUTF8(text))
	if err != nil {
		t.Fatalf("reference: %v", err)
	}
	out := make([]int, len(ids))
	for i, id := range ids {
		out[i] = int(id)
	}
	return out
}

// wantEncode returns the reference token ids of text. The library is the
// reference where its split of the text is right; where it is not (see
// TestLibrarySplitBugs), our split must be regexp2's interpreter's and the
// reference is oracleEncode. The bool reports which was used.
func wantEncode(t testing.TB, e *bpe, c *codec.Codec, text string) ([]int, bool) {
	t.Helper()
	text = ToValidUTF8(text)
	_, gen := splitRegexps()
	if slices.Equal(ourSplit(e, text), regexpSplit(t, gen[e.name], text)) {
		return refEncode(t, c, text), false
	}
	checkSplit(t, e, text)
	return oracleEncode(t, e, text), true
}

// firstDiff returns the index of the first token where a and b differ, or
// -1 if they are equal.
func firstDiff(a, b []int) int {
	for i := range min(len(a), len(b)) {
		if a[i] != b[i] {
			return i
		}
	}
	if len(a) != len(b) {
		return min(len(a), len(b))
	}
	return -1
}

var (
	gorootOnce sync.Once
	goroot     string
)

// gorootSrc returns $(go env GOROOT)/src as a file system, skipping the
// test if there is no Go tree.
func gorootSrc(t testing.TB) fs.FS {
	t.Helper()
	gorootOnce.Do(func() {
		out, err := exec.Command("go", "env", "GOROOT").Output()
		if err == nil {
			goroot = strings.TrimSpace(string(out))
		}
	})
	if goroot == "" {
		t.Skip("no GOROOT: go env GOROOT failed")
	}
	return os.DirFS(path.Join(goroot, "src"))
}

// treeFile is one file of a corpus.
type treeFile struct {
	name string
	text string
}

// readTree returns the regular files under dir of fsys that keep says to,
// in walk (lexical) order. It fails the test if none is kept.
func readTree(t testing.TB, fsys fs.FS, dir string, keep func(name string, i int) bool) []treeFile {
	t.Helper()
	var files []treeFile
	i := 0
	err := fs.WalkDir(fsys, dir, func(name string, d fs.DirEntry, err error) error {
		if err != nil {
			return err
		}
		if !d.Type().IsRegular() {
			return nil
		}
		i++
		if !keep(name, i-1) {
			return nil
		}
		data, err := fs.ReadFile(fsys, name)
		if err != nil {
			return err
		}
		files = append(files, treeFile{name, string(data)})
		return nil
	})
	if err != nil {
		t.Fatal(err)
	}
	if len(files) == 0 {
		t.Fatalf("no files under %s", dir)
	}
	return files
}
