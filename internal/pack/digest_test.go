package pack

import (
	"bytes"
	"crypto/sha256"
	"encoding/hex"
	"testing"

	"github.com/ctxpack/ctxpack/internal/chunk/chunkid"
	"github.com/ctxpack/ctxpack/internal/render"
)

// TestPlanNamesChunker checks that every plan, in every format and with
// nothing shown too, names this build's chunker and that its digest is
// Digest of that name and the content.
func TestPlanNamesChunker(t *testing.T) {
	parts := []Part{{Key: "a", Path: "a.go", Text: full("package a\n")}}
	for _, f := range render.Formats() {
		for _, o := range []Options{
			{Budget: 100, Tokenizer: runeCounter{}, Format: f},
			{Budget: 1, Tokenizer: runeCounter{}, Format: f, Overflow: Drop}, // nothing fits
		} {
			res, err := Assemble(parts, o)
			if err != nil {
				t.Fatal(err)
			}
			pl := res.Plan
			if o.Budget == 1 && pl.Content != "" {
				t.Fatalf("%s: %q fits in a budget of 1", f, pl.Content)
			}
			if pl.Chunker != chunkid.Name() {
				t.Errorf("%s, budget %d: chunker %q, want %q", f, o.Budget, pl.Chunker, chunkid.Name())
			}
			if want := Digest(chunkid.Name(), pl.Content); pl.Digest != want {
				t.Errorf("%s, budget %d: digest %s, want %s", f, o.Budget, pl.Digest, want)
			}
			if f == render.JSON && !bytes.Contains(res.Output, []byte("\n  \"chunker\": \""+chunkid.Name()+"\",\n")) {
				t.Errorf("the json plan does not name the chunker:\n%s", res.Output)
			}
		}
	}
}

// TestDigestCoversChunker checks that the digest is stable for one
// chunker and differs when only the chunker's name does.
func TestDigestCoversChunker(t *testing.T) {
	parts := []Part{
		{Key: "a", Path: "a.go", Text: full("package a\n")},
		{Key: "b", Path: "b.py", Text: full("def b():\n    return 1\n")},
	}
	assemble := func(chunker string) *Result {
		t.Helper()
		res, err := Assemble(parts, Options{Budget: 100, Tokenizer: runeCounter{}, chunker: chunker})
		if err != nil {
			t.Fatal(err)
		}
		return res
	}
	ts, ts2 := assemble("go/parser+tree-sitter v1"), assemble("go/parser+tree-sitter v1")
	heur := assemble("go/parser+heuristics v1")
	if ts.Plan.Digest != ts2.Plan.Digest {
		t.Errorf("one chunker, two digests: %s, %s", ts.Plan.Digest, ts2.Plan.Digest)
	}
	if !bytes.Equal(ts.Output, heur.Output) {
		t.Fatalf("the output depends on the chunker's name:\n%s\n%s", ts.Output, heur.Output)
	}
	if ts.Plan.Digest == heur.Plan.Digest {
		t.Errorf("two chunkers, one digest: %s", ts.Plan.Digest)
	}
}

// TestDigest pins the formula that pack's documentation and
// docs/engine.md give, so that anyone can recompute a digest.
func TestDigest(t *testing.T) {
	const content = "=== a.go ===\npackage a\n"
	sum := sha256.Sum256([]byte("ctxpack digest v1\nchunker go/parser+heuristics v1\n" + content))
	if got, want := Digest("go/parser+heuristics v1", content), "sha256:"+hex.EncodeToString(sum[:]); got != want {
		t.Errorf("Digest = %s, want %s", got, want)
	}
	// printf 'ctxpack digest v1\nchunker go/parser+tree-sitter v1\n' | sha256sum
	const empty = "sha256:d16fe63ca938bcba911582135424758763c7181fa9e6700c8cbc2912872ca9e4"
	if got := Digest("go/parser+tree-sitter v1", ""); got != empty {
		t.Errorf("Digest of no content = %s, want %s", got, empty)
	}
	// The content alone, the digest before the chunker was covered, is
	// never a plan's digest.
	if old := sha256.Sum256([]byte(content)); Digest("", content) == "sha256:"+hex.EncodeToString(old[:]) {
		t.Error("the digest is the content's sha256")
	}
}
