package links

import (
	"slices"
	"strings"
	"testing"

	"github.com/ctxpack/ctxpack/internal/pack"
	"github.com/ctxpack/ctxpack/internal/project"
)

// fakeCode lists files as parts the way pack mode makes them (a meta line
// and the full text), from a map of path to text.
func fakeCode(files map[string]string, roots *[]string) *Code {
	return &Code{
		List: func(rs []string) ([]pack.Part, error) {
			*roots = rs
			var out []pack.Part
			for p, text := range files {
				for _, r := range rs {
					if under(p, r) {
						out = append(out, pack.Part{Key: p, Source: "file", Type: "source", Path: p, CID: project.ContentID(text),
							Text: map[pack.Level]string{pack.Meta: "go, 1 line\n", pack.Full: text}})
						break
					}
				}
			}
			return out, nil
		},
		Read: func(p string) (string, error) { return files[p], nil },
	}
}

// TestCollectCode: the files the closure's paths globs govern come after
// the closure, in the code bucket, with the chain to the artifact that
// names them, ranked for the task's text; other files, and the artifact
// directory, are not code.
func TestCollectCode(t *testing.T) {
	files := map[string]string{
		"src/a/rounding.go":   "package a\n\n// Round rounds an invoice total half-even.\nfunc Round() {}\n",
		"src/a/other.go":      "package a\n\nfunc Unrelated() {}\n",
		"src/b/work.go":       "package b\n\n// The work is done here.\n",
		"src/c/elsewhere.go":  "package c\n",
		".ctxpack/notes/x.go": "package x\n",
	}
	var roots []string
	set := fixtureSet(t)
	col, err := Collect(set, "TASK-1", 0, fakeCode(files, &roots))
	if err != nil {
		t.Fatal(err)
	}
	if want := []string{"src/a", "src/b"}; !slices.Equal(roots, want) {
		t.Errorf("roots %v, want %v", roots, want)
	}
	var code []string
	for _, pt := range col.Parts {
		if pt.Source != "code" {
			continue
		}
		code = append(code, pt.Key)
		if pt.Bucket != CodeBucket || pt.Section != sectionCode || pt.Pinned {
			t.Errorf("%s: bucket %q section %d pinned %v", pt.Key, pt.Bucket, pt.Section, pt.Pinned)
		}
		want := "TASK-1>SPEC-A"
		if strings.HasPrefix(pt.Key, "src/b/") {
			want = "TASK-1>SPEC-A>SPEC-B"
		}
		if got := strings.Join(pt.Via, ">"); got != want {
			t.Errorf("%s via %s, want %s", pt.Key, got, want)
		}
	}
	slices.Sort(code)
	if want := []string{"src/a/other.go", "src/a/rounding.go", "src/b/work.go"}; !slices.Equal(code, want) {
		t.Errorf("code %v, want %v", code, want)
	}
	rank := map[string]int{}
	for _, f := range col.Files() {
		rank[f.Path] = f.Rank
	}
	// The task is "Do it … The work.": work.go says "work", the others nothing.
	if rank["src/b/work.go"] != 1 {
		t.Errorf("ranks %v: want src/b/work.go first", rank)
	}
	last := col.Parts[len(col.Parts)-1]
	if want := "src/a/** (SPEC-A, SPEC-B: 2 files)\nsrc/b/** (SPEC-B: 1 file)\n"; last.Key != "paths" || last.Text[pack.Full] != want {
		t.Errorf("paths part %q: %q, want %q", last.Key, last.Text[pack.Full], want)
	}
	bare, err := Collect(set, "TASK-1", 0, nil)
	if err != nil {
		t.Fatal(err)
	}
	if bare.StateRoot == col.StateRoot {
		t.Error("the state root does not cover the code")
	}

	// The code is fitted only once the closure is whole.
	full := assemble(t, bare, 100000).TotalTokens
	for _, budget := range []int{full - 1, full + 3} {
		plan := assemble(t, col, budget)
		for _, pp := range plan.Parts {
			if pp.Source == "code" && budget < full {
				t.Errorf("budget %d, below the closure's %d: code %s in", budget, full, pp.Key)
			}
		}
	}
}

func TestMatch(t *testing.T) {
	got := Match("How are the invoice totals rounded?", []string{
		"func total(invoice) // totals of an invoice, rounded",
		"the how are of",
		"invoice",
	})
	if got[0] != 1 || got[1] != 0 || !(got[2] > 0 && got[2] < 1) {
		t.Errorf("Match = %v", got)
	}
	if got := Match("", []string{"a"}); got[0] != 0 {
		t.Errorf("empty query: %v", got)
	}
}
