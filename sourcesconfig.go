package ctxpack

import (
	"fmt"
	"maps"
	"math"
	"slices"
	"strings"

	"github.com/ctxpack/ctxpack/internal/project"
)

// Source names, in the order sources mode shows their sections.
const (
	SourceArtifacts   = "artifacts"   // the artifacts a task links to (links mode's closure)
	SourceMemories    = "memories"    // facts, preferences, decisions
	SourceCode        = "code"        // the repository index's chunks
	SourceExperiences = "experiences" // past attempts (goal, hypothesis, action, prediction, outcome)
	SourceValues      = "values"      // principles, written or derived from experiences
	SourceCommits     = "commits"     // git history
)

// sourceInfo describes one source: its section title, the word its parts
// carry as their source, and its default weight (the ContextAssembler
// seed's: experiences 3, code 2, commits 2, values 1, memories 1; a task's
// artifacts weigh as much as experiences).
type sourceInfo struct {
	name, title, part string
	weight            float64
}

var sourceTable = []sourceInfo{
	{SourceArtifacts, "Artifacts", "artifact", 3},
	{SourceMemories, "Memories", "memory", 1},
	{SourceCode, "Code", "code", 2},
	{SourceExperiences, "Experiences", "experience", 3},
	{SourceValues, "Values", "value", 1},
	{SourceCommits, "Commits", "commit", 2},
}

// SourceNames returns the source names in the order their sections are
// shown.
func SourceNames() []string {
	out := make([]string, len(sourceTable))
	for i, s := range sourceTable {
		out[i] = s.name
	}
	return out
}

// DefaultSources are the sources of sources mode when the request names
// none: every source but artifacts (which needs a task).
func DefaultSources() []string {
	return []string{SourceMemories, SourceCode, SourceExperiences, SourceValues, SourceCommits}
}

func sourceOf(name string) (sourceInfo, int) {
	for i, s := range sourceTable {
		if s.name == name {
			return s, i
		}
	}
	return sourceInfo{}, -1
}

// SourceError is a request for sources that cannot be met as asked: a
// list that names an unknown source, or none, or the artifacts source
// without a task that exists. The CLI reports it as a usage error.
type SourceError struct {
	Name string // the unknown name; "" when the list is empty
	// needsTask: the artifacts source was asked for without a task;
	// taskOnly: a task was given without the artifacts source; noTask: the
	// task given is no artifact.
	needsTask        bool
	taskOnly, noTask string
}

func (e *SourceError) Error() string {
	switch {
	case e.needsTask:
		return "ctxpack: the artifacts source needs a task whose links to follow: give one (--task TASK-042)"
	case e.taskOnly != "":
		return fmt.Sprintf("ctxpack: a task is given (%s) but the artifacts source is not asked for; add artifacts to the sources", e.taskOnly)
	case e.noTask != "":
		return fmt.Sprintf("ctxpack: the task %q is not an artifact of the project ('ctxpack list' lists them)", e.noTask)
	}
	valid := strings.Join(SourceNames(), ", ")
	if e.Name == "" {
		return "ctxpack: no source given (valid: " + valid + ")"
	}
	hint := ""
	if s := project.Suggest(e.Name, SourceNames()); s != "" {
		hint = fmt.Sprintf("; did you mean %s?", s)
	}
	return fmt.Sprintf("ctxpack: unknown source %q (valid: %s)%s", e.Name, valid, hint)
}

// ParseSources returns the sources named in list, each entry one name or
// several separated by commas, in the order their sections are shown,
// each once. An unknown name, or none at all, is a *SourceError.
func ParseSources(list []string) ([]string, error) {
	seen := map[string]bool{}
	for _, entry := range list {
		for _, name := range strings.Split(entry, ",") {
			name = strings.ToLower(strings.TrimSpace(name))
			if name == "" {
				continue
			}
			if _, i := sourceOf(name); i < 0 {
				return nil, &SourceError{Name: name}
			}
			seen[name] = true
		}
	}
	if len(seen) == 0 {
		return nil, &SourceError{}
	}
	var out []string
	for _, s := range sourceTable {
		if seen[s.name] {
			out = append(out, s.name)
		}
	}
	return out, nil
}

// SourcesSettings are sources mode's settings: the sources: section of the
// configuration over the defaults.
type SourcesSettings struct {
	Weights map[string]float64 // by source name; every source has one
	// Limit is how many items each source's search returns (the seed's
	// limit, default 20).
	Limit int
	// Similarity is how alike (textsim.Similarity) two items' texts must
	// be for the less relevant to be dropped as a duplicate (the seed's
	// 90%).
	Similarity float64
	// PremortemLimit is how many experiences each premortem section takes
	// (default 10); PremortemValues how many values (default 5).
	PremortemLimit, PremortemValues int
}

// DefaultSourcesSettings returns the seed's settings.
func DefaultSourcesSettings() SourcesSettings {
	s := SourcesSettings{Weights: map[string]float64{}, Limit: 20, Similarity: 0.9, PremortemLimit: 10, PremortemValues: 5}
	for _, src := range sourceTable {
		s.Weights[src.name] = src.weight
	}
	return s
}

// sourcesConfig is the sources: section of the configuration.
type sourcesConfig struct {
	Weights    map[string]float64 `yaml:"weights"`
	Limit      *int               `yaml:"limit"`
	Similarity *float64           `yaml:"similarity"`
	Premortem  *struct {
		Limit  *int `yaml:"limit"`
		Values *int `yaml:"values"`
	} `yaml:"premortem"`
}

// SourcesSettings reads the sources: section of the configuration over the
// defaults. Values out of range and unknown keys are errors naming the
// file and line.
func (p *Project) SourcesSettings() (SourcesSettings, error) {
	s := DefaultSourcesSettings()
	var c sourcesConfig
	weightName := func(k string) bool { // weights is a map: its keys are source names
		name, ok := strings.CutPrefix(k, "weights.")
		return ok && !strings.Contains(name, ".")
	}
	ok, bad, err := p.configSection("sources", &c, weightName)
	if err != nil || !ok {
		return s, err
	}
	for _, name := range slices.Sorted(maps.Keys(c.Weights)) {
		if _, i := sourceOf(name); i < 0 {
			msg := strings.TrimPrefix((&SourceError{Name: name}).Error(), "ctxpack: ")
			return s, bad("weights."+name, "names no source: "+msg)
		}
		w := c.Weights[name]
		if math.IsNaN(w) || w <= 0 || w > 1000 {
			return s, bad("weights."+name, "must be a number above 0 and at most 1000")
		}
		s.Weights[name] = w
	}
	if err := bad.Count("limit", c.Limit, &s.Limit, 1000); err != nil {
		return s, err
	}
	if c.Similarity != nil {
		if v := *c.Similarity; math.IsNaN(v) || v <= 0 || v > 1 {
			return s, bad("similarity", "must be a number above 0 and at most 1")
		}
		s.Similarity = *c.Similarity
	}
	if pm := c.Premortem; pm != nil {
		if err := bad.Count("premortem.limit", pm.Limit, &s.PremortemLimit, 1000); err != nil {
			return s, err
		}
		if err := bad.Count("premortem.values", pm.Values, &s.PremortemValues, 1000); err != nil {
			return s, err
		}
	}
	return s, nil
}
