package pack

import (
	"cmp"
	"fmt"
	"math"
	"slices"

	"github.com/ctxpack/ctxpack/internal/rank"
	"github.com/ctxpack/ctxpack/internal/render"
)

// StructureKey is the key of the directory structure that
// Options.Structure puts at the top of the output.
const StructureKey = "ctxpack:structure"

// structureLines are the most lines the structure's summary and detailed
// levels take; its full level has every file, its meta level one line.
var structureLines = [numLevels]int{Meta: 1, Summary: 12, Detailed: 100, Full: math.MaxInt}

// structurePart is the directory structure of the parts' paths
// (render.Structure): a part that ranks above every other, whose levels
// fold more directories the lower they are (by the files' scores), fitted
// and reported like any other part. ok is false when no part has a path.
func structurePart(parts []Part) (Part, bool) {
	type file struct {
		path  string
		score int64
	}
	seen := map[string]bool{}
	var files []file
	prio := math.MinInt
	for i := range parts {
		p := &parts[i]
		prio = max(prio, p.Priority)
		if p.Path == "" || seen[p.Path] {
			continue
		}
		seen[p.Path] = true
		files = append(files, file{p.Path, rank.Quantize(p.Score)})
	}
	if len(files) == 0 {
		return Part{}, false
	}
	slices.SortFunc(files, func(a, b file) int { return cmp.Or(cmp.Compare(b.score, a.score), cmp.Compare(a.path, b.path)) })
	tf := make([]render.TreeFile, len(files))
	for i, f := range files {
		tf[i] = render.TreeFile{Path: f.path, Rank: i}
	}
	p := Part{
		Key: StructureKey, Source: "ctxpack", Type: "tree",
		Label:    fmt.Sprintf("directory structure: %s %s", render.Thousands(len(files)), plural(len(files), "file")),
		Priority: prio + 1, SelfNoted: true,
		Text: map[Level]string{},
	}
	prev := ""
	for l := Full; l >= Meta; l-- {
		t := render.Structure(tf, structureLines[l])
		if t != prev {
			p.Text[l] = t
		}
		prev = t
	}
	return p, true
}
