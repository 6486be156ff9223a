package ctxpack

import (
	"context"
	"errors"
	"fmt"
	"io/fs"
	"slices"
	"strconv"
	"strings"

	"github.com/ctxpack/ctxpack/internal/chunk"
	"github.com/ctxpack/ctxpack/internal/evidence"
	"github.com/ctxpack/ctxpack/internal/index"
	"github.com/ctxpack/ctxpack/internal/lexical"
	"github.com/ctxpack/ctxpack/internal/retrieve"
	"github.com/ctxpack/ctxpack/internal/words"
)

// StaleEntry is a workspace file whose source no longer holds the text it
// was made from.
type StaleEntry struct {
	EvidenceEntry
	Entry    evidence.Entry `json:"-"`
	Selector string         `json:"selector" jsonschema:"where its text came from"`
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

// StaleEvidence compares every workspace file made from a project file
// with that file now, by the content id of the selected span.
func (p *Project) StaleEvidence(ws *Workspace) (*StaleReport, error) {
	entries, warnings, err := ws.List()
	if err != nil {
		return nil, err
	}
	files, warns := p.readWorkspace(ws, entries)
	rep := &StaleReport{Stale: []StaleEntry{}, Warnings: append(append([]string{}, warnings...), warns...)}
	for _, f := range files {
		switch {
		case f.err != nil: // warned
			continue
		case f.entry.State == evidence.Linked:
			rep.Links++
			continue
		case f.prov == nil || f.sel == nil:
			rep.Untracked++
			continue
		}
		rep.Checked++
		st := StaleEntry{EvidenceEntry: ViewEntry(ws, f.entry), Entry: f.entry, Selector: f.sel.String(), Was: f.prov.CID}
		ex, err := p.source(f)
		switch {
		case err == nil && ex.CID == f.prov.CID:
			continue
		case err == nil:
			st.Reason, st.Now = "changed", ex.CID
		default:
			st.Reason, st.Detail = "missing", err.Error()
			if _, serr := fs.Stat(p.FS, f.sel.Path); serr != nil && !errors.Is(serr, fs.ErrNotExist) {
				st.Reason = "unreadable"
			}
		}
		rep.Stale = append(rep.Stale, st)
	}
	return rep, nil
}

// FocusEntry is what focus did with one evidence file.
type FocusEntry struct {
	EvidenceEntry                // as it is after focus
	Entry         evidence.Entry `json:"-"`
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

// FocusEvidence turns off the evidence files that are not relevant to
// query, and records them so that FocusOff turns them back on. A file is
// relevant when one of the top retrieval hits for the query (the
// repository index, brought up to date unless idx.NoUpdate) overlaps the
// span it was made from; a file with no project source when it holds at
// least half of the query's terms. System and user files, and links, are
// never turned off. A previous focus is replaced: the files it turned off
// are candidates again. When nothing is relevant, nothing changes and an
// error says so.
func (p *Project) FocusEvidence(ctx context.Context, ws *Workspace, query string, top int, idx IndexOptions) (*FocusReport, error) {
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
	hits, _, warns, err := p.Search(ctx, query, top, false, idx)
	if err != nil {
		return nil, err
	}
	files, w2 := p.readWorkspace(ws, entries)
	rep := &FocusReport{Query: query, Files: []FocusEntry{}, Warnings: append(append(append([]string{}, warnings...), warns...), w2...)}
	// Decide first, on the files that are on and those the previous focus
	// turned off; change nothing until something is relevant.
	terms := uniqueTerms(query)
	off := map[string]bool{} // id and role of the files to turn off
	kept := false
	for _, f := range files {
		e := f.entry
		if e.Role != evidence.Evidence || f.err != nil || e.State == evidence.Skipped && !slices.Contains(prev, e.Rel) {
			continue
		}
		fe := FocusEntry{EvidenceEntry: ViewEntry(ws, e), Entry: e}
		fe.Kept, fe.Why = p.relevant(f, hits, terms)
		switch {
		case e.State == evidence.Linked && !fe.Kept:
			fe.Kept, fe.Why = true, fe.Why+"; kept: links are always active"
		case fe.Kept:
			kept = true
		default:
			off[e.ID()+"."+string(e.Role)] = true
		}
		rep.Files = append(rep.Files, fe)
	}
	if !kept && len(off) > 0 {
		return nil, fmt.Errorf("ctxpack: no evidence is relevant to %q; nothing was changed (try other words, or more hits)", query)
	}
	restored, warns, err := p.FocusOff(ws)
	if err != nil {
		return nil, err
	}
	rep.Restored, rep.Warnings = append([]string{}, restored...), append(rep.Warnings, warns...)
	if entries, _, err = ws.List(); err != nil {
		return nil, err
	}
	var record []string
	for _, e := range entries {
		if !off[e.ID()+"."+string(e.Role)] || e.State != evidence.Active {
			continue
		}
		ne, err := ws.SetState(e, evidence.Skipped)
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
		if j := slices.IndexFunc(entries, func(e evidence.Entry) bool { return e.ID() == fe.Entry.ID() && e.Role == fe.Entry.Role }); j >= 0 {
			rep.Files[i].Entry, rep.Files[i].EvidenceEntry = entries[j], ViewEntry(ws, entries[j])
		}
	}
	return rep, nil
}

// relevant says whether a file is relevant to the query, and why.
func (p *Project) relevant(f *wsFile, hits []retrieve.Chunk, terms []string) (bool, string) {
	if f.sel != nil {
		lo, hi := p.sourceLines(f)
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
func (p *Project) FocusOff(ws *Workspace) ([]string, []string, error) {
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
		i := slices.IndexFunc(entries, func(e evidence.Entry) bool { return e.Rel == rel })
		if i < 0 || entries[i].State != evidence.Skipped {
			warnings = append(warnings, fmt.Sprintf("%s: focus turned it off, but it is no longer there as a skipped file; left as it is", ws.Shown+"/"+rel))
			continue
		}
		ne, err := ws.SetState(entries[i], evidence.Active)
		if err != nil {
			return on, warnings, err
		}
		on = append(on, ws.ShownPath(ne))
	}
	return on, warnings, ws.SetFocused(nil)
}

// DepLink is a name one file uses and where it is defined.
type DepLink struct {
	Name  string `json:"name"`
	Entry string `json:"entry,omitempty" jsonschema:"the workspace file that holds the definition"`
	Path  string `json:"path" jsonschema:"the definition's file"`
	Lines [2]int `json:"lines" jsonschema:"the definition's first and last line"`
}

// DepRef is a use of a name in a workspace file.
type DepRef struct {
	Entry string `json:"entry" jsonschema:"the workspace file that uses it"`
	Line  int    `json:"line"`
	Name  string `json:"name"`
}

// Deps is what references what around one workspace file.
type Deps struct {
	Entry   string   `json:"entry" jsonschema:"the file asked about"`
	Source  string   `json:"source,omitempty" jsonschema:"the selector it came from"`
	Defines []string `json:"defines" jsonschema:"the names its span defines"`
	// Uses are the names it uses that another workspace file defines;
	// Outside the names it uses that the project defines where no
	// workspace file reaches (evidence that may be missing).
	Uses    []DepLink `json:"uses" jsonschema:"the names it uses that another workspace file defines"`
	Outside []DepLink `json:"outside" jsonschema:"the names it uses that the project defines where no workspace file reaches: evidence that may be missing"`
	// UsedBy are the lines of other workspace files that use a name it
	// defines.
	UsedBy   []DepRef `json:"used_by" jsonschema:"the lines of other workspace files that use a name it defines"`
	Warnings []string `json:"warnings"`
}

// maxDefinitions is how many definitions a name may have for deps to
// follow it: a name defined in more places (String, Error, init) says
// little about which one is meant.
const maxDefinitions = 3

// EvidenceDeps reports what references what between the workspace file
// id names and the others, from the repository index (brought up to date
// unless idx.NoUpdate): the names its span defines and which files use
// them, and the names it uses and which files, in the workspace or not,
// define them.
func (p *Project) EvidenceDeps(ctx context.Context, ws *Workspace, id string, idx IndexOptions) (*Deps, error) {
	entries, warnings, err := ws.List()
	if err != nil {
		return nil, err
	}
	target, err := evidence.Find(entries, id)
	if err != nil {
		return nil, err
	}
	oi, warns, err := p.currentIndex(ctx, idx)
	if err != nil {
		return nil, err
	}
	defer oi.Close()
	files, w2 := p.readWorkspace(ws, entries)
	d := &Deps{Entry: ws.ShownPath(target), Defines: []string{}, Uses: []DepLink{}, Outside: []DepLink{}, UsedBy: []DepRef{},
		Warnings: append(append(append([]string{}, warnings...), warns...), w2...)}
	spans := make([][2]int, len(files))
	defines := make([][]string, len(files))
	ti := -1
	for i, f := range files {
		if f.entry.Rel == target.Rel {
			ti = i
		}
		if f.sel == nil {
			continue
		}
		lo, hi := p.sourceLines(f)
		spans[i] = [2]int{lo, hi}
		chunks, err := oi.FileChunks(ctx, f.sel.Path)
		if err != nil {
			return nil, err
		}
		var names []string
		for _, c := range chunks {
			if c.StartLine <= hi && c.EndLine >= lo {
				names = append(names, chunk.SymbolNames(c.Symbol)...)
			}
		}
		slices.Sort(names)
		defines[i] = slices.Compact(names)
	}
	if ti < 0 || files[ti].err != nil {
		return d, nil // unreadable: warned
	}
	t := files[ti]
	if t.sel != nil {
		d.Source = t.sel.String()
	}
	if defines[ti] != nil {
		d.Defines = defines[ti]
	}
	// Who uses what the file defines.
	for i, f := range files {
		if i == ti || f.err != nil {
			continue
		}
		for _, name := range d.Defines {
			if slices.Contains(defines[i], name) {
				continue
			}
			if line := words.IdentifierLine(f.text, name); line > 0 {
				d.UsedBy = append(d.UsedBy, DepRef{Entry: f.path, Line: line, Name: name})
			}
		}
	}
	// What the file uses, and where that is defined.
	used := words.Identifiers(t.body, 3)
	used = slices.DeleteFunc(used, func(n string) bool { return slices.Contains(d.Defines, n) })
	hits, err := oi.Definitions(ctx, used)
	if err != nil {
		return nil, err
	}
	byName := make(map[string][]index.Hit, len(used))
	for _, n := range used {
		byName[n] = nil
	}
	for _, h := range hits {
		for _, n := range chunk.SymbolNames(h.Symbol) {
			if defs, ok := byName[n]; ok {
				byName[n] = append(defs, h)
			}
		}
	}
	for _, name := range used {
		defs := byName[name]
		if len(defs) == 0 || len(defs) > maxDefinitions {
			continue
		}
		for _, h := range defs {
			link := DepLink{Name: name, Path: h.Path, Lines: [2]int{h.StartLine, h.EndLine}}
			for i, f := range files {
				if i != ti && f.sel != nil && f.sel.Path == h.Path && h.StartLine <= spans[i][1] && h.EndLine >= spans[i][0] {
					link.Entry = f.path
					break
				}
			}
			if t.sel != nil && t.sel.Path == h.Path && h.StartLine <= spans[ti][1] && h.EndLine >= spans[ti][0] {
				continue // defined in the file's own span
			}
			if link.Entry != "" {
				d.Uses = append(d.Uses, link)
			} else {
				d.Outside = append(d.Outside, link)
			}
		}
	}
	return d, nil
}

// ExportReport is what an export into a workspace wrote.
type ExportReport struct {
	Workspace string
	Written   []string // workspace files, relative to the root, in order
	Skipped   []string // parts that are not a project file, with why
	// Reduced counts the parts the assembly showed below full: the
	// workspace holds them whole.
	Reduced  int
	Warnings []string
}

// ExportEvidence writes an assembly's parts into a new workspace, so that
// a person can start from it and edit: the identity and norms as system
// files, the task or the query as the user request, every other part as
// evidence of its file and line span, ranked in the assembly's render
// order. The workspace must not exist or be empty.
func (p *Project) ExportEvidence(ws *Workspace, plan *Plan) (*ExportReport, error) {
	if ws.Exists() {
		entries, _, err := ws.List()
		if err != nil {
			return nil, err
		}
		if len(entries) > 0 {
			return nil, fmt.Errorf("ctxpack: workspace %s has %d files already; export into a new folder (or remove them)", ws.Shown, len(entries))
		}
	}
	rep := &ExportReport{Workspace: ws.Shown}
	add := func(ar AddRequest) error {
		ar.Rank = -1
		a, err := p.writeEvidence(ws, ar)
		if err != nil {
			return err
		}
		rep.Written = append(rep.Written, a.Path)
		rep.Warnings = append(rep.Warnings, a.Warnings...)
		return nil
	}
	if plan.Mode == "retrieval" && strings.TrimSpace(plan.Target) != "" {
		if err := add(AddRequest{Selector: "-", Text: plan.Target, Role: "user", Kind: "request"}); err != nil {
			return nil, err
		}
	}
	seen := map[string]bool{}
	for _, pt := range plan.Parts {
		if pt.Path == "" {
			rep.Skipped = append(rep.Skipped, pt.Key+": not a project file")
			continue
		}
		sel := pt.Path
		if pt.Lines != nil {
			sel += "::" + strconv.Itoa(pt.Lines[0]) + "," + strconv.Itoa(pt.Lines[1])
		}
		ex, err := p.ReadSelector(sel)
		if err != nil {
			rep.Skipped = append(rep.Skipped, fmt.Sprintf("%s: %v", pt.Key, err))
			continue
		}
		if ex.Selector.Unit == evidence.Lines && ex.StartLine == 1 && ex.EndLine == ex.Lines {
			ex.Selector.Unit, ex.Selector.Start, ex.Selector.End = evidence.Whole, 0, 0 // all of it
		}
		if seen[ex.Selector.String()] {
			continue
		}
		seen[ex.Selector.String()] = true
		role := "evidence"
		switch pt.Type {
		case "identity", "norm":
			role = "system"
		case "task":
			role = "user"
		}
		if pt.Level != "full" || pt.Truncated {
			rep.Reduced++
		}
		if err := add(AddRequest{Selector: sel, Role: role, excerpt: ex}); err != nil {
			return nil, err
		}
	}
	if len(rep.Written) == 0 {
		return nil, fmt.Errorf("ctxpack: the assembly has no part from a project file to export")
	}
	return rep, nil
}
