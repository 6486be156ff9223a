package sources

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
	Artifacts   = "artifacts"   // the artifacts a task links to (links mode's closure)
	Memories    = "memories"    // facts, preferences, decisions
	Code        = "code"        // the repository index's chunks
	Experiences = "experiences" // past attempts (goal, hypothesis, action, prediction, outcome)
	Values      = "values"      // principles, written or derived from experiences
	Commits     = "commits"     // git history
)

// section describes one section of the output, a bucket of the budget:
// its name, title, the word its parts carry as their source, and its
// default weight.
type section struct {
	name, title, part string
	weight            float64
}

// table is the sources in the order their sections are shown, with the
// ContextAssembler seed's weights (experiences 3, code 2, commits 2,
// values 1, memories 1; a task's artifacts weigh as much as experiences).
var table = []section{
	{Artifacts, "Artifacts", "artifact", 3},
	{Memories, "Memories", "memory", 1},
	{Code, "Code", "code", 2},
	{Experiences, "Experiences", "experience", 3},
	{Values, "Values", "value", 1},
	{Commits, "Commits", "commit", 2},
}

// Names returns the source names in the order their sections are shown.
func Names() []string {
	out := make([]string, len(table))
	for i, s := range table {
		out[i] = s.name
	}
	return out
}

// Defaults are the sources searched when a request names none: every
// source but artifacts (which needs a task).
func Defaults() []string { return []string{Memories, Code, Experiences, Values, Commits} }

func lookup(name string) (section, bool) {
	i := slices.IndexFunc(table, func(s section) bool { return s.name == name })
	if i < 0 {
		return section{}, false
	}
	return table[i], true
}

// Parse returns the sources named in list, each entry one name or several
// separated by commas, in the order their sections are shown, each once.
// unknown is the first name that is no source, if any; names is empty
// when the list names none.
func Parse(list []string) (names []string, unknown string) {
	seen := map[string]bool{}
	for _, entry := range list {
		for name := range strings.SplitSeq(entry, ",") {
			name = strings.ToLower(strings.TrimSpace(name))
			if name == "" {
				continue
			}
			if _, ok := lookup(name); !ok {
				return nil, name
			}
			seen[name] = true
		}
	}
	for _, s := range table {
		if seen[s.name] {
			names = append(names, s.name)
		}
	}
	return names, ""
}

// Unknown says that name is no source, with the valid names and the one it
// looks like: `unknown source "memorys" (valid: …); did you mean
// memories?`.
func Unknown(name string) string {
	hint := ""
	if s := project.Suggest(name, Names()); s != "" {
		hint = fmt.Sprintf("; did you mean %s?", s)
	}
	return fmt.Sprintf("unknown source %q (valid: %s)%s", name, strings.Join(Names(), ", "), hint)
}

// Settings are sources mode's settings: the sources: section of the
// configuration over the defaults.
type Settings struct {
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

// DefaultSettings returns the seed's settings.
func DefaultSettings() Settings {
	s := Settings{Weights: map[string]float64{}, Limit: 20, Similarity: 0.9, PremortemLimit: 10, PremortemValues: 5}
	for _, src := range table {
		s.Weights[src.name] = src.weight
	}
	return s
}

// Config is the sources: section of the configuration, as written.
type Config struct {
	Weights    map[string]float64 `yaml:"weights"`
	Limit      *int               `yaml:"limit"`
	Similarity *float64           `yaml:"similarity"`
	Premortem  *struct {
		Limit  *int `yaml:"limit"`
		Values *int `yaml:"values"`
	} `yaml:"premortem"`
}

// WeightKey reports whether key, a dotted key of the section, is a source's
// weight: the keys of weights are source names, not settings.
func WeightKey(key string) bool {
	name, ok := strings.CutPrefix(key, "weights.")
	return ok && !strings.Contains(name, ".")
}

// maxCount is the most items a count setting may ask for.
const maxCount = 1000

// Apply sets on s what c gives, checking every value; bad makes the error
// about a key of the section (where it is written is the caller's to
// say). Weights are checked in name order.
func (c *Config) Apply(s *Settings, bad project.BadKey) error {
	for _, name := range slices.Sorted(maps.Keys(c.Weights)) {
		if _, ok := lookup(name); !ok {
			return bad("weights."+name, "names no source: "+Unknown(name))
		}
		w := c.Weights[name]
		if math.IsNaN(w) || w <= 0 || w > 1000 {
			return bad("weights."+name, "must be a number above 0 and at most 1000")
		}
		s.Weights[name] = w
	}
	if err := bad.Count("limit", c.Limit, &s.Limit, maxCount); err != nil {
		return err
	}
	if c.Similarity != nil {
		if v := *c.Similarity; math.IsNaN(v) || v <= 0 || v > 1 {
			return bad("similarity", "must be a number above 0 and at most 1")
		}
		s.Similarity = *c.Similarity
	}
	if pm := c.Premortem; pm != nil {
		if err := bad.Count("premortem.limit", pm.Limit, &s.PremortemLimit, maxCount); err != nil {
			return err
		}
		return bad.Count("premortem.values", pm.Values, &s.PremortemValues, maxCount)
	}
	return nil
}
