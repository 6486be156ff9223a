package app

import (
	"context"
	"errors"
	"io"
	"io/fs"
	"slices"

	"github.com/ctxpack/ctxpack/internal/project"
	"github.com/ctxpack/ctxpack/internal/secrets"

	"github.com/ctxpack/ctxpack/internal/store"
)

// The store gateway: the project's memories, experiences and values
// (.ctxpack/sources.db), for every front end, in the facade's types. Rows
// come back as the views the CLI's json format and the MCP tools show.

// ErrNotFound is the error of a read or a removal of a row id that no row
// of its kind has (errors.Is).
var ErrNotFound = errors.New("ctxpack: not found")

// InputError is input the store refuses. Field names the field as the
// YAML form of experiences spells it ("importance", "outcome.status"),
// Msg says what is wrong and what is valid.
type InputError struct{ Field, Msg string }

func (e *InputError) Error() string { return "ctxpack: " + e.Field + ": " + e.Msg }

// storeError turns the store's refusals and not-found into the facade's
// errors; others are returned as they are.
func storeError(err error) error {
	var ve *store.ValidationError
	switch {
	case errors.As(err, &ve):
		return &InputError{Field: ve.Field, Msg: ve.Msg}
	case errors.Is(err, store.ErrNotFound):
		return ErrNotFound
	}
	return err
}

// The store's limits and defaults, for front ends that state them.
const (
	MaxStoreText           = store.MaxText               // bytes of one text field
	DefaultMinClusterSize  = store.DefaultMinClusterSize // DeriveOptions.MinSize's default
	DefaultDeriveThreshold = store.DefaultThreshold      // DeriveOptions.Threshold's default
)

// Axes are the axes of values: full (any), strategy, surprise, root_cause.
func Axes() []string { return names(store.Axes()) }

// Outcomes are the outcomes of experiences: confirmed, falsified,
// abandoned.
func Outcomes() []string { return names(store.Outcomes()) }

// ConfidenceTiers are the confidence tiers of experiences, surest first.
func ConfidenceTiers() []string { return names(store.Tiers()) }

func names[T ~string](list []T) []string {
	out := make([]string, len(list))
	for i, v := range list {
		out[i] = string(v)
	}
	return out
}

// ParseAxis checks an axis of values; "" is none.
func ParseAxis(s string) (string, error) {
	a, err := store.ParseAxis(s)
	return string(a), storeError(err)
}

// ParseOutcome checks an outcome of experiences.
func ParseOutcome(s string) (string, error) {
	o, err := store.ParseOutcome(s)
	return string(o), storeError(err)
}

// Store is the project's store, open. It is safe for concurrent use; Close
// it when done.
type Store struct {
	st   *store.Store
	set  StoreSettings
	root string           // the project's, whose git history commits come from
	sc   *secrets.Scanner // redacts what the views show; nil when redaction is off
}

// Store opens the project's store: for reading only unless write, so
// that reading a store that is not there finds it empty and creates
// nothing.
func (p *Project) Store(write bool) (*Store, error) {
	sc, _, err := p.loadSecrets()
	if err != nil {
		return nil, err
	}
	set, err := p.StoreSettings()
	if err != nil {
		return nil, err
	}
	st, err := p.openStoreAt(set, !write)
	if err != nil {
		return nil, err
	}
	return &Store{st: st, set: set, root: p.Root, sc: sc}, nil
}

// The views a Store gives are redacted as an assembly is: what a memory,
// an experience or a value holds leaves the machine when it is shown to
// an agent (the MCP store tools) as much as in a context.

func (s *Store) memoryView(m store.Memory) MemoryView {
	v := ViewMemory(m)
	s.redact(&v.Content)
	return v
}

func (s *Store) experienceView(e store.Experience) ExperienceView {
	v := ViewExperience(e)
	s.redact(&v.Goal, &v.Hypothesis, &v.Action, &v.Prediction, &v.Outcome.Result, &v.Surprise, &v.RootCause, &v.Lesson)
	return v
}

