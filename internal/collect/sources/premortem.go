package sources

import (
	"context"
	"fmt"
	"strings"

	"github.com/ctxpack/ctxpack/internal/pack"
	"github.com/ctxpack/ctxpack/internal/render"
	"github.com/ctxpack/ctxpack/internal/store"
)

// The sections of a premortem, in the order they are shown, with their
// shares of the budget: past failures weigh most.
var premortemTable = []section{
	{"failures", "Common Failures", "experience", 3},
	{"strategy", "Strategy Performance", "experience", 2},
	{"surprises", "Unexpected Outcomes", "experience", 2},
	{"root_causes", "Root Causes to Watch", "experience", 2},
	{"principles", "Relevant Principles", "value", 1},
}

// PremortemRequest is what to collect for a premortem. Its defaults are
// the caller's to resolve.
type PremortemRequest struct {
	Domain   string // "debugging", "feature"…: not empty
	Strategy string // "" for none
	Limit    int    // experiences each section takes, above 0
	Values   int    // values the principles section takes, above 0
	Level    pack.Level
}

// Premortem collects the warnings worth reading before work in a domain
// (and with a strategy), as the ContextAssembler seed's premortem does:
// the domain's falsified experiences (full axis), the strategy's outcomes
// (strategy axis, failures first; only with a strategy), the domain's
// surprises (surprise axis) and root causes (root-cause axis), and the
// values that match the domain and strategy. Each section is a bucket;
// an experience may be in several, once in each, as that section reads it.
// Nothing is deduplicated. Markdown shows the seed's headings and "Based
// on N past experiences". The store is opened for reading only.
func Premortem(ctx context.Context, env Env, req PremortemRequest) (*Collection, error) {
	st, err := env.OpenStore(true)
	if err != nil {
		return nil, err
	}
	defer st.Close()
	domain, strategy := req.Domain, req.Strategy
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
		{section: "failures", query: "failures and issues in " + domain, q: store.ExperienceQuery{Axis: store.AxisFull, Domain: domain, Outcome: store.OutcomeFalsified, K: req.Limit}},
		{section: "surprises", query: "unexpected outcomes in " + domain, q: store.ExperienceQuery{Axis: store.AxisSurprise, Domain: domain, K: req.Limit}},
		{section: "root_causes", query: "why hypotheses fail in " + domain, q: store.ExperienceQuery{Axis: store.AxisRootCause, Domain: domain, K: req.Limit}},
		{section: "principles", query: valueQuery, values: true},
	}
	if strategy != "" {
		searches = append(searches, search{section: "strategy", query: "outcomes using " + strategy + " strategy", q: store.ExperienceQuery{Axis: store.AxisStrategy, Strategy: strategy, K: req.Limit}})
	}
	labels := make([]string, len(searches))
	for i, s := range searches {
		labels[i] = s.section
	}
	results, root, err := searchAll(ctx, st, labels, func(i int) result {
		s := searches[i]
		if s.values {
			return searchValues(ctx, st, s.query, req.Values, "principles")
		}
		return premortemExperiences(ctx, st, s.section, s.query, s.q)
	})
	if err != nil {
		return nil, err
	}
	var items []*item
	var warnings []string
	var failed []error
	for i, r := range results {
		if r.err != nil {
			warnings = append(warnings, fmt.Sprintf("premortem: %s skipped: %s", searches[i].section, strings.TrimPrefix(r.err.Error(), "store: ")))
			failed = append(failed, fmt.Errorf("the %s section: %w", searches[i].section, r.err))
			continue
		}
		items = append(items, r.items...)
	}
	target := domain
	if strategy != "" {
		target += " with " + strategy
	}
	c := &Collection{mode: "premortem", target: target, header: render.PremortemHeader(target), Failed: failed}
	c.footer = func(shown []*pack.Part) string {
		seen := map[string]bool{}
		for _, p := range shown {
			if id, ok := strings.CutPrefix(p.Key, "experience:"); ok {
				id, _, _ = strings.Cut(id, "#")
				seen[id] = true
			}
		}
		return render.PremortemFooter(len(seen))
	}
	for _, s := range premortemTable {
		if s.name != "strategy" || strategy != "" {
			c.sections = append(c.sections, s)
		}
	}
	c.finish(items, []string{"store " + root}, warnings, req.Level)
	return c, nil
}

// premortemExperiences searches one axis for a premortem section and
// shows each experience as that section reads it.
func premortemExperiences(ctx context.Context, st *store.Store, section, query string, q store.ExperienceQuery) result {
	hits, err := st.SearchExperiences(ctx, query, q)
	if err != nil {
		return result{err: err}
	}
	items := rankExperiences(hits, func(i int, e store.Experience) *item {
		ek := key("experience", e.ID, e.Namespace)
		it := &item{source: section, key: ek + "#" + section, typ: "experience", seq: i, experience: ek, changed: e.Created}
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
	return result{items: items}
}
