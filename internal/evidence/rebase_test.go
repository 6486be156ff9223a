package evidence

import (
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"
)

// contents maps each listed file to what it holds: newWorkspace writes a
// file's first name into it, so a file that kept its content under a wrong
// name shows.
func contents(t *testing.T, w *Workspace) map[string]string {
	t.Helper()
	entries, _, err := w.List()
	if err != nil {
		t.Fatal(err)
	}
	out := map[string]string{}
	for _, e := range entries {
		data, err := os.ReadFile(filepath.Join(w.Dir, filepath.FromSlash(e.Rel)))
		if err != nil {
			t.Fatal(err)
		}
		out[e.Rel] = strings.TrimSpace(string(data))
	}
	return out
}

// TestRebaseInterrupted stops a rebase at each of its renames, in both
// passes: the workspace then refuses to be listed (so nothing is
// assembled without the files), naming what was left; Recover undoes a
// rebase stopped while moving files away and completes one stopped while
// giving them their new names; a rebase after it ends as an uninterrupted
// one does, every file with its own content.
func TestRebaseInterrupted(t *testing.T) {
	// 105_x moves to 110, which 110_x leaves for 120: ranks swap.
	names := []string{"000_p.system.md", "007_r.user.md", "100_x.evidence.md", "105_x.evidence.md", "110_x.evidence.md", "150_c.evidence.link"}
	w := newWorkspace(t, names...)
	entries, _, _ := w.List()
	plan, err := w.Rebase(entries)
	if err != nil {
		t.Fatal(err)
	}
	want := contents(t, w)
	if len(plan) != 4 {
		t.Fatalf("the rebase renames %d files, want 4", len(plan))
	}
	for stop := 1; stop <= 2*len(plan); stop++ {
		t.Run(fmt.Sprintf("rename %d of %d", stop, 2*len(plan)), func(t *testing.T) {
			w := newWorkspace(t, names...)
			before := contents(t, w)
			entries, _, _ := w.List()
			n := 0
			w.renameFile = func(from, to string) error {
				if n++; n == stop {
					return errors.New("interrupted")
				}
				return os.Rename(from, to)
			}
			if _, err := w.Rebase(entries); err == nil || !strings.Contains(err.Error(), "interrupted; the rebase stopped half way") {
				t.Fatalf("Rebase = %v, want the interruption", err)
			}
			w.renameFile = nil

			temps := stop - 1 // renamed away before the stop
			if stop > len(plan) {
				temps = 2*len(plan) - (stop - 1) // not yet given their new names
			}
			_, _, err := w.List()
			var ie *InterruptedError
			if !errors.As(err, &ie) || ie.Files[0] != "ctx/"+JournalFile || len(ie.Files) != 1+temps {
				t.Fatalf("List after the interruption = %v", err)
			}
			if !strings.Contains(err.Error(), "run 'ctxpack evidence rebase' on the workspace to finish it") {
				t.Errorf("the error does not say how to finish: %v", err)
			}

			notes, err := w.Recover()
			if err != nil {
				t.Fatal(err)
			}
			if len(notes) != 1 {
				t.Errorf("Recover notes = %q", notes)
			}
			got := contents(t, w)
			if stop <= len(plan) { // stopped moving files away: undone
				if !strings.Contains(notes[0], "undid the rebase") || !mapsEqual(got, before) {
					t.Errorf("after Recover: %v (%q), want as before %v", got, notes, before)
				}
			} else if !strings.Contains(notes[0], "finished the rebase") || !mapsEqual(got, want) {
				t.Errorf("after Recover: %v (%q), want as rebased %v", got, notes, want)
			}
			entries, _, _ = w.List()
			if _, err := w.Rebase(entries); err != nil {
				t.Fatal(err)
			}
			if got := contents(t, w); !mapsEqual(got, want) {
				t.Errorf("after the rebase again: %v, want %v", got, want)
			}
			if again, err := w.Recover(); err != nil || len(again) != 0 {
				t.Errorf("Recover with nothing to do = %q, %v", again, err)
			}
		})
	}
}

func mapsEqual(a, b map[string]string) bool {
	if len(a) != len(b) {
		return false
	}
	for k, v := range a {
		if w, ok := b[k]; !ok || w != v {
			return false
		}
	}
	return true
}

