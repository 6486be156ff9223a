package mcpserver

import (
	"context"
	"errors"
	"fmt"
	"slices"
	"strings"

	"github.com/ctxpack/ctxpack/internal/app"
	"github.com/google/jsonschema-go/jsonschema"
	"github.com/modelcontextprotocol/go-sdk/mcp"
)

// StoreIn are the arguments of the store tool: those of each of its
// actions.
type StoreIn struct {
	Action    string  `json:"action"`
	Kind      string  `json:"kind,omitempty"`
	ID        int64   `json:"id,omitempty" jsonschema:"the row's id (42 for memory:42)"`
	Category  string  `json:"category,omitempty" jsonschema:"list memory: only this category (fact, preference, decision, error…)"`
	Domain    string  `json:"domain,omitempty" jsonschema:"the kind of work: debugging, feature, refactor, testing…"`
	Strategy  string  `json:"strategy,omitempty" jsonschema:"an experience's strategy (systematic-elimination…)"`
	Outcome   string  `json:"outcome,omitempty"`
	Axis      string  `json:"axis,omitempty"`
	MinSize   int     `json:"min_size,omitempty" jsonschema:"the fewest experiences a cluster needs (default 3)"`
	Threshold float64 `json:"threshold,omitempty" jsonschema:"the least cosine similarity at which clusters merge (default 0.2)"`
	Budget    int     `json:"budget,omitempty" jsonschema:"premortem's; absent: the CLI's default"`
	Format    string  `json:"format,omitempty" jsonschema:"of the text (default markdown)"`
	Limit     int     `json:"limit,omitempty" jsonschema:"experiences per section (default 10)"`
}

// PremortemIn are the arguments of store premortem.
type PremortemIn struct {
	Domain   string `json:"domain"`
	Strategy string `json:"strategy,omitempty"`
	Budget   int    `json:"budget,omitempty"`
	Format   string `json:"format,omitempty"`
	Limit    int    `json:"limit,omitempty"`
}

// StoreListIn are the arguments of store list: the kind, and the filters
// of that kind.
type StoreListIn struct {
	Kind     string `json:"kind"`
	Category string `json:"category,omitempty"`
	Domain   string `json:"domain,omitempty"`
	Strategy string `json:"strategy,omitempty"`
	Outcome  string `json:"outcome,omitempty"`
	Axis     string `json:"axis,omitempty"`
}

// KindIDIn are the arguments of store show and store_edit remove.
type KindIDIn struct {
	Kind string `json:"kind"`
	ID   int64  `json:"id"`
}

// IDIn is one row of the store.
type IDIn struct {
	ID int64 `json:"id"`
}

// MemoryListIn are a memory list's filters.
type MemoryListIn struct {
	Category string `json:"category,omitempty"`
}

// ExperienceListIn are an experience list's filters.
type ExperienceListIn struct {
	Domain   string `json:"domain,omitempty"`
	Strategy string `json:"strategy,omitempty"`
	Outcome  string `json:"outcome,omitempty"`
}

// ValueListIn are a value list's filters.
type ValueListIn struct {
	Axis string `json:"axis,omitempty"`
}

// DeriveIn are the arguments of store derive.
type DeriveIn struct {
	Axis      string  `json:"axis,omitempty"`
	MinSize   int     `json:"min_size,omitempty"`
	Threshold float64 `json:"threshold,omitempty"`
}

// StoreEditIn are the arguments of the store_edit tool.
type StoreEditIn struct {
	Action     string           `json:"action"`
	Memory     *MemoryAddIn     `json:"memory,omitempty"`
	Experience *ExperienceAddIn `json:"experience,omitempty"`
	Value      *ValueAddIn      `json:"value,omitempty"`
	Kind       string           `json:"kind,omitempty"`
	ID         int64            `json:"id,omitempty"`
}

// StoreAddIn are the arguments of store_edit add: one row.
type StoreAddIn struct {
	Memory     *MemoryAddIn     `json:"memory,omitempty"`
	Experience *ExperienceAddIn `json:"experience,omitempty"`
	Value      *ValueAddIn      `json:"value,omitempty"`
}

