package retrieval

import (
	"fmt"
	"math"
	"strings"

	"github.com/ctxpack/ctxpack/internal/project"
	"github.com/ctxpack/ctxpack/internal/retrieve"
)

// config is the retrieval: section of the configuration.
type config struct {
	Factors *struct {
		TaskAlignment   *float64 `yaml:"task_alignment"`
		Recency         *float64 `yaml:"recency"`
		MentionDensity  *float64 `yaml:"mention_density"`
		DependencyDepth *float64 `yaml:"dependency_depth"`
		FileType        *float64 `yaml:"file_type"`
	} `yaml:"factors"`
	FileTypes *struct {
		Source        *float64 `yaml:"source"`
		Test          *float64 `yaml:"test"`
		Requirements  *float64 `yaml:"requirements"`
		Documentation *float64 `yaml:"documentation"`
		Config        *float64 `yaml:"config"`
		Other         *float64 `yaml:"other"`
	} `yaml:"file_types"`
	RRFK        *int     `yaml:"rrf_k"`
	Lexical     *int     `yaml:"lexical"`
	Semantic    *int     `yaml:"semantic"`
	Mentions    *int     `yaml:"mentions"`
	Fused       *int     `yaml:"fused"`
	DecayDays   *float64 `yaml:"decay_days"`
	Expand      *int     `yaml:"expand"`
	ExpandShare *float64 `yaml:"expand_share"`
	Off         []string `yaml:"off"`
	Tiers       []struct {
		Name      string   `yaml:"name"`
		Share     *float64 `yaml:"share"`
		Threshold *float64 `yaml:"threshold"`
	} `yaml:"tiers"`
}

// Settings reads the retrieval: section of cfg over the defaults: the
// ranking options and the tiers. Values out of range are errors naming
// the file, the line and the key.
func Settings(cfg project.Config) (retrieve.Options, []Tier, error) {
	o := retrieve.Options{Factors: retrieve.DefaultFactors(), FileTypes: retrieve.DefaultFileTypes()}
	tiers := DefaultTiers()
	var c config
	ok, bad, err := cfg.DecodeSection("retrieval", &c, nil)
	if err != nil || !ok {
		return o, tiers, err
	}
	weight := func(key string, v *float64, dst *float64) error {
		if v == nil {
			return nil
		}
		if math.IsNaN(*v) || *v < 0 || *v > 1 {
			return bad(key, "must be a number from 0 to 1")
		}
		*dst = *v
		return nil
	}
	var errs []error
	if f := c.Factors; f != nil {
		errs = append(errs,
			weight("factors.task_alignment", f.TaskAlignment, &o.Factors.TaskAlignment),
			weight("factors.recency", f.Recency, &o.Factors.Recency),
			weight("factors.mention_density", f.MentionDensity, &o.Factors.MentionDensity),
			weight("factors.dependency_depth", f.DependencyDepth, &o.Factors.DependencyDepth),
			weight("factors.file_type", f.FileType, &o.Factors.FileType))
		if o.Factors == (retrieve.Factors{}) {
			errs = append(errs, bad("factors", "must give at least one factor a weight above 0"))
		}
	}
	if t := c.FileTypes; t != nil {
		errs = append(errs,
			weight("file_types.source", t.Source, &o.FileTypes.Source),
			weight("file_types.test", t.Test, &o.FileTypes.Test),
			weight("file_types.requirements", t.Requirements, &o.FileTypes.Requirements),
			weight("file_types.documentation", t.Documentation, &o.FileTypes.Documentation),
			weight("file_types.config", t.Config, &o.FileTypes.Config),
			weight("file_types.other", t.Other, &o.FileTypes.Other))
	}
	errs = append(errs,
		bad.Count("rrf_k", c.RRFK, &o.K, 10000),
		bad.Count("lexical", c.Lexical, &o.Lexical, 10000),
		bad.Count("semantic", c.Semantic, &o.Semantic, 10000),
		bad.Count("mentions", c.Mentions, &o.Mentions, 10000),
		bad.Count("fused", c.Fused, &o.Fused, 10000))
	if c.Expand != nil {
		if *c.Expand < 0 || *c.Expand > 100 {
			errs = append(errs, bad("expand", "must be a whole number of files from 0 to 100"))
		} else if o.Expand = *c.Expand; o.Expand == 0 {
			o.Expand = -1
		}
	}
	errs = append(errs, weight("expand_share", c.ExpandShare, &o.ExpandShare))
	if c.DecayDays != nil {
		if math.IsNaN(*c.DecayDays) || *c.DecayDays <= 0 {
			errs = append(errs, bad("decay_days", "must be a positive number of days"))
		} else {
			o.DecayDays = *c.DecayDays
		}
	}
	for i, name := range c.Off {
		if !o.Off.Set(name) {
			errs = append(errs, bad(fmt.Sprintf("off[%d]", i), "must name a component: "+strings.Join(retrieve.ComponentNames(), ", ")))
		}
	}
	if len(c.Tiers) > 0 {
		tiers = nil
		prev := math.Inf(1)
		seen := map[string]bool{}
		for i, t := range c.Tiers {
			key := fmt.Sprintf("tiers[%d]", i)
			switch {
			case t.Name == "" || seen[t.Name]:
				errs = append(errs, bad(key+".name", "must be a name no other tier has"))
			case t.Share == nil || math.IsNaN(*t.Share) || *t.Share <= 0:
				errs = append(errs, bad(key+".share", "must be a positive share of the budget"))
			case t.Threshold == nil || math.IsNaN(*t.Threshold) || *t.Threshold < 0 || *t.Threshold > 1 || *t.Threshold >= prev:
				errs = append(errs, bad(key+".threshold", "must be from 0 to 1 and below the threshold of the tier before"))
			default:
				seen[t.Name] = true
				prev = *t.Threshold
				tiers = append(tiers, Tier{Name: t.Name, Share: *t.Share, Threshold: *t.Threshold})
			}
		}
	}
	for _, e := range errs {
		if e != nil {
			return o, tiers, e
		}
	}
	return o, tiers, nil
}
