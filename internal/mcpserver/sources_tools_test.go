package mcpserver

import (
	"context"
	"errors"
	"io/fs"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"

	"github.com/ctxpack/ctxpack/internal/app"
	"github.com/modelcontextprotocol/go-sdk/mcp"
)

// mustCall calls a tool that must succeed and decodes its structured
// result into v (when not nil).
func mustCall(t *testing.T, cs *mcp.ClientSession, name string, args, v any) *mcp.CallToolResult {
	t.Helper()
	res, msg := call(t, cs, name, args)
	if msg != "" {
		t.Fatalf("%s %v: %s", name, args, msg)
	}
	if v != nil {
		structured(t, res, v)
	}
	return res
}

// toolError calls a tool that must fail with a tool error (isError, not a
// protocol error) whose message holds each of want.
func toolError(t *testing.T, cs *mcp.ClientSession, name string, args map[string]any, want ...string) {
	t.Helper()
	res, err := cs.CallTool(context.Background(), params(t, name, args))
	if err != nil {
		t.Errorf("%s %v: a protocol error (%v); want a tool error", name, args, err)
		return
	}
	if !res.IsError {
		t.Errorf("%s %v: no error; want one that says %q", name, args, want)
		return
	}
	msg := text(res)
	for _, w := range want {
		if !strings.Contains(msg, w) {
			t.Errorf("%s %v: error %q; want one that says %q", name, args, msg, w)
		}
	}
}

// experience is an experience_add's arguments.
func experience(domain, strategy, status, goal, lesson string) map[string]any {
	return map[string]any{
		"domain": domain, "strategy": strategy, "goal": goal,
		"hypothesis": "the invoice total drifts because rounding happens per line",
		"action":     "summed the unrounded invoice lines before rounding",
		"prediction": "the invoice total drift disappears",
		"outcome":    map[string]any{"status": status, "result": "the invoice total still drifted by a cent"},
		"surprise":   "the drift came from currency conversion",
		"root_cause": "wrong-assumption: conversion rounds, not the lines",
		"lesson":     lesson,
		"confidence": "silver",
	}
}

func TestMemoryTools(t *testing.T) {
	_, cs := connect(t, Options{Dir: testProject(t)})
	var list Items[app.MemoryView]
	mustCall(t, cs, "memory_list", map[string]any{}, &list)
	if list.Items == nil || len(list.Items) != 0 {
		t.Fatalf("memory_list of an empty store: %+v", list)
	}

	var a, b app.MemoryView
	mustCall(t, cs, "memory_add", map[string]any{"content": "invoice totals are integers of cents", "category": "decision", "importance": 0.9}, &a)
	mustCall(t, cs, "memory_add", map[string]any{"content": "run the billing tests with -race"}, &b)
	if a.ID < 1 || a.Key != app.ItemKey("memory", a.ID) || a.Category != "decision" || a.Importance != 0.9 || a.Created == "" {
		t.Errorf("memory_add: %+v", a)
	}
	if b.ID <= a.ID || b.Category != "fact" || b.Importance != 0.5 {
		t.Errorf("memory_add with the defaults: %+v", b)
	}
	var zero app.MemoryView
	mustCall(t, cs, "memory_add", map[string]any{"content": "importance 0 is kept", "importance": 0}, &zero)
	if zero.Importance != 0 {
		t.Errorf("memory_add importance 0: %+v", zero)
	}

	mustCall(t, cs, "memory_list", map[string]any{}, &list)
	if len(list.Items) != 3 || list.Items[0] != a || list.Items[1] != b {
		t.Errorf("memory_list: %+v", list)
	}
	mustCall(t, cs, "memory_list", map[string]any{"category": "decision"}, &list)
	if len(list.Items) != 1 || list.Items[0] != a {
		t.Errorf("memory_list category decision: %+v", list)
	}
	var got app.MemoryView
	mustCall(t, cs, "memory_show", map[string]any{"id": a.ID}, &got)
	if got != a {
		t.Errorf("memory_show: %+v, added %+v", got, a)
	}

	mustCall(t, cs, "memory_rm", map[string]any{"id": a.ID}, &got)
	if got != a {
		t.Errorf("memory_rm returned %+v, want the memory removed %+v", got, a)
	}
	toolError(t, cs, "memory_show", map[string]any{"id": a.ID}, "no memory has id", "store list (kind memory)")
	toolError(t, cs, "memory_rm", map[string]any{"id": a.ID}, "no memory has id")
	mustCall(t, cs, "memory_list", map[string]any{}, &list)
	if len(list.Items) != 2 {
		t.Errorf("memory_list after memory_rm: %+v", list)
	}

	// Bad input is a tool error naming the argument: the store's
	// validation, and the schema's bounds.
	toolError(t, cs, "memory_add", map[string]any{"content": "   "}, "content", "blank")
	toolError(t, cs, "memory_add", map[string]any{"content": "x", "category": "Not A Word"}, "category", "lower-case word")
	toolError(t, cs, "memory_add", map[string]any{"content": "x", "importance": 1.5}, "importance")
	toolError(t, cs, "memory_add", map[string]any{"category": "fact"}, "content")
	toolError(t, cs, "memory_add", map[string]any{"content": strings.Repeat("x", 70_000)}, "content")
	toolError(t, cs, "memory_show", map[string]any{"id": 0}, "id")
	toolError(t, cs, "memory_show", map[string]any{"id": "memory:1"}, "id")
}

