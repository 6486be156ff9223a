package files

import (
	"cmp"
	"errors"
	"fmt"
	"maps"

	"github.com/ctxpack/ctxpack/internal/chunk"
	"github.com/ctxpack/ctxpack/internal/pack"
	"github.com/ctxpack/ctxpack/internal/project"
	"github.com/ctxpack/ctxpack/internal/retrieve"
)

var errNoRelevance = errors.New("files: a query needs Request.Relevance")

// filePart is a whole file as a part: full text, and a meta line.
func filePart(p, text string) pack.Part {
	lines := project.CountLines(text)
	lang, kind, score := classify(p)
	meta := fmt.Sprintf("%s, %d lines, %d bytes\n", cmp.Or(lang, "text"), lines, len(text))
	part := pack.Part{
		Key: p, Source: "file", Type: kind, Path: p, Lang: lang, Score: score,
		Text:       map[pack.Level]string{pack.Meta: meta, pack.Full: text},
		Components: map[string]float64{"file_type": score},
	}
	if lines > 0 {
		part.Lines = [2]int{1, lines}
	}
	return part
}

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
	return chunk.Language(p), partType[k], retrieve.SeedFileTypes().Of(k)
}

// partType is the section word of a packed file, by kind of file
// (retrieve.FileKind).
var partType = map[string]string{
	"source": "source", "test": "test", "documentation": "doc", "requirements": "doc", "config": "config", "other": "file",
}

// PartTypes returns the section word of a packed file by kind of file
// (retrieve.FileKind), in a new map.
func PartTypes() map[string]string { return maps.Clone(partType) }
