package ctxpack

import (
	"context"
	"errors"
	"fmt"
	"io/fs"
	"path"
	"path/filepath"
	"strings"

	"github.com/ctxpack/ctxpack/internal/chunk"
	"github.com/ctxpack/ctxpack/internal/evidence"
	"github.com/ctxpack/ctxpack/internal/project"
	"github.com/ctxpack/ctxpack/internal/render"
)

// The evidence workspace (DESIGN §7, the mdctx seed): a ctx/ folder of
// ranked role files that a person curates, assembled into
// build/prompt.mdctx and build/ctxplan.json. This file opens workspaces
// and reads selectors; evidenceassemble.go is the collector and the plan,
// evidencetools.go the commands that use the index (focus, deps) and
// stale and export.

// Workspace is an evidence workspace of the project.
type Workspace = evidence.Workspace

// DefaultWorkspace is the folder evidence commands use when none is given.
const DefaultWorkspace = "ctx"

// Workspace opens the workspace in dir (relative to the project's working
// directory, or absolute), which must be inside the project root and
// need not exist yet.
func (p *Project) Workspace(dir string) (*Workspace, error) {
	if dir == "" {
		dir = DefaultWorkspace
	}
	rel, err := project.Resolve(p.Root, p.Dir, dir)
	if err != nil {
		return nil, fmt.Errorf("ctxpack: workspace: %w", err)
	}
	if rel == "." {
		return nil, fmt.Errorf("ctxpack: workspace %s is the project root; a workspace is a folder in it (ctx)", dir)
	}
	return &Workspace{Root: p.Root, Dir: filepath.Join(p.Root, filepath.FromSlash(rel)), Shown: rel}, nil
}

// BuildDir is where assemble writes prompt.mdctx and ctxplan.json: build/
// beside the workspace folder, as a slash path relative to the root.
func BuildDir(ws *Workspace) string { return path.Join(path.Dir(ws.Shown), "build") }

// Excerpt is what a selector selects from a project file, read now.
type Excerpt struct {
	Selector evidence.Selector
	evidence.Excerpt
	CID      string   // content id of the excerpt's text
	Lines    int      // lines in the whole file
	Warnings []string // invalid UTF-8 repaired
}

// ReadSelector parses a selector and reads what it selects. Paths that
// leave the project (through "..", or a symlink), folders, binary files,
// files over walk.max_file_bytes and ranges past the end are errors that
// say so.
func (p *Project) ReadSelector(s string) (*Excerpt, error) {
	sel, err := evidence.ParseSelector(s)
	if err != nil {
		return nil, err
	}
	return p.readSelector(sel)
}

