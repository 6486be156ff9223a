package evidence

import (
	"errors"
	"fmt"
	"io/fs"
	"path/filepath"
	"strings"
	"unicode/utf8"

	workspace "github.com/ctxpack/ctxpack/internal/evidence"
	"github.com/ctxpack/ctxpack/internal/project"
	"github.com/ctxpack/ctxpack/internal/tokenizer"
)

// Excerpt is what a selector selects from a project file, read now.
type Excerpt struct {
	Selector workspace.Selector
	workspace.Excerpt
	CID      string   // content id of the excerpt's text
	Lines    int      // lines in the whole file
	Warnings []string // invalid UTF-8 repaired
}

// Provenance is the excerpt's provenance comment's fields.
func (ex *Excerpt) Provenance() workspace.Provenance {
	return workspace.Provenance{URI: workspace.FileURI(ex.Selector.Path), CID: ex.CID, Span: ex.Selector.Span(), Tags: ex.Selector.Tags}
}

// ReadSelector parses a selector and reads what it selects. Paths that
// leave the project (through "..", or a symlink), folders, binary files,
// files over MaxFileBytes and ranges past the end are errors that say so.
func (e Env) ReadSelector(s string) (*Excerpt, error) {
	sel, err := workspace.ParseSelector(s)
	if err != nil {
		return nil, err
	}
	return e.readSelector(sel)
}

func (e Env) readSelector(sel workspace.Selector) (*Excerpt, error) {
	if _, err := project.Resolve(e.Root, e.Root, filepath.FromSlash(sel.Path)); err != nil {
		// Resolve's message names the root and the target, absolute: this
		// one reaches plans, which hold no absolute path. The selector
		// cannot hold "..", so it is a symlink.
		return nil, fmt.Errorf("ctxpack: %s: a symlink leads outside the project root; evidence is project files", sel.Path)
	}
	info, err := fs.Stat(e.FS, sel.Path)
	switch {
	case errors.Is(err, fs.ErrNotExist):
		return nil, fmt.Errorf("ctxpack: %s: no such file in the project (paths are relative to the project root)", sel.Path)
	case err != nil:
		return nil, fmt.Errorf("ctxpack: %s: %w", sel.Path, err)
	case info.IsDir():
		return nil, fmt.Errorf("ctxpack: %s is a folder; a selector names one file", sel.Path)
	case !info.Mode().IsRegular():
		return nil, fmt.Errorf("ctxpack: %s is not a regular file", sel.Path)
	}
	limit := e.maxFileBytes()
	if info.Size() > limit {
		return nil, fmt.Errorf("ctxpack: %s is %d bytes, over walk.max_file_bytes (%d); select from a smaller file or raise the limit in .ctxpack/config.yaml", sel.Path, info.Size(), limit)
	}
	text, repaired, err := project.ReadTextLimit(e.FS, sel.Path, limit) // checked again on the file opened
	if err != nil {
		return nil, fmt.Errorf("ctxpack: %w", err)
	}
	if bin, why := project.Binary([]byte(text[:min(len(text), project.BinaryProbeBytes)])); bin { // the walk's rule
		return nil, fmt.Errorf("ctxpack: %s is binary (%s); evidence is text", sel.Path, why)
	}
	var warnings []string
	if repaired {
		warnings = append(warnings, fmt.Sprintf("%s: invalid UTF-8 replaced with U+FFFD", sel.Path))
	}
	ex, err := sel.Select(text)
	if err != nil {
		return nil, err
	}
	lines := project.CountLines(text)
	return &Excerpt{Selector: sel, Excerpt: ex, CID: project.ContentID(ex.Text), Lines: lines, Warnings: warnings}, nil
}

// wsFile is a workspace file as assembly and the evidence commands read
// it: its text as assembly shows it, and where that text came from.
type wsFile struct {
	entry workspace.Entry
	path  string // the workspace file, relative to the root
	// err says why the file could not be read; the fields below are empty
	// then.
	err error
	// text is the file's text (a link's: what it reads now), with invalid
	// UTF-8 repaired; body is what is shown under title.
	text, title, body string
	prov              *workspace.Provenance
	sel               *workspace.Selector // the project file and span its text came from; nil if none

	// src is the source span as it is now, read once by source (a link's
	// when it is read).
	src     *Excerpt
	srcErr  error
	srcRead bool
}

// readWorkspace reads entries, in order. A file that cannot be read has
// its err set and is warned about; invalid UTF-8 is repaired, with a
// warning.
func (e Env) readWorkspace(ws *workspace.Workspace, entries []workspace.Entry) ([]*wsFile, []string) {
	files := make([]*wsFile, len(entries))
	var warnings []string
	for i, en := range entries {
		f := &wsFile{entry: en, path: ws.ShownPath(en)}
		files[i] = f
		if en.State == workspace.Linked {
			sel, err := ws.Link(en)
			if err != nil {
				f.err = err
				warnings = append(warnings, err.Error())
				continue
			}
			ex, err := e.readSelector(sel)
			if err != nil {
				f.err = fmt.Errorf("%s: %w", f.path, err)
				warnings = append(warnings, f.err.Error())
				continue
			}
			warnings = append(warnings, ex.Warnings...)
			prov := ex.Provenance()
			f.sel, f.src, f.srcRead = &sel, ex, true
			f.text = Text(en.Role, prov, sel.Path, fenceLang(sel.Path), ex.Text)
		} else {
			data, err := ws.Read(en, e.maxFileBytes())
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
		f.title, f.body, f.prov = splitEvidence(en, f.text, f.path)
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
func (e Env) source(f *wsFile) (*Excerpt, error) {
	if !f.srcRead && f.sel != nil {
		f.src, f.srcErr = e.readSelector(*f.sel)
	}
	f.srcRead = true
	return f.src, f.srcErr
}

// sourceLines is the first and last line of the file's source span now;
// the whole file's range when it cannot be read.
func (e Env) sourceLines(f *wsFile) (int, int) {
	if ex, err := e.source(f); err == nil && ex != nil {
		return ex.StartLine, ex.EndLine
	}
	return 1, int(^uint(0) >> 1)
}

// splitEvidence finds a workspace file's title, the text to show under it,
// and its provenance. An evidence file that starts with "## Evidence:
// TITLE" (as evidence add writes it) is shown under that title without
// the line; otherwise the title is the source path of its provenance
// comment, or the file's own path. System and user files are shown whole.
func splitEvidence(e workspace.Entry, text, shownPath string) (title, body string, prov *workspace.Provenance) {
	body, title = text, shownPath
	first, rest, _ := strings.Cut(text, "\n")
	if e.Role == workspace.Evidence {
		if t, ok := strings.CutPrefix(strings.TrimSuffix(first, "\r"), "## Evidence: "); ok && strings.TrimSpace(t) != "" {
			title, body = strings.TrimSpace(t), rest
			first, _, _ = strings.Cut(rest, "\n")
		} else if pv, ok, err := workspace.ParseProvenance(first); ok && err == nil {
			if fp, ok := workspace.FilePath(pv.URI); ok {
				title = fp
			}
		}
	}
	if pv, ok, err := workspace.ParseProvenance(first); ok && err == nil {
		prov = &pv
	}
	return title, body, prov
}
