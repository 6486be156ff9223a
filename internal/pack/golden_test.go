package pack

import (
	"encoding/json"
	"flag"
	"fmt"
	"os"
	"path/filepath"
	"testing"

	"github.com/google/go-cmp/cmp"
	"github.com/rogpeppe/go-internal/txtar"

	"github.com/ctxpack/ctxpack/internal/render"
	"github.com/ctxpack/ctxpack/internal/tokenizer"
)

var update = flag.Bool("update", false, "rewrite the expected sections of testdata/golden/*.txtar")

// goldenInput is a golden file's "input" section.
type goldenInput struct {
	Budget    int
	Tokenizer string
	Strategy  Strategy
	Overflow  Overflow
	MaxLevel  string
	Sectioned bool
	Parts     []struct {
		Part
		Levels map[string]string // level name → text
	}
}

// TestGolden assembles each golden file's input in every format and
// compares the output with the section named after the format.
func TestGolden(t *testing.T) {
	files, err := filepath.Glob("testdata/golden/*.txtar")
	if err != nil || len(files) == 0 {
		t.Fatalf("no golden files (%v)", err)
	}
	for _, file := range files {
		t.Run(filepath.Base(file), func(t *testing.T) {
			ar, err := txtar.ParseFile(file)
			if err != nil {
				t.Fatal(err)
			}
			var in goldenInput
			sections := map[string]int{}
			for i, f := range ar.Files {
				sections[f.Name] = i
			}
			i, ok := sections["input"]
			if !ok {
				t.Fatal("no input section")
			}
			if err := json.Unmarshal(ar.Files[i].Data, &in); err != nil {
				t.Fatalf("input: %v", err)
			}
			tok, err := tokenizer.Get(in.Tokenizer)
			if err != nil {
				t.Fatal(err)
			}
			parts := make([]Part, len(in.Parts))
			for k, p := range in.Parts {
				parts[k] = p.Part
				parts[k].Text = map[Level]string{}
				for name, text := range p.Levels {
					l, err := ParseLevel(name)
					if err != nil {
						t.Fatal(err)
					}
					parts[k].Text[l] = text
				}
			}
			maxLevel := Full
			if in.MaxLevel != "" {
				if maxLevel, err = ParseLevel(in.MaxLevel); err != nil {
					t.Fatal(err)
				}
			}
			changed := false
			for _, f := range render.Formats() {
				res, err := Assemble(parts, Options{
					Mode: "test", Target: filepath.Base(file), Budget: in.Budget, Tokenizer: tok, Format: f,
					Strategy: in.Strategy, Overflow: in.Overflow, MaxLevel: maxLevel, Sectioned: in.Sectioned,
					StateRoot: "sha256:0000",
					chunker:   "test", // the digests are the same in builds with and without cgo
				})
				got := ""
				if err != nil {
					got = fmt.Sprintf("error: %v\n", err)
				} else {
					got = string(res.Output)
				}
				idx, ok := sections[string(f)]
				if !ok {
					ar.Files = append(ar.Files, txtar.File{Name: string(f)})
					idx = len(ar.Files) - 1
					sections[string(f)] = idx
				}
				if want := string(ar.Files[idx].Data); got != want {
					if *update {
						ar.Files[idx].Data = []byte(got)
						changed = true
						continue
					}
					t.Errorf("%s (-want +got):\n%s", f, cmp.Diff(want, got))
				}
			}
			if changed {
				if err := os.WriteFile(file, txtar.Format(ar), 0o644); err != nil {
					t.Fatal(err)
				}
			}
		})
	}
}