// MemoryAddIn is a memory to add.
type MemoryAddIn struct {
	Content    string   `json:"content" jsonschema:"what was learned: a fact, a preference, a decision, an error and its fix"`
	Category   string   `json:"category,omitempty" jsonschema:"a lower-case word (default fact)"`
	Importance *float64 `json:"importance,omitempty" jsonschema:"default 0.5"`
}

// ExperienceAddIn is an experience to add, in the form the store's YAML
// files and the store tool's results give it.
type ExperienceAddIn struct {
	Domain     string    `json:"domain"`
	Strategy   string    `json:"strategy,omitempty"`
	Goal       string    `json:"goal"`
	Hypothesis string    `json:"hypothesis"`
	Action     string    `json:"action" jsonschema:"what was done to test it"`
	Prediction string    `json:"prediction"`
	Outcome    OutcomeIn `json:"outcome"`
	Surprise   string    `json:"surprise,omitempty"`
	RootCause  string    `json:"root_cause,omitempty" jsonschema:"category: description"`
	Lesson     string    `json:"lesson,omitempty" jsonschema:"only experiences with a lesson give values"`
	Confidence string    `json:"confidence,omitempty" jsonschema:"default bronze"`
	Iterations int       `json:"iterations,omitempty"`
}

// OutcomeIn is an experience's outcome.
type OutcomeIn struct {
	Status string `json:"status"`
	Result string `json:"result" jsonschema:"what happened"`
}

// ValueAddIn is a value to add.
type ValueAddIn struct {
	Text string   `json:"text" jsonschema:"the principle"`
	Axis string   `json:"axis"`
	Tags []string `json:"tags,omitempty" jsonschema:"domains and strategies it applies to"`
}

// Items is the result of an action that lists rows.
type Items[T any] struct {
	Items []T `json:"items"`
}

// The kinds of row the store holds.
var storeKinds = []string{"memory", "experience", "value"}

// addStoreReadTools adds the store tool: premortem and the reads.
func (s *Server) addStoreReadTools() {
	addActions[StoreIn](s, "store", "The store (.ctxpack/sources.db) of memories, experiences and values. action: list kind [category | domain, strategy, outcome | axis]; show kind id; derive [axis, min_size, threshold]: propose values from clusters of alike experiences (stores nothing); premortem domain [strategy, budget, format, limit]: assemble the domain's past failures, surprises and root causes and the values that apply, before work in it (the structured result is the plan).", readTool,
		newActions("store").add("list", op(s.storeList)).add("show", op(s.storeShow)).add("derive", op(s.valuesDerive)).add("premortem", op(s.premortem)), storeArgs)
}

// addStoreWriteTools adds the store_edit tool.
func (s *Server) addStoreWriteTools() {
	addActions[StoreEditIn](s, "store_edit", "Write to the store. action: add one of memory, experience (an attempt: goal, hypothesis, action, prediction, outcome, and what was learned) or value (a principle); remove kind id. Both give the row.", editTool,
		newActions("store_edit").add("add", op(s.storeAdd)).add("remove", op(s.storeRemove)), storeArgs)
}

// storeArgs are the bounds of the store's arguments. A strategy here is an
// experience's, not the order parts are packed in.
func storeArgs(name string, p *jsonschema.Schema) bool {
	switch name {
	case "kind":
		p.Enum = enum(storeKinds)
	case "id":
		p.Minimum = ptr(1.0)
	case "importance", "threshold":
		p.Minimum, p.Maximum = ptr(0.0), ptr(1.0)
	case "iterations", "min_size":
		p.Minimum = ptr(1.0)
	case "axis":
		p.Enum = enum(app.Axes())
	case "confidence":
		p.Enum = enum(app.ConfidenceTiers())
	case "outcome":
		if status := p.Properties["status"]; status != nil { // an experience's {status, result}
			status.Enum = enum(app.Outcomes())
		} else {
			p.Enum = enum(app.Outcomes())
		}
	case "tags":
		p.MaxItems = ptr(maxPaths)
	case "memory", "experience", "value": // store_edit add's row
		for n, q := range p.Properties {
			storeArgs(n, q)
		}
	case "content", "category", "domain", "strategy", "goal", "hypothesis", "action", "prediction",
		"surprise", "root_cause", "lesson", "text":
		// the store refuses a text over app.MaxStoreText, naming the field
	default:
		return false
	}
	return true
}

