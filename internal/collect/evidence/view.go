package evidence

import workspace "github.com/ctxpack/ctxpack/internal/evidence"

// EntryView is a workspace file as the CLI's json format and the MCP
// server's tools show it: one shape for both.
type EntryView struct {
	ID    string `json:"id" jsonschema:"rank and kind: 100_app_py"`
	Path  string `json:"path" jsonschema:"the file, relative to the project root"`
	Rank  string `json:"rank" jsonschema:"three digits"`
	Kind  string `json:"kind"`
	Role  string `json:"role" jsonschema:"system, user or evidence"`
	State string `json:"state" jsonschema:"active, skipped (a .md.skip file, left out) or linked (a .link file, always active)"`
}

// ViewEntry is e, a file of ws, as shown.
func ViewEntry(ws *workspace.Workspace, e workspace.Entry) EntryView {
	return EntryView{
		ID: e.ID(), Path: ws.ShownPath(e), Rank: workspace.RankString(e.Rank),
		Kind: e.Kind, Role: string(e.Role), State: string(e.State),
	}
}
