package render

import (
	"crypto/sha256"
	"encoding/hex"
	"fmt"
)

// EvidencePlanVersion is the version of ctxplan.json's schema.
const EvidencePlanVersion = "1.0"

// EvidencePlan is ctxplan.json, evidence mode's rendering of a Plan:
// every file of the workspace, what became of it, and the totals of
// prompt.mdctx. CtxPlan makes it.
type EvidencePlan struct {
	Version   string         `json:"version"`
	FlowID    string         `json:"flow_id"`
	OrderRule string         `json:"order_rule"`
	Tokenizer string         `json:"tokenizer"`
	Chunker   string         `json:"chunker"` // the build's (chunk.Name); both digests cover it
	Budget    int            `json:"budget"`
	Overflow  string         `json:"overflow"`
	Parts     []EvidencePart `json:"parts"`
	// TotalBytes and TotalTokens are prompt.mdctx's, counted on it.
	TotalBytes  int      `json:"total_bytes"`
	TotalTokens int      `json:"total_tokens"`
	Truncated   bool     `json:"truncated"`
	Exceeded    bool     `json:"exceeded"`
	Warnings    []string `json:"warnings"`
	// StateRoot is the Merkle root over the workspace's files and the
	// project files its links read.
	StateRoot string `json:"state_root"`
	// CtxDigest identifies the context: the chunker and the parts in
	// assembly order, each by role, status and the content id of its file:
	// "sha256:" and the hex SHA-256 of "ctxpack ctx_digest v1\n",
	// "chunker " + Chunker + "\n", then "role\tstatus\tcid\n" per part. It
	// does not depend on the rank numbers, the file names, the flow id or
	// where the workspace is: a copy, or a rebase that keeps the order, has
	// the same. Digest is the engine's digest of prompt.mdctx itself
	// (pack.Digest: the chunker and the bytes).
	CtxDigest string `json:"ctx_digest"`
	Digest    string `json:"digest"`
}

// EvidencePart is one file of the workspace in the plan.
type EvidencePart struct {
	Rank string `json:"rank"`
	Kind string `json:"kind"`
	Role string `json:"role"`
	URI  string `json:"uri"` // the workspace file: file://ctx/evidence/100_flow_sh.evidence.md
	CID  string `json:"cid"` // its content id (a link's: of the text it reads)
	// Bytes is the file's size (a link's: of the text it reads).
	Bytes int `json:"bytes"`
	// Tokens are what the part takes in prompt.mdctx (0 when not shown);
	// FullTokens what it takes there shown whole: its tokens when it is,
	// else its section measured alone (a skipped file's as it would be
	// once on).
	Tokens     int `json:"tokens"`
	FullTokens int `json:"full_tokens"`
	// Status is active or linked (shown whole), degraded (shown as a
	// stub), truncated, skipped (a .skip file), dropped (by the budget, or
	// unreadable) with Reason.
	Status     string `json:"status"`
	Reason     string `json:"reason,omitempty"`
	NeedBudget int    `json:"need_budget,omitempty"`
	// Source is where the text came from, from its provenance comment.
	Source string   `json:"source_uri,omitempty"`
	Span   string   `json:"span,omitempty"`
	Tags   []string `json:"tags,omitempty"`
}

// The statuses of an EvidencePart.
const (
	StatusActive    = "active"
	StatusLinked    = "linked"
	StatusSkipped   = "skipped"
	StatusDegraded  = "degraded"
	StatusTruncated = "truncated"
	StatusDropped   = "dropped"
)

// Shown reports whether the part is in prompt.mdctx.
func (p EvidencePart) Shown() bool {
	switch p.Status {
	case StatusActive, StatusLinked, StatusDegraded, StatusTruncated:
		return true
	}
	return false
}

// EvidenceWorkspace is what only the workspace knows of an evidence
// assembly: the flow, the order rule, and every file in assembly order.
type EvidenceWorkspace struct {
	FlowID, OrderRule string
	Files             []EvidenceFile
}