// storeList lists the rows of a kind, by the filters of that kind.
func (s *Server) storeList(ctx context.Context, req *mcp.CallToolRequest, in StoreListIn) (*mcp.CallToolResult, any, error) {
	filters := map[string][]string{"memory": {"category"}, "experience": {"domain", "strategy", "outcome"}, "value": {"axis"}}
	given := map[string]bool{"category": in.Category != "", "domain": in.Domain != "", "strategy": in.Strategy != "", "outcome": in.Outcome != "", "axis": in.Axis != ""}
	if err := checkKind(in.Kind); err != nil {
		return nil, nil, err
	}
	for _, f := range []string{"category", "domain", "strategy", "outcome", "axis"} {
		if given[f] && !slices.Contains(filters[in.Kind], f) {
			return nil, nil, fmt.Errorf("ctxpack: store list: %s filters no %s (a %s list takes %s)", f, in.Kind, in.Kind, strings.Join(filters[in.Kind], ", "))
		}
	}
	switch in.Kind {
	case "memory":
		return anyOut(s.memoryList(ctx, req, MemoryListIn{in.Category}))
	case "experience":
		return anyOut(s.experienceList(ctx, req, ExperienceListIn{in.Domain, in.Strategy, in.Outcome}))
	default:
		return anyOut(s.valueList(ctx, req, ValueListIn{in.Axis}))
	}
}

// checkKind refuses a kind the store does not hold, an absent one too.
func checkKind(kind string) error {
	if !slices.Contains(storeKinds, kind) {
		return fmt.Errorf("ctxpack: kind must be memory, experience or value")
	}
	return nil
}

// checkID refuses a row id that is absent.
func checkID(id int64) error {
	if id < 1 {
		return fmt.Errorf("ctxpack: give id, the row's (42 for memory:42)")
	}
	return nil
}

func (s *Server) storeShow(ctx context.Context, req *mcp.CallToolRequest, in KindIDIn) (*mcp.CallToolResult, any, error) {
	if err := errors.Join(checkKind(in.Kind), checkID(in.ID)); err != nil {
		return nil, nil, err
	}
	switch in.Kind {
	case "memory":
		return anyOut(s.memoryShow(ctx, req, IDIn{in.ID}))
	case "experience":
		return anyOut(s.experienceShow(ctx, req, IDIn{in.ID}))
	default:
		return anyOut(s.valueShow(ctx, req, IDIn{in.ID}))
	}
}

func (s *Server) storeRemove(ctx context.Context, req *mcp.CallToolRequest, in KindIDIn) (*mcp.CallToolResult, any, error) {
	if err := errors.Join(checkKind(in.Kind), checkID(in.ID)); err != nil {
		return nil, nil, err
	}
	switch in.Kind {
	case "memory":
		return anyOut(s.memoryRm(ctx, req, IDIn{in.ID}))
	case "experience":
		return anyOut(s.experienceRm(ctx, req, IDIn{in.ID}))
	default:
		return anyOut(s.valueRm(ctx, req, IDIn{in.ID}))
	}
}

func (s *Server) storeAdd(ctx context.Context, req *mcp.CallToolRequest, in StoreAddIn) (*mcp.CallToolResult, any, error) {
	switch {
	case (in.Memory != nil) == (in.Experience != nil) && (in.Memory != nil) == (in.Value != nil),
		in.Memory != nil && (in.Experience != nil || in.Value != nil), in.Experience != nil && in.Value != nil:
		return nil, nil, fmt.Errorf("ctxpack: store_edit add takes one of memory, experience or value")
	case in.Memory != nil:
		return anyOut(s.memoryAdd(ctx, req, *in.Memory))
	case in.Experience != nil:
		return anyOut(s.experienceAdd(ctx, req, *in.Experience))
	default:
		return anyOut(s.valueAdd(ctx, req, *in.Value))
	}
}

