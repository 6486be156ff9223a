package ctxpack

import (
	"context"
	"fmt"
	"strings"

	"github.com/ctxpack/ctxpack/internal/pack"
	"github.com/ctxpack/ctxpack/internal/render"
	"github.com/ctxpack/ctxpack/internal/store"
)

// DefaultPremortemBudget is a premortem's budget when neither the request
// nor the configuration gives one: the seed's max_tokens.
const DefaultPremortemBudget = 1500

// The sections of a premortem, in the order they are shown, with their
// shares of the budget: past failures weigh most.
var premortemTable = []sourceInfo{
	{"failures", "Common Failures", "experience", 3},
	{"strategy", "Strategy Performance", "experience", 2},
	{"surprises", "Unexpected Outcomes", "experience", 2},
	{"root_causes", "Root Causes to Watch", "experience", 2},
	{"principles", "Relevant Principles", "value", 1},
}

// Premortem assembles the warnings worth reading before work in a domain
// (and with a strategy), as the ContextAssembler seed's premortem does:
// the domain's falsified experiences (full axis), the strategy's outcomes
// (strategy axis, failures first; only with a strategy), the domain's
// surprises (surprise axis) and root causes (root-cause axis), and the
// values that match the domain and strategy. Each section is a share of
// the budget, its items cut to the item cap; markdown shows the seed's
// headings and "Based on N past experiences".
func (p *Project) Premortem(ctx context.Context, domain, strategy string, req Request) (*Result, error) {
	domain, strategy = strings.TrimSpace(domain), strings.TrimSpace(strategy)
	if domain == "" {
		return nil, fmt.Errorf("ctxpack: premortem needs a domain (debugging, feature, …)")
	}
	if p.unbudgeted(req) {
		req.Budget = DefaultPremortemBudget
	}
	settings, err := p.SourcesSettings()
	if err != nil {
		return nil, err
	}
	req.Format, req.Overflow = p.sourcesFormat(req.Format), p.sourcesOverflow(req.Overflow)
	o, err := p.options(req)
	if err != nil {
		return nil, err
	}
	st, err := p.OpenStore(true)
	if err != nil {
		return nil, err
	}
	defer st.Close()
	limit := settings.PremortemLimit
	if req.Limit > 0 {
		limit = req.Limit
	}
	valueQuery := "principles for " + domain
	if strategy != "" {
		valueQuery += " using " + strategy
	}
	type search struct {
		section string
		query   string
		q       store.ExperienceQuery
		values  bool
	}
	searches := []search{
		{section: "failures", query: "failures and issues in " + domain, q: store.ExperienceQuery{Axis: store.AxisFull, Domain: domain, Outcome: store.OutcomeFalsified, K: limit}},
		{section: "surprises", query: "unexpected outcomes in " + domain, q: store.ExperienceQuery{Axis: store.AxisSurprise, Domain: domain, K: limit}},
		{section: "root_causes", query: "why hypotheses fail in " + domain, q: store.ExperienceQuery{Axis: store.AxisRootCause, Domain: domain, K: limit}},
		{section: "principles", query: valueQuery, values: true},
	}
	if strategy != "" {
		searches = append(searches, search{section: "strategy", query: "outcomes using " + strategy + " strategy", q: store.ExperienceQuery{Axis: store.AxisStrategy, Strategy: strategy, K: limit}})
	}
	labels := make([]string, len(searches))
	for i, s := range searches {
		labels[i] = s.section
	}
	results, root, err := searchAll(ctx, st, labels, func(i int) sourceResult {
		s := searches[i]
		if s.values {
			return searchValues(ctx, st, s.query, settings.PremortemValues, "principles")
		}
		return premortemExperiences(ctx, st, s.section, s.query, s.q)
	})
	if err != nil {
		return nil, err
	}
	var items []*srcItem
	var warnings []string
	for i, r := range results {
		if r.err != nil {
			warnings = append(warnings, fmt.Sprintf("premortem: %s skipped: %s", searches[i].section, strings.TrimPrefix(r.err.Error(), "store: ")))
			continue
		}
		items = append(items, r.items...)
	}
	var table []sourceInfo
	for _, s := range premortemTable {
		if s.name != "strategy" || strategy != "" {
			table = append(table, s)
		}
	}
	target := domain
	if strategy != "" {
		target += " with " + strategy
	}
	if o.Format.Content() == render.Markdown {
		o.Header = render.PremortemHeader(target)
		o.Footer = func(shown []*pack.Part) string {
			seen := map[string]bool{}
			for _, p := range shown {
				if id, ok := strings.CutPrefix(p.Key, "experience:"); ok {
					id, _, _ = strings.Cut(id, "#")
					seen[id] = true
				}
			}
			return render.PremortemFooter(len(seen))
		}
	}
	o.Mode, o.Target = "premortem", target
	run := &sourcesRun{p: p, req: req, settings: settings}
	return run.assemble(o, table, items, nil, []string{"store " + root}, append(warnings, p.Warnings...), false)
}

// premortemExperiences searches one axis for a premortem section and
// shows each experience as that section reads it.
func premortemExperiences(ctx context.Context, st *store.Store, section, query string, q store.ExperienceQuery) sourceResult {
	hits, err := st.SearchExperiences(ctx, query, q)
	if err != nil {
		return sourceResult{err: err}
	}
	items := rankExperiences(hits, func(i int, e store.Experience) *srcItem {
		it := &srcItem{typ: "experience", seq: i, experience: e.ID, changed: e.Created}
		v := experienceView(e)
		switch section {
		case "failures":
			it.item = v.Item()
		case "strategy":
			it.item = v.StrategyItem()
		case "surprises":
			it.item = v.SurpriseItem()
		case "root_causes":
			it.item = v.RootCauseItem()
		}
		it.source = section
		it.key = ItemKey("experience", e.ID) + "#" + section
		it.item.Note = "\n\n*(truncated, full experience ID: " + it.key + ")*"
		return it
	})
	if section == "strategy" { // failures first: they are what a premortem is for
		for i, it := range items {
			f := 0.8
			if hits[i].Outcome == store.OutcomeFalsified {
				f = 1
			}
			it.relevance *= f
			it.components["failure"] = f
		}
	}
	return sourceResult{items: items}
}