// TestRecoverWithoutJournal: a file under a temporary name that no journal
// lists (an older ctxpack's interrupted rebase) gets its old name back; a
// name that is taken is an error naming both files, and nothing moves.
func TestRecoverWithoutJournal(t *testing.T) {
	w := newWorkspace(t, "100_a.evidence.md", "020_x.user.md")
	ev := filepath.Join(w.Dir, EvidenceDir)
	if err := os.Rename(filepath.Join(ev, "100_a.evidence.md"), filepath.Join(ev, ".rebase-0-100_a.evidence.md")); err != nil {
		t.Fatal(err)
	}
	_, _, err := w.List()
	var ie *InterruptedError
	if !errors.As(err, &ie) || !slices.Equal(ie.Files, []string{"ctx/evidence/.rebase-0-100_a.evidence.md"}) {
		t.Fatalf("List = %v", err)
	}
	notes, err := w.Recover()
	if err != nil || len(notes) != 1 || notes[0] != "ctx/evidence/.rebase-0-100_a.evidence.md: left by an interrupted rebase; renamed back to ctx/evidence/100_a.evidence.md" {
		t.Fatalf("Recover = %q, %v", notes, err)
	}
	if got := contents(t, w); !mapsEqual(got, map[string]string{"020_x.user.md": "020_x.user.md", "evidence/100_a.evidence.md": "100_a.evidence.md"}) {
		t.Errorf("after Recover: %v", got)
	}

	// The old name is taken.
	if err := os.WriteFile(filepath.Join(w.Dir, ".rebase-3-020_x.user.md"), []byte("other\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	if _, err := w.Recover(); err == nil || err.Error() != "evidence: ctx/.rebase-3-020_x.user.md, left by an interrupted rebase, should be ctx/020_x.user.md, which exists; rename one of them by hand" {
		t.Errorf("Recover onto a taken name = %v", err)
	}
	if _, err := os.Stat(filepath.Join(w.Dir, ".rebase-3-020_x.user.md")); err != nil {
		t.Errorf("the file left was moved: %v", err)
	}
}

// TestRecoverRefusesPlantedJournal: the journal is the repository's, so
// anyone may have written it; Recover moves nothing a journal names
// outside the workspace's folders, or to or from a name that is not a
// workspace file's.
func TestRecoverRefusesPlantedJournal(t *testing.T) {
	for _, moves := range []string{
		`{"from": "../../outside.md", "temp": "../../outside.md", "to": "100_x.evidence.md"}`,
		`{"from": "100_x.evidence.md", "temp": "../secret.txt", "to": "100_x.evidence.md"}`,
		`{"from": "evidence/100_x.evidence.md", "temp": ".rebase-0-a", "to": "100_x.evidence.md"}`,
		`{"from": "100_x.evidence.md", "temp": "notemp", "to": "110_x.evidence.md"}`,
		`{"from": "notes.txt", "temp": ".rebase-0-notes.txt", "to": "100_x.evidence.md"}`,
		`{"from": "/etc/passwd", "temp": "/etc/passwd", "to": "/tmp/x"}`,
	} {
		w := newWorkspace(t, "020_x.user.md")
		outside := filepath.Join(filepath.Dir(filepath.Dir(w.Dir)), "outside.md")
		if err := os.WriteFile(outside, []byte("not the workspace's\n"), 0o644); err != nil {
			t.Fatal(err)
		}
		journal := `{"placing": false, "moves": [` + moves + `]}`
		if err := os.WriteFile(filepath.Join(w.Dir, JournalFile), []byte(journal), 0o644); err != nil {
			t.Fatal(err)
		}
		if _, err := w.Recover(); err == nil || !strings.Contains(err.Error(), ".rebase.json") {
			t.Errorf("journal %s: Recover = %v, want a refusal naming the journal", moves, err)
		}
		if _, err := os.Stat(outside); err != nil {
			t.Errorf("journal %s: the file outside moved: %v", moves, err)
		}
	}
}

// FuzzParseJournal: any journal parseJournal accepts keeps every move in
// one of the workspace's two folders, between workspace file names.
func FuzzParseJournal(f *testing.F) {
	f.Add([]byte(`{"placing": true, "moves": [{"from": "evidence/100_a.evidence.md", "temp": "evidence/.rebase-0-100_a.evidence.md", "to": "evidence/110_a.evidence.md"}]}`))
	f.Add([]byte(`{"moves": [{"from": "../x", "temp": "../.rebase-x", "to": "x"}]}`))
	f.Add([]byte(`[]`))
	f.Fuzz(func(t *testing.T, data []byte) {
		j, err := parseJournal(data)
		if err != nil {
			return
		}
		for _, m := range j.Moves {
			for _, p := range []string{m.From, m.Temp, m.To} {
				if filepath.IsAbs(p) || p == ".." || strings.HasPrefix(p, "../") || strings.Contains(p, "/../") || strings.HasSuffix(p, "/..") {
					t.Fatalf("accepted a path that leaves the workspace: %q", p)
				}
				if d := filepath.Dir(p); d != "." && d != EvidenceDir {
					t.Fatalf("accepted a path outside the workspace's folders: %q", p)
				}
			}
		}
	})
}
