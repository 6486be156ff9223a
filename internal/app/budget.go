package app

import (
	"fmt"
	"math"
	"slices"
	"time"

	"github.com/ctxpack/ctxpack/internal/collect/links"
	"github.com/ctxpack/ctxpack/internal/pack"
	"github.com/ctxpack/ctxpack/internal/record"
	"github.com/ctxpack/ctxpack/internal/render"
)

// BudgetRecord is the record of one assembly's budget: the aiwg seed's
// context_budget_record (see internal/record).
type BudgetRecord = record.Record

// BudgetTier is one tier of a BudgetRecord, with its parts.
type BudgetTier = record.Tier

// BudgetReserves are the tokens kept back from a window, as recorded.
type BudgetReserves = record.Reserves

// Allocation is the budget arithmetic of an assembly (the aiwg seed's
// calculate_budget): the window and its reserves when the budget is a
// window less its reserves, the tokens available to the output, and each
// tier's share of them.
type Allocation struct {
	Mode string `json:"mode"` // links, retrieval, pack, sources or premortem
	// Window and Reserves are set when the budget comes from a window.
	Window   int             `json:"window,omitempty"`
	Reserves *BudgetReserves `json:"reserves,omitempty"`
	// Budget is the tokens the output may use: Window − reserves, or the
	// budget given. 0 is no budget: overflow allow and no budget given.
	Budget int              `json:"budget"`
	Tiers  []TierAllocation `json:"tiers"`
}

// TierAllocation is one tier's part of the budget. Links and pack mode
// have one tier, "context", with all of it; retrieval mode has the
// configured tiers (DefaultTiers); sources mode and premortem one per
// source or section, from the plan (Allocation.Record).
type TierAllocation struct {
	Name      string  `json:"name"`
	Share     float64 `json:"share"`     // percent of the budget
	Threshold float64 `json:"threshold"` // the least relevance of the tier's parts
	// Tokens is Share of the budget, rounded down. The engine fills the
	// tiers side by side in proportion to their shares, and passes the
	// share a tier does not use on to the tiers after it.
	Tokens int `json:"tokens"`
}

// noBudgetGiven reports whether neither the request nor the configuration
// gives a budget or a window: the budget is then the default one
// (DefaultBudget; a premortem's, DefaultPremortemBudget), unless the
// request asks for none (unbudgeted).
func (p *Project) noBudgetGiven(req Request) bool {
	return req.Budget == 0 && req.Window == 0 && p.Config.Budget == 0 && p.Config.Window == 0
}

// unbudgeted reports whether the request asks, in so many words, for no
// budget at all: overflow allow (the request's, else the configuration's)
// and no budget or window given. Every target and front end decides it
// here: without a budget and without allow, the budget is the configured
// one, else DefaultBudget.
func (p *Project) unbudgeted(req Request) bool {
	return p.noBudgetGiven(req) && firstNonEmpty(req.Overflow, p.Config.Pack.Overflow) == string(pack.Allow)
}

// Allocation is the budget arithmetic of an assembly of req in mode: what
// the engine divides among the tiers before it fits anything.
func (p *Project) Allocation(req Request, mode string) (*Allocation, error) {
	budget, err := p.budget(req)
	if err != nil {
		return nil, err
	}
	a := &Allocation{Mode: mode, Budget: budget}
	switch {
	case mode == "premortem" && p.noBudgetGiven(req):
		a.Budget = DefaultPremortemBudget
	}
	if window, res := p.window(req); window > 0 { // the budget comes from it
		a.Window = window
		a.Reserves = &BudgetReserves{System: res.System, Query: res.Query, Response: res.Response}
	}
	tiers := []Tier{{Name: "context", Share: 100}}
	if mode == "retrieval" {
		if tiers, err = p.Tiers(); err != nil {
			return nil, err
		}
	}
	var total float64
	for _, t := range tiers {
		total += t.Share
	}
	for _, t := range tiers {
		share := t.Share / total * 100
		a.Tiers = append(a.Tiers, TierAllocation{
			Name: t.Name, Share: math.Round(share*100) / 100, Threshold: t.Threshold,
			Tokens: int(math.Floor(float64(a.Budget) * t.Share / total)),
		})
	}
	return a, nil
}

// Record makes the budget record of an assembly, placing its parts in the
// allocation's tiers; now is the record's time (only the record holds it,
// never the output). A plan that divides its budget among sources
// (Plan.Shares: sources mode, premortem) gives the tiers, which become
// a's: one a source, in the plan's order, its share the percent of the
// weights that its weight is, its tokens the budget it was entitled to.
//
// Links mode's code has a bucket of its own only to come after the
// artifacts (links.CodeBucket, no share): it takes what they leave of the
// one budget, so the record shows it in the context tier.
func (a *Allocation) Record(plan *Plan, now time.Time) BudgetRecord {
	if len(plan.Shares) > 0 {
		a.Tiers = shareTiers(plan.Shares)
	}
	if plan.Mode == "links" {
		c := *plan
		c.Parts = slices.Clone(plan.Parts)
		for i := range c.Parts {
			if c.Parts[i].Bucket == links.CodeBucket {
				c.Parts[i].Bucket = ""
			}
		}
		plan = &c
	}
	spec := record.Spec{Window: a.Window, Reserves: a.Reserves, Time: now}
	for _, t := range a.Tiers {
		spec.Tiers = append(spec.Tiers, record.Tier{Name: t.Name, Share: t.Share, Allocated: t.Tokens})
	}
	return record.New(plan, spec)
}

// shareTiers are the tiers of a plan's shares.
func shareTiers(shares []render.Share) []TierAllocation {
	var total float64
	for _, s := range shares {
		total += s.Weight
	}
	out := make([]TierAllocation, len(shares))
	for i, s := range shares {
		out[i] = TierAllocation{Name: s.Source, Tokens: s.Budget}
		if total > 0 {
			out[i].Share = math.Round(s.Weight/total*100*100) / 100
		}
	}
	return out
}

// recordsSetting is the records: key of the configuration.
func (p *Project) recordsSetting() (bool, error) {
	on := true
	if _, err := p.Config.Section("records", &on); err != nil {
		return false, fmt.Errorf("%w (records must be true or false)", err)
	}
	return on, nil
}

// RecordLog is where the project's budget records are:
// .ctxpack/records.jsonl under the root.
func (p *Project) RecordLog() record.Log { return record.ForRoot(p.Root) }

// AppendRecord adds r to the project's budget records, unless the
// configuration says records: false. The caller should treat an error as
// a warning: the assembly it records is not affected.
func (p *Project) AppendRecord(r BudgetRecord) error {
	on, err := p.recordsSetting()
	if err != nil || !on {
		return err
	}
	p.keepStateIgnored()
	return p.RecordLog().Append(r)
}

// Records returns the project's budget records, oldest first, and the
// lines of the file that are not records.
func (p *Project) Records() ([]BudgetRecord, []*record.LineError, error) {
	return p.RecordLog().Read()
}