func (s *Store) valueView(x store.Value) ValueView {
	v := ViewValue(x)
	s.redact(&v.Text)
	return v
}

// redact replaces the secrets in each text by their markers.
func (s *Store) redact(texts ...*string) {
	for _, t := range texts {
		if f := s.sc.Scan("", *t); f != nil {
			*t = secrets.Redact(*t, f)
		}
	}
}

// CommitStats is what a commit sync did.
type CommitStats = store.CommitStats

// SyncCommits brings the store's commits up to date with the project's
// git history: only the commits since the last one read, or all of them
// again when the history was rewritten. Outside a git repository it
// returns an error that errors.Is ErrNotRepository.
func (s *Store) SyncCommits(ctx context.Context) (CommitStats, error) {
	return s.st.SyncCommits(ctx, s.root)
}

// Close closes the store.
func (s *Store) Close() error { return s.st.Close() }

// Warnings say what opening the store found wrong and repaired, for the
// front end to show.
func (s *Store) Warnings() []string { return s.st.Warnings() }

// MemoryInput is a memory to add. Category "" is fact; Importance nil is
// 0.5.
type MemoryInput struct {
	Content, Category string
	Importance        *float64
}

func (in MemoryInput) row() store.Memory {
	m := store.Memory{Content: in.Content, Category: in.Category, Importance: -1}
	if in.Importance != nil {
		m.Importance = *in.Importance
	}
	return m
}

// Validate checks a memory as AddMemory would.
func (in MemoryInput) Validate() error { return storeError(in.row().Validate()) }

// Memories lists the memories, of one category unless category is "".
func (s *Store) Memories(ctx context.Context, category string) ([]MemoryView, error) {
	rows, err := s.st.Memories(ctx, category)
	return viewAll(rows, s.memoryView), storeError(err)
}

// Memory reads one memory.
func (s *Store) Memory(ctx context.Context, id int64) (MemoryView, error) {
	m, err := s.st.Memory(ctx, id)
	return s.memoryView(m), storeError(err)
}

// AddMemory adds a memory and returns it as stored.
func (s *Store) AddMemory(ctx context.Context, in MemoryInput) (MemoryView, error) {
	m, err := s.st.AddMemory(ctx, in.row())
	return s.memoryView(m), storeError(err)
}

// RemoveMemory removes a memory and returns it as it was.
func (s *Store) RemoveMemory(ctx context.Context, id int64) (MemoryView, error) {
	m, err := s.st.RemoveMemory(ctx, id)
	return s.memoryView(m), storeError(err)
}

// ExperienceInput is an experience to add: goal, hypothesis, action,
// prediction and outcome, with what was learned (store.Experience's
// fields, as text).
type ExperienceInput struct {
	Domain, Strategy                        string
	Goal, Hypothesis, Action, Prediction    string
	Outcome, Result                         string
	Surprise, RootCause, Lesson, Confidence string
	Iterations                              int
}

func (in ExperienceInput) row() store.Experience {
	return store.Experience{
		Domain: in.Domain, Strategy: in.Strategy, Goal: in.Goal, Hypothesis: in.Hypothesis, Action: in.Action,
		Prediction: in.Prediction, Outcome: store.Outcome(in.Outcome), Result: in.Result,
		Surprise: in.Surprise, RootCause: in.RootCause, Lesson: in.Lesson,
		Confidence: store.Tier(in.Confidence), Iterations: in.Iterations,
	}
}

func experienceInput(e store.Experience) ExperienceInput {
	return ExperienceInput{
		Domain: e.Domain, Strategy: e.Strategy, Goal: e.Goal, Hypothesis: e.Hypothesis, Action: e.Action,
		Prediction: e.Prediction, Outcome: string(e.Outcome), Result: e.Result,
		Surprise: e.Surprise, RootCause: e.RootCause, Lesson: e.Lesson,
		Confidence: string(e.Confidence), Iterations: e.Iterations,
	}
}

// Validate checks an experience as AddExperience would.
func (in ExperienceInput) Validate() error { return storeError(in.row().Validate()) }