func (p *Project) readSelector(sel evidence.Selector) (*Excerpt, error) {
	if _, err := project.Resolve(p.Root, p.Root, filepath.FromSlash(sel.Path)); err != nil {
		// Resolve's message names the root and the target, absolute: this
		// one reaches plans, which hold no absolute path. The selector
		// cannot hold "..", so it is a symlink.
		return nil, fmt.Errorf("ctxpack: %s: a symlink leads outside the project root; evidence is project files", sel.Path)
	}
	info, err := fs.Stat(p.FS, sel.Path)
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
	limit := p.maxFileBytes()
	if info.Size() > limit {
		return nil, fmt.Errorf("ctxpack: %s is %d bytes, over walk.max_file_bytes (%d); select from a smaller file or raise the limit in .ctxpack/config.yaml", sel.Path, info.Size(), limit)
	}
	text, repaired, err := project.ReadText(p.FS, sel.Path)
	if err != nil {
		return nil, fmt.Errorf("ctxpack: %w", err)
	}
	if strings.IndexByte(text[:min(len(text), 8000)], 0) >= 0 { // the walk's rule
		return nil, fmt.Errorf("ctxpack: %s is binary (a NUL byte in its first 8000 bytes); evidence is text", sel.Path)
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

func (p *Project) maxFileBytes() int64 {
	if n := p.Config.Walk.MaxFileBytes; n > 0 {
		return n
	}
	return project.DefaultMaxFileBytes
}

// Provenance is the excerpt's provenance comment's fields.
func (ex *Excerpt) Provenance() evidence.Provenance {
	return evidence.Provenance{URI: evidence.FileURI(ex.Selector.Path), CID: ex.CID, Span: ex.Selector.Span(), Tags: ex.Selector.Tags}
}

// EvidenceText is the text of a workspace file: for evidence, an
// "## Evidence: path" heading, the provenance comment and the text in a
// code fence; for system and user files, the provenance comment and the
// text as it is.
func EvidenceText(role evidence.Role, prov evidence.Provenance, title, lang, text string) string {
	var b strings.Builder
	if role == evidence.Evidence {
		b.WriteString("## Evidence: " + strings.ReplaceAll(title, "\n", " ") + "\n")
		b.WriteString(prov.Comment() + "\n\n")
		fence := render.Fence(text)
		b.WriteString(fence + lang + "\n")
		b.WriteString(withNewline(text))
		b.WriteString(fence + "\n")
		return b.String()
	}
	b.WriteString(prov.Comment() + "\n\n")
	b.WriteString(withNewline(text))
	return b.String()
}

func withNewline(s string) string {
	if s == "" || strings.HasSuffix(s, "\n") {
		return s
	}
	return s + "\n"
}

// fenceLang is the code fence's language of a file: chunk.Language, or
// "text".
func fenceLang(p string) string {
	if l := chunk.Language(p); l != "" {
		return l
	}
	return "text"
}

// AddRequest is what evidence add puts in a workspace.
type AddRequest struct {
	// Selector names the project file and span; "-" with Text is text given
	// by hand (a request, a policy).
	Selector string
	Text     string
	Role     string // system, user or evidence (the default)
	Rank     int    // -1: the next rank of the role's band
	Kind     string // "" = evidence.KindOf the path ("request" for text)
	// Link writes a .link file holding the selector: read afresh at each
	// assembly, always active.
	Link bool

	excerpt *Excerpt // the selector read already (export)
}

// Added is a file evidence add wrote, with what it costs and the whole
// context's size after it.
type Added struct {
	Entry    evidence.Entry
	Path     string // slash path relative to the root
	Bytes    int
	Tokens   int // the file's section as prompt.mdctx shows it
	Total    *EvidenceResult
	Warnings []string
}

// AddEvidence adds a file to the workspace (creating the folder when it
// is missing) and assembles the workspace under req, with every active
// file included (the allow overflow), to report the totals.
func (p *Project) AddEvidence(ctx context.Context, ws *Workspace, ar AddRequest, req Request) (*Added, error) {
	req.Overflow = "allow"
	if _, err := p.evidenceOptions(req); err != nil { // before anything is written
		return nil, err
	}
	added, err := p.writeEvidence(ws, ar)
	if err != nil {
		return nil, err
	}
	total, err := p.AssembleEvidence(ctx, ws, req, "")
	if err != nil {
		return nil, err
	}
	added.Total = total
	for _, pt := range total.Plan.Parts {
		if pt.URI == evidence.FileURI(added.Path) {
			added.Tokens = pt.FullTokens
		}
	}
	return added, nil
}

// writeEvidence writes the file evidence add adds.
func (p *Project) writeEvidence(ws *Workspace, ar AddRequest) (*Added, error) {
	role := evidence.Evidence
	if ar.Role != "" {
		r, err := evidence.ParseRole(ar.Role)
		if err != nil {
			return nil, err
		}
		role = r
	}
	var entries []evidence.Entry
	if ws.Exists() {
		var err error
		if entries, _, err = ws.List(); err != nil {
			return nil, err
		}
	}
	rank := ar.Rank
	if rank < 0 {
		var err error
		if rank, err = evidence.NextRank(entries, role); err != nil {
			return nil, err
		}
	}
	var data string
	kind := ar.Kind
	state := evidence.Active
	var warnings []string
	switch {
	case ar.Selector == "-":
		if ar.Link {
			return nil, fmt.Errorf("ctxpack: a link names a project file, not text")
		}
		if strings.TrimSpace(ar.Text) == "" {
			return nil, fmt.Errorf("ctxpack: the text is empty")
		}
		// Text typed by hand has no source to record: it is kept as it is.
		data = withNewline(ar.Text)
		if role == evidence.Evidence {
			data = "## Evidence: " + firstNonEmpty(ar.Kind, "note") + "\n\n" + data
		}
		kind = firstNonEmpty(kind, map[evidence.Role]string{evidence.System: "policy", evidence.User: "request"}[role], "note")
	default:
		ex := ar.excerpt
		if ex == nil {
			var err error
			if ex, err = p.ReadSelector(ar.Selector); err != nil {
				return nil, err
			}
		}
		warnings = ex.Warnings
		kind = firstNonEmpty(kind, evidence.KindOf(ex.Selector.Path))
		if ar.Link {
			state = evidence.Linked
			data = ex.Selector.String() + "\n"
		} else {
			data = EvidenceText(role, ex.Provenance(), ex.Selector.Path, fenceLang(ex.Selector.Path), ex.Text)
		}
	}
	if !evidence.ValidKind(kind) {
		return nil, fmt.Errorf("ctxpack: kind %q is not 1 to 64 of A-Z a-z 0-9 _ -", kind)
	}
	e, err := ws.Write(entries, evidence.Entry{Rank: rank, Kind: kind, Role: role, State: state}, []byte(data))
	if err != nil {
		return nil, err
	}
	return &Added{Entry: e, Path: ws.ShownPath(e), Bytes: len(data), Warnings: warnings}, nil
}
