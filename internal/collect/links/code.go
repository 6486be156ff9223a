package links

import (
	"fmt"
	"math"
	"slices"
	"strings"

	"github.com/ctxpack/ctxpack/internal/artifact"
	"github.com/ctxpack/ctxpack/internal/graph"
	"github.com/ctxpack/ctxpack/internal/lexical"
	"github.com/ctxpack/ctxpack/internal/pack"
	"github.com/ctxpack/ctxpack/internal/project"
	"github.com/ctxpack/ctxpack/internal/rank"
)

// CodeBucket is the budget bucket of the code parts. Its share is 0: it
// is filled only once every artifact of the closure is at its highest
// level (strict priority, DESIGN §3), so the code never takes room the
// closure needs.
const CodeBucket = "code"

// Code is how Collect finds the code the artifacts name. List returns
// the parts of the files under roots (slash paths from the project root,
// sorted, none under another), one part per file as pack mode makes them
// (internal/collect/files): a meta level, the full text and the levels
// between. Read returns a file's text, for the ranking.
type Code struct {
	List func(roots []string) ([]pack.Part, error)
	Read func(path string) (string, error)
}

// Glob is one paths glob of the artifacts the closure reached.
type Glob struct {
	Glob string `json:"glob"`
	// Artifact is the first artifact (in the order the links reached
	// them) that names the glob, Via the chain that reached it; Others
	// are the artifacts that name it too.
	Artifact string   `json:"artifact"`
	Via      []string `json:"via,omitempty"`
	Others   []string `json:"others,omitempty"`
	// Files is how many files of the code the glob governs; -1 when the
	// code was not listed.
	Files int `json:"files"`
}

// CodeFile is a file of the code: the first glob that governs it, and
// its place in the ranking for the task's text.
type CodeFile struct {
	Path  string
	Glob  Glob
	Rank  int     // 1 for the best match
	Score float64 // the task's text's match, in [0, 1]
}

// globs lists the paths globs of every artifact of the closure, the task
// first, in the order the links reached them; each glob once, with the
// artifacts that name it.
func globs(c *graph.Closure) []Glob {
	var out []Glob
	seen := map[string]int{}
	for _, n := range c.Nodes {
		for _, g := range n.A.Paths {
			if i, ok := seen[g]; ok {
				if out[i].Artifact != n.A.ID && !slices.Contains(out[i].Others, n.A.ID) {
					out[i].Others = append(out[i].Others, n.A.ID)
				}
				continue
			}
			seen[g] = len(out)
			via := n.Via
			if n.Depth == 0 {
				via = nil
			}
			out = append(out, Glob{Glob: g, Artifact: n.A.ID, Via: via, Files: -1})
		}
	}
	return out
}

// Roots are the files and directories under which the globs' files lie,
// sorted, without one under another.
func Roots(gs []Glob) []string {
	var all []string
	for _, g := range gs {
		all = append(all, artifact.GlobRoot(g.Glob))
	}
	slices.Sort(all)
	all = slices.Compact(all)
	var out []string
	for _, r := range all {
		if len(out) > 0 && under(r, out[len(out)-1]) {
			continue
		}
		out = append(out, r)
	}
	return out
}

// under reports whether slash path p is dir or lies under it.
func under(p, dir string) bool {
	return dir == "." || p == dir || strings.HasPrefix(p, dir+"/")
}

// Governs returns the first glob of gs (in closure order) that governs
// the file at path p, and whether one does.
func Governs(gs []Glob, p string) (Glob, bool) {
	for _, g := range gs {
		if artifact.Governs(g.Glob, p) {
			return g, true
		}
	}
	return Glob{}, false
}

