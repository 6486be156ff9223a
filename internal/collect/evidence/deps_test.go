package evidence

import (
	"context"
	"errors"
	"slices"
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"

	"github.com/ctxpack/ctxpack/internal/chunk"
	"github.com/ctxpack/ctxpack/internal/index"
)

// fakeIndex is an index of the chunks given, each file's in line order.
type fakeIndex struct {
	chunks   []index.Hit
	closed   bool
	fail     bool // FileChunks fails
	failDefs bool // Definitions fails
}

func (x *fakeIndex) FileChunks(_ context.Context, path string) ([]index.Hit, error) {
	if x.fail {
		return nil, errors.New("index: broken")
	}
	var out []index.Hit
	for _, c := range x.chunks {
		if c.Path == path {
			out = append(out, c)
		}
	}
	return out, nil
}

func (x *fakeIndex) Definitions(_ context.Context, names []string) ([]index.Hit, error) {
	if x.failDefs {
		return nil, errors.New("index: definitions broken")
	}
	var out []index.Hit
	for _, c := range x.chunks {
		if slices.ContainsFunc(chunk.SymbolNames(c.Symbol), func(n string) bool { return slices.Contains(names, n) }) {
			out = append(out, c)
		}
	}
	return out, nil
}

func (x *fakeIndex) Close() error { x.closed = true; return nil }

const (
	flowGo = `package core

// Flow runs steps.
type Flow struct{ Steps []string }

// RunFlow parses and runs.
func RunFlow(script string) (int, error) {
	f, err := ParseScript(script)
	if err != nil {
		return 0, err
	}
	return Count(f), nil
}
`
	parseGo = `package core

// ParseScript splits a script.
func ParseScript(script string) (*Flow, error) {
	return &Flow{Steps: Split(script)}, nil
}
`
)

func depsEnv(t *testing.T) (Env, *fakeIndex) {
	t.Helper()
	e := testEnv(t, t.TempDir(), map[string]string{"core/flow.go": flowGo, "core/parse.go": parseGo})
	ix := &fakeIndex{chunks: []index.Hit{
		{Path: "core/flow.go", StartLine: 3, EndLine: 4, Symbol: "Flow"},
		{Path: "core/flow.go", StartLine: 6, EndLine: 13, Symbol: "RunFlow"},
		{Path: "core/parse.go", StartLine: 3, EndLine: 6, Symbol: "ParseScript"},
		{Path: "util/count.go", StartLine: 1, EndLine: 5, Symbol: "Count"},
		// Split is defined in four places: too common to follow.
		{Path: "a/split.go", StartLine: 1, EndLine: 2, Symbol: "Split"},
		{Path: "b/split.go", StartLine: 1, EndLine: 2, Symbol: "Split"},
		{Path: "c/split.go", StartLine: 1, EndLine: 2, Symbol: "Split"},
		{Path: "d/split.go", StartLine: 1, EndLine: 2, Symbol: "(*T).Split"},
	}}
	e.Index = func(context.Context) (Index, []string, error) { return ix, []string{"rebuilt the index"}, nil }
	return e, ix
}

func TestDeps(t *testing.T) {
	e, ix := depsEnv(t)
	ws := openWS(t, e, "ctx")
	mustWrite(t, e, ws, AddRequest{Selector: "core/flow.go::6,13"})
	mustWrite(t, e, ws, AddRequest{Selector: "core/parse.go", Link: true})
	mustWrite(t, e, ws, AddRequest{Selector: "core/flow.go::1,4", Kind: "flow_type"})
	mustWrite(t, e, ws, AddRequest{Selector: "-", Text: "RunFlow must fail on blank scripts.", Role: "user"})
	ctx := context.Background()

	d, err := e.Deps(ctx, ws, "100_flow_go")
	if err != nil {
		t.Fatal(err)
	}
	if !ix.closed {
		t.Error("the index was not closed")
	}
	want := &Deps{
		Entry: "ctx/evidence/100_flow_go.evidence.md", Source: "core/flow.go::6,13",
		Defines: []string{"RunFlow"},
		Uses: []DepLink{
			{Name: "ParseScript", Entry: "ctx/evidence/110_parse_go.evidence.link", Path: "core/parse.go", Lines: [2]int{3, 6}},
		},
		Outside:  []DepLink{{Name: "Count", Path: "util/count.go", Lines: [2]int{1, 5}}},
		UsedBy:   []DepRef{{Entry: "ctx/000_request.user.md", Line: 1, Name: "RunFlow"}},
		Warnings: []string{"rebuilt the index"},
	}
	if d := cmp.Diff(want, d); d != "" {
		t.Errorf("deps of 100_flow_go (-want +got):\n%s", d)
	}

	// The link: what it defines is used by the flow evidence.
	d, err = e.Deps(ctx, ws, "110")
	if err != nil {
		t.Fatal(err)
	}
	if !slices.Equal(d.Defines, []string{"ParseScript"}) || len(d.UsedBy) != 1 || d.UsedBy[0].Entry != "ctx/evidence/100_flow_go.evidence.md" ||
		len(d.Uses) != 1 || d.Uses[0].Name != "Flow" {
		t.Errorf("deps of the link: %+v", d)
	}

	// Text without a source defines nothing; what it uses is looked up.
	d, err = e.Deps(ctx, ws, "000")
	if err != nil {
		t.Fatal(err)
	}
	if d.Source != "" || len(d.Defines) != 0 || len(d.Uses) != 1 || d.Uses[0].Name != "RunFlow" {
		t.Errorf("deps of the request: %+v", d)
	}
}

func TestDepsErrors(t *testing.T) {
	e, ix := depsEnv(t)
	ws := openWS(t, e, "ctx")
	mustWrite(t, e, ws, AddRequest{Selector: "core/flow.go"})
	ctx := context.Background()
	if _, err := e.Deps(ctx, ws, "999_none"); err == nil || !strings.Contains(err.Error(), "no workspace file") {
		t.Errorf("an unknown id: %v", err)
	}
	ix.fail = true
	if _, err := e.Deps(ctx, ws, "100"); err == nil || !ix.closed {
		t.Errorf("an index that fails: %v (closed %v)", err, ix.closed)
	}
	ix.fail, ix.failDefs = false, true
	if d, err := e.Deps(ctx, ws, "100"); err == nil || d != nil {
		t.Errorf("definitions that fail: %+v, %v", d, err)
	}
	e.Index = func(context.Context) (Index, []string, error) { return nil, nil, errors.New("index: cannot open") }
	if _, err := e.Deps(ctx, ws, "100"); err == nil || !strings.Contains(err.Error(), "cannot open") {
		t.Errorf("an index that cannot be opened: %v", err)
	}
	// A file that cannot be read: only its warnings.
	e.Index = func(context.Context) (Index, []string, error) { return &fakeIndex{}, nil, nil }
	mustWrite(t, e, ws, AddRequest{Selector: "core/parse.go", Link: true, Rank: 300})
	writeFile(t, ws.Dir+"/evidence/300_parse_go.evidence.link", "core/gone.go\n")
	d, err := e.Deps(ctx, ws, "300")
	if err != nil || len(d.Defines) != 0 || len(d.Warnings) != 1 || !strings.Contains(d.Warnings[0], "core/gone.go") {
		t.Errorf("an unreadable file: %+v, %v", d, err)
	}
}
