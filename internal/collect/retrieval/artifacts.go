package retrieval

import (
	"cmp"
	"slices"
	"strings"

	"github.com/ctxpack/ctxpack/internal/artifact"
	"github.com/ctxpack/ctxpack/internal/lexical"
	"github.com/ctxpack/ctxpack/internal/pack"
	"github.com/ctxpack/ctxpack/internal/project"
	"github.com/ctxpack/ctxpack/internal/rank"
	"github.com/ctxpack/ctxpack/internal/retrieve"
)

// The artifacts retrieval brings: those whose match is at least
// ArtifactMargin of the best artifact's, at most MaxArtifacts of them.
const (
	ArtifactMargin = 0.5
	MaxArtifacts   = 5
)

// ArtifactText is the text an artifact is ranked by for a query: its
// title and body.
func ArtifactText(a *artifact.Artifact) string { return a.Title + "\n" + a.Body }

// Artifacts ranks the artifacts of set (specs, decisions, norms and
// tasks; not the identity, nor what is superseded, which its successor
// stands for) for query by BM25 over their texts (ArtifactText;
// lexical.BM25, stop words left out), and returns the parts of the best:
// those that match at all and score at least ArtifactMargin of the best,
// best first (then by id), at most MaxArtifacts. Each is shown as links
// mode shows an artifact (artifact.Part), with the query's terms it
// matched as its Via ("matched: rounding, invoice").
//
// Its relevance is its score over the best artifact's, times best, the
// relevance of the best code chunk (1 when there is none): the best
// artifact ranks with the best code and is placed in the tier that code
// is in, the others in proportion. It depends on the query and the
// artifacts alone.
func Artifacts(set *artifact.Set, query string, best float64, tiers []Tier) []pack.Part {
	if set == nil {
		return nil
	}
	var as []*artifact.Artifact
	var texts []string
	for _, a := range set.List {
		if a.Type == artifact.Identity || a.Status == artifact.Superseded {
			continue
		}
		as = append(as, a)
		texts = append(texts, ArtifactText(a))
	}
	scored := lexical.BM25(query, texts)
	top := 0.0
	for _, s := range scored {
		top = max(top, s.Score)
	}
	if top <= 0 {
		return nil
	}
	if best <= 0 {
		best = 1
	}
	type hit struct {
		a     *artifact.Artifact
		match float64
		terms []string
	}
	var hits []hit
	for i, s := range scored {
		if m := rank.Round(s.Score / top); s.Score > 0 && m >= ArtifactMargin {
			hits = append(hits, hit{as[i], m, s.Terms})
		}
	}
	slices.SortFunc(hits, func(x, y hit) int {
		return cmp.Or(cmp.Compare(y.match, x.match), strings.Compare(x.a.ID, y.a.ID))
	})
	parts := make([]pack.Part, 0, min(len(hits), MaxArtifacts))
	for _, h := range hits[:min(len(hits), MaxArtifacts)] {
		p := h.a.Part()
		p.Score = rank.Round(h.match * best)
		p.Components = map[string]float64{"artifact_match": h.match, "best_code": rank.Round(best)}
		p.Via = []string{"matched: " + strings.Join(h.terms, ", ")}
		p.Bucket = TierFor(p.Score, tiers).Name
		parts = append(parts, p)
	}
	return parts
}

// BestRelevance is the relevance of the best of chunks, 0 when there is
// none.
func BestRelevance(chunks []retrieve.Chunk) float64 {
	best := 0.0
	for _, c := range chunks {
		best = max(best, c.Relevance)
	}
	return best
}

// StateRoot is the state root of a retrieval's inputs: the index's state
// root (code) and the Merkle root over every artifact of set (path and
// content id), which the artifacts' ranking depends on, combined as
// project.StateRoot combines inputs.
func StateRoot(index string, set *artifact.Set) string {
	var inputs []project.Input
	if set != nil {
		for _, a := range set.List {
			inputs = append(inputs, project.Input{Path: a.Path, CID: a.CID})
		}
	}
	return project.StateRoot([]project.Input{
		{Path: "code", CID: index},
		{Path: "artifacts", CID: project.StateRoot(inputs)},
	})
}
