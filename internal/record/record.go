package record

import (
	"bytes"
	"cmp"
	"encoding/json"
	"fmt"
	"maps"
	"math"
	"slices"
	"strings"
	"time"
	"unicode/utf8"

	"github.com/ctxpack/ctxpack/internal/render"
)

// IncludeMinimum is the aiwg seed's include_minimum: the relevance at or
// above which a part counts as relevant content for Metrics.Efficiency.
const IncludeMinimum = 0.3

// MaxTarget is how many characters of the target a record keeps.
const MaxTarget = 200

// MaxFiles is how many parts a record lists per tier, and how many
// entries each list of its overflow holds: a pack of a large tree has
// thousands, and a thousand such records would make the log too big to
// rewrite when it rotates. The tier's totals and the overflow's counts
// count them all.
const MaxFiles = 500

// Record is one assembly's budget record: the aiwg seed's
// context_budget_record with ctxpack's plan fields.
type Record struct {
	Timestamp string `json:"timestamp"` // RFC 3339, UTC, whole seconds
	Mode      string `json:"mode"`      // links, retrieval, pack
	Target    string `json:"target"`    // the task id, the query (cut to MaxTarget characters) or the paths
	Tokenizer string `json:"tokenizer"`
	// Window and Reserves are given when the budget is a window less its
	// reserves (--window).
	Window   int       `json:"window,omitempty"`
	Reserves *Reserves `json:"reserves,omitempty"`
	// TotalBudget is the tokens the output could use; 0 for a pack
	// without a budget (every file whole).
	TotalBudget int        `json:"total_budget"`
	Allocation  Allocation `json:"allocation"`
	TotalTokens int        `json:"total_tokens"` // of the whole output
	Overflow    Overflow   `json:"overflow"`
	Metrics     Metrics    `json:"metrics"`
	StateRoot   string     `json:"state_root"`
	Digest      string     `json:"digest"`
}

// Reserves are the tokens kept back from a window.
type Reserves struct {
	System   int `json:"system"`
	Query    int `json:"query"`
	Response int `json:"response"`
}

// Total is the sum of the reserves.
func (r Reserves) Total() int { return r.System + r.Query + r.Response }

// Tier is one tier of the allocation with the parts placed in it.
type Tier struct {
	Name        string  `json:"-"`         // the key in Allocation's JSON object
	Share       float64 `json:"share"`     // percent of the budget
	Allocated   int     `json:"allocated"` // tokens: Share of TotalBudget, rounded down
	Files       []File  `json:"files"`     // in render order, at most MaxFiles
	TotalTokens int     `json:"total_tokens"`
	// FilesOmitted is how many parts beyond MaxFiles are not listed; their
	// tokens are in TotalTokens.
	FilesOmitted int `json:"files_omitted,omitempty"`
}

// File is one part of the output, as the seed's records list files. In
// retrieval mode a file can have several parts (chunks), each with its
// lines.
type File struct {
	Path   string  `json:"path"` // the part's key when it has no path
	Lines  *[2]int `json:"lines,omitempty"`
	Tokens int     `json:"tokens"`
	Level  string  `json:"level"`
	// Relevance is the part's score; absent in links mode, where the
	// order of links ranks parts, and for parts with no score.
	Relevance *float64 `json:"relevance,omitempty"`
}

// Label is "path:start-end", or the path when the part has no lines.
func (f File) Label() string { return label(f.Path, f.Lines) }

func label(path string, lines *[2]int) string {
	if lines == nil {
		return path
	}
	return fmt.Sprintf("%s:%d-%d", path, lines[0], lines[1])
}

// Overflow says whether the budget made the engine lower, cut or drop
// parts, with which strategy, and which.
type Overflow struct {
	Occurred        bool   `json:"occurred"`
	StrategyApplied string `json:"strategy_applied"` // the overflow strategy when Occurred, else ""
	// FilesAffected are the paths of the parts lowered, truncated or
	// dropped, sorted, each once.
	FilesAffected []string   `json:"files_affected"`
	Lowered       []Affected `json:"lowered,omitempty"`   // shown below their level to fit
	Truncated     []Affected `json:"truncated,omitempty"` // cut to fit
	// Dropped are the parts left out for the budget or the item cap (not
	// duplicates, which Metrics do not count as overflow).
	Dropped []Affected `json:"dropped,omitempty"`
	// The lists hold at most MaxFiles entries each; these count the
	// entries beyond, which are not listed.
	FilesAffectedOmitted int `json:"files_affected_omitted,omitempty"`
	LoweredOmitted       int `json:"lowered_omitted,omitempty"`
	TruncatedOmitted     int `json:"truncated_omitted,omitempty"`
	DroppedOmitted       int `json:"dropped_omitted,omitempty"`
}

