package mcpserver

import (
	"context"
	"errors"
	"fmt"

	"github.com/ctxpack/ctxpack/internal/app"
	"github.com/google/jsonschema-go/jsonschema"
	"github.com/modelcontextprotocol/go-sdk/mcp"
)

// PremortemIn are the arguments of the premortem tool.
type PremortemIn struct {
	Domain   string `json:"domain" jsonschema:"the kind of work ahead, as experiences name it: a lower-case word such as debugging, feature, refactor or testing"`
	Strategy string `json:"strategy,omitempty" jsonschema:"the strategy about to be used (systematic-elimination…): adds a section on how its experiences turned out, failures first"`
	Budget   int    `json:"budget,omitempty" jsonschema:"tokens the output may use; 0 or absent: the configured budget, else 1500"`
	Format   string `json:"format,omitempty" jsonschema:"the format of the text content: the configured format, else markdown; text, markdown, doc, xml or json; the structured result is the plan either way"`
	Limit    int    `json:"limit,omitempty" jsonschema:"at most this many experiences in each section (1 to 1000; default 10)"`
}

// IDIn are the arguments of the tools that read or remove one row of the
// store.
type IDIn struct {
	ID int64 `json:"id" jsonschema:"the row's id: the number of its key (42 for memory:42)"`
}

// MemoryListIn are the arguments of the memory_list tool.
type MemoryListIn struct {
	Category string `json:"category,omitempty" jsonschema:"only the memories of this category (fact, preference, decision, error, workflow, context, event…)"`
}

// ExperienceListIn are the arguments of the experience_list tool.
type ExperienceListIn struct {
	Domain   string `json:"domain,omitempty" jsonschema:"only the experiences of this domain (debugging, feature…)"`
	Strategy string `json:"strategy,omitempty" jsonschema:"only the experiences with this strategy"`
	Outcome  string `json:"outcome,omitempty" jsonschema:"only the experiences with this outcome"`
}

// ValueListIn are the arguments of the value_list tool.
type ValueListIn struct {
	Axis string `json:"axis,omitempty" jsonschema:"only the values of this axis"`
}

// DeriveIn are the arguments of the values_derive tool.
type DeriveIn struct {
	Axis      string  `json:"axis,omitempty" jsonschema:"cluster the experiences on this axis only; absent: on every axis"`
	MinSize   int     `json:"min_size,omitempty" jsonschema:"the fewest experiences a cluster needs to give a proposal; absent: 3"`
	Threshold float64 `json:"threshold,omitempty" jsonschema:"the least cosine similarity, from 0 to 1, at which two clusters merge; 0 or absent: 0.2"`
}

// MemoryAddIn are the arguments of the memory_add tool.
type MemoryAddIn struct {
	Content    string   `json:"content" jsonschema:"what was learned: a fact, a preference, a decision, an error and its fix"`
	Category   string   `json:"category,omitempty" jsonschema:"a lower-case word: fact (the default), preference, decision, error, workflow, context, event or another"`
	Importance *float64 `json:"importance,omitempty" jsonschema:"from 0 to 1; absent: 0.5"`
}

// ExperienceAddIn are the arguments of the experience_add tool: an
// experience in the form the store's YAML files and the experience
// tools' results give it.
type ExperienceAddIn struct {
	Domain     string    `json:"domain" jsonschema:"the kind of work: a lower-case word such as debugging, feature, refactor or testing"`
	Strategy   string    `json:"strategy,omitempty" jsonschema:"the strategy used, a lower-case word: systematic-elimination…"`
	Goal       string    `json:"goal" jsonschema:"what was wanted"`
	Hypothesis string    `json:"hypothesis" jsonschema:"what was believed"`
	Action     string    `json:"action" jsonschema:"what was done to test it"`
	Prediction string    `json:"prediction" jsonschema:"what the hypothesis said would happen"`
	Outcome    OutcomeIn `json:"outcome" jsonschema:"how it ended and what happened"`
	Surprise   string    `json:"surprise,omitempty" jsonschema:"what was unexpected"`
	RootCause  string    `json:"root_cause,omitempty" jsonschema:"why the hypothesis failed (category: description)"`
	Lesson     string    `json:"lesson,omitempty" jsonschema:"what to do next time; only experiences with a lesson give values"`
	Confidence string    `json:"confidence,omitempty" jsonschema:"how sure the result is; absent: bronze"`
	Iterations int       `json:"iterations,omitempty" jsonschema:"the attempts it took; absent: 1"`
}

// OutcomeIn is an experience's outcome.
type OutcomeIn struct {
	Status string `json:"status" jsonschema:"confirmed (the prediction held), falsified (it did not) or abandoned (given up before it was tested)"`
	Result string `json:"result" jsonschema:"what happened"`
}

