package evidence

import (
	"fmt"
	"strconv"
	"strings"

	workspace "github.com/ctxpack/ctxpack/internal/evidence"
	"github.com/ctxpack/ctxpack/internal/render"
)

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

// Export writes an assembly's parts into a new workspace, so that a
// person can start from it and edit: the identity and norms as system
// files, the task or the query (of a retrieval) as the user request,
// every other part as evidence of its file and line span, each whole,
// ranked in the assembly's render order. Parts that are not a project
// file, or cannot be read now, are skipped with the reason; a span
// exported once is not written again. The workspace must not exist or be
// empty.
func (e Env) Export(ws *workspace.Workspace, plan *render.Plan) (*ExportReport, error) {
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
		a, err := e.Write(ws, ar)
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
		ex, err := e.ReadSelector(sel)
		if err != nil {
			rep.Skipped = append(rep.Skipped, fmt.Sprintf("%s: %v", pt.Key, err))
			continue
		}
		if ex.Selector.Unit == workspace.Lines && ex.StartLine == 1 && ex.EndLine == ex.Lines {
			ex.Selector.Unit, ex.Selector.Start, ex.Selector.End = workspace.Whole, 0, 0 // all of it
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
