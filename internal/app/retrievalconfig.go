package app

import (
	"cmp"
	"slices"

	"github.com/ctxpack/ctxpack/internal/collect/retrieval"
	"github.com/ctxpack/ctxpack/internal/embed"
	"github.com/ctxpack/ctxpack/internal/project"
	"github.com/ctxpack/ctxpack/internal/retrieve"
)

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
		p.retrievalOpt, p.retrievalTiers, p.retrievalErr = retrieval.Settings(p.Config)
		p.retrievalOpt.Embedder, p.embedErr = embed.FromConfig(p.Config.Embed, p.Root, nil) // nil when embed: names none
	})
}

// embedder is the configured embedder, nil when embed: names none.
func (p *Project) embedder() (embed.Embedder, error) {
	p.loadRetrievalOnce()
	return p.retrievalOpt.Embedder, p.embedErr
}

// configSection decodes the section name of the configuration into c (see
// project.Config.DecodeSection).
func (p *Project) configSection(name string, c any, allow func(key string) bool) (bool, project.BadKey, error) {
	return p.Config.DecodeSection(name, c, allow)
}

// badKey makes the error about a key of a configuration section.
type badKey = project.BadKey
