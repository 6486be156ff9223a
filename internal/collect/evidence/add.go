package evidence

import (
	"cmp"
	"fmt"
	"strings"

	"github.com/ctxpack/ctxpack/internal/chunk"
	workspace "github.com/ctxpack/ctxpack/internal/evidence"
	"github.com/ctxpack/ctxpack/internal/render"
)

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
	Entry    workspace.Entry
	Path     string // slash path relative to the root
	Bytes    int
	Tokens   int // the file's section as prompt.mdctx shows it
	Total    *Result
	Warnings []string
}

// SetTotal records the workspace assembled with the file in it (every
// active file included): Total, and the file's Tokens, its section whole.
func (a *Added) SetTotal(total *Result) {
	a.Total = total
	for _, pt := range total.Plan.Parts {
		if pt.URI == workspace.FileURI(a.Path) {
			a.Tokens = pt.FullTokens
		}
	}
}

// Write writes the file evidence add adds (creating the workspace folder
// when it is missing): the selected text with its provenance, a link, or
// the text given, at the rank asked for or the next of the role's band.
func (e Env) Write(ws *workspace.Workspace, ar AddRequest) (*Added, error) {
	role := workspace.Evidence
	if ar.Role != "" {
		r, err := workspace.ParseRole(ar.Role)
		if err != nil {
			return nil, err
		}
		role = r
	}
	var entries []workspace.Entry
	if ws.Exists() {
		var err error
		if entries, _, err = ws.List(); err != nil {
			return nil, err
		}
	}
	rank := ar.Rank
	if rank < 0 {
		var err error
		if rank, err = workspace.NextRank(entries, role); err != nil {
			return nil, err
		}
	}
	var data string
	kind := ar.Kind
	state := workspace.Active
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
		if role == workspace.Evidence {
			data = "## Evidence: " + cmp.Or(ar.Kind, "note") + "\n\n" + data
		}
		kind = cmp.Or(kind, map[workspace.Role]string{workspace.System: "policy", workspace.User: "request"}[role], "note")
	default:
		ex := ar.excerpt
		if ex == nil {
			var err error
			if ex, err = e.ReadSelector(ar.Selector); err != nil {
				return nil, err
			}
		}
		warnings = ex.Warnings
		kind = cmp.Or(kind, workspace.KindOf(ex.Selector.Path))
		if ar.Link {
			state = workspace.Linked
			data = ex.Selector.String() + "\n"
		} else {
			data = Text(role, ex.Provenance(), ex.Selector.Path, fenceLang(ex.Selector.Path), ex.Text)
		}
	}
	if !workspace.ValidKind(kind) {
		return nil, fmt.Errorf("ctxpack: kind %q is not 1 to 64 of A-Z a-z 0-9 _ -", kind)
	}
	en, err := ws.Write(entries, workspace.Entry{Rank: rank, Kind: kind, Role: role, State: state}, []byte(data))
	if err != nil {
		return nil, err
	}
	return &Added{Entry: en, Path: ws.ShownPath(en), Bytes: len(data), Warnings: warnings}, nil
}

// Text is the text of a workspace file: for evidence, an
// "## Evidence: path" heading, the provenance comment and the text in a
// code fence; for system and user files, the provenance comment and the
// text as it is.
func Text(role workspace.Role, prov workspace.Provenance, title, lang, text string) string {
	var b strings.Builder
	if role == workspace.Evidence {
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
