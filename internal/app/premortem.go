package app

import (
	"context"
	"fmt"
	"strings"

	"github.com/ctxpack/ctxpack/internal/collect/sources"
)

// DefaultPremortemBudget is a premortem's budget when neither the request
// nor the configuration gives one: the seed's max_tokens.
const DefaultPremortemBudget = 1500

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
	if p.noBudgetGiven(req) {
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
	limit := settings.PremortemLimit
	if req.Limit > 0 {
		limit = req.Limit
	}
	col, err := sources.Premortem(ctx, p.sourcesEnv(settings, req.Index), sources.PremortemRequest{
		Domain: domain, Strategy: strategy, Limit: limit, Values: settings.PremortemValues, Level: o.MaxLevel,
	})
	if err != nil {
		return nil, err
	}
	return p.assembleSources(col, req, o, "no experience, outcome or value is recorded for this domain ('ctxpack experience list' shows the domains)")
}
