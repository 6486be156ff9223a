package ctxpack

import (
	"fmt"
	"unicode/utf8"

	"github.com/ctxpack/ctxpack/internal/evidence"
	"github.com/ctxpack/ctxpack/internal/tokenizer"
)

// wsFile is a workspace file as assembly and the evidence commands read
// it: its text as assembly shows it, and where that text came from.
type wsFile struct {
	entry evidence.Entry
	path  string // the workspace file, relative to the root
	// err says why the file could not be read; the fields below are empty
	// then.
	err error
	// text is the file's text (a link's: what it reads now), with invalid
	// UTF-8 repaired; body is what is shown under title.
	text, title, body string
	prov              *evidence.Provenance
	sel               *evidence.Selector // the project file and span its text came from; nil if none

	// src is the source span as it is now, read once by source (a link's
	// when it is read).
	src     *Excerpt
	srcErr  error
	srcRead bool
}

// readWorkspace reads entries, in order. A file that cannot be read has
// its err set and is warned about; invalid UTF-8 is repaired, with a
// warning.
func (p *Project) readWorkspace(ws *Workspace, entries []evidence.Entry) ([]*wsFile, []string) {
	files := make([]*wsFile, len(entries))
	var warnings []string
	for i, e := range entries {
		f := &wsFile{entry: e, path: ws.ShownPath(e)}
		files[i] = f
		if e.State == evidence.Linked {
			sel, err := ws.Link(e)
			if err != nil {
				f.err = err
				warnings = append(warnings, err.Error())
				continue
			}
			ex, err := p.readSelector(sel)
			if err != nil {
				f.err = fmt.Errorf("%s: %w", f.path, err)
				warnings = append(warnings, f.err.Error())
				continue
			}
			warnings = append(warnings, ex.Warnings...)
			prov := ex.Provenance()
			f.sel, f.src, f.srcRead = &sel, ex, true
			f.text = EvidenceText(e.Role, prov, sel.Path, fenceLang(sel.Path), ex.Text)
		} else {
			data, err := ws.Read(e, p.maxFileBytes())
			if err != nil {
				f.err = err
				warnings = append(warnings, err.Error())
				continue
			}
			f.text = string(data)
			if !utf8.ValidString(f.text) {
				f.text = tokenizer.ToValidUTF8(f.text)
				warnings = append(warnings, fmt.Sprintf("%s: invalid UTF-8 replaced with U+FFFD", f.path))
			}
		}
		f.title, f.body, f.prov = splitEvidence(e, f.text, f.path)
		if f.sel == nil && f.prov != nil {
			if sel, err := f.prov.Selector(); err == nil {
				f.sel = &sel
			}
		}
	}
	return files, warnings
}

// source is the file's source span as it is now, read once; nil and no
// error when the file has no project source.
func (p *Project) source(f *wsFile) (*Excerpt, error) {
	if !f.srcRead && f.sel != nil {
		f.src, f.srcErr = p.readSelector(*f.sel)
	}
	f.srcRead = true
	return f.src, f.srcErr
}

// sourceLines is the first and last line of the file's source span now;
// the whole file's range when it cannot be read.
func (p *Project) sourceLines(f *wsFile) (int, int) {
	if ex, err := p.source(f); err == nil && ex != nil {
		return ex.StartLine, ex.EndLine
	}
	return 1, int(^uint(0) >> 1)
}