func TestExperienceTools(t *testing.T) {
	_, cs := connect(t, Options{Dir: testProject(t)})
	var e, f app.ExperienceView
	mustCall(t, cs, "experience_add", experience("debugging", "systematic-elimination", "falsified", "find why the invoice total drifts", "convert currencies after summing"), &e)
	if e.ID < 1 || e.Key != app.ItemKey("experience", e.ID) || e.Domain != "debugging" || e.Outcome.Status != "falsified" ||
		e.Outcome.Result == "" || e.Confidence != "silver" || e.Iterations != 1 || e.RootCause == "" {
		t.Errorf("experience_add: %+v", e)
	}
	args := experience("feature", "", "confirmed", "add a refund endpoint", "")
	delete(args, "confidence")
	args["iterations"] = 3
	mustCall(t, cs, "experience_add", args, &f)
	if f.Confidence != "bronze" || f.Iterations != 3 || f.Strategy != "" || f.Lesson != "" {
		t.Errorf("experience_add with the defaults: %+v", f)
	}

	var list Items[app.ExperienceView]
	mustCall(t, cs, "experience_list", map[string]any{}, &list)
	if len(list.Items) != 2 || list.Items[0] != e || list.Items[1] != f {
		t.Errorf("experience_list: %+v", list)
	}
	for _, filter := range []map[string]any{{"domain": "debugging"}, {"strategy": "systematic-elimination"}, {"outcome": "falsified"}} {
		mustCall(t, cs, "experience_list", filter, &list)
		if len(list.Items) != 1 || list.Items[0].ID != e.ID {
			t.Errorf("experience_list %v: %+v", filter, list)
		}
	}
	var got app.ExperienceView
	mustCall(t, cs, "experience_show", map[string]any{"id": e.ID}, &got)
	if got != e {
		t.Errorf("experience_show: %+v, added %+v", got, e)
	}
	mustCall(t, cs, "experience_rm", map[string]any{"id": e.ID}, &got)
	if got != e {
		t.Errorf("experience_rm returned %+v, want %+v", got, e)
	}
	toolError(t, cs, "experience_show", map[string]any{"id": e.ID}, "no experience has id", "store list (kind experience)")

	bad := experience("debugging", "", "falsified", "g", "")
	bad["outcome"] = map[string]any{"status": "falsified", "result": " "}
	toolError(t, cs, "experience_add", bad, "outcome.result", "blank")
	bad = experience("Debugging Stuff", "", "falsified", "g", "")
	toolError(t, cs, "experience_add", bad, "domain")
	bad = experience("debugging", "", "maybe", "g", "")
	toolError(t, cs, "experience_add", bad, "status")
	bad = experience("debugging", "", "falsified", "g", "")
	bad["confidence"] = "platinum"
	toolError(t, cs, "experience_add", bad, "confidence")
	bad = experience("debugging", "", "falsified", "g", "")
	delete(bad, "goal")
	toolError(t, cs, "experience_add", bad, "goal")
	toolError(t, cs, "experience_list", map[string]any{"outcome": "maybe"}, "outcome")
}

