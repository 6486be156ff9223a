package evidence

import (
	"cmp"
	"encoding/json"
	"errors"
	"fmt"
	"io/fs"
	"os"
	"path"
	"slices"
	"strconv"
	"strings"

	"github.com/ctxpack/ctxpack/internal/project"
)

// JournalFile is the file, at the top of a workspace, in which Rebase
// writes the renames it is about to make before it makes any, and how far
// it got, and which it removes when done: a rebase interrupted (killed,
// the machine down, a rename refused) leaves files under temporary names
// (".rebase-N-NAME"), and the journal says what each becomes.
const JournalFile = ".rebase.json"

// tempPrefix starts the temporary name of a file a rebase is moving.
const tempPrefix = ".rebase-"

// journal is the content of JournalFile.
type journal struct {
	// Placing says that every file was under its temporary name when the
	// journal was written: the files are being given their new names.
	// Until then, they are being moved away from their old ones.
	Placing bool   `json:"placing"`
	Moves   []move `json:"moves"`
}

// parseJournal reads a journal and checks every path in it: the journal
// is in the workspace, which is the repository's, so it may have been
// written by anyone. Each move must stay in the workspace's top or its
// evidence/ folder, and within one of them: from and to are workspace
// file names, temp the temporary name of from ("" is no move).
func parseJournal(data []byte) (journal, error) {
	var j journal
	if err := json.Unmarshal(data, &j); err != nil {
		return j, err
	}
	for _, m := range j.Moves {
		dir := path.Dir(m.From)
		for _, p := range []string{m.From, m.Temp, m.To} {
			if path.Dir(p) != dir || (dir != "." && dir != EvidenceDir) || path.Clean(p) != p {
				return j, fmt.Errorf("a move leaves the workspace's folders: %q → %q → %q", m.From, m.Temp, m.To)
			}
		}
		if !strings.HasPrefix(path.Base(m.Temp), tempPrefix) {
			return j, fmt.Errorf("%q is not a rebase's temporary name", m.Temp)
		}
		for _, p := range []string{m.From, m.To} {
			if _, ok := ParseName(path.Base(p)); !ok {
				return j, fmt.Errorf("%q is not a workspace file's name", p)
			}
		}
	}
	return j, nil
}

// move is one file of a rebase: slash paths relative to the folder.
type move struct {
	From string `json:"from"`
	Temp string `json:"temp"`
	To   string `json:"to"`
}

// InterruptedError is a workspace that an interrupted rebase left with
// files under temporary names: List refuses it, so that no assembly goes
// on without those files, until Recover (or the rebase command, which
// calls it) finishes the rebase.
type InterruptedError struct {
	Shown string   // the workspace
	Files []string // what the rebase left: the journal and the temporary names, as people see them
}

func (e *InterruptedError) Error() string {
	return fmt.Sprintf("evidence: %s: a rebase was interrupted and left %s; its files are not assembled until it is finished: run 'ctxpack evidence rebase' on the workspace to finish it",
		e.Shown, strings.Join(e.Files, ", "))
}

// leftovers returns what an interrupted rebase left, as people see it:
// the journal, then the files under temporary names, in the folder's
// order; none when no rebase was interrupted.
func (w *Workspace) leftovers() ([]string, error) {
	var out []string
	if _, err := os.Lstat(w.abs(JournalFile)); err == nil {
		out = append(out, path.Join(w.Shown, JournalFile))
	}
	temps, err := w.temps()
	if err != nil {
		return nil, err
	}
	for _, t := range temps {
		out = append(out, path.Join(w.Shown, t))
	}
	return out, nil
}

// temps lists the files under a rebase's temporary names, top first.
func (w *Workspace) temps() ([]string, error) {
	var out []string
	for _, sub := range []string{"", EvidenceDir} {
		des, err := os.ReadDir(w.abs(sub))
		if errors.Is(err, fs.ErrNotExist) {
			continue
		}
		if err != nil {
			return nil, fmt.Errorf("evidence: %w", err)
		}
		for _, de := range des {
			if strings.HasPrefix(de.Name(), tempPrefix) {
				out = append(out, path.Join(sub, de.Name()))
			}
		}
	}
	return out, nil
}

// Recover finishes a rebase that was interrupted, and returns what it
// did, for people; nothing when none was. With the journal, a rebase
// interrupted while moving files away is undone (every file back under its
// old name), and one interrupted while giving them their new names is
// completed; a file under a temporary name that no journal lists (an
// older ctxpack's rebase) gets back the name it had, which its temporary
// name holds. It never replaces a file: a name that is taken is an error
// that names both files.
func (w *Workspace) Recover() ([]string, error) {
	if err := w.checkOwn(); err != nil {
		return nil, err
	}
	var notes []string
	data, err := os.ReadFile(w.abs(JournalFile))
	switch {
	case err == nil:
		j, err := parseJournal(data)
		if err != nil {
			return nil, fmt.Errorf("evidence: %s: %v; rename the files under %s… back by hand (the rest of their name is their old one), then remove it", path.Join(w.Shown, JournalFile), err, tempPrefix)
		}
		n := 0
		for _, m := range j.Moves {
			to := m.From
			if j.Placing {
				to = m.To
			}
			moved, err := w.restore(m.Temp, to)
			if err != nil {
				return notes, err
			}
			if moved {
				n++
			}
		}
		if err := os.Remove(w.abs(JournalFile)); err != nil {
			return notes, fmt.Errorf("evidence: %w", err)
		}
		if j.Placing {
			notes = append(notes, fmt.Sprintf("%s: finished the rebase that was interrupted: %d files given their new ranks", w.Shown, n))
		} else {
			notes = append(notes, fmt.Sprintf("%s: undid the rebase that was interrupted before it renumbered any file: %d files back under their names", w.Shown, n))
		}
	case !errors.Is(err, fs.ErrNotExist):
		return nil, fmt.Errorf("evidence: %w", err)
	}
	temps, err := w.temps()
	if err != nil {
		return notes, err
	}
	for _, t := range temps {
		orig := strings.TrimPrefix(path.Base(t), tempPrefix)
		if _, rest, ok := strings.Cut(orig, "-"); ok {
			orig = rest
		}
		to := path.Join(path.Dir(t), orig)
		if _, err := w.restore(t, to); err != nil {
			return notes, err
		}
		notes = append(notes, fmt.Sprintf("%s: left by an interrupted rebase; renamed back to %s", path.Join(w.Shown, t), path.Join(w.Shown, to)))
	}
	return notes, nil
}

