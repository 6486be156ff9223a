package app

import (
	"fmt"

	"github.com/ctxpack/ctxpack/internal/evidence"
)

// The operations on an evidence workspace's files, for every front end,
// in the facade's types: list, toggle, rank, rebase, remove. Each reads
// the workspace afresh; a front end that serves several clients at once
// serializes the operations that change it.

// MaxEvidenceRank is the highest rank of a workspace file.
const MaxEvidenceRank = evidence.MaxRank

// EvidenceRoles are the roles of workspace files, in assembly order:
// system, user, evidence.
func EvidenceRoles() []string { return names(evidence.Roles()) }

// EvidenceRole is the role of evidence files (code, documentation,
// relevant files), as EvidenceEntry.Role shows it.
const EvidenceRole = string(evidence.Evidence)

// The states of workspace files, as EvidenceEntry.State shows them.
const (
	EvidenceActive  = string(evidence.Active)  // name.md: assembled
	EvidenceSkipped = string(evidence.Skipped) // name.md.skip: left out
	EvidenceLinked  = string(evidence.Linked)  // name.link: read afresh at each assembly, always active
)

// ParseEvidenceRank parses a rank as the commands take it: 0 to
// MaxEvidenceRank, with or without leading zeros.
func ParseEvidenceRank(s string) (int, error) { return evidence.ParseRank(s) }

// CheckEvidenceRole checks a role: one of EvidenceRoles.
func CheckEvidenceRole(s string) error {
	_, err := evidence.ParseRole(s)
	return err
}

// ValidEvidenceKind reports whether s can be the kind of a workspace
// file, in its name: 1 to 64 of A-Z a-z 0-9 _ -.
func ValidEvidenceKind(s string) bool { return evidence.ValidKind(s) }

// EvidenceSourceFile is the project file a plan part's Source names (a
// file:// URI), and false for a source that is not a project file (text
// given on standard input).
func EvidenceSourceFile(source string) (string, bool) { return evidence.FilePath(source) }

// RankTakenError is a rank another file of the workspace has.
type RankTakenError = evidence.RankTakenError

// LinkActiveError is a link asked to turn off: links are always active.
type LinkActiveError = evidence.LinkActiveError

// CheckSelector checks the form of a selector (path[::range][#tags]).
func CheckSelector(s string) error {
	_, err := evidence.ParseSelector(s)
	return err
}

// CheckRankRange checks a rank range ("300-399").
func CheckRankRange(s string) error {
	if _, _, ok := evidence.ParseRankRange(s); !ok {
		return fmt.Errorf("ctxpack: range %q is not two ranks from 0 to %d, the first not above the second (300-399)", s, evidence.MaxRank)
	}
	return nil
}

// EvidenceToggled is a file a toggle reached, as it is now; Note, when
// not empty, says why it was left as it was.
type EvidenceToggled struct {
	Entry EvidenceEntry
	Note  string
}

// EvidenceRenamed is a file given another rank: From as it was, Entry as
// it is now.
type EvidenceRenamed struct {
	From, Entry EvidenceEntry
}

// EvidenceEntries lists the workspace's files in assembly order, with a
// warning for each file of the folder that is not one.
func (p *Project) EvidenceEntries(ws *Workspace) ([]EvidenceEntry, []string, error) {
	entries, warnings, err := ws.List()
	if err != nil {
		return nil, nil, err
	}
	out := make([]EvidenceEntry, len(entries))
	for i, e := range entries {
		out[i] = ViewEntry(ws, e)
	}
	return out, warnings, nil
}

// ToggleEvidence turns the files target names on (state "on") or off
// ("off"), or flips one (""): target is a rank range ("300-399", which
// needs a state), or a file name, an id or a rank. Links are always
// active: one named alone is an error, links in a range are left with a
// note, as are files already in the state asked for. On an error while
// renaming, it returns the files reached before it.
func (p *Project) ToggleEvidence(ws *Workspace, target, state string) ([]EvidenceToggled, []string, error) {
	want, ok := map[string]evidence.State{"on": evidence.Active, "off": evidence.Skipped, "": ""}[state]
	if !ok {
		return nil, nil, fmt.Errorf("ctxpack: state must be on or off (got %q)", state)
	}
	entries, warnings, err := ws.List()
	if err != nil {
		return nil, nil, err
	}
	toggled, err := ws.Toggle(entries, target, want)
	out := make([]EvidenceToggled, len(toggled))
	for i, t := range toggled {
		out[i] = EvidenceToggled{Entry: ViewEntry(ws, t.To), Note: t.Note}
	}
	return out, warnings, err
}

// RankEvidence gives the file id names another rank, which must be free.
func (p *Project) RankEvidence(ws *Workspace, id string, rank int) (EvidenceRenamed, []string, error) {
	entries, warnings, err := ws.List()
	if err != nil {
		return EvidenceRenamed{}, nil, err
	}
	e, err := evidence.Find(entries, id)
	if err != nil {
		return EvidenceRenamed{}, warnings, err
	}
	ne, err := ws.SetRank(entries, e, rank)
	if err != nil {
		return EvidenceRenamed{}, warnings, err
	}
	return EvidenceRenamed{From: ViewEntry(ws, e), Entry: ViewEntry(ws, ne)}, warnings, nil
}

// RebaseEvidence renumbers the files ten ranks apart (closer when a band
// is full), keeping their order, and returns those renamed. A rebase that
// was interrupted is finished first (evidence.Workspace.Recover), with a
// warning that says what that did.
func (p *Project) RebaseEvidence(ws *Workspace) ([]EvidenceRenamed, []string, error) {
	notes, err := ws.Recover()
	if err != nil {
		return nil, notes, err
	}
	entries, warnings, err := ws.List()
	warnings = append(notes, warnings...)
	if err != nil {
		return nil, warnings, err
	}
	renamed, err := ws.Rebase(entries)
	if err != nil {
		return nil, warnings, err
	}
	out := make([]EvidenceRenamed, len(renamed))
	for i, r := range renamed {
		out[i] = EvidenceRenamed{From: ViewEntry(ws, r.From), Entry: ViewEntry(ws, r.To)}
	}
	return out, warnings, nil
}

// RemoveEvidence deletes the files ids name, each once, after finding
// them all, and returns them as they were; on an error, those deleted
// before it.
func (p *Project) RemoveEvidence(ws *Workspace, ids []string) ([]EvidenceEntry, []string, error) {
	entries, warnings, err := ws.List()
	if err != nil {
		return nil, nil, err
	}
	removed, err := ws.Remove(entries, ids)
	out := make([]EvidenceEntry, len(removed))
	for i, e := range removed {
		out[i] = ViewEntry(ws, e)
	}
	return out, warnings, err
}