// ValueAddIn are the arguments of the value_add tool.
type ValueAddIn struct {
	Text string   `json:"text" jsonschema:"the principle"`
	Axis string   `json:"axis" jsonschema:"the axis of experiences it speaks to: full (any), strategy, surprise or root_cause"`
	Tags []string `json:"tags,omitempty" jsonschema:"the lower-case words (domains, strategies) it applies to; they are searched"`
}

// Items is the result of a tool that lists rows.
type Items[T any] struct {
	Items []T `json:"items"`
}

// addStoreReadTools adds premortem and the tools that read the store.
func (s *Server) addStoreReadTools(read *mcp.ToolAnnotations) {
	addTool(s, "premortem", "Assemble the warnings worth reading before work in a domain (and with a strategy): the domain's past failures, surprises and root causes, the strategy's outcomes and the values that apply, from the experiences in the store, fitted to a budget (1500 tokens by default); the structured result is the plan", read, s.premortem, storeArgs)
	addTool(s, "memory_list", "List the memories in the store (.ctxpack/sources.db), by id, optionally of one category", read, s.memoryList, storeArgs)
	addTool(s, "memory_show", "Read one memory of the store by id", read, s.memoryShow, storeArgs)
	addTool(s, "experience_list", "List the experiences in the store, by id, optionally of one domain, strategy or outcome", read, s.experienceList, storeArgs)
	addTool(s, "experience_show", "Read one experience of the store by id: goal, hypothesis, action, prediction, outcome and what was learned", read, s.experienceShow, storeArgs)
	addTool(s, "value_list", "List the values (principles) in the store, by id, optionally of one axis", read, s.valueList, storeArgs)
	addTool(s, "value_show", "Read one value of the store by id", read, s.valueShow, storeArgs)
	addTool(s, "values_derive", "Propose values from the experiences in the store: clusters of alike experiences with a lesson, each giving the lesson of its most central experience; stores nothing (value_add stores the ones to keep)", read, s.valuesDerive, storeArgs)
}

// addStoreWriteTools adds the tools that add rows to the store and remove
// them.
func (s *Server) addStoreWriteTools() {
	add := &mcp.ToolAnnotations{ReadOnlyHint: false, DestructiveHint: ptr(false), IdempotentHint: false, OpenWorldHint: ptr(false)}
	rm := &mcp.ToolAnnotations{ReadOnlyHint: false, DestructiveHint: ptr(true), IdempotentHint: true, OpenWorldHint: ptr(false)}
	addTool(s, "memory_add", "Write: add a memory to the store (.ctxpack/sources.db): something learned that later work should know; sources mode's memories source searches them", add, s.memoryAdd, storeArgs)
	addTool(s, "memory_rm", "Write: remove a memory from the store by id", rm, s.memoryRm, storeArgs)
	addTool(s, "experience_add", "Write: add an experience to the store: an attempt told as goal, hypothesis, action, prediction and outcome, with what was learned; premortem and sources mode's experiences source search them", add, s.experienceAdd, storeArgs)
	addTool(s, "experience_rm", "Write: remove an experience from the store by id (values derived from it keep naming it)", rm, s.experienceRm, storeArgs)
	addTool(s, "value_add", "Write: add a value (a principle) to the store; sources mode's values source and premortem search them", add, s.valueAdd, storeArgs)
	addTool(s, "value_rm", "Write: remove a value from the store by id", rm, s.valueRm, storeArgs)
}

// storeArgs are the bounds of the store's arguments. A strategy here is an
// experience's, not the order parts are packed in.
func storeArgs(name string, p *jsonschema.Schema) bool {
	switch name {
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
		if status := p.Properties["status"]; status != nil { // experience_add's {status, result}
			status.Enum = enum(app.Outcomes())
			p.Properties["result"].MaxLength = ptr(app.MaxStoreText)
		} else {
			p.Enum = enum(app.Outcomes())
		}
	case "tags":
		p.Items.MaxLength = ptr(app.MaxStoreText)
		p.MaxItems = ptr(maxPaths)
	case "content", "category", "domain", "strategy", "goal", "hypothesis", "action", "prediction",
		"surprise", "root_cause", "lesson", "text":
		p.MaxLength = ptr(app.MaxStoreText)
	default:
		return false
	}
	return true
}

func (s *Server) premortem(ctx context.Context, req *mcp.CallToolRequest, in PremortemIn) (*mcp.CallToolResult, app.Plan, error) {
	r := s.request(assembly{Budget: in.Budget, Format: in.Format})
	r.Limit = in.Limit
	p, err := s.open()
	if err != nil {
		return nil, app.Plan{}, err
	}
	res, err := p.Premortem(ctx, in.Domain, in.Strategy, r)
	if err != nil {
		return nil, app.Plan{}, s.fail(err)
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
		return fmt.Errorf("ctxpack: no %s has id %d: %s_list lists them", kind, id, kind)
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
