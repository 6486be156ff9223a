package evidence

import (
	"context"
	"slices"

	"github.com/ctxpack/ctxpack/internal/chunk"
	workspace "github.com/ctxpack/ctxpack/internal/evidence"
	"github.com/ctxpack/ctxpack/internal/index"
	"github.com/ctxpack/ctxpack/internal/words"
)

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

// minNameBytes is the shortest identifier deps looks up: shorter ones (i,
// n, ok) are too common to say anything.
const minNameBytes = 3

// Deps reports what references what between the workspace file id names
// and the others, from the repository index (Env.Index): the names its
// span defines (the symbols of the index chunks that overlap the span of
// its source now) and the lines of other workspace files that use them,
// and the identifiers (words.Identifiers) its text uses that the index
// defines, with the workspace file that holds each definition or none.
// A name defined in more than maxDefinitions places is not followed, nor
// one defined in the file's own span.
func (e Env) Deps(ctx context.Context, ws *workspace.Workspace, id string) (*Deps, error) {
	entries, warnings, err := ws.List()
	if err != nil {
		return nil, err
	}
	target, err := workspace.Find(entries, id)
	if err != nil {
		return nil, err
	}
	ix, warns, err := e.Index(ctx)
	if err != nil {
		return nil, err
	}
	defer ix.Close()
	files, w2 := e.readWorkspace(ws, entries)
	d := &Deps{Entry: ws.ShownPath(target), Defines: []string{}, Uses: []DepLink{}, Outside: []DepLink{}, UsedBy: []DepRef{},
		Warnings: append(append(append([]string{}, warnings...), warns...), w2...)}
	spans, defines, err := e.defined(ctx, ix, files)
	if err != nil {
		return nil, err
	}
	ti := slices.IndexFunc(files, func(f *wsFile) bool { return f.entry.Rel == target.Rel })
	if ti < 0 || files[ti].err != nil {
		return d, nil // unreadable: warned
	}
	if t := files[ti]; t.sel != nil {
		d.Source = t.sel.String()
	}
	if defines[ti] != nil {
		d.Defines = defines[ti]
	}
	d.addUsers(files, ti, defines)
	if err := d.addUses(ctx, ix, files, ti, spans); err != nil {
		return nil, err
	}
	return d, nil
}

// defined gives each file's source span as it is now, and the names the
// index's chunks that overlap it define, sorted; neither for a file with
// no project source.
func (e Env) defined(ctx context.Context, ix Index, files []*wsFile) ([][2]int, [][]string, error) {
	spans := make([][2]int, len(files))
	defines := make([][]string, len(files))
	for i, f := range files {
		if f.sel == nil {
			continue
		}
		lo, hi := e.sourceLines(f)
		spans[i] = [2]int{lo, hi}
		chunks, err := ix.FileChunks(ctx, f.sel.Path)
		if err != nil {
			return nil, nil, err
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
	return spans, defines, nil
}

// addUsers adds the first line of each other readable file that uses a
// name d defines, unless that file defines the name too.
func (d *Deps) addUsers(files []*wsFile, ti int, defines [][]string) {
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
}

// addUses adds the names files[ti] uses and does not define, with where
// the index defines them: in another workspace file's span (Uses) or in
// none (Outside).
func (d *Deps) addUses(ctx context.Context, ix Index, files []*wsFile, ti int, spans [][2]int) error {
	used := words.Identifiers(files[ti].body, minNameBytes)
	used = slices.DeleteFunc(used, func(n string) bool { return slices.Contains(d.Defines, n) })
	hits, err := ix.Definitions(ctx, used)
	if err != nil {
		return err
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
			if holds(files[ti], spans[ti], h) {
				continue // defined in the file's own span
			}
			link := DepLink{Name: name, Path: h.Path, Lines: [2]int{h.StartLine, h.EndLine}}
			for i, f := range files {
				if i != ti && holds(f, spans[i], h) {
					link.Entry = f.path
					break
				}
			}
			if link.Entry != "" {
				d.Uses = append(d.Uses, link)
			} else {
				d.Outside = append(d.Outside, link)
			}
		}
	}
	return nil
}

// holds reports whether the definition h overlaps the span of f's source.
func holds(f *wsFile, span [2]int, h index.Hit) bool {
	return f.sel != nil && f.sel.Path == h.Path && h.StartLine <= span[1] && h.EndLine >= span[0]
}
