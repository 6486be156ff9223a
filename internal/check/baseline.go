package check

import (
	"bytes"
	"cmp"
	"encoding/json"
	"fmt"
	"slices"
	"strings"
)

// BaselineVersion is the version of the baseline file format.
//
//	1: {"version": 1, "findings": [{"rule", "path", "message"}, …]}
const BaselineVersion = 1

// DefaultBaseline is the baseline file's name in the artifact directory.
const DefaultBaseline = ".baseline.json"

// Baseline is a set of known findings, matched on rule, path and message
// (not line, which shifts as files change). An entry hides one finding:
// a finding that occurs twice needs two entries.
type Baseline struct {
	Version  int             `json:"version"`
	Findings []BaselineEntry `json:"findings"`
}

// BaselineEntry is one known finding.
type BaselineEntry struct {
	Rule    string `json:"rule"`
	Path    string `json:"path"`
	Message string `json:"message"`
}

func compareEntries(a, b BaselineEntry) int {
	return cmp.Or(strings.Compare(a.Path, b.Path), strings.Compare(a.Rule, b.Rule), strings.Compare(a.Message, b.Message))
}

// NewBaseline returns the baseline of findings, its entries sorted by path,
// rule and message.
func NewBaseline(findings []Finding) *Baseline {
	b := &Baseline{Version: BaselineVersion, Findings: make([]BaselineEntry, 0, len(findings))}
	for _, f := range findings {
		b.Findings = append(b.Findings, BaselineEntry{Rule: f.Rule, Path: f.Path, Message: f.Message})
	}
	slices.SortFunc(b.Findings, compareEntries)
	return b
}

// Marshal returns the baseline file: indented JSON with a final newline,
// the same bytes for the same findings.
func (b *Baseline) Marshal() []byte {
	var buf bytes.Buffer
	enc := json.NewEncoder(&buf)
	enc.SetEscapeHTML(false)
	enc.SetIndent("", "  ")
	_ = enc.Encode(b) // strings and ints only: cannot fail
	return buf.Bytes()
}

// ParseBaseline reads a baseline file; name is for errors.
func ParseBaseline(name string, data []byte) (*Baseline, error) {
	var b Baseline
	dec := json.NewDecoder(bytes.NewReader(data))
	dec.DisallowUnknownFields()
	if err := dec.Decode(&b); err != nil {
		return nil, fmt.Errorf("check: baseline %s: %w; rewrite it with ctxpack check --update-baseline", name, err)
	}
	if b.Version != BaselineVersion {
		return nil, fmt.Errorf("check: baseline %s: version %d, want %d; rewrite it with ctxpack check --update-baseline", name, b.Version, BaselineVersion)
	}
	for i, e := range b.Findings {
		if e.Rule == "" || e.Path == "" || e.Message == "" {
			return nil, fmt.Errorf("check: baseline %s: finding %d needs rule, path and message", name, i+1)
		}
	}
	return &b, nil
}

// Filter returns the findings the baseline does not know, in their order,
// and how many it hid. A nil Baseline hides nothing.
func (b *Baseline) Filter(findings []Finding) (kept []Finding, hidden int) {
	kept = []Finding{}
	if b == nil {
		return append(kept, findings...), 0
	}
	known := make(map[BaselineEntry]int, len(b.Findings))
	for _, e := range b.Findings {
		known[e]++
	}
	for _, f := range findings {
		k := BaselineEntry{Rule: f.Rule, Path: f.Path, Message: f.Message}
		if known[k] > 0 {
			known[k]--
			hidden++
			continue
		}
		kept = append(kept, f)
	}
	return kept, hidden
}
