package files

import (
	"errors"

	"github.com/ctxpack/ctxpack/internal/chunk"
	"github.com/ctxpack/ctxpack/internal/pack"
	"github.com/ctxpack/ctxpack/internal/retrieve"
)

var errNoRelevance = errors.New("files: a query needs Request.Relevance")

// codeLevels returns a Part.More that gives a file's extractive summary
// and detailed levels (chunk.Levels) from its text.
func codeLevels(path string) func(text string) map[pack.Level]string {
	return func(text string) map[pack.Level]string {
		summary, detailed := chunk.Levels(path, []byte(text))
		m := make(map[pack.Level]string, 2)
		if summary != "" {
			m[pack.Summary] = summary
		}
		if detailed != "" {
			m[pack.Detailed] = detailed
		}
		return m
	}
}

// classify returns a file's language (chunk.Language), the section word
// of its kind (retrieve.FileKind, the classifier retrieval's file-type
// factor uses) and the priority of that kind: source 1.0, tests 0.9,
// requirements 0.8, docs 0.7, config 0.6, other 0.5.
func classify(p string) (lang, kind string, score float64) {
	k := retrieve.FileKind(p)
	return chunk.Language(p), retrieve.SectionWord(k, false), retrieve.SeedFileTypes().Of(k)
}
