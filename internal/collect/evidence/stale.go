package evidence

import (
	"errors"
	"io/fs"

	workspace "github.com/ctxpack/ctxpack/internal/evidence"
)

// StaleEntry is a workspace file whose source no longer holds the text it
// was made from.
type StaleEntry struct {
	EntryView
	Entry    workspace.Entry `json:"-"`
	Selector string          `json:"selector" jsonschema:"where its text came from"`
	// Reason: "changed" (the span's text has another content id now),
	// "missing" (the file is gone, or the span is past its end: Detail
	// says which) or "unreadable".
	Reason string `json:"reason" jsonschema:"changed (the span's text is not what was added), missing (the file is gone, or the span ends past it) or unreadable"`
	Detail string `json:"detail,omitempty"`
	Was    string `json:"was" jsonschema:"the content id recorded when it was added"`
	Now    string `json:"now,omitempty" jsonschema:"the content id now; absent when it cannot be read"`
}

// StaleReport is what evidence stale found.
type StaleReport struct {
	Stale []StaleEntry `json:"stale"`
	// Checked counts the files with a project-file provenance that were
	// compared; Untracked the files without one (written by hand, or from
	// text), which cannot go stale. Links read their file afresh and are
	// never stale.
	Checked   int      `json:"checked" jsonschema:"the files made from a project file, compared"`
	Untracked int      `json:"untracked" jsonschema:"the files written from text or by hand, which cannot go stale"`
	Links     int      `json:"links" jsonschema:"the links, read afresh and never stale"`
	Warnings  []string `json:"warnings"`
}

// Stale compares every workspace file made from a project file (skipped
// ones too) with that file now, by the content id of the selected span,
// re-selected by the recorded selector.
func (e Env) Stale(ws *workspace.Workspace) (*StaleReport, error) {
	entries, warnings, err := ws.List()
	if err != nil {
		return nil, err
	}
	files, warns := e.readWorkspace(ws, entries)
	rep := &StaleReport{Stale: []StaleEntry{}, Warnings: append(append([]string{}, warnings...), warns...)}
	for _, f := range files {
		switch {
		case f.err != nil: // warned
			continue
		case f.entry.State == workspace.Linked:
			rep.Links++
			continue
		case f.prov == nil || f.sel == nil:
			rep.Untracked++
			continue
		}
		rep.Checked++
		st := StaleEntry{EntryView: ViewEntry(ws, f.entry), Entry: f.entry, Selector: f.sel.String(), Was: f.prov.CID}
		ex, err := e.source(f)
		switch {
		case err == nil && ex.CID == f.prov.CID:
			continue
		case err == nil:
			st.Reason, st.Now = "changed", ex.CID
		default:
			st.Reason, st.Detail = "missing", err.Error()
			if _, serr := fs.Stat(e.FS, f.sel.Path); serr != nil && !errors.Is(serr, fs.ErrNotExist) {
				st.Reason = "unreadable"
			}
		}
		rep.Stale = append(rep.Stale, st)
	}
	return rep, nil
}