func TestValueTools(t *testing.T) {
	_, cs := connect(t, Options{Dir: testProject(t)})
	// Three alike experiences with a lesson make a cluster.
	var ids []string
	for i := range 3 {
		var e app.ExperienceView
		mustCall(t, cs, "experience_add", experience("debugging", "systematic-elimination", "falsified", "find why the invoice total drifts "+strings.Repeat("again ", i), "convert currencies after summing the invoice lines"), &e)
		ids = append(ids, e.Key)
	}
	var props Items[app.ProposalView]
	mustCall(t, cs, "values_derive", map[string]any{"axis": "full"}, &props)
	if len(props.Items) != 1 {
		t.Fatalf("values_derive: %+v", props)
	}
	p := props.Items[0]
	if p.Axis != "full" || p.Size != 3 || !slices.Equal(p.Members, ids) || !slices.Contains(ids, p.Experience) || p.Text == "" || p.Tags == nil {
		t.Errorf("values_derive proposal: %+v (experiences %v)", p, ids)
	}
	mustCall(t, cs, "values_derive", map[string]any{"min_size": 4, "threshold": 0.5}, &props)
	if len(props.Items) != 0 {
		t.Errorf("values_derive min_size 4: %+v", props)
	}
	var values Items[app.ValueView]
	mustCall(t, cs, "value_list", map[string]any{}, &values)
	if len(values.Items) != 0 {
		t.Errorf("values_derive stored values: %+v", values)
	}

	var v app.ValueView
	mustCall(t, cs, "value_add", map[string]any{"text": p.Text, "axis": "root_cause", "tags": []string{"debugging", "billing", "debugging"}}, &v)
	if v.ID < 1 || v.Key != app.ItemKey("value", v.ID) || v.Axis != "root_cause" || !slices.Equal(v.Tags, []string{"billing", "debugging"}) {
		t.Errorf("value_add: %+v", v)
	}
	mustCall(t, cs, "value_list", map[string]any{"axis": "root_cause"}, &values)
	if len(values.Items) != 1 || values.Items[0].ID != v.ID {
		t.Errorf("value_list axis root_cause: %+v", values)
	}
	mustCall(t, cs, "value_list", map[string]any{"axis": "surprise"}, &values)
	if len(values.Items) != 0 {
		t.Errorf("value_list axis surprise: %+v", values)
	}
	var got app.ValueView
	mustCall(t, cs, "value_show", map[string]any{"id": v.ID}, &got)
	if got.Text != v.Text || got.Key != v.Key {
		t.Errorf("value_show: %+v, added %+v", got, v)
	}
	mustCall(t, cs, "value_rm", map[string]any{"id": v.ID}, &got)
	toolError(t, cs, "value_show", map[string]any{"id": v.ID}, "no value has id", "store list (kind value)")
	toolError(t, cs, "value_add", map[string]any{"text": "x", "axis": "sideways"}, "axis")
	toolError(t, cs, "value_add", map[string]any{"text": "x", "axis": "full", "tags": []string{"Two Words"}}, "tags")
	toolError(t, cs, "values_derive", map[string]any{"threshold": 2}, "threshold")
}

// TestContextSources: the context tool with sources assembles from the
// store, with the digest the facade gives for the same request.
func TestContextSources(t *testing.T) {
	dir := testProject(t)
	_, cs := connect(t, Options{Dir: dir})
	var m app.MemoryView
	mustCall(t, cs, "memory_add", map[string]any{"content": "invoice totals are rounded once, after currency conversion", "category": "decision"}, &m)
	mustCall(t, cs, "memory_add", map[string]any{"content": "the webhook retries three times"}, nil)
	var e app.ExperienceView
	mustCall(t, cs, "experience_add", experience("debugging", "", "falsified", "find why the invoice total drifts", "round invoice totals once"), &e)

	sources := []string{"memories", "experiences"}
	query := "invoice total rounding"
	res := mustCall(t, cs, "context", map[string]any{"target": query, "sources": sources, "budget": 2000, "format": "json", "limit": 5}, nil)
	var plan app.Plan
	structured(t, res, &plan)
	keys := map[string]bool{}
	for _, part := range plan.Parts {
		keys[part.Key] = true
	}
	if plan.Mode != "sources" || !keys[m.Key] || !keys[e.Key] {
		t.Errorf("context with sources: mode %q, parts %v; want %s and %s", plan.Mode, keys, m.Key, e.Key)
	}
	p, err := app.Open(dir, "")
	if err != nil {
		t.Fatal(err)
	}
	want, err := p.Sources(context.Background(), query, app.Request{Budget: 2000, Format: "json", Sources: sources, Limit: 5})
	if err != nil {
		t.Fatal(err)
	}
	if plan.Digest == "" || plan.Digest != want.Plan.Digest {
		t.Errorf("digest %s, the facade's %s", plan.Digest, want.Plan.Digest)
	}

	// Markdown is the default in sources mode.
	res = mustCall(t, cs, "context", map[string]any{"target": query, "sources": []string{"memories"}}, nil)
	if !strings.HasPrefix(text(res), "# Context") || !strings.Contains(text(res), "invoice totals are rounded once") {
		t.Errorf("context with sources, markdown: %.300q", text(res))
	}
	// A task alone brings its artifacts.
	res = mustCall(t, cs, "context", map[string]any{"target": "refund", "task": "TASK-042"}, &plan)
	if plan.Mode != "sources" || !strings.Contains(text(res), "TASK-042") {
		t.Errorf("context with a task: mode %q, %.300q", plan.Mode, text(res))
	}

	toolError(t, cs, "context", map[string]any{"target": query, "sources": []string{"memories", "wiki"}}, "sources")
	toolError(t, cs, "context", map[string]any{"target": query, "sources": []string{"artifacts"}}, "artifacts source needs a task")
	toolError(t, cs, "context", map[string]any{"target": query, "sources": []string{"memories"}, "task": "TASK-042"}, "add artifacts to the sources")
	toolError(t, cs, "context", map[string]any{"target": query, "sources": []string{"memories"}, "limit": 0}, "limit")
	// A task that is not an artifact is the caller's mistake, not a
	// source that failed.
	toolError(t, cs, "context", map[string]any{"target": query, "sources": []string{"artifacts", "memories"}, "task": "TASK-999"}, `the task "TASK-999" is not an artifact`)
}