// EvidenceFile is one file of the workspace as the workspace knows it.
type EvidenceFile struct {
	// Part is the file in the plan whatever the engine did with it: rank,
	// kind, role, uri, cid, bytes and provenance, with the status of its
	// name (active, linked or skipped), or dropped with the reason when
	// it could not be read.
	Part EvidencePart
	// Key is the key of the part the engine was given for it; "" when it
	// was given none (a skipped or unreadable file): no plan part has an
	// empty key.
	Key string
	// Whole is its section shown whole, as an mdctx block (a skipped
	// file's as it would be once on): what FullTokens counts when the
	// plan does not show it whole. Nil when it could not be read.
	Whole *Block
}

// levelFull is the name of the highest level (pack.Full): a part shown
// below it is degraded.
const levelFull = "full"

// CtxPlan renders the engine's plan of an evidence assembly as
// ctxplan.json. The totals, tokenizer, chunker, warnings, state root and
// digest are the plan's; each file's status is the plan's when the engine
// showed it below full (degraded, truncated) or dropped it (with its
// reason and need_budget), else the workspace's. A file's full_tokens are
// its tokens when the plan shows it whole, else count of its Whole section
// alone. ctx_digest hashes the chunker, then each file's role, status and
// content id, in order.
func CtxPlan(p *Plan, w EvidenceWorkspace, count func(string) int) EvidencePlan {
	out := EvidencePlan{
		Version: EvidencePlanVersion, FlowID: w.FlowID, OrderRule: w.OrderRule,
		Tokenizer: p.Tokenizer, Chunker: p.Chunker, Budget: p.Budget, Overflow: p.Overflow,
		Parts:      make([]EvidencePart, 0, len(w.Files)),
		TotalBytes: len(p.Content), TotalTokens: p.TotalTokens,
		Truncated: p.Truncated, Exceeded: p.Exceeded,
		Warnings: p.Warnings, StateRoot: p.StateRoot, Digest: p.Digest,
	}
	if out.Warnings == nil {
		out.Warnings = []string{}
	}
	shown := make(map[string]*PlanPart, len(p.Parts))
	for i := range p.Parts {
		shown[p.Parts[i].Key] = &p.Parts[i]
	}
	dropped := make(map[string]*Dropped, len(p.Dropped))
	for i := range p.Dropped {
		dropped[p.Dropped[i].Key] = &p.Dropped[i]
	}
	digest := sha256.New()
	fmt.Fprintf(digest, "ctxpack ctx_digest v1\nchunker %s\n", out.Chunker)
	for _, f := range w.Files {
		pp := f.Part
		if s, ok := shown[f.Key]; ok {
			pp.Tokens = s.Tokens
			switch {
			case s.Truncated:
				pp.Status, pp.Reason = StatusTruncated, s.Reason
			case s.Level != levelFull:
				pp.Status, pp.Reason = StatusDegraded, s.Reason
			default:
				pp.FullTokens = s.Tokens // shown whole: measured already
			}
		} else if d, ok := dropped[f.Key]; ok {
			pp.Status, pp.Reason, pp.NeedBudget = StatusDropped, d.Reason, d.NeedBudget
		}
		if pp.FullTokens == 0 && f.Whole != nil {
			pp.FullTokens = count(Segment(MDCtx, *f.Whole, Block{}))
		}
		fmt.Fprintf(digest, "%s\t%s\t%s\n", pp.Role, pp.Status, pp.CID)
		out.Parts = append(out.Parts, pp)
	}
	out.CtxDigest = "sha256:" + hex.EncodeToString(digest.Sum(nil))
	return out
}

// EncodeEvidencePlan returns ctxplan.json: the plan as indented JSON
// ending in a newline, in its fixed field order.
func EncodeEvidencePlan(p *EvidencePlan) ([]byte, error) { return encodeJSON(p) }