// restore renames temp to to, unless temp is gone (already moved); a
// taken to is an error.
func (w *Workspace) restore(temp, to string) (bool, error) {
	if _, err := os.Lstat(w.abs(temp)); errors.Is(err, fs.ErrNotExist) {
		return false, nil
	}
	if _, err := os.Lstat(w.abs(to)); err == nil {
		return false, fmt.Errorf("evidence: %s, left by an interrupted rebase, should be %s, which exists; rename one of them by hand", path.Join(w.Shown, temp), path.Join(w.Shown, to))
	}
	if err := w.renameOS(w.abs(temp), w.abs(to)); err != nil {
		return false, fmt.Errorf("evidence: %w", err)
	}
	return true, nil
}

// writeJournal writes the journal, whole or not at all.
func (w *Workspace) writeJournal(j journal) error {
	data, err := json.MarshalIndent(j, "", "  ")
	if err != nil {
		return err
	}
	return project.WriteFileAtomic(w.abs(JournalFile), append(data, '\n'), ".journal-*", 0o644)
}

// Rebase renumbers the files in rank order (then kind, then path), keeping
// that order and each file's band: 000, 010, 020… for ranks below 100 and
// 100, 110, 120… from 100, closer together when a band has more files
// than fit ten apart. It returns the files it renamed; none when the
// ranks are already so.
//
// It renames in two passes, through temporary names, so that no rename
// replaces a file another one still has to move, and writes JournalFile
// first: a rebase interrupted at any point can be finished (Recover).
func (w *Workspace) Rebase(entries []Entry) ([]Renamed, error) {
	byRank := slices.Clone(entries)
	slices.SortFunc(byRank, func(a, b Entry) int {
		return cmp.Or(cmp.Compare(a.Rank, b.Rank), strings.Compare(a.Kind, b.Kind), strings.Compare(a.Rel, b.Rel))
	})
	var plan []Renamed
	for _, band := range [][2]int{{0, EvidenceRank - 1}, {EvidenceRank, MaxRank}} {
		var in []Entry
		for _, e := range byRank {
			if e.Rank >= band[0] && e.Rank <= band[1] {
				in = append(in, e)
			}
		}
		if len(in) == 0 {
			continue
		}
		width := band[1] - band[0] + 1
		if len(in) > width {
			return nil, fmt.Errorf("evidence: %d files in ranks %s-%s, more than there are ranks", len(in), RankString(band[0]), RankString(band[1]))
		}
		step := min(rankStep, width/len(in))
		for i, e := range in {
			to := e
			to.Rank = band[0] + i*step
			if to.Rank != e.Rank {
				to.Rel = path.Join(path.Dir(e.Rel), FileName(to.Rank, to.Kind, to.Role, to.State))
				plan = append(plan, Renamed{From: e, To: to})
			}
		}
	}
	if len(plan) == 0 {
		return nil, nil
	}
	j := journal{Moves: make([]move, len(plan))}
	for i, r := range plan {
		j.Moves[i] = move{From: r.From.Rel, Temp: tempName(r.From.Rel, i), To: r.To.Rel}
	}
	if err := w.writeJournal(j); err != nil {
		return nil, fmt.Errorf("evidence: rebase: %w", err)
	}
	for _, m := range j.Moves {
		if err := w.renameOS(w.abs(m.From), w.abs(m.Temp)); err != nil {
			return nil, w.interrupted(err)
		}
	}
	j.Placing = true
	if err := w.writeJournal(j); err != nil {
		return nil, w.interrupted(err)
	}
	for _, m := range j.Moves {
		if _, err := os.Lstat(w.abs(m.To)); err == nil {
			return nil, w.interrupted(fmt.Errorf("%s exists", path.Join(w.Shown, m.To)))
		}
		if err := w.renameOS(w.abs(m.Temp), w.abs(m.To)); err != nil {
			return nil, w.interrupted(err)
		}
	}
	if err := os.Remove(w.abs(JournalFile)); err != nil {
		return nil, fmt.Errorf("evidence: rebase: %w", err)
	}
	return plan, nil
}

// interrupted is the error of a rebase that stopped half way: it says
// what stopped it, and how to finish it.
func (w *Workspace) interrupted(err error) error {
	return fmt.Errorf("evidence: rebase: %s; the rebase stopped half way and its journal (%s) says how to finish it: run 'ctxpack evidence rebase' again once that is fixed", project.ErrorText(err), path.Join(w.Shown, JournalFile))
}

func tempName(rel string, i int) string {
	return path.Join(path.Dir(rel), tempPrefix+strconv.Itoa(i)+"-"+path.Base(rel))
}