func TestPremortem(t *testing.T) {
	_, cs := connect(t, Options{Dir: testProject(t)})
	var e app.ExperienceView
	mustCall(t, cs, "experience_add", experience("debugging", "systematic-elimination", "falsified", "find why the invoice total drifts", "convert currencies after summing"), &e)
	var plan app.Plan
	res := mustCall(t, cs, "premortem", map[string]any{"domain": "debugging", "strategy": "systematic-elimination", "limit": 5}, &plan)
	if !strings.HasPrefix(text(res), "# Premortem: debugging with systematic-elimination") || !strings.Contains(text(res), "Based on 1 past experience") {
		t.Errorf("premortem: %.500q", text(res))
	}
	if plan.Mode != "premortem" || plan.Digest == "" || plan.TotalTokens > app.DefaultPremortemBudget || len(plan.Parts) == 0 {
		t.Errorf("premortem plan: mode %q, digest %q, %d tokens, %d parts", plan.Mode, plan.Digest, plan.TotalTokens, len(plan.Parts))
	}
	res = mustCall(t, cs, "premortem", map[string]any{"domain": "debugging", "budget": 1000, "format": "json"}, &plan)
	if !strings.HasPrefix(text(res), "{") || plan.TotalTokens > 1000 || len(plan.Parts) == 0 {
		t.Errorf("premortem json under 1000 tokens: %d tokens, %.100q", plan.TotalTokens, text(res))
	}
	// A domain with nothing recorded: a tool error that says so (issue 16).
	toolError(t, cs, "premortem", map[string]any{"domain": "feature"}, "nothing found")
	toolError(t, cs, "premortem", map[string]any{"domain": " "}, "domain")
	toolError(t, cs, "premortem", map[string]any{}, "domain")
	toolError(t, cs, "premortem", map[string]any{"domain": "debugging", "limit": 5000}, "limit")
}

// TestStoreReadOnly: a read-only server reads the store a writing one
// wrote, lists no tool that writes it, and creates no store when there is
// none.
func TestStoreReadOnly(t *testing.T) {
	dir := testProject(t)
	_, ro := connect(t, Options{Dir: dir, ReadOnly: true})
	var list Items[app.MemoryView]
	mustCall(t, ro, "memory_list", map[string]any{}, &list)
	if len(list.Items) != 0 {
		t.Errorf("memory_list without a store: %+v", list)
	}
	mustCall(t, ro, "values_derive", map[string]any{}, nil)
	toolError(t, ro, "premortem", map[string]any{"domain": "debugging"}, "nothing found") // no store: nothing recorded
	toolError(t, ro, "context", map[string]any{"target": "invoice", "sources": []string{"memories", "experiences", "values", "commits"}}, "nothing found")
	if _, err := os.Stat(filepath.Join(dir, ".ctxpack", "sources.db")); !errors.Is(err, fs.ErrNotExist) {
		t.Errorf("the read-only server created the store (%v)", err)
	}

	_, rw := connect(t, Options{Dir: dir})
	var m app.MemoryView
	mustCall(t, rw, "memory_add", map[string]any{"content": "invoice totals are integers of cents"}, &m)
	var got app.MemoryView
	mustCall(t, ro, "memory_show", map[string]any{"id": m.ID}, &got)
	if got != m {
		t.Errorf("read-only memory_show: %+v, written %+v", got, m)
	}
	res, err := ro.ListTools(context.Background(), nil)
	if err != nil {
		t.Fatal(err)
	}
	for _, tool := range res.Tools {
		if slices.Contains(writeTools, tool.Name) {
			t.Errorf("read-only server lists %s", tool.Name)
		}
	}
	for _, name := range []string{"memory_add", "memory_rm", "experience_add", "experience_rm", "value_add", "value_rm"} {
		if _, msg := call(t, ro, name, map[string]any{"id": m.ID, "content": "x", "text": "x", "axis": "full"}); !strings.Contains(msg, "unknown tool") {
			t.Errorf("calling %s on a read-only server: %q; want an unknown-tool error", name, msg)
		}
	}
	mustCall(t, ro, "memory_show", map[string]any{"id": m.ID}, &got)
}
