package app

import (
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io/fs"
	"path/filepath"
	"slices"
	"strings"
	"time"

	"github.com/ctxpack/ctxpack/internal/artifact"
	"github.com/ctxpack/ctxpack/internal/check"
	"github.com/ctxpack/ctxpack/internal/collect/links"
	"github.com/ctxpack/ctxpack/internal/graph"
	"github.com/ctxpack/ctxpack/internal/project"
	"github.com/ctxpack/ctxpack/internal/render"
)

// ArtifactTypes are the types of artifact, in the order they are listed.
var ArtifactTypes = []string{"identity", "task", "spec", "decision", "norm"}

// ArtifactInfo is one artifact, as listed.
type ArtifactInfo struct {
	ID     string `json:"id"`
	Type   string `json:"type"`
	Status string `json:"status"`
	Title  string `json:"title"`
	Path   string `json:"path"`
}

// ArtifactProblems are the problems found loading the artifacts of set
// (Project.Artifacts), as warnings: without the "artifact: " prefix.
func ArtifactProblems(set *artifact.Set) []string { return links.Problems(set) }

// List returns the project's artifacts of type typ and status (empty:
// any), sorted by id, and the problems found loading them as warnings. A
// duplicated id is listed once (and warned about).
func (p *Project) List(typ, status string) ([]ArtifactInfo, []string, error) {
	if typ != "" && !slices.Contains(ArtifactTypes, typ) {
		return nil, nil, fmt.Errorf("ctxpack: the artifact type must be one of %s (got %q)", strings.Join(ArtifactTypes, ", "), typ)
	}
	set, err := p.artifacts()
	if err != nil {
		return nil, nil, err
	}
	out := []ArtifactInfo{}
	for _, a := range set.List {
		if set.ByID[a.ID] != a {
			continue // a duplicate id: a problem of the set
		}
		if (typ == "" || string(a.Type) == typ) && (status == "" || a.Status == status) {
			out = append(out, ArtifactInfo{ID: a.ID, Type: string(a.Type), Status: a.Status, Title: a.Title, Path: a.Path})
		}
	}
	slices.SortFunc(out, func(a, b ArtifactInfo) int { return strings.Compare(a.ID, b.ID) })
	return out, ArtifactProblems(set), nil
}

// ArtifactView is one artifact at one level.
type ArtifactView struct {
	ArtifactInfo
	Level string `json:"level"`
	CID   string `json:"cid"`
	Text  string `json:"text"`
	// Output is the artifact as the format prints it: a section of the
	// text formats, or the json document (this struct without Output).
	Output []byte `json:"-"`
}

// Show returns the artifact id at the level depth (meta, summary,
// detailed, full; empty is full), rendered in format, and the problems
// found loading the artifacts as warnings. An unknown id is an error that
// names the nearest ids.
func (p *Project) Show(id, depth, format string) (*ArtifactView, []string, error) {
	if depth == "" {
		depth = "full"
	}
	level, err := parseLevel(depth)
	if err != nil {
		return nil, nil, err
	}
	f, err := parseFormat(format)
	if err != nil {
		return nil, nil, err
	}
	set, err := p.artifacts()
	if err != nil {
		return nil, nil, err
	}
	a, ok := set.ByID[id]
	if !ok {
		_, err := graph.Traverse(set, id, graph.Options{})
		return nil, ArtifactProblems(set), fmt.Errorf("ctxpack: %w", err)
	}
	text, warn, err := p.redactText(a.Path, a.Text(level))
	if err != nil {
		return nil, nil, err
	}
	v := &ArtifactView{
		ArtifactInfo: ArtifactInfo{ID: a.ID, Type: string(a.Type), Status: a.Status, Title: a.Title, Path: a.Path},
		Level:        level.String(), CID: a.CID,
		Text: text,
	}
	problems := ArtifactProblems(set)
	if warn != "" {
		problems = append(problems, warn)
	}
	if f == render.JSON {
		b, err := EncodeJSON(v)
		if err != nil {
			return nil, nil, err
		}
		v.Output = b
		return v, problems, nil
	}
	label := a.ID
	if a.Type == artifact.Identity {
		label = ""
	}
	b := render.Block{Type: string(a.Type), Label: label, Path: a.Path, Lines: [2]int{1, max(1, a.Lines)}, Doc: a.Path, Lang: "markdown", Text: v.Text}
	v.Output = []byte(render.Content(f, "", []render.Block{b}))
	return v, problems, nil
}

// EncodeJSON returns v as ctxpack prints json, in the CLI and the MCP
// server alike: indented by two spaces, HTML characters unescaped, ending
// in a newline (as render.EncodePlan encodes a plan).
func EncodeJSON(v any) ([]byte, error) {
	var b bytes.Buffer
	enc := json.NewEncoder(&b)
	enc.SetEscapeHTML(false)
	enc.SetIndent("", "  ")
	if err := enc.Encode(v); err != nil {
		return nil, fmt.Errorf("ctxpack: %w", err)
	}
	return b.Bytes(), nil
}

