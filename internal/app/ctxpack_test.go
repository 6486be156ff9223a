package app

import (
	"context"
	"fmt"
	"os"
	"path/filepath"
	"reflect"
	"runtime"
	"strings"
	"testing"
)

// writeProject writes files (by slash path) and a .git marker under a
// temporary directory, and returns it.
func writeProject(t *testing.T, files map[string]string) string {
	t.Helper()
	dir := t.TempDir()
	files[".git/HEAD"] = "ref: refs/heads/main\n"
	for name, text := range files {
		p := filepath.Join(dir, filepath.FromSlash(name))
		if err := os.MkdirAll(filepath.Dir(p), 0o755); err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(p, []byte(text), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	return dir
}

func demoFiles() map[string]string {
	files := map[string]string{
		".gitignore":         "build/\n",
		"build/out.go":       "package ignored\n",
		"logo.png":           "\x89PNG\x00\x00",
		"latin1.txt":         "caf\xe9\n",
		"README.md":          "# demo\n\nA demo project.\n",
		"go.mod":             "module demo\n",
		"cmd/x/main.go":      "package main\n\nfunc main() {}\n",
		"internal/a.go":      "package internal\n\n// A adds.\nfunc A(x, y int) int { return x + y }\n",
		"internal/a_test.go": "package internal\n\nimport \"testing\"\n\nfunc TestA(t *testing.T) {}\n",
	}
	for i := range 30 {
		files[fmt.Sprintf("pkg/f%02d.go", i)] = fmt.Sprintf("package pkg\n\n// F%d is number %d.\nfunc F%d() int { return %d }\n", i, i, i, i*i)
	}
	return files
}

// TestPackDeterministic assembles one project with different GOMAXPROCS
// and walk orders: the output must be byte-identical.
func TestPackDeterministic(t *testing.T) {
	dir := writeProject(t, demoFiles())
	p, err := Open(dir, "")
	if err != nil {
		t.Fatal(err)
	}
	if p.Root != dir {
		t.Fatalf("root %s, want %s", p.Root, dir)
	}
	for _, format := range []string{"text", "json", "xml"} {
		var first *Result
		for _, procs := range []int{1, 2, 8} {
			for _, reverse := range []bool{false, true} {
				old := runtime.GOMAXPROCS(procs)
				res, err := p.Pack(context.Background(), Request{Budget: 300, Format: format, ReverseWalk: reverse})
				runtime.GOMAXPROCS(old)
				if err != nil {
					t.Fatal(err)
				}
				if first == nil {
					first = res
					continue
				}
				if string(res.Output) != string(first.Output) {
					t.Fatalf("%s: GOMAXPROCS=%d reverse=%v changed the output", format, procs, reverse)
				}
			}
		}
		if first.Plan.TotalTokens > 300 {
			t.Errorf("%s: %d tokens over the budget", format, first.Plan.TotalTokens)
		}
	}
}

func TestPackReportsWhatItSkips(t *testing.T) {
	dir := writeProject(t, demoFiles())
	p, err := Open(dir, "")
	if err != nil {
		t.Fatal(err)
	}
	res, err := p.Pack(context.Background(), Request{Budget: 100000})
	if err != nil {
		t.Fatal(err)
	}
	w := strings.Join(res.Plan.Warnings, "\n")
	for _, want := range []string{"skipped logo.png: binary", "latin1.txt: invalid UTF-8 replaced with U+FFFD"} {
		if !strings.Contains(w, want) {
			t.Errorf("warnings lack %q:\n%s", want, w)
		}
	}
	if strings.Contains(string(res.Output), "package ignored") {
		t.Error("a .gitignore'd file was packed")
	}
	if !strings.Contains(string(res.Output), "caf\uFFFD") {
		t.Error("invalid UTF-8 not replaced in the output")
	}
	// Source ranks before tests, docs and config.
	var order []string
	for _, pp := range res.Plan.Parts {
		order = append(order, pp.Type)
	}
	if got := strings.Join(order[:3], ","); got != "source,source,source" {
		t.Errorf("first parts are %s", got)
	}
	if last := order[len(order)-1]; last != "config" && last != "doc" {
		t.Errorf("last part is %s", last)
	}
}

func TestBudgetFromWindowAndConfig(t *testing.T) {
	files := demoFiles()
	files[".ctxpack/config.yaml"] = "budget: 1234\nreserves:\n  system: 10\n  query: 20\n  response: 30\n"
	dir := writeProject(t, files)
	p, err := Open(filepath.Join(dir, "internal"), "")
	if err != nil {
		t.Fatal(err)
	}
	for _, tc := range []struct {
		req  Request
		want int
		err  string
	}{
		{Request{}, 1234, ""},
		{Request{Budget: 50}, 50, ""},
		{Request{Window: 1000}, 940, ""},
		{Request{Window: 1000, Reserves: &Reserves{}}, 1000, ""},
		{Request{Window: 50}, 0, "leaves no budget"},
		{Request{Budget: 10, Window: 10}, 0, "not both"},
	} {
		got, err := p.budget(tc.req)
		if tc.err != "" {
			if err == nil || !strings.Contains(err.Error(), tc.err) {
				t.Errorf("%+v: error %v, want %q", tc.req, err, tc.err)
			}
			continue
		}
		if err != nil || got != tc.want {
			t.Errorf("%+v: budget %d, %v; want %d", tc.req, got, err, tc.want)
		}
	}
}

func TestPathsStayInsideTheRoot(t *testing.T) {
	dir := writeProject(t, demoFiles())
	p, err := Open(dir, "")
	if err != nil {
		t.Fatal(err)
	}
	for _, bad := range []string{"..", "../x", "/etc/passwd", "internal/../../x"} {
		if _, err := p.Pack(context.Background(), Request{Paths: []string{bad}, Budget: 100}); err == nil {
			t.Errorf("path %q was accepted", bad)
		}
	}
	res, err := p.Pack(context.Background(), Request{Paths: []string{"internal"}, Budget: 1000})
	if err != nil {
		t.Fatal(err)
	}
	for _, pp := range res.Plan.Parts {
		if !strings.HasPrefix(pp.Path, "internal/") {
			t.Errorf("part %s outside the requested path", pp.Path)
		}
	}
}

// TestPackCodeLevels: under a budget, code files are lowered to their
// extractive levels (signatures and doc comments) before being reduced to
// a meta line; without a budget they are whole.
func TestPackCodeLevels(t *testing.T) {
	files := demoFiles()
	var big strings.Builder
	big.WriteString("// Package big is large.\npackage big\n\n")
	for i := range 30 {
		fmt.Fprintf(&big, "// F%d does things.\nfunc F%d(a, b int) int {\n", i, i)
		for range 20 {
			big.WriteString("\ta, b = b, a+b // x++ keeps the body long\n")
		}
		big.WriteString("\treturn a\n}\n\n")
	}
	files["big/big.go"] = big.String()
	dir := writeProject(t, files)
	p, err := Open(dir, "")
	if err != nil {
		t.Fatal(err)
	}
	levels := map[string]bool{}
	for _, budget := range []int{400, 800, 1600} {
		res, err := p.Pack(context.Background(), Request{Budget: budget, Paths: []string{"big"}, ItemCap: 1})
		if err != nil {
			t.Fatal(err)
		}
		for _, pp := range res.Plan.Parts {
			levels[pp.Level] = true
			if pp.Level == "detailed" && strings.Contains(res.Plan.Content, "x++") {
				t.Errorf("budget %d: detailed level shows a function body", budget)
			}
		}
	}
	if !levels["detailed"] && !levels["summary"] {
		t.Errorf("no part at summary or detailed under tight budgets: %v", levels)
	}
	res, err := p.Pack(context.Background(), Request{Paths: []string{"big"}, Overflow: "allow"})
	if err != nil {
		t.Fatal(err)
	}
	if res.Plan.Parts[0].Level != "full" {
		t.Errorf("without a budget the file is at %s", res.Plan.Parts[0].Level)
	}
	// A depth means the level asked for, with or without a budget.
	for _, depth := range []string{"summary", "detailed"} {
		res, err := p.Pack(context.Background(), Request{Paths: []string{"big"}, Overflow: "allow", Depth: depth})
		if err != nil {
			t.Fatal(err)
		}
		if got := res.Plan.Parts[0].Level; got != depth {
			t.Errorf("without a budget, --depth %s gives %s", depth, got)
		}
	}
}

// TestPackTo: PackTo writes what Pack outputs, with Pack's plan (without
// the content when it was written as it was rendered), in every format,
// with and without a budget.
func TestPackTo(t *testing.T) {
	p, err := Open(writeProject(t, demoFiles()), "")
	if err != nil {
		t.Fatal(err)
	}
	streamed := 0
	for _, format := range []string{"text", "markdown", "doc", "xml", "json", "mdctx"} {
		for _, req := range []Request{{}, {Budget: 200}, {Budget: 200, Overflow: "allow"}} {
			req.Format = format
			want, err := p.Pack(context.Background(), req)
			if err != nil {
				t.Fatal(err)
			}
			var w strings.Builder
			got, err := p.PackTo(context.Background(), req, &w)
			if err != nil {
				t.Fatal(err)
			}
			if w.String() != string(want.Output) || got.Output != nil {
				t.Errorf("%s %+v: PackTo wrote other bytes, or returned them", format, req)
			}
			plan := want.Plan
			if got.Plan.Content == "" {
				plan.Content = ""
				streamed++
			}
			if !reflect.DeepEqual(plan, got.Plan) {
				t.Errorf("%s %+v: PackTo's plan differs from Pack's", format, req)
			}
		}
	}
	if streamed == 0 {
		t.Error("no output was written as it was rendered")
	}
}
