package ctxpack

import (
	"bufio"
	"go/parser"
	"go/token"
	"io/fs"
	"os"
	"path/filepath"
	"slices"
	"strconv"
	"strings"
	"testing"
)

const modulePath = "github.com/ctxpack/ctxpack"

// modulePackages returns every package of the module by its path relative
// to the module root ("." for the root), with the module packages its
// non-test files import.
func modulePackages(t *testing.T) map[string][]string {
	t.Helper()
	pkgs := map[string][]string{}
	fset := token.NewFileSet()
	err := filepath.WalkDir(".", func(p string, d fs.DirEntry, err error) error {
		if err != nil {
			return err
		}
		name := d.Name()
		if d.IsDir() {
			if p != "." && (strings.HasPrefix(name, ".") || strings.HasPrefix(name, "_") || name == "testdata" || name == "node_modules") {
				return filepath.SkipDir
			}
			return nil
		}
		if !strings.HasSuffix(name, ".go") || strings.HasSuffix(name, "_test.go") {
			return nil
		}
		f, err := parser.ParseFile(fset, p, nil, parser.ImportsOnly)
		if err != nil {
			return err
		}
		dir := filepath.ToSlash(filepath.Dir(p))
		if _, ok := pkgs[dir]; !ok {
			pkgs[dir] = nil
		}
		for _, imp := range f.Imports {
			q, err := strconv.Unquote(imp.Path.Value)
			if err != nil {
				return err
			}
			switch {
			case q == modulePath:
				q = "."
			case strings.HasPrefix(q, modulePath+"/"):
				q = strings.TrimPrefix(q, modulePath+"/")
			default:
				continue
			}
			if !slices.Contains(pkgs[dir], q) {
				pkgs[dir] = append(pkgs[dir], q)
			}
		}
		return nil
	})
	if err != nil {
		t.Fatal(err)
	}
	if len(pkgs) < 10 {
		t.Fatalf("found %d packages: is the test running at the module root?", len(pkgs))
	}
	return pkgs
}

// layer is one line of docs/architecture.md's layers block.
type layer struct {
	line    int      // 0 is the top
	entries []string // "internal/pack", or "internal/cli/..." for a subtree
}

// readLayers reads the layers block of docs/architecture.md.
func readLayers(t *testing.T) []layer {
	t.Helper()
	f, err := os.Open("docs/architecture.md")
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	var layers []layer
	in := false
	sc := bufio.NewScanner(f)
	for sc.Scan() {
		line := strings.TrimSpace(sc.Text())
		switch {
		case line == "```layers":
			in = true
		case in && line == "```":
			in = false
		case in && line != "":
			layers = append(layers, layer{line: len(layers), entries: strings.Fields(line)})
		}
	}
	if err := sc.Err(); err != nil {
		t.Fatal(err)
	}
	if len(layers) == 0 {
		t.Fatal("docs/architecture.md has no ```layers block")
	}
	return layers
}

// place finds the layer line and entry of package pkg.
func place(layers []layer, pkg string) (line int, entry string, ok bool) {
	for _, l := range layers {
		for _, e := range l.entries {
			if e == pkg {
				return l.line, e, true
			}
			if root, sub := strings.CutSuffix(e, "/..."); sub && (pkg == root || strings.HasPrefix(pkg, root+"/")) {
				return l.line, e, true
			}
		}
	}
	return 0, "", false
}

// TestArchitecture checks that no package imports one above it, or a
// peer on its own line, in the order docs/architecture.md states, and
// that the order names every package of the module and only those.
func TestArchitecture(t *testing.T) {
	pkgs := modulePackages(t)
	layers := readLayers(t)
	var names []string
	for p := range pkgs {
		names = append(names, p)
	}
	slices.Sort(names)
	for _, p := range names {
		line, entry, ok := place(layers, p)
		if !ok {
			t.Errorf("%s is not in docs/architecture.md's layers: add it on the line of the layer it belongs to", p)
			continue
		}
		for _, q := range pkgs[p] {
			qline, qentry, ok := place(layers, q)
			switch {
			case !ok:
				continue // reported as a package of its own
			case qline > line:
			case qentry == entry && strings.HasSuffix(entry, "/..."):
			case qline == line:
				t.Errorf("%s imports %s, a peer on its own line of docs/architecture.md's layers", p, q)
			default:
				t.Errorf("%s imports %s, which docs/architecture.md's layers put above it (line %d above line %d)", p, q, qline+1, line+1)
			}
		}
	}
	for _, l := range layers {
		for _, e := range l.entries {
			root, sub := strings.CutSuffix(e, "/...")
			found := false
			for _, p := range names {
				if p == root || sub && strings.HasPrefix(p, root+"/") {
					found = true
				}
			}
			if !found {
				t.Errorf("docs/architecture.md's layers name %s, which is not a package of the module", e)
			}
		}
	}
}

// frontEndImports are the internal packages outside their own subtree
// that the front ends import, each with the reason. Everything else they
// need comes through the facade (internal/app).
var frontEndImports = map[string]map[string]string{
	"internal/cli": {
		"internal/app":       "the facade",
		"internal/mcpserver": "ctxpack serve runs the MCP server",
	},
	"internal/mcpserver": {
		"internal/app": "the facade",
	},
}

// TestFrontEndImports checks that the CLI and the MCP server import no
// internal package outside their own subtree but those frontEndImports
// lists, and that the list holds no import they no longer make.
func TestFrontEndImports(t *testing.T) {
	pkgs := modulePackages(t)
	used := map[string]bool{}
	for p, imports := range pkgs {
		for front, allowed := range frontEndImports {
			if p != front && !strings.HasPrefix(p, front+"/") {
				continue
			}
			for _, q := range imports {
				if !strings.HasPrefix(q, "internal/") || q == front || strings.HasPrefix(q, front+"/") {
					continue
				}
				if _, ok := allowed[q]; !ok {
					t.Errorf("%s imports %s: the front ends go through the facade (internal/app); add what it needs there", p, q)
					continue
				}
				used[front+" "+q] = true
			}
		}
	}
	for front, allowed := range frontEndImports {
		for q := range allowed {
			if !used[front+" "+q] {
				t.Errorf("frontEndImports lets %s import %s, which it no longer does: remove the entry", front, q)
			}
		}
	}
	if t.Failed() {
		t.Log("the list is frontEndImports in architecture_test.go")
	}
}
