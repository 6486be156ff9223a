package changes

import (
	"strings"
	"testing"

	"github.com/ctxpack/ctxpack/internal/history"
	"github.com/ctxpack/ctxpack/internal/pack"
)

func TestDiffPart(t *testing.T) {
	patch := "diff --git a/a.go b/a.go\n--- a/a.go\n+++ b/a.go\n@@ -1,2 +1,3 @@ func A\n a\n+b\n c\n@@ -9 +10 @@\n-x\n+y\n"
	tests := []struct {
		name        string
		file        history.FileDiff
		limit       int
		wantFull    string // a substring of the full level
		wantSummary string // "" for no summary level
		wantWarning string
	}{
		{name: "shown", file: history.FileDiff{Path: "a.go", Added: 2, Deleted: 1, Patch: patch}, limit: 1 << 20,
			wantFull: "+b\n", wantSummary: "a.go: +2 −1 lines against HEAD abc\n@@ -1,2 +1,3 @@ func A\n@@ -9 +10 @@\n"},
		{name: "over the limit", file: history.FileDiff{Path: "a.go", Added: 2, Deleted: 1, Patch: patch}, limit: 10,
			wantFull: "[ctxpack: diff not shown: ", wantWarning: "the diff of a.go is"},
		{name: "binary", file: history.FileDiff{Path: "b.bin", Added: -1, Deleted: -1, Patch: "diff --git a/b.bin b/b.bin\nBinary files differ\n"}, limit: 1 << 20,
			wantFull: "Binary files differ"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			p, warning := diffPart(tt.file, "HEAD abc", "Changes", tt.limit)
			if !strings.Contains(p.Text[pack.Full], tt.wantFull) {
				t.Errorf("full %q lacks %q", p.Text[pack.Full], tt.wantFull)
			}
			if got := p.Text[pack.Summary]; got != tt.wantSummary {
				t.Errorf("summary %q, want %q", got, tt.wantSummary)
			}
			if tt.wantWarning == "" && warning != "" || !strings.Contains(warning, tt.wantWarning) {
				t.Errorf("warning %q, want %q", warning, tt.wantWarning)
			}
			if p.Score != 1 || p.Section != DiffSection || len(p.Via) != 1 || p.Key != "diff:"+tt.file.Path {
				t.Errorf("part %+v", p)
			}
		})
	}
}

func TestCommitPart(t *testing.T) {
	c := history.Commit{SHA: strings.Repeat("ab", 20), Author: "Ada", Time: 1700000000, Message: "fix: round totals\n\nThe body.",
		Files: []history.File{{Path: "a.go", Added: 3, Deleted: 1}}}
	scores := []float64{0.9, 0.83973, 0.45} // 0.9 × 0.5^(i/10), to 1e-6
	for i, want := range map[int]float64{0: scores[0], 1: scores[1], 10: scores[2]} {
		p := commitPart(c, i, 20)
		if p.Score != want {
			t.Errorf("commit %d scores %v, want %v", i, p.Score, want)
		}
	}
	p := commitPart(c, 0, 1)
	if want := strings.Repeat("ab", 6) + " 2023-11-14T22:13:20Z fix: round totals"; p.Text[pack.Meta] != want {
		t.Errorf("meta %q", p.Text[pack.Meta])
	}
	for _, s := range []string{"commit " + c.SHA, "Author: Ada", "The body.", "a.go (+3 −1)"} {
		if !strings.Contains(p.Text[pack.Full], s) {
			t.Errorf("full lacks %q:\n%s", s, p.Text[pack.Full])
		}
	}
}