// ParseExperiences reads experiences from YAML: one mapping or a list of
// them, keys in snake case (see store.ParseExperiences), each checked as
// AddExperience would. A fault is an *ExperienceFileError.
func ParseExperiences(name string, data []byte) ([]ExperienceInput, error) {
	es, err := store.ParseExperiences(name, data)
	if err != nil {
		return nil, err
	}
	out := make([]ExperienceInput, len(es))
	for i, e := range es {
		out[i] = experienceInput(e)
	}
	return out, nil
}

// ExperienceFileError is a fault of the YAML ParseExperiences reads:
// Name is the file name it was given, Line the line (0 for a fault of the
// whole file) and Msg what is wrong. Its text starts "store: ".
type ExperienceFileError = store.ParseError

// ExperienceFilter selects experiences: each field that is not empty must
// match.
type ExperienceFilter struct{ Domain, Strategy, Outcome string }

// Experiences lists the experiences f selects.
func (s *Store) Experiences(ctx context.Context, f ExperienceFilter) ([]ExperienceView, error) {
	rows, err := s.st.Experiences(ctx, store.ExperienceFilter{Domain: f.Domain, Strategy: f.Strategy, Outcome: store.Outcome(f.Outcome)})
	return viewAll(rows, s.experienceView), storeError(err)
}

// Experience reads one experience.
func (s *Store) Experience(ctx context.Context, id int64) (ExperienceView, error) {
	e, err := s.st.Experience(ctx, id)
	return s.experienceView(e), storeError(err)
}

// AddExperience adds an experience and returns it as stored.
func (s *Store) AddExperience(ctx context.Context, in ExperienceInput) (ExperienceView, error) {
	e, err := s.st.AddExperience(ctx, in.row())
	return s.experienceView(e), storeError(err)
}

// RemoveExperience removes an experience and returns it as it was.
func (s *Store) RemoveExperience(ctx context.Context, id int64) (ExperienceView, error) {
	e, err := s.st.RemoveExperience(ctx, id)
	return s.experienceView(e), storeError(err)
}

// ValueInput is a value written by hand.
type ValueInput struct {
	Text, Axis string
	Tags       []string
}

func (in ValueInput) row() store.Value {
	return store.Value{Text: in.Text, Axis: store.Axis(in.Axis), Tags: in.Tags}
}

// Validate checks a value as AddValue would.
func (in ValueInput) Validate() error { return storeError(in.row().Validate()) }

// Values lists the values, of one axis unless axis is "".
func (s *Store) Values(ctx context.Context, axis string) ([]ValueView, error) {
	rows, err := s.st.Values(ctx, store.Axis(axis))
	return viewAll(rows, s.valueView), storeError(err)
}

// Value reads one value.
func (s *Store) Value(ctx context.Context, id int64) (ValueView, error) {
	v, err := s.st.Value(ctx, id)
	return s.valueView(v), storeError(err)
}

// AddValue adds a value and returns it as stored.
func (s *Store) AddValue(ctx context.Context, in ValueInput) (ValueView, error) {
	v, err := s.st.AddValue(ctx, in.row())
	return s.valueView(v), storeError(err)
}

// RemoveValue removes a value and returns it as it was.
func (s *Store) RemoveValue(ctx context.Context, id int64) (ValueView, error) {
	v, err := s.st.RemoveValue(ctx, id)
	return s.valueView(v), storeError(err)
}

// DeriveOptions say how to derive values from experiences: the axis to
// cluster on ("" for every axis), the fewest experiences a cluster needs
// (0: DefaultMinClusterSize) and the least similarity at which two
// clusters merge (0: DefaultDeriveThreshold).
type DeriveOptions struct {
	Axis      string
	MinSize   int
	Threshold float64
}

// Derived is a value derive proposes, and what adding it did.
type Derived struct {
	ProposalView
	// Value is the key of the value that holds the proposal: the one added,
	// or the one that had its text on its axis already.
	Value string `json:"value,omitempty"`
	// Added says that the value was added now.
	Added bool `json:"added,omitempty"`
}

