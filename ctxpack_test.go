package ctxpack

import (
	"bytes"
	"context"
	"go/ast"
	"go/doc"
	"go/parser"
	"go/printer"
	"go/token"
	"os"
	"path"
	"slices"
	"strconv"
	"strings"
	"testing"

	"github.com/ctxpack/ctxpack/internal/app"
)

// TestPublicAPI assembles through the library API and checks that it
// gives what the facade gives.
func TestPublicAPI(t *testing.T) {
	ctx := context.Background()
	p, err := Open("examples/billing")
	if err != nil {
		t.Fatal(err)
	}
	if !strings.HasSuffix(p.Root(), "billing") || len(p.Warnings()) != 0 {
		t.Errorf("root %q, warnings %q", p.Root(), p.Warnings())
	}
	res, err := p.Context(ctx, "TASK-042", Request{Budget: 600, Format: "json"})
	if err != nil {
		t.Fatal(err)
	}
	ap, err := app.Open("examples/billing", "")
	if err != nil {
		t.Fatal(err)
	}
	want, err := ap.Context(ctx, "TASK-042", app.Request{Budget: 600, Format: "json"})
	if err != nil {
		t.Fatal(err)
	}
	if !bytes.Equal(res.Output, want.Output) {
		t.Error("the library's output differs from the facade's")
	}
	pl := res.Plan
	if pl.Mode != "links" || pl.Target != "TASK-042" || pl.Budget != 600 || pl.TotalTokens != want.Plan.TotalTokens ||
		pl.Digest != want.Plan.Digest || pl.StateRoot != want.Plan.StateRoot || pl.Chunker == "" ||
		len(pl.Parts) != len(want.Plan.Parts) || len(pl.Dropped) != len(want.Plan.Dropped) || len(pl.Paths) != 3 {
		t.Errorf("plan %+v\nwant as %+v", pl, want.Plan)
	}
	for i, part := range pl.Parts {
		w := want.Plan.Parts[i]
		if part.Key != w.Key || part.Level != w.Level || part.Tokens != w.Tokens || part.CID != w.CID || part.Reason != w.Reason {
			t.Errorf("part %d: %+v, want %+v", i, part, w)
		}
	}
	packed, err := p.Pack(ctx, Request{Budget: 300, Paths: []string{"src"}})
	if err != nil {
		t.Fatal(err)
	}
	if packed.Plan.Mode != "pack" || packed.Plan.TotalTokens > 300 || len(packed.Output) == 0 {
		t.Errorf("pack: %+v", packed.Plan)
	}
	globbed, err := p.Pack(ctx, Request{Overflow: "allow", Paths: []string{"src/**/*.py"}, Exclude: []string{"currency/"}})
	if err != nil {
		t.Fatal(err)
	}
	if got := globbed.Plan.Parts; len(got) != 1 || got[0].Path != "src/billing/invoice/generator.py" {
		t.Errorf("pack src/**/*.py without currency/: %+v", got)
	}
	if _, err := p.Pack(ctx, Request{Include: []string{"*.rs"}}); err == nil || !strings.Contains(err.Error(), "*.rs: the glob matches no file") {
		t.Errorf("pack --include *.rs: %v, want an error naming the glob", err)
	}
	shaped, err := p.Pack(ctx, Request{Overflow: "allow", Paths: []string{"src"}, Tree: true, LineNumbers: true, RemoveComments: true})
	if err != nil {
		t.Fatal(err)
	}
	if len(shaped.Plan.Parts) < 2 || shaped.Plan.Parts[0].Key != "ctxpack:structure" || !strings.Contains(string(shaped.Output), "===\n1: ") && !strings.Contains(string(shaped.Output), "===\n 1: ") ||
		!slices.Contains(shaped.Plan.Parts[1].Transforms, "line numbers added") {
		t.Errorf("tree, line numbers, comments: %+v", shaped.Plan.Parts)
	}
	sources, err := p.Context(ctx, "currency", Request{Task: "TASK-042", Budget: 800})
	if err != nil || sources.Plan.Mode != "sources" {
		t.Errorf("a task alone: %v, %+v", err, sources)
	}
	if _, err := p.Context(ctx, "TASK-999", Request{}); err == nil {
		t.Error("an unknown task: no error")
	}
	if _, err := Open(t.TempDir() + "/missing"); err == nil {
		t.Error("Open of a folder that is not there: no error")
	}
}

// TestPublicAPINamesNoInternalType is acceptance 2 of issue 14: what go
// doc shows of this package names no type of an internal package.
func TestPublicAPINamesNoInternalType(t *testing.T) {
	fset := token.NewFileSet()
	entries, err := os.ReadDir(".")
	if err != nil {
		t.Fatal(err)
	}
	var files []*ast.File
	internal := map[string]bool{} // local names of internal imports
	for _, e := range entries {
		name := e.Name()
		if !strings.HasSuffix(name, ".go") || strings.HasSuffix(name, "_test.go") {
			continue
		}
		f, err := parser.ParseFile(fset, name, nil, parser.ParseComments)
		if err != nil {
			t.Fatal(err)
		}
		for _, imp := range f.Imports {
			p, _ := strconv.Unquote(imp.Path.Value)
			if strings.Contains(p, "/internal/") {
				local := path.Base(p)
				if imp.Name != nil {
					local = imp.Name.Name
				}
				internal[local] = true
			}
		}
		files = append(files, f)
	}
	pkg, err := doc.NewFromFiles(fset, files, modulePath)
	if err != nil {
		t.Fatal(err)
	}
	var shown []ast.Node
	for _, f := range pkg.Funcs {
		shown = append(shown, f.Decl)
	}
	for _, typ := range pkg.Types {
		shown = append(shown, typ.Decl)
		for _, f := range typ.Funcs {
			shown = append(shown, f.Decl)
		}
		for _, f := range typ.Methods {
			shown = append(shown, f.Decl)
		}
	}
	for _, v := range append(pkg.Consts, pkg.Vars...) {
		shown = append(shown, v.Decl)
	}
	if len(shown) < 5 {
		t.Fatalf("go doc shows %d declarations: is the test reading the root package?", len(shown))
	}
	for _, n := range shown {
		ast.Inspect(n, func(n ast.Node) bool {
			if sel, ok := n.(*ast.SelectorExpr); ok {
				if id, ok := sel.X.(*ast.Ident); ok && internal[id.Name] {
					var b bytes.Buffer
					printer.Fprint(&b, fset, n)
					t.Errorf("go doc shows %s, a name of an internal package", b.String())
				}
			}
			return true
		})
	}
}