// CheckOptions say how to check a project.
type CheckOptions struct {
	// Strict fails the check on warnings too.
	Strict bool
	// Baseline is the baseline file, absolute or relative to the project
	// root; empty means the configured one (check.baseline), else
	// .baseline.json in the artifact directory.
	Baseline string
	// NoBaseline reports every finding, ignoring the baseline.
	NoBaseline bool
}

// CheckReport is the outcome of a check.
type CheckReport struct {
	Findings []check.Finding `json:"findings"`
	Summary  check.Summary   `json:"summary"`
	// Baseline is the baseline file as shown (relative to the project
	// root when it is inside it); "" under NoBaseline.
	Baseline string `json:"baseline,omitempty"`
}

// Text is the report as ctxpack check prints it: a line per finding, then
// the summary.
func (r *CheckReport) Text() string {
	var b strings.Builder
	for _, f := range r.Findings {
		b.WriteString(f.String())
		b.WriteByte('\n')
	}
	b.WriteString(r.Summary.String())
	b.WriteByte('\n')
	return b.String()
}

// CheckConfigError is a check that cannot run as configured: a bad check
// section of the configuration or an unreadable baseline.
type CheckConfigError struct{ Err error }

func (e *CheckConfigError) Error() string { return e.Err.Error() }
func (e *CheckConfigError) Unwrap() error { return e.Err }

// check runs the checks and says where the baseline is.
func (p *Project) check(ctx context.Context, baseline string) (*check.Report, string, string, error) {
	cfg, err := check.ParseConfig(p.Config)
	if err != nil {
		return nil, "", "", &CheckConfigError{err}
	}
	set, err := p.artifacts()
	if err != nil {
		return nil, "", "", err
	}
	wo, err := p.walkOptions()
	if err != nil {
		return nil, "", "", err
	}
	rep, err := check.Run(ctx, p.FS, set, check.Options{Config: cfg, Walk: wo})
	if err != nil {
		return nil, "", "", err
	}
	shown := baseline
	switch {
	case shown != "":
	case cfg.Baseline != "":
		shown = cfg.Baseline
	default:
		dir := set.Dir
		if dir == "" {
			dir = project.DirCtxpack
		}
		shown = dir + "/" + check.DefaultBaseline
	}
	file := shown
	if !filepath.IsAbs(file) {
		file = filepath.Join(p.Root, filepath.FromSlash(file))
	}
	return rep, file, shown, nil
}

// maxBaselineBytes bounds the check baseline read: hundreds of thousands
// of findings.
const maxBaselineBytes = 64 << 20

// Check validates the artifacts, their links and the annotations in the
// code, and reports the findings the baseline does not hold.
func (p *Project) Check(ctx context.Context, o CheckOptions) (*CheckReport, error) {
	if o.NoBaseline && o.Baseline != "" {
		return nil, errors.New("ctxpack: check: give a baseline or no baseline, not both")
	}
	rep, file, shown, err := p.check(ctx, o.Baseline)
	if err != nil {
		return nil, err
	}
	var bl *check.Baseline
	if o.NoBaseline {
		shown = ""
	} else {
		data, err := project.ReadPath(file, maxBaselineBytes)
		switch {
		case errors.Is(err, fs.ErrNotExist) && o.Baseline == "":
			// No baseline yet: every finding is new.
		case err != nil:
			return nil, &CheckConfigError{fmt.Errorf("check: baseline: %w", err)}
		default:
			if bl, err = check.ParseBaseline(shown, data); err != nil {
				return nil, &CheckConfigError{err}
			}
		}
	}
	findings, hidden := bl.Filter(rep.Findings)
	if findings == nil {
		findings = []check.Finding{}
	}
	return &CheckReport{Findings: findings, Summary: check.Summarize(rep.Counts, findings, hidden, o.Strict), Baseline: shown}, nil
}

// UpdateBaseline writes the current findings to the baseline (baseline as
// in CheckOptions), so that later checks report only new ones. It returns
// how many findings it wrote and the baseline as shown.
func (p *Project) UpdateBaseline(ctx context.Context, baseline string) (int, string, error) {
	rep, file, shown, err := p.check(ctx, baseline)
	if err != nil {
		return 0, "", err
	}
	if err := project.WriteFileAtomic(file, check.NewBaseline(rep.Findings).Marshal(), "."+filepath.Base(file)+".*", 0o644); err != nil {
		return 0, "", fmt.Errorf("ctxpack: check: write baseline: %w", err)
	}
	return len(rep.Findings), shown, nil
}

// Record appends the budget record of an assembly of req (its plan made at
// now; the clock reaches the record only, never the output) to the
// project's records, unless the configuration turns records off.
func (p *Project) Record(req Request, plan *Plan, now time.Time) error {
	if p.Remote != nil {
		return nil // a clone in the cache keeps no records (OpenRemote)
	}
	a, err := p.Allocation(req, plan.Mode)
	if err != nil {
		return err
	}
	return p.AppendRecord(a.Record(plan, now))
}