// LoweredCount, TruncatedCount and DroppedCount count the parts lowered,
// truncated and dropped, listed or not.
func (o Overflow) LoweredCount() int   { return len(o.Lowered) + o.LoweredOmitted }
func (o Overflow) TruncatedCount() int { return len(o.Truncated) + o.TruncatedOmitted }
func (o Overflow) DroppedCount() int   { return len(o.Dropped) + o.DroppedOmitted }

// Slim returns r without its per-part lists: each tier's files and the
// overflow's lists are counted in their Omitted fields instead. Log.Append
// writes a record so when its line alone would take too much of the log.
func (r Record) Slim() Record {
	r.Allocation = slices.Clone(r.Allocation)
	for i := range r.Allocation {
		t := &r.Allocation[i]
		t.FilesOmitted += len(t.Files)
		t.Files = []File{}
	}
	o := &r.Overflow
	o.FilesAffectedOmitted += len(o.FilesAffected)
	o.LoweredOmitted += len(o.Lowered)
	o.TruncatedOmitted += len(o.Truncated)
	o.DroppedOmitted += len(o.Dropped)
	o.FilesAffected, o.Lowered, o.Truncated, o.Dropped = []string{}, nil, nil, nil
	return r
}

// capList keeps the first MaxFiles entries of list and adds the number of
// the others to *omitted.
func capList[T any](list []T, omitted *int) []T {
	if len(list) <= MaxFiles {
		return list
	}
	*omitted += len(list) - MaxFiles
	return list[:MaxFiles:MaxFiles]
}

// Affected is a part the overflow strategy changed, and how.
type Affected struct {
	Part   string `json:"part"`   // path:lines, the path, or the key
	Reason string `json:"reason"` // the plan's reason
}

// Metrics are the seed's record metrics.
type Metrics struct {
	// Utilization is the output's tokens over the budget (0 without one).
	Utilization float64 `json:"utilization"`
	// Efficiency is the relevant content over all content: the tokens of
	// the parts at a relevance of at least IncludeMinimum over the tokens
	// of all parts. In links mode every part was reached by a link from
	// the task and counts as relevant; so does a part with no score. 0
	// when there are no parts.
	Efficiency float64 `json:"efficiency"`
}

// Spec is what a record needs that the plan does not say.
type Spec struct {
	// Tiers are the tiers of the budget policy, in order, with their
	// allocations; parts are placed by their bucket. Parts with no bucket
	// (links and pack mode) go to a tier named "context", added if absent.
	Tiers    []Tier
	Window   int
	Reserves *Reserves
	Time     time.Time // when the assembly was made
}

// New makes the record of a plan.
func New(p *render.Plan, s Spec) Record {
	r := Record{
		Timestamp: s.Time.UTC().Truncate(time.Second).Format(time.RFC3339),
		Mode:      p.Mode, Target: cut(p.Target, MaxTarget), Tokenizer: p.Tokenizer,
		Window: s.Window, Reserves: s.Reserves,
		TotalBudget: p.Budget, TotalTokens: p.TotalTokens,
		StateRoot: p.StateRoot, Digest: p.Digest,
		Overflow: Overflow{FilesAffected: []string{}},
	}
	for _, t := range s.Tiers {
		t.Files, t.TotalTokens, t.FilesOmitted = []File{}, 0, 0
		r.Allocation = append(r.Allocation, t)
	}
	tier := func(bucket string) *Tier {
		name := bucket
		if name == "" {
			name = "context"
		}
		for i := range r.Allocation {
			if r.Allocation[i].Name == name {
				return &r.Allocation[i]
			}
		}
		r.Allocation = append(r.Allocation, Tier{Name: name, Files: []File{}})
		return &r.Allocation[len(r.Allocation)-1]
	}
	affected := map[string]bool{}
	var relevant, all int
	for _, pp := range p.Parts {
		f := File{Path: pp.Path, Lines: pp.Lines, Tokens: pp.Tokens, Level: pp.Level}
		if f.Path == "" {
			f.Path = pp.Key
		}
		if pp.Score != nil && p.Mode != "links" {
			s := *pp.Score
			f.Relevance = &s
		}
		t := tier(pp.Bucket)
		if len(t.Files) < MaxFiles {
			t.Files = append(t.Files, f)
		} else {
			t.FilesOmitted++
		}
		t.TotalTokens += pp.Tokens
		all += pp.Tokens
		if f.Relevance == nil || *f.Relevance >= IncludeMinimum {
			relevant += pp.Tokens
		}
		switch {
		case pp.Truncated:
			r.Overflow.Truncated = append(r.Overflow.Truncated, Affected{f.Label(), pp.Reason})
			affected[f.Path] = true
		case lowered(pp):
			r.Overflow.Lowered = append(r.Overflow.Lowered, Affected{f.Label(), pp.Reason})
			affected[f.Path] = true
		}
	}
	for _, d := range p.Dropped {
		if strings.HasPrefix(d.Reason, render.ReasonTree) {
			// Shown only as a line of the directory tree: lowered to fit.
			r.Overflow.Lowered = append(r.Overflow.Lowered, Affected{d.Key, d.Reason})
			affected[cmp.Or(d.Path, d.Key)] = true
			continue
		}
		if !overBudget(d.Reason) {
			continue
		}
		path := d.Path
		if path == "" {
			path = d.Key
		}
		part := path
		if d.Path != "" && d.Key != d.Path {
			part = d.Key // a chunk: path#seq says which
		}
		r.Overflow.Dropped = append(r.Overflow.Dropped, Affected{part, d.Reason})
		affected[path] = true
	}
	r.Overflow.FilesAffected = slices.Sorted(maps.Keys(affected))
	if r.Overflow.FilesAffected == nil {
		r.Overflow.FilesAffected = []string{}
	}
	r.Overflow.Occurred = len(affected) > 0 || p.Exceeded
	o := &r.Overflow
	o.FilesAffected = capList(o.FilesAffected, &o.FilesAffectedOmitted)
	o.Lowered = capList(o.Lowered, &o.LoweredOmitted)
	o.Truncated = capList(o.Truncated, &o.TruncatedOmitted)
	o.Dropped = capList(o.Dropped, &o.DroppedOmitted)
	if r.Overflow.Occurred {
		r.Overflow.StrategyApplied = p.Overflow
	}
	r.Metrics.Utilization = p.Metrics.Utilization
	if all > 0 {
		r.Metrics.Efficiency = round4(float64(relevant) / float64(all))
	}
	return r
}

