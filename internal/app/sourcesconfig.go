package app

import (
	"fmt"
	"strings"

	"github.com/ctxpack/ctxpack/internal/collect/sources"
)

// Source names, in the order sources mode shows their sections.
const (
	SourceArtifacts   = sources.Artifacts   // the artifacts a task links to (links mode's closure)
	SourceMemories    = sources.Memories    // facts, preferences, decisions
	SourceCode        = sources.Code        // the repository index's chunks
	SourceExperiences = sources.Experiences // past attempts (goal, hypothesis, action, prediction, outcome)
	SourceValues      = sources.Values      // principles, written or derived from experiences
	SourceCommits     = sources.Commits     // git history
)

// SourceNames returns the source names in the order their sections are
// shown.
func SourceNames() []string { return sources.Names() }

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
	case e.Name == "":
		return "ctxpack: no source given (valid: " + strings.Join(SourceNames(), ", ") + ")"
	}
	return "ctxpack: " + sources.Unknown(e.Name)
}

// ParseSources returns the sources named in list, each entry one name or
// several separated by commas, in the order their sections are shown,
// each once. An unknown name, or none at all, is a *SourceError.
func ParseSources(list []string) ([]string, error) {
	names, unknown := sources.Parse(list)
	if unknown != "" || len(names) == 0 {
		return nil, &SourceError{Name: unknown}
	}
	return names, nil
}

// SourcesSettings are sources mode's settings: the sources: section of the
// configuration over the defaults.
type SourcesSettings = sources.Settings

// SourcesSettings reads the sources: section of the configuration over the
// defaults. Values out of range and unknown keys are errors naming the
// file and line.
func (p *Project) SourcesSettings() (SourcesSettings, error) {
	s := sources.DefaultSettings()
	var c sources.Config
	ok, bad, err := p.configSection("sources", &c, sources.WeightKey)
	if err != nil || !ok {
		return s, err
	}
	return s, c.Apply(&s, bad)
}
