package mcpserver

import (
	"bytes"
	"context"
	"encoding/json"
	"fmt"
	"reflect"
	"slices"
	"strings"

	"github.com/modelcontextprotocol/go-sdk/mcp"
)

// A tool that does several things takes an action argument and the
// arguments of that action: one tool per area keeps tools/list small (an
// agent pays for it in every session), while every action keeps its own
// arguments, checked as a tool of its own would check them.

// action is one thing a tool does: the arguments it takes (besides
// action) and what runs it on the request's arguments.
type action struct {
	args []string
	run  func(context.Context, *mcp.CallToolRequest, json.RawMessage) (*mcp.CallToolResult, any, error)
}

// op is the action that decodes the request's arguments into In and calls
// h: it takes the arguments In has.
func op[In, Out any](h func(context.Context, *mcp.CallToolRequest, In) (*mcp.CallToolResult, Out, error)) action {
	return action{
		args: jsonFields(reflect.TypeFor[In]()),
		run: func(ctx context.Context, req *mcp.CallToolRequest, raw json.RawMessage) (*mcp.CallToolResult, any, error) {
			var in In
			if len(raw) > 0 {
				if err := json.Unmarshal(raw, &in); err != nil {
					return nil, nil, fmt.Errorf("ctxpack: the arguments: %v", err)
				}
			}
			res, out, err := h(ctx, req, in)
			if err != nil {
				return nil, nil, err
			}
			return res, out, nil
		},
	}
}

// jsonFields are the names the fields of struct type t take in JSON,
// those of embedded structs included.
func jsonFields(t reflect.Type) []string {
	var names []string
	for i := range t.NumField() {
		f := t.Field(i)
		name, _, _ := strings.Cut(f.Tag.Get("json"), ",")
		switch {
		case name == "-":
		case f.Anonymous && name == "" && f.Type.Kind() == reflect.Struct:
			names = append(names, jsonFields(f.Type)...)
		case f.IsExported():
			names = append(names, name)
		}
	}
	return names
}

// actions are the actions of a tool, by name, in the order the tool's
// description and errors give them.
type actions struct {
	tool  string
	names []string
	by    map[string]action
}

func newActions(tool string) *actions {
	return &actions{tool: tool, by: map[string]action{}}
}

func (a *actions) add(name string, act action) *actions {
	a.names = append(a.names, name)
	a.by[name] = act
	return a
}

// handler runs the action a request names, after refusing the arguments
// that action does not take. The tool's input schema has already checked
// each argument's type and values.
func (a *actions) handler(ctx context.Context, req *mcp.CallToolRequest) (*mcp.CallToolResult, any, error) {
	raw := req.Params.Arguments
	var args map[string]json.RawMessage
	if len(raw) > 0 {
		d := json.NewDecoder(bytes.NewReader(raw))
		d.UseNumber()
		if err := d.Decode(&args); err != nil {
			return nil, nil, fmt.Errorf("ctxpack: %s: the arguments are not an object: %v", a.tool, err)
		}
	}
	var name string
	if v, ok := args["action"]; ok {
		_ = json.Unmarshal(v, &name)
	}
	act, ok := a.by[name]
	if !ok {
		return nil, nil, fmt.Errorf("ctxpack: %s: action %q is not one of %s", a.tool, name, strings.Join(a.names, ", "))
	}
	var extra []string
	for k := range args {
		if k != "action" && !slices.Contains(act.args, k) {
			extra = append(extra, k)
		}
	}
	if len(extra) > 0 {
		slices.Sort(extra)
		takes := "no other argument"
		if len(act.args) > 0 {
			takes = "it takes " + strings.Join(act.args, ", ")
		}
		return nil, nil, fmt.Errorf("ctxpack: %s %s takes no %s (%s)", a.tool, name, strings.Join(extra, ", "), takes)
	}
	return act.run(ctx, req, raw)
}