// lowered reports whether the engine showed a part below the level it
// would otherwise have had, to fit the budget (the plan's reason says
// "degraded to LEVEL: …"). Parts below full for the requested depth, or
// because they have no higher level, are not lowered.
func lowered(pp render.PlanPart) bool { return strings.HasPrefix(pp.Reason, render.ReasonDegraded) }

// overBudget reports whether a part was dropped for the budget or the
// item cap, rather than as a duplicate or over max_chunks_per_doc.
func overBudget(reason string) bool {
	return strings.HasPrefix(reason, render.ReasonBudget) || strings.HasPrefix(reason, render.ReasonItemCap)
}

// cut returns s with at most n characters, ending in "…" when cut.
func cut(s string, n int) string {
	if utf8.RuneCountInString(s) <= n {
		return s
	}
	i, k := 0, 0
	for k < n-1 {
		_, size := utf8.DecodeRuneInString(s[i:])
		i += size
		k++
	}
	return s[:i] + "…"
}

func round4(x float64) float64 { return math.Round(x*1e4) / 1e4 }

// Allocation is the tiers of a record, in order. Its JSON form is the
// seed's: an object keyed by tier name ({"primary": {…}, …}), written and
// read in tier order.
type Allocation []Tier

// MarshalJSON writes the tiers as one object, in order.
func (a Allocation) MarshalJSON() ([]byte, error) {
	var b bytes.Buffer
	enc := json.NewEncoder(&b)
	enc.SetEscapeHTML(false)
	b.WriteByte('{')
	for i, t := range a {
		if i > 0 {
			b.WriteByte(',')
		}
		if err := enc.Encode(t.Name); err != nil {
			return nil, err
		}
		b.Truncate(b.Len() - 1) // Encode's newline
		b.WriteByte(':')
		type plain Tier // without this method
		if err := enc.Encode(plain(t)); err != nil {
			return nil, err
		}
		b.Truncate(b.Len() - 1)
	}
	b.WriteByte('}')
	return b.Bytes(), nil
}

// UnmarshalJSON reads the object MarshalJSON writes, keeping its order.
func (a *Allocation) UnmarshalJSON(data []byte) error {
	dec := json.NewDecoder(bytes.NewReader(data))
	tok, err := dec.Token()
	if err != nil {
		return err
	}
	if tok == nil {
		*a = nil
		return nil
	}
	if d, ok := tok.(json.Delim); !ok || d != '{' {
		return fmt.Errorf("record: allocation must be an object of tiers")
	}
	out := Allocation{}
	for dec.More() {
		tok, err := dec.Token()
		if err != nil {
			return err
		}
		name, _ := tok.(string)
		type plain Tier
		var t plain
		if err := dec.Decode(&t); err != nil {
			return fmt.Errorf("record: allocation.%s: %w", name, err)
		}
		t.Name = name
		if t.Files == nil {
			t.Files = []File{}
		}
		out = append(out, Tier(t))
	}
	if _, err := dec.Token(); err != nil {
		return err
	}
	*a = out
	return nil
}
