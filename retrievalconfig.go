package ctxpack

import (
	"cmp"
	"fmt"
	"math"
	"slices"
	"strings"

	"github.com/ctxpack/ctxpack/internal/embed"
	"github.com/ctxpack/ctxpack/internal/project"
	"github.com/ctxpack/ctxpack/internal/retrieve"
)

// retrievalConfig is the retrieval: section of the configuration.
type retrievalConfig struct {
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
	Tiers       []struct {
		Name      string   `yaml:"name"`
		Share     *float64 `yaml:"share"`
		Threshold *float64 `yaml:"threshold"`
	} `yaml:"tiers"`
}

// retrieval are the project's retrieval settings: the ranking options and
// the tiers, from the retrieval: section of the configuration over the
// defaults, with the configured embedder. Values out of range are errors
// naming the key. They are made once per Project (an embedder may load a
// model file); callers get their own copy of the tiers.
func (p *Project) retrieval() (retrieve.Options, []Tier, error) {
	p.loadRetrievalOnce()
	return p.retrievalOpt, slices.Clone(p.retrievalTiers), cmp.Or(p.retrievalErr, p.embedErr)
}

// loadRetrievalOnce reads the retrieval: section and loads the embedder,
// each with its own error: the tiers do not need the embedder and the
// index's vectors do not need the retrieval: section, so a problem in one
// does not fail what only needs the other (Tiers, EmbedIndex).
func (p *Project) loadRetrievalOnce() {
	p.retrievalOnce.Do(func() {
		p.retrievalOpt, p.retrievalTiers, p.retrievalErr = p.loadRetrieval()
		p.retrievalOpt.Embedder, p.embedErr = embed.FromConfig(p.Config.Embed, p.Root, nil) // nil when embed: names none
	})
}

// embedder is the configured embedder, nil when embed: names none.
func (p *Project) embedder() (embed.Embedder, error) {
	p.loadRetrievalOnce()
	return p.retrievalOpt.Embedder, p.embedErr
}

// configSection decodes the section name of the configuration into c (a
// pointer to the section's struct), as the retrieval: and sources:
// sections are read, and checks its keys against c's yaml tags. ok is
// false when the configuration has no such section. bad makes an error
// about a key of the section: "ctxpack: file:line: name.key must…", at
// the section's line when the key is not written in it. A key c has no
// field for, and allow (if not nil) does not accept, is an error: the
// first such key by line, then name, with the known key it looks like and
// the page of docs/ that lists the section's settings.
func (p *Project) configSection(name string, c any, allow func(key string) bool) (ok bool, bad badKey, err error) {
	if ok, err := p.Config.Section(name, c); err != nil || !ok {
		return ok, nil, err
	}
	node := p.Config.Extra[name]
	lines := project.KeyLines(&node, "")
	bad = func(key, must string) error {
		where := ""
		if p.Config.Source != "" {
			where = fmt.Sprintf("%s:%d: ", p.Config.Source, cmp.Or(lines[key], node.Line))
		}
		return fmt.Errorf("ctxpack: %s%s.%s %s", where, name, key, must)
	}
	unknown, known := project.UnknownKeys(lines, c)
	if allow != nil {
		unknown = slices.DeleteFunc(unknown, allow)
	}
	if len(unknown) == 0 {
		return true, bad, nil
	}
	key := slices.MinFunc(unknown, func(a, b string) int { return cmp.Or(cmp.Compare(lines[a], lines[b]), strings.Compare(a, b)) })
	hint := ""
	if s := project.Suggest(key, known); s != "" {
		hint = fmt.Sprintf(" (did you mean %s?)", s)
	}
	return true, bad, bad(key, fmt.Sprintf("is not a %s setting%s; docs/%s.md lists them", name, hint, name))
}

// badKey makes the error about a key of a configuration section: key
// (dotted, within the section) must… (see configSection).
type badKey func(key, must string) error

// count sets *dst to *v when v is set: a whole number from 1 to most, else
// an error about key.
func (bad badKey) count(key string, v *int, dst *int, most int) error {
	if v == nil {
		return nil
	}
	if *v <= 0 || *v > most {
		return bad(key, fmt.Sprintf("must be a whole number from 1 to %d", most))
	}
	*dst = *v
	return nil
}

func (p *Project) loadRetrieval() (retrieve.Options, []Tier, error) {
	o := retrieve.Options{Factors: retrieve.DefaultFactors(), FileTypes: retrieve.DefaultFileTypes()}
	tiers := DefaultTiers()
	var c retrievalConfig
	ok, bad, err := p.configSection("retrieval", &c, nil)
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
		bad.count("rrf_k", c.RRFK, &o.K, 10000),
		bad.count("lexical", c.Lexical, &o.Lexical, 10000),
		bad.count("semantic", c.Semantic, &o.Semantic, 10000),
		bad.count("mentions", c.Mentions, &o.Mentions, 10000),
		bad.count("fused", c.Fused, &o.Fused, 10000))
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
