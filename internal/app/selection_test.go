package app

import (
	"context"
	"path/filepath"
	"slices"
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"
)

func TestSplitFileList(t *testing.T) {
	for _, tc := range []struct {
		in   string
		nul  bool
		want []string
	}{
		{"a\nb\n", false, []string{"a", "b"}},
		{"a\r\n\r\nb", false, []string{"a", "", "b"}},
		{"a\x00b c\x00", true, []string{"a", "b c"}},
		{"a\nb\x00", true, []string{"a\nb"}},
		{"", false, nil},
		{"\n", false, nil},
	} {
		if diff := cmp.Diff(tc.want, SplitFileList([]byte(tc.in), tc.nul)); diff != "" {
			t.Errorf("SplitFileList(%q, %t) (-want +got):\n%s", tc.in, tc.nul, diff)
		}
	}
}

func TestSplitGlobs(t *testing.T) {
	for _, tc := range []struct {
		in   []string
		want []string
	}{
		{[]string{"src/**/*.ts,**/*.md"}, []string{"src/**/*.ts", "**/*.md"}},
		{[]string{"a", "b, c ,"}, []string{"a", "b", "c"}},
		{[]string{"**/*.{ts,tsx}"}, []string{"**/*.ts", "**/*.tsx"}},
		{[]string{"{src,lib}/*.{c,h},x"}, []string{"src/*.c", "src/*.h", "lib/*.c", "lib/*.h", "x"}},
		{[]string{"a{b}c"}, []string{"a{b}c"}},
		{[]string{`a\,b`}, []string{`a\,b`}},
		{[]string{"{a,{b,c}}d"}, []string{"ad", "bd", "cd"}},
		{[]string{"x{a,b"}, []string{"x{a,b"}},
	} {
		var got []string
		for _, e := range splitGlobs(tc.in) {
			got = append(got, e.alts...)
		}
		if diff := cmp.Diff(tc.want, got); diff != "" {
			t.Errorf("splitGlobs(%q) (-want +got):\n%s", tc.in, diff)
		}
	}
}

// TestSelection: what paths, globs, lists and excludes select, from the
// root and from a subfolder, and the files kept when generated.
func TestSelection(t *testing.T) {
	root := writeProject(t, map[string]string{
		".ctxpack/config.yaml": "# root\n",
		"src/a.py":             "a = 1\n",
		"src/x/b.py":           "b = 2\n",
		"src/x/c_test.py":      "c = 3\n",
		"src/uv.lock":          "version = 1\n",
		"docs/d.md":            "# d\n",
		"README.md":            "# r\n",
	})
	for _, tc := range []struct {
		name string
		dir  string // the working directory, under root
		req  Request
		want []string
		err  string
		// target is the plan's target, when the case checks it.
		target string
	}{
		{name: "path glob", req: Request{Paths: []string{"src/**/*.py"}}, want: []string{"src/a.py", "src/x/b.py", "src/x/c_test.py"}},
		{name: "include and exclude", req: Request{Include: []string{"*.py,*.md"}, Exclude: []string{"*_test.py", "docs/"}}, want: []string{"README.md", "src/a.py", "src/x/b.py"}},
		{name: "from a subfolder", dir: "src", req: Request{Include: []string{"*.py"}, Exclude: []string{"x/c_*"}}, want: []string{"src/a.py", "src/x/b.py"},
			target: ". --include src/**/*.py --exclude src/x/c_*"},
		{name: "paths and globs", dir: "src", req: Request{Paths: []string{"x", "../docs/*.md"}}, want: []string{"docs/d.md", "src/x/b.py", "src/x/c_test.py"},
			target: "src/x docs/*.md"},
		{name: "absolute glob", req: Request{Paths: []string{filepath.Join(root, "src", "x") + "/*.py"}}, want: []string{"src/x/b.py", "src/x/c_test.py"}},
		{name: "absolute literal include", req: Request{Include: []string{filepath.Join(root, "docs", "d.md")}}, want: []string{"docs/d.md"}},
		{name: "list", dir: "src", req: Request{Files: []string{"a.py", "", "../README.md", "./a.py"}}, want: []string{"README.md", "src/a.py"},
			target: "(2 listed paths)"},
		{name: "plain", req: Request{Paths: []string{"docs"}}, want: []string{"docs/d.md"}, target: "docs"},
		{name: "lock file named", req: Request{Paths: []string{"src/uv.lock", "docs"}}, want: []string{"docs/d.md", "src/uv.lock"}},
		{name: "lock file by a naming glob", req: Request{Include: []string{"**/uv.lock"}}, want: []string{"src/uv.lock"}},
		{name: "lock file not by a list", req: Request{Files: []string{"src/uv.lock", "src/a.py"}}, want: []string{"src/a.py"}},
		// "src/*" matches the folder src/x too, so all under it, as the
		// shell's expansion of src/* would.
		{name: "include generated", req: Request{Paths: []string{"src/*"}, IncludeGenerated: true}, want: []string{"src/a.py", "src/uv.lock", "src/x/b.py", "src/x/c_test.py"}},
		{name: "no match", req: Request{Include: []string{"*.rs"}}, err: "*.rs: the glob matches no file"},
		{name: "list line", req: Request{Files: []string{"README.md", "nope"}, FilesFrom: "l.txt"}, err: "l.txt:2: nope: no such file"},
		{name: "list outside", req: Request{Files: []string{"../x"}}, err: "the file list:1: ../x: outside the project root"},
		{name: "glob outside", req: Request{Paths: []string{"../*.py"}}, err: "leads outside the project root"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			p, err := Open(filepath.Join(root, tc.dir), "")
			if err != nil {
				t.Fatal(err)
			}
			tc.req.Overflow, tc.req.Format = "allow", "json"
			res, err := p.Pack(context.Background(), tc.req)
			if tc.err != "" {
				if err == nil || !strings.Contains(Message(err), tc.err) {
					t.Fatalf("err = %v, want one with %q", err, tc.err)
				}
				return
			}
			if err != nil {
				t.Fatal(err)
			}
			var got []string
			for _, part := range res.Plan.Parts {
				got = append(got, part.Path)
			}
			slices.Sort(got)
			if diff := cmp.Diff(tc.want, got); diff != "" {
				t.Errorf("packed (-want +got):\n%s", diff)
			}
			if tc.target != "" && res.Plan.Target != tc.target {
				t.Errorf("target %q, want %q", res.Plan.Target, tc.target)
			}
		})
	}
}
