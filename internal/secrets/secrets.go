package secrets

import (
	"cmp"
	"crypto/sha256"
	"encoding/hex"
	"fmt"
	"maps"
	"slices"
	"strings"
)

// Finding is one secret found in a text.
type Finding struct {
	Rule string // the rule that matched: "aws-access-key-id", "private-key"…
	// Start and End are the byte span of the value in the scanned text:
	// what the marker replaces.
	Start, End int
	Line       int // 1-based line of Start
	// Fingerprint names the value without holding it: "fp:" and the first
	// 16 hex digits of sha256(rule, NUL, value). An allow-list entry of it
	// keeps that value, wherever it is.
	Fingerprint string
}

// Marker is the text that replaces a value found by rule.
func Marker(rule string) string { return "[redacted: " + rule + "]" }

// Fingerprint returns the fingerprint of value found by rule.
func Fingerprint(rule, value string) string {
	h := sha256.New()
	h.Write([]byte(rule))
	h.Write([]byte{0})
	h.Write([]byte(value))
	return "fp:" + hex.EncodeToString(h.Sum(nil)[:8])
}

// Scanner finds secrets. The zero Scanner scans everything; a nil
// *Scanner finds nothing (redaction off). A Scanner is safe for
// concurrent use once made.
type Scanner struct {
	// AllowPath, when set, reports whether a path is on the allow-list:
	// texts at such paths are not scanned.
	AllowPath func(path string) bool
	// allowed are the fingerprints on the allow-list.
	allowed map[string]bool
}

// New returns a Scanner with an allow-list: entries "fp:" and 16 hex
// digits are fingerprints whose values are kept; every other entry is
// returned in paths, for the caller to match paths with (its globs).
func New(allow []string) (s *Scanner, paths []string, err error) {
	s = &Scanner{}
	for _, a := range allow {
		if fp, ok := strings.CutPrefix(a, "fp:"); ok {
			if len(fp) != 16 || strings.Trim(fp, "0123456789abcdef") != "" {
				return nil, nil, fmt.Errorf("secrets: allow-list entry %q: a fingerprint is fp: and 16 lower-case hex digits, as the plan's redactions give it", a)
			}
			if s.allowed == nil {
				s.allowed = map[string]bool{}
			}
			s.allowed[a] = true
			continue
		}
		if a == "" {
			return nil, nil, fmt.Errorf("secrets: empty allow-list entry: give a path glob or a fingerprint (fp:…)")
		}
		paths = append(paths, a)
	}
	return s, paths, nil
}

// Scan returns the secrets in text, found at path (a slash path relative
// to the project root; "" when the text has none), ordered by position,
// without overlaps. It finds nothing when s is nil or path is allowed.
func (s *Scanner) Scan(path, text string) []Finding {
	if s == nil || (path != "" && s.AllowPath != nil && s.AllowPath(path)) {
		return nil
	}
	cands := scan(path, text)
	if len(cands) == 0 {
		return nil
	}
	found := resolve(cands)
	out := found[:0]
	line, at := 1, 0
	for _, f := range found {
		f.Fingerprint = Fingerprint(f.Rule, text[f.Start:f.End])
		if s.allowed[f.Fingerprint] {
			continue
		}
		line += strings.Count(text[at:f.Start], "\n")
		at = f.Start
		f.Line = line
		out = append(out, f)
	}
	if len(out) == 0 {
		return nil
	}
	return out
}

// Redact returns text with each finding's span replaced by its marker.
// The findings must be Scan's for text: in order, without overlaps.
func Redact(text string, found []Finding) string {
	if len(found) == 0 {
		return text
	}
	var b strings.Builder
	b.Grow(len(text))
	at := 0
	for _, f := range found {
		b.WriteString(text[at:f.Start])
		b.WriteString(Marker(f.Rule))
		at = f.End
	}
	b.WriteString(text[at:])
	return b.String()
}

// resolve sorts candidate findings by position and removes overlaps: of
// two that overlap, the one that starts first wins, then the wider, then
// the specific rule over a generic one.
func resolve(found []match) []Finding {
	slices.SortFunc(found, func(a, b match) int {
		if c := cmp.Compare(a.start, b.start); c != 0 {
			return c
		}
		if a.generic != b.generic {
			if a.generic {
				return 1
			}
			return -1
		}
		if c := cmp.Compare(b.end, a.end); c != 0 {
			return c
		}
		return cmp.Compare(a.rule, b.rule)
	})
	out := make([]Finding, 0, len(found))
	end := -1
	for i, m := range found {
		if m.start < end {
			continue
		}
		// A generic match that a specific one inside it overlaps gives
		// way to it: "token: ghp_…" is a GitHub token.
		if m.generic {
			if j := i + 1; j < len(found) && !found[j].generic && found[j].start < m.end {
				continue
			}
		}
		out = append(out, Finding{Rule: m.rule, Start: m.start, End: m.end})
		end = m.end
	}
	return out
}

// match is a candidate finding.
type match struct {
	rule       string
	start, end int
	generic    bool // a credential assignment, not a pattern of its own
}

// InText returns the findings whose markers a text made from the redacted
// text holds — a prefix of it, or a cut of it: for each rule, as many of
// its findings, first first, as the text has markers of it.
func InText(found []Finding, text string) []Finding {
	left := map[string]int{}
	var out []Finding
	for _, f := range found {
		n, ok := left[f.Rule]
		if !ok {
			n = strings.Count(text, Marker(f.Rule))
		}
		if n > 0 {
			out = append(out, f)
		}
		left[f.Rule] = n - 1
	}
	return out
}

// Tally says how many findings each rule made, rules in order:
// "aws-access-key-id 1, github-token 2". rules holds one rule per
// finding.
func Tally(rules []string) string {
	n := map[string]int{}
	for _, r := range rules {
		n[r]++
	}
	by := make([]string, 0, len(n))
	for _, r := range slices.Sorted(maps.Keys(n)) {
		by = append(by, fmt.Sprintf("%s %d", r, n[r]))
	}
	return strings.Join(by, ", ")
}
