package evidence

import (
	"context"
	"errors"
	"fmt"
	"slices"
	"strings"

	workspace "github.com/ctxpack/ctxpack/internal/evidence"
	"github.com/ctxpack/ctxpack/internal/lexical"
)

// FocusEntry is what focus did with one evidence file.
type FocusEntry struct {
	EntryView                 // as it is after focus
	Entry     workspace.Entry `json:"-"`
	// Kept says the file stays on; Why says why, or why it was turned off.
	Kept bool   `json:"kept" jsonschema:"whether it stays on"`
	Why  string `json:"why"`
}

// FocusReport is the result of a focus.
type FocusReport struct {
	Query    string       `json:"query,omitempty"`
	Files    []FocusEntry `json:"files" jsonschema:"each evidence file that was on: kept, or turned off and why"`
	Restored []string     `json:"restored" jsonschema:"the files a previous focus had turned off, turned back on (first, for a new focus)"`
	Warnings []string     `json:"warnings"`
}

// Focus turns off the evidence files that are not relevant to query, and
// records them (workspace.SetFocused) so that FocusOff turns them back
// on. A file is relevant
// when one of the top hits Env.Search gives for the query overlaps the
// span it was made from; a file with no project source when it holds at
// least half of the query's terms (lexical.Terms). System and user files,
// and links, are never turned off. A previous focus is replaced: the files
// it turned off are candidates again. When nothing is relevant, nothing
// changes and an error says so. top <= 0 is 20.
func (e Env) Focus(ctx context.Context, ws *workspace.Workspace, query string, top int) (*FocusReport, error) {
	if strings.TrimSpace(query) == "" {
		return nil, fmt.Errorf("ctxpack: the focus query is empty (focus off turns a focus off)")
	}
	if top <= 0 {
		top = 20
	}
	entries, warnings, err := ws.List()
	if err != nil {
		return nil, err
	}
	prev, err := ws.Focused()
	if err != nil {
		return nil, err
	}
	hits, warns, err := e.Search(ctx, query, top)
	if err != nil {
		return nil, err
	}
	files, w2 := e.readWorkspace(ws, entries)
	rep := &FocusReport{Query: query, Files: []FocusEntry{}, Warnings: append(append(append([]string{}, warnings...), warns...), w2...)}
	// Decide first, on the files that are on and those the previous focus
	// turned off; change nothing until something is relevant.
	terms := uniqueTerms(query)
	off := map[string]bool{} // id and role of the files to turn off
	kept := false
	for _, f := range files {
		en := f.entry
		if en.Role != workspace.Evidence || f.err != nil || en.State == workspace.Skipped && !slices.Contains(prev, en.Rel) {
			continue
		}
		fe := FocusEntry{EntryView: ViewEntry(ws, en), Entry: en}
		fe.Kept, fe.Why = e.relevant(f, hits, terms)
		switch {
		case en.State == workspace.Linked && !fe.Kept:
			fe.Kept, fe.Why = true, fe.Why+"; kept: links are always active"
		case fe.Kept:
			kept = true
		default:
			off[en.ID()+"."+string(en.Role)] = true
		}
		rep.Files = append(rep.Files, fe)
	}
	if !kept && len(off) > 0 {
		return nil, fmt.Errorf("ctxpack: no evidence is relevant to %q; nothing was changed (try other words, or more hits)", query)
	}
	restored, warns, err := FocusOff(ws)
	if err != nil {
		return nil, err
	}
	rep.Restored, rep.Warnings = append([]string{}, restored...), append(rep.Warnings, warns...)
	if entries, _, err = ws.List(); err != nil {
		return nil, err
	}
	var record []string
	for _, en := range entries {
		if !off[en.ID()+"."+string(en.Role)] || en.State != workspace.Active {
			continue
		}
		ne, err := ws.SetState(en, workspace.Skipped)
		if err != nil {
			return nil, errors.Join(err, ws.SetFocused(record)) // keep what was turned off so far
		}
		record = append(record, ne.Rel)
	}
	if err := ws.SetFocused(record); err != nil {
		return nil, err
	}
	// Show each file as it is now.
	if entries, _, err = ws.List(); err != nil {
		return nil, err
	}
	for i, fe := range rep.Files {
		if j := slices.IndexFunc(entries, func(en workspace.Entry) bool { return en.ID() == fe.Entry.ID() && en.Role == fe.Entry.Role }); j >= 0 {
			rep.Files[i].Entry, rep.Files[i].EntryView = entries[j], ViewEntry(ws, entries[j])
		}
	}
	return rep, nil
}

// relevant says whether a file is relevant to the query, and why.
func (e Env) relevant(f *wsFile, hits []Hit, terms []string) (bool, string) {
	if f.sel != nil {
		lo, hi := e.sourceLines(f)
		for i, h := range hits {
			if h.Path == f.sel.Path && h.StartLine <= hi && h.EndLine >= lo {
				return true, fmt.Sprintf("hit %d of the query, %s:%d-%d (relevance %.3f), overlaps it", i+1, h.Path, h.StartLine, h.EndLine, h.Relevance)
			}
		}
		return false, fmt.Sprintf("none of the %d hits of the query overlaps %s", len(hits), f.sel)
	}
	have := map[string]bool{}
	for _, t := range lexical.Terms(f.body) {
		have[t] = true
	}
	n := 0
	for _, t := range terms {
		if have[t] {
			n++
		}
	}
	if len(terms) > 0 && 2*n >= len(terms) {
		return true, fmt.Sprintf("holds %d of the query's %d terms", n, len(terms))
	}
	return false, fmt.Sprintf("holds %d of the query's %d terms, and has no project source to match hits against", n, len(terms))
}

func uniqueTerms(s string) []string {
	t := lexical.Terms(s)
	slices.Sort(t)
	return slices.Compact(t)
}

// FocusOff turns back on the files a focus turned off, and forgets the
// focus. It returns the files it turned on and warnings for the recorded
// files that are no longer there as focus left them.
func FocusOff(ws *workspace.Workspace) ([]string, []string, error) {
	if !ws.Exists() {
		return nil, nil, nil
	}
	rels, err := ws.Focused()
	if err != nil || len(rels) == 0 {
		return nil, nil, err
	}
	entries, _, err := ws.List()
	if err != nil {
		return nil, nil, err
	}
	var on, warnings []string
	for _, rel := range rels {
		i := slices.IndexFunc(entries, func(en workspace.Entry) bool { return en.Rel == rel })
		if i < 0 || entries[i].State != workspace.Skipped {
			warnings = append(warnings, fmt.Sprintf("%s: focus turned it off, but it is no longer there as a skipped file; left as it is", ws.Shown+"/"+rel))
			continue
		}
		ne, err := ws.SetState(entries[i], workspace.Active)
		if err != nil {
			return on, warnings, err
		}
		on = append(on, ws.ShownPath(ne))
	}
	return on, warnings, ws.SetFocused(nil)
}
