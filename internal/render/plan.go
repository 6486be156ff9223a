package render

import (
	"bytes"
	"encoding/json"
)

// Plan is the json format: what was assembled, why, and the content itself.
// Field order and names are the schema of DESIGN §8; encoding is
// deterministic (struct order, sorted map keys, no HTML escaping).
type Plan struct {
	Version   string `json:"version"`
	Mode      string `json:"mode"`
	Target    string `json:"target"`
	Tokenizer string `json:"tokenizer"`
	// Chunker names the chunker of the build that assembled the plan
	// (chunk.Name: its backend and version), which gave code its chunks
	// and levels. The digest covers it.
	Chunker     string     `json:"chunker"`
	Budget      int        `json:"budget"`
	TotalTokens int        `json:"total_tokens"`
	Truncated   bool       `json:"truncated"`
	Exceeded    bool       `json:"exceeded"`
	Strategy    string     `json:"strategy"`
	Overflow    string     `json:"overflow"`
	Parts       []PlanPart `json:"parts"`
	Dropped     []Dropped  `json:"dropped"`
	// Redactions are the secrets replaced by markers in the content, in
	// render order (pack.Options.Secrets): where each was and which rule
	// found it, never the value.
	Redactions []Redaction `json:"redactions,omitempty"`
	Paths      []string    `json:"paths"`
	Warnings   []string    `json:"warnings"`
	// Skipped are the files the walk passed over, each with why, in path
	// order: the warnings count them by kind when they are many. Absent
	// when none was skipped.
	Skipped []Skip  `json:"skipped,omitempty"`
	Metrics Metrics `json:"metrics"`
	// Shares are the budget's division among sources (sources mode,
	// premortem): what each source is entitled to and the item cap
	// reckoned from it. Absent in the other modes.
	Shares []Share `json:"shares,omitempty"`
	// Split says which part of a split output this plan is (pack.Split):
	// absent when the output is not split.
	Split     *Split `json:"split,omitempty"`
	StateRoot string `json:"state_root"`
	// Digest is sha256 over the chunker's name and the content
	// (pack.Digest gives the formula), so builds that chunk differently
	// never share one.
	Digest  string `json:"digest"`
	Content string `json:"content"`
}

// Split is the place of one output among the outputs a pack was split
// into, each within the budget.
type Split struct {
	Index int `json:"index"` // from 1
	Count int `json:"count"`
}

// Skip is a file a walk found and did not read, and why.
type Skip struct {
	Path   string `json:"path"`
	Kind   string `json:"kind"` // binary, too large, secrets file, unreadable, symlink, not a regular file, name
	Reason string `json:"reason"`
}

// Share is one source's part of the budget.
type Share struct {
	Source string  `json:"source"`
	Weight float64 `json:"weight"`
	// Budget is the tokens the source is entitled to: its weight's part of
	// the budget, with the parts of sources that need less than theirs
	// (or have no items) divided among the others. Demand is what its
	// items need whole.
	Budget int `json:"budget"`
	Demand int `json:"demand"`
	// ItemCap is the most tokens one of its items may take (the item cap
	// times Budget); 0 is no cap.
	ItemCap int `json:"item_cap"`
}

// PlanPart is one emitted part, in render order.
type PlanPart struct {
	Key        string             `json:"key"`
	Source     string             `json:"source"`
	Type       string             `json:"type"`
	Path       string             `json:"path,omitempty"`
	Lines      *[2]int            `json:"lines,omitempty"`
	Level      string             `json:"level"`
	Tokens     int                `json:"tokens"`
	CID        string             `json:"cid"`
	Via        []string           `json:"via,omitempty"`
	Score      *float64           `json:"score,omitempty"`
	Components map[string]float64 `json:"components,omitempty"`
	Bucket     string             `json:"bucket,omitempty"`
	Truncated  bool               `json:"truncated,omitempty"`
	// Shown are the file's lines a window shows as they are (pack.Part's
	// Window), when the part is shown at its window; absent otherwise.
	Shown [][2]int `json:"shown,omitempty"`
	// Reason says why the part is not shown in full; empty when it is.
	Reason string `json:"reason,omitempty"`
	// Transforms say how the text shown differs from the part's own
	// beyond its level: comments or empty lines removed (with how many
	// lines), line numbers added (pack.Transform).
	Transforms []string `json:"transforms,omitempty"`
}

// The words a reason starts with when the budget decided it: the engine
// writes them and the budget records read them, so neither rewords them
// alone.
const (
	ReasonDegraded = "degraded to " // a part shown below its level to fit
	ReasonBudget   = "budget"       // a part left out by the budget
	ReasonItemCap  = "item cap"     // a part left out by the item cap
	ReasonTree     = "in the tree"  // a part shown as a line of the directory tree, at its metadata level
)

// Dropped is a part that was left out, and why.
type Dropped struct {
	Key    string `json:"key"`
	Path   string `json:"path,omitempty"`
	Reason string `json:"reason"`
	// NeedBudget is the smallest budget at which the part would have been
	// included, when the engine knows it.
	NeedBudget int `json:"need_budget,omitempty"`
}

// Redaction is one secret the redact stage replaced in the content.
type Redaction struct {
	Key  string `json:"key"`            // the part it is in
	Path string `json:"path,omitempty"` // the file, when the part has one
	Line int    `json:"line,omitempty"` // 1-based line in the file (or the part's text)
	Rule string `json:"rule"`           // the rule that found it: the marker's name
	// Fingerprint names the value without holding it; on the allow-list
	// (secrets.allow in the configuration) it keeps that value.
	Fingerprint string `json:"fingerprint"`
}

// Metrics are the plan's quality figures (DESIGN §3).
type Metrics struct {
	Utilization float64 `json:"utilization"` // total tokens / budget
	Coverage    float64 `json:"coverage"`    // tokens of the (deduplicated) parts / budget
	Coherence   float64 `json:"coherence"`   // adjacent same-document pairs / the most possible
	Ordering    bool    `json:"ordering"`    // the top 3 parts by rank are among the first 5 emitted
	// Overhead is the tokens of the output that are not the parts' text:
	// headers, notes, separators, the tree and the format's own text.
	Overhead int `json:"overhead"`
}

// EncodePlan returns the plan as indented JSON ending in a newline.
func EncodePlan(p *Plan) ([]byte, error) { return encodeJSON(p) }

// encodeJSON encodes v indented by two spaces, HTML characters unescaped,
// ending in a newline.
func encodeJSON(v any) ([]byte, error) {
	var buf bytes.Buffer
	enc := json.NewEncoder(&buf)
	enc.SetEscapeHTML(false)
	enc.SetIndent("", "  ")
	if err := enc.Encode(v); err != nil {
		return nil, err
	}
	return buf.Bytes(), nil
}