// anyOut is a result whose structured content is any.
func anyOut[Out any](res *mcp.CallToolResult, out Out, err error) (*mcp.CallToolResult, any, error) {
	if err != nil {
		return nil, nil, err
	}
	return res, out, nil
}

func (s *Server) premortem(ctx context.Context, req *mcp.CallToolRequest, in PremortemIn) (*mcp.CallToolResult, PlanOut, error) {
	if strings.TrimSpace(in.Domain) == "" {
		return nil, PlanOut{}, fmt.Errorf("ctxpack: store premortem needs domain, the kind of work ahead (debugging, feature…)")
	}
	r := s.request(assembly{Budget: in.Budget, Format: in.Format})
	r.Limit = in.Limit
	p, err := s.open()
	if err != nil {
		return nil, PlanOut{}, err
	}
	res, err := p.Premortem(ctx, in.Domain, in.Strategy, r)
	if err != nil {
		return nil, PlanOut{}, s.fail(err)
	}
	s.finish(ctx, req.Session, p, r, res)
	return planResult(res)
}

// withStore opens the project's store for one request and calls f on it:
// for reading only unless write, so that reading a store that is not
// there finds it empty and creates nothing.
func withStore[Out any](s *Server, write bool, f func(*app.Store) (Out, error)) (*mcp.CallToolResult, Out, error) {
	var zero Out
	p, err := s.open()
	if err != nil {
		return nil, zero, err
	}
	st, err := p.Store(write)
	if err != nil {
		return nil, zero, s.fail(err)
	}
	defer st.Close()
	out, err := f(st)
	if err != nil {
		return nil, zero, s.storeError(err)
	}
	return nil, out, nil
}

// storeError is an error of the store as a tool error: input it refused
// names the argument at fault.
func (s *Server) storeError(err error) error {
	var ie *app.InputError
	if errors.As(err, &ie) {
		return fmt.Errorf("ctxpack: %s %s", ie.Field, ie.Msg)
	}
	return s.fail(err)
}

// missing says that no row of a kind has an id, and which tool lists them.
func missing(err error, kind string, id int64) error {
	if errors.Is(err, app.ErrNotFound) {
		return fmt.Errorf("ctxpack: no %s has id %d: store list (kind %s) lists them", kind, id, kind)
	}
	return err
}

// items wraps rows, never nil.
func items[V any](rows []V) Items[V] {
	if rows == nil {
		rows = []V{}
	}
	return Items[V]{Items: rows}
}

func (s *Server) memoryList(ctx context.Context, _ *mcp.CallToolRequest, in MemoryListIn) (*mcp.CallToolResult, Items[app.MemoryView], error) {
	return withStore(s, false, func(st *app.Store) (Items[app.MemoryView], error) {
		rows, err := st.Memories(ctx, in.Category)
		return items(rows), err
	})
}

func (s *Server) memoryShow(ctx context.Context, _ *mcp.CallToolRequest, in IDIn) (*mcp.CallToolResult, app.MemoryView, error) {
	return withStore(s, false, func(st *app.Store) (app.MemoryView, error) {
		m, err := st.Memory(ctx, in.ID)
		return m, missing(err, "memory", in.ID)
	})
}

func (s *Server) memoryAdd(ctx context.Context, _ *mcp.CallToolRequest, in MemoryAddIn) (*mcp.CallToolResult, app.MemoryView, error) {
	return withStore(s, true, func(st *app.Store) (app.MemoryView, error) {
		return st.AddMemory(ctx, app.MemoryInput{Content: in.Content, Category: in.Category, Importance: in.Importance})
	})
}

// memoryRm removes a memory and returns it as it was.
func (s *Server) memoryRm(ctx context.Context, _ *mcp.CallToolRequest, in IDIn) (*mcp.CallToolResult, app.MemoryView, error) {
	return withStore(s, true, func(st *app.Store) (app.MemoryView, error) {
		m, err := st.RemoveMemory(ctx, in.ID)
		return m, missing(err, "memory", in.ID)
	})
}