// DeriveValues proposes values from clusters of experiences with a
// lesson; with add, it stores each proposal as a value unless a value on
// its axis has its text already. On an error while adding, the proposals
// before it keep what was added.
func (s *Store) DeriveValues(ctx context.Context, o DeriveOptions, add bool) ([]Derived, error) {
	props, err := s.st.DeriveValues(ctx, store.DeriveOptions{Axis: store.Axis(o.Axis), MinClusterSize: o.MinSize, Threshold: o.Threshold})
	if err != nil {
		return nil, storeError(err)
	}
	out := make([]Derived, len(props))
	for i, p := range props {
		out[i].ProposalView = ViewProposal(p)
		s.redact(&out[i].ProposalView.Text) // shown; a value added keeps the lesson's text
	}
	if !add {
		return out, nil
	}
	existing, err := s.st.Values(ctx, "")
	if err != nil {
		return out, err
	}
	type axisText struct {
		axis store.Axis
		text string
	}
	have := map[axisText]int64{}
	for _, v := range slices.Backward(existing) { // the first of equal values wins
		have[axisText{v.Axis, v.Text}] = v.ID
	}
	for i, p := range props {
		if id, ok := have[axisText{p.Axis, p.Text}]; ok {
			out[i].Value = ItemKey("value", id)
			continue
		}
		v, err := s.st.AddValue(ctx, store.Value{
			Text: p.Text, Axis: p.Axis, Cluster: p.Cluster, ClusterSize: p.Size,
			Similarity: p.Similarity, Experience: p.Experience, Tags: p.Tags,
		})
		if err != nil {
			return out[:i], storeError(err)
		}
		have[axisText{v.Axis, v.Text}] = v.ID
		out[i].Value, out[i].Added = ItemKey("value", v.ID), true
	}
	return out, nil
}

// viewAll maps rows to their views, never nil.
func viewAll[T, V any](rows []T, view func(T) V) []V {
	out := make([]V, 0, len(rows))
	for _, r := range rows {
		out = append(out, view(r))
	}
	return out
}

// StoreInfo says which store a project uses and what it holds.
type StoreInfo struct {
	Backend   string       `json:"backend"`   // sqlite or postgres
	Store     string       `json:"store"`     // .ctxpack/sources.db, or the URL without its password
	Namespace string       `json:"namespace"` // the namespace read and written
	Shared    []string     `json:"shared,omitempty"`
	Format    int          `json:"format"` // the store's FormatVersion
	Counts    store.Counts `json:"counts"`
}

// Info returns which store the project uses and how many rows it reads.
func (s *Store) Info(ctx context.Context) (StoreInfo, error) {
	c, err := s.st.Counts(ctx)
	if err != nil {
		return StoreInfo{}, err
	}
	return StoreInfo{Backend: s.st.Backend(), Store: s.set.Name, Namespace: s.st.Namespace(), Shared: s.set.Shared, Format: store.FormatVersion, Counts: c}, nil
}

// ExportStats and ImportStats count the rows an export wrote and an
// import added or found already there.
type (
	ExportStats = store.ExportStats
	ImportStats = store.ImportStats
)

// Export writes the store's memories, experiences and values (its own
// namespace's) to w as JSON lines in a stable order (store.Export): the
// rows as stored, secrets and all, for a backup or a move between
// backends. Commits are not exported; they are read again from git.
func (s *Store) Export(ctx context.Context, w io.Writer) (ExportStats, error) {
	return s.st.Export(ctx, w)
}

// Import adds the rows of an export to the store's namespace, all or
// none, keeping their ids (store.Import): a row already there the same
// is skipped, one there different is an error naming the line.
func (s *Store) Import(ctx context.Context, name string, r io.Reader) (ImportStats, error) {
	return s.st.Import(ctx, name, r)
}

// WriteFileAtomic writes data to name whole or not at all: a temporary
// file beside it (pattern), renamed over it (project.WriteFileAtomic).
func WriteFileAtomic(name string, data []byte, pattern string, perm fs.FileMode) error {
	return project.WriteFileAtomic(name, data, pattern, perm)
}
