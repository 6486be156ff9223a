package evidence

import (
	"fmt"
	"math/rand/v2"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"

	workspace "github.com/ctxpack/ctxpack/internal/evidence"
)

// TestStaleExact checks that after an edit of one line of a source file,
// stale names exactly the evidence whose selected span holds a changed
// byte (whole files, line ranges, open ranges and byte ranges), over many
// random edits.
func TestStaleExact(t *testing.T) {
	dir := t.TempDir()
	files := map[string]string{
		"src/a.go": numbered("a", 60),
		"src/b.go": numbered("b", 60),
		"src/c.go": numbered("c", 60),
	}
	e := testEnv(t, dir, files)
	ws := openWS(t, e, "work/ctx")
	type span struct {
		file       string
		start, end int // bytes, half-open
	}
	selectors := []string{
		"src/a.go", "src/a.go::1,10", "src/a.go::10,20", "src/a.go::50", "src/b.go::5,5",
		"src/b.go::20,40#x", "src/b.go::100c,200c", "src/c.go::30", "src/c.go::1c,9c",
	}
	spans := map[string]span{}
	for i, s := range selectors {
		a := mustWrite(t, e, ws, AddRequest{Selector: s, Kind: fmt.Sprintf("e%d", i)})
		ex, err := e.ReadSelector(s)
		if err != nil {
			t.Fatal(err)
		}
		spans[a.Path] = span{ex.Selector.Path, ex.StartByte, ex.EndByte}
	}
	// One file is turned off: stale checks skipped files too. A note and a
	// link are not checked.
	entries, _, _ := ws.List()
	en, _ := workspace.Find(entries, "110_e1")
	if _, err := ws.SetState(en, workspace.Skipped); err != nil {
		t.Fatal(err)
	}
	mustWrite(t, e, ws, AddRequest{Selector: "-", Text: "a note"})
	mustWrite(t, e, ws, AddRequest{Selector: "src/a.go::1,5", Link: true})
	rep, err := e.Stale(ws)
	if err != nil || len(rep.Stale) != 0 || rep.Checked != len(selectors) || rep.Untracked != 1 || rep.Links != 1 {
		t.Fatalf("before any edit: %+v, %v", rep, err)
	}
	rng := rand.New(rand.NewPCG(7, 11))
	staleRounds := 0
	names := []string{"src/a.go", "src/b.go", "src/c.go"}
	for round := range 60 {
		file := names[rng.IntN(len(names))]
		line := 1 + rng.IntN(60)
		lines := strings.SplitAfter(files[file], "\n")
		// "x line N" becomes "x LINE N": the same length and line count,
		// bytes [at, at+4) of the file changed.
		at := len(strings.Join(lines[:line-1], "")) + strings.Index(lines[line-1], "line")
		lines[line-1] = strings.Replace(lines[line-1], "line", "LINE", 1)
		writeFile(t, filepath.Join(dir, filepath.FromSlash(file)), strings.Join(lines, ""))
		rep, err := e.Stale(ws)
		if err != nil {
			t.Fatal(err)
		}
		var got, want []string
		for _, s := range rep.Stale {
			if s.Reason != "changed" || s.Now == "" || s.Now == s.Was {
				t.Errorf("round %d: %s is %s (was %s, now %s), want changed", round, s.Path, s.Reason, s.Was, s.Now)
			}
			got = append(got, strings.TrimSuffix(s.Path, ".skip"))
		}
		for path, sp := range spans {
			if sp.file == file && sp.start < at+4 && at < sp.end {
				want = append(want, path)
			}
		}
		slices.Sort(got)
		slices.Sort(want)
		if len(want) > 0 {
			staleRounds++
		}
		if !slices.Equal(got, want) {
			t.Errorf("round %d: editing %s line %d: stale %v, want %v", round, file, line, got, want)
		}
		writeFile(t, filepath.Join(dir, filepath.FromSlash(file)), files[file]) // put it back
	}
	t.Logf("%d of 60 edits reached a span", staleRounds)
	if staleRounds < 20 || staleRounds > 50 {
		t.Errorf("%d of 60 rounds made evidence stale: the edits should hit spans and miss them", staleRounds)
	}
	// A file that is gone makes its evidence missing.
	if err := os.Remove(filepath.Join(dir, "src", "c.go")); err != nil {
		t.Fatal(err)
	}
	rep, err = e.Stale(ws)
	if err != nil {
		t.Fatal(err)
	}
	if len(rep.Stale) != 2 || rep.Stale[0].Reason != "missing" || rep.Stale[1].Reason != "missing" || rep.Stale[0].Detail == "" {
		t.Errorf("after removing src/c.go: %+v", rep.Stale)
	}
	// One that cannot be read is unreadable.
	if err := os.Mkdir(filepath.Join(dir, "src", "c.go"), 0o755); err != nil {
		t.Fatal(err)
	}
	if rep, err = e.Stale(ws); err != nil || len(rep.Stale) != 2 || rep.Stale[0].Reason != "missing" {
		t.Errorf("src/c.go a folder: %+v, %v", rep, err)
	}
}