func (s *Server) experienceList(ctx context.Context, _ *mcp.CallToolRequest, in ExperienceListIn) (*mcp.CallToolResult, Items[app.ExperienceView], error) {
	return withStore(s, false, func(st *app.Store) (Items[app.ExperienceView], error) {
		rows, err := st.Experiences(ctx, app.ExperienceFilter{Domain: in.Domain, Strategy: in.Strategy, Outcome: in.Outcome})
		return items(rows), err
	})
}

func (s *Server) experienceShow(ctx context.Context, _ *mcp.CallToolRequest, in IDIn) (*mcp.CallToolResult, app.ExperienceView, error) {
	return withStore(s, false, func(st *app.Store) (app.ExperienceView, error) {
		e, err := st.Experience(ctx, in.ID)
		return e, missing(err, "experience", in.ID)
	})
}

func (s *Server) experienceAdd(ctx context.Context, _ *mcp.CallToolRequest, in ExperienceAddIn) (*mcp.CallToolResult, app.ExperienceView, error) {
	e := app.ExperienceInput{
		Domain: in.Domain, Strategy: in.Strategy, Goal: in.Goal, Hypothesis: in.Hypothesis, Action: in.Action,
		Prediction: in.Prediction, Outcome: in.Outcome.Status, Result: in.Outcome.Result,
		Surprise: in.Surprise, RootCause: in.RootCause, Lesson: in.Lesson,
		Confidence: in.Confidence, Iterations: in.Iterations,
	}
	return withStore(s, true, func(st *app.Store) (app.ExperienceView, error) {
		return st.AddExperience(ctx, e)
	})
}

// experienceRm removes an experience and returns it as it was.
func (s *Server) experienceRm(ctx context.Context, _ *mcp.CallToolRequest, in IDIn) (*mcp.CallToolResult, app.ExperienceView, error) {
	return withStore(s, true, func(st *app.Store) (app.ExperienceView, error) {
		e, err := st.RemoveExperience(ctx, in.ID)
		return e, missing(err, "experience", in.ID)
	})
}

func (s *Server) valueList(ctx context.Context, _ *mcp.CallToolRequest, in ValueListIn) (*mcp.CallToolResult, Items[app.ValueView], error) {
	return withStore(s, false, func(st *app.Store) (Items[app.ValueView], error) {
		rows, err := st.Values(ctx, in.Axis)
		return items(rows), err
	})
}

func (s *Server) valueShow(ctx context.Context, _ *mcp.CallToolRequest, in IDIn) (*mcp.CallToolResult, app.ValueView, error) {
	return withStore(s, false, func(st *app.Store) (app.ValueView, error) {
		v, err := st.Value(ctx, in.ID)
		return v, missing(err, "value", in.ID)
	})
}

func (s *Server) valuesDerive(ctx context.Context, _ *mcp.CallToolRequest, in DeriveIn) (*mcp.CallToolResult, Items[app.ProposalView], error) {
	return withStore(s, false, func(st *app.Store) (Items[app.ProposalView], error) {
		derived, err := st.DeriveValues(ctx, app.DeriveOptions{Axis: in.Axis, MinSize: in.MinSize, Threshold: in.Threshold}, false)
		props := make([]app.ProposalView, len(derived))
		for i, d := range derived {
			props[i] = d.ProposalView
		}
		return items(props), err
	})
}

func (s *Server) valueAdd(ctx context.Context, _ *mcp.CallToolRequest, in ValueAddIn) (*mcp.CallToolResult, app.ValueView, error) {
	return withStore(s, true, func(st *app.Store) (app.ValueView, error) {
		return st.AddValue(ctx, app.ValueInput{Text: in.Text, Axis: in.Axis, Tags: in.Tags})
	})
}

// valueRm removes a value and returns it as it was.
func (s *Server) valueRm(ctx context.Context, _ *mcp.CallToolRequest, in IDIn) (*mcp.CallToolResult, app.ValueView, error) {
	return withStore(s, true, func(st *app.Store) (app.ValueView, error) {
		v, err := st.RemoveValue(ctx, in.ID)
		return v, missing(err, "value", in.ID)
	})
}