// code lists the files the globs govern through code and makes their
// parts: in the code bucket, after every artifact in render order,
// scored by how well the task's title and body match each file (Score).
// Files under the artifact directory are artifacts, never code, and a
// file whose path is the key of an artifact part is left out.
func (col *Collection) code(set *artifact.Set, code *Code) error {
	roots := Roots(col.Globs)
	if len(roots) == 0 {
		return nil
	}
	listed, err := code.List(roots)
	if err != nil {
		return err
	}
	keys := map[string]bool{"paths": true}
	for _, pt := range col.Parts {
		keys[pt.Key] = true
	}
	counts := map[string]int{}
	var parts []pack.Part
	for _, pt := range listed {
		if keys[pt.Key] || set.Dir != "" && under(pt.Path, set.Dir) {
			continue
		}
		g, ok := Governs(col.Globs, pt.Path)
		if !ok {
			continue
		}
		for _, h := range col.Globs {
			if artifact.Governs(h.Glob, pt.Path) {
				counts[h.Glob]++
			}
		}
		pt.Source = "code"
		pt.Bucket = CodeBucket
		pt.Section = sectionCode
		pt.Priority = 0
		pt.Via = append(slices.Clone(g.Via), g.Artifact)
		parts = append(parts, pt)
		col.files = append(col.files, CodeFile{Path: pt.Path, Glob: g})
	}
	for i := range col.Globs {
		col.Globs[i].Files = counts[col.Globs[i].Glob]
	}
	texts := make([]string, len(parts))
	for i, pt := range parts {
		text, err := code.Read(pt.Path)
		if err != nil {
			return err
		}
		texts[i] = pt.Path + "\n" + text
	}
	scores := Match(TaskText(col.Closure.Task.A), texts)
	for i := range parts {
		parts[i].Score = scores[i]
		parts[i].Components = map[string]float64{"task_match": scores[i]}
		col.files[i].Score = scores[i]
	}
	order := make([]int, len(parts))
	for i := range order {
		order[i] = i
	}
	slices.SortStableFunc(order, func(a, b int) int {
		if c := -compareFloat(scores[a], scores[b]); c != 0 {
			return c
		}
		return strings.Compare(parts[a].Path, parts[b].Path)
	})
	for r, i := range order {
		col.files[i].Rank = r + 1
	}
	col.Parts = append(col.Parts, parts...)
	for _, pt := range parts {
		col.inputs = append(col.inputs, project.Input{Path: pt.Path, CID: pt.CID})
	}
	return nil
}

func compareFloat(a, b float64) int {
	switch {
	case a < b:
		return -1
	case a > b:
		return 1
	}
	return 0
}

// TaskText is the text the code is ranked for: the task's title and
// body.
func TaskText(a *artifact.Artifact) string {
	return a.Title + "\n" + a.Body
}

// Match scores each of texts for query by BM25 over the texts
// (lexical.BM25: their code-aware terms, the query's stop words left
// out), divided by the best score: the best match is 1, a text with none
// of the query's terms 0. Each score is rounded to millionths. It depends
// on the query and the texts alone.
func Match(query string, texts []string) []float64 {
	scored := lexical.BM25(query, texts)
	scores := make([]float64, len(texts))
	best := 0.0
	for _, s := range scored {
		best = math.Max(best, s.Score)
	}
	for i, s := range scored {
		if best > 0 {
			scores[i] = rank.Round(s.Score / best)
		}
	}
	return scores
}

// pathsPart is the list of the globs, each with the artifact that names
// it and, when the code was listed, how many files it brings.
func pathsPart(gs []Glob) pack.Part {
	var b strings.Builder
	for _, g := range gs {
		fmt.Fprintf(&b, "%s (%s", g.Glob, strings.Join(append([]string{g.Artifact}, g.Others...), ", "))
		switch {
		case g.Files < 0:
		case g.Files == 0:
			b.WriteString(": no file")
		case g.Files == 1:
			b.WriteString(": 1 file")
		default:
			fmt.Fprintf(&b, ": %d files", g.Files)
		}
		b.WriteString(")\n")
	}
	return pack.Part{
		Key: "paths", Source: "artifact", Type: "paths", Section: sectionPaths, Priority: prioPaths,
		// A list of globs is metadata at every depth, the same text at
		// each: no level shows less of it.
		Text: map[pack.Level]string{pack.Meta: b.String(), pack.Full: b.String()}, SelfNoted: true,
	}
}
