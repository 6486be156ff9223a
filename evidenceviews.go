package ctxpack

import "github.com/ctxpack/ctxpack/internal/evidence"

// EvidenceEntry is a workspace file as the CLI's json format and the MCP
// server's tools show it: one shape for both.
type EvidenceEntry struct {
	ID    string `json:"id" jsonschema:"rank and kind: 100_app_py"`
	Path  string `json:"path" jsonschema:"the file, relative to the project root"`
	Rank  string `json:"rank" jsonschema:"three digits"`
	Kind  string `json:"kind"`
	Role  string `json:"role" jsonschema:"system, user or evidence"`
	State string `json:"state" jsonschema:"active, skipped (a .md.skip file, left out) or linked (a .link file, always active)"`
}

// ViewEntry is e, a file of ws, as shown.
func ViewEntry(ws *Workspace, e evidence.Entry) EvidenceEntry {
	return EvidenceEntry{
		ID: e.ID(), Path: ws.ShownPath(e), Rank: evidence.RankString(e.Rank),
		Kind: e.Kind, Role: string(e.Role), State: string(e.State),
	}
}
