package retrieve

import (
	"context"
	"fmt"
	"maps"
	"slices"
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"
)

func TestCleanQuery(t *testing.T) {
	for _, tc := range []struct {
		name, q, want string
		own           []string
		removed       map[string]int
	}{
		{
			name: "prose is kept",
			q:    "the legend is drawn twice\n",
			want: "the legend is drawn twice\n",
		},
		{
			name:    "template comments and task lists go",
			q:       "<!--\nThanks for submitting an issue!\n-->\nBug: x fails\n- [x] a minimal example\n- [ ] pip list\n- a plain item\n",
			want:    "\nBug: x fails\n- a plain item\n",
			removed: map[string]int{"comment": 3, "task list": 2},
		},
		{
			name:    "package lists go, the rest of the block stays",
			q:       "```\n$ pip list\nPackage  Version  Location\nnumpy    1.21.0\npytest   6.0.0rc2.dev33+g7f7a364 /src/pytest\nattrs==19.1.0\nxarray: 0.16.1\n```\n",
			want:    "```\n$ pip list\nPackage  Version  Location\n```\n",
			removed: map[string]int{"versions": 4},
		},
		{
			name: "a version in prose stays",
			q:    "Since pytest 6.0.0 it raises\n",
			want: "Since pytest 6.0.0 it raises\n",
		},
		{
			name: "the query's own definitions",
			q:    "```python\ndef test_foo(request):\n    mark = 1\nclass Thing:\n    pass\nresult = run()\n```\nresult = outside a block\n",
			want: "```python\ndef test_foo(request):\n    mark = 1\nclass Thing:\n    pass\nresult = run()\n```\nresult = outside a block\n",
			own:  []string{"Thing", "result", "test_foo"},
		},
	} {
		t.Run(tc.name, func(t *testing.T) {
			got := CleanQuery(tc.q)
			if got.Text != tc.want {
				t.Errorf("text:\n%q\nwant\n%q", got.Text, tc.want)
			}
			if d := cmp.Diff(tc.own, slices.Sorted(maps.Keys(got.Own))); d != "" {
				t.Errorf("own (-want +got):\n%s", d)
			}
			if tc.removed == nil {
				tc.removed = map[string]int{}
			}
			if d := cmp.Diff(tc.removed, got.Removed); d != "" {
				t.Errorf("removed (-want +got):\n%s", d)
			}
			if note := got.Note(); (note == "") != (len(tc.removed) == 0) {
				t.Errorf("note %q for removed %v", note, tc.removed)
			}
		})
	}
}

func FuzzCleanQuery(f *testing.F) {
	f.Add("<!-- a -->\n```\ndef x():\n```\nnumpy 1.2.3\n- [x] y\n")
	f.Add("<!-- unclosed\n```")
	f.Fuzz(func(t *testing.T, q string) {
		got := CleanQuery(q)
		if len(got.Text) > len(q) {
			t.Fatalf("cleaned text longer than the query: %q", got.Text)
		}
		for line := range strings.Lines(got.Text) {
			if taskLine.MatchString(line) {
				t.Fatalf("task line kept: %q", line)
			}
		}
	})
}

// Each component changes the ranking the way it says, and Off turns it
// off: the kind prior puts the source above tests that repeat the query's
// words; stemming finds raise for raises; cleaning keeps a package list
// and a reporter's own function from pointing at files.
func TestComponents(t *testing.T) {
	var tests strings.Builder
	for i := range 40 {
		fmt.Fprintf(&tests, "def test_retry_timeout_%d():\n    assert backoff_delay(%d) == retry_timeout\n\n", i, i)
	}
	ix := indexFS(t, mapFS(map[string]string{
		"tests/test_retry.py": tests.String(),
		"pkg/retry.py":        "def backoff_delay(n):\n    \"\"\"The timeout before a retry.\"\"\"\n    return 2 ** n\n",
		"pkg/errors.py":       "def check(x):\n    if x < 0:\n        raise ValueError(x)\n",
		"pkg/versions.py":     "def numpy_version():\n    return 'numpy'\n",
		"pkg/helpers.py":      "def my_helper():\n    return None\n",
	}))
	ctx := context.Background()
	first := func(q string, off Components) string {
		t.Helper()
		r, err := Rank(ctx, ix, q, Options{Off: off, Expand: -1, Lexical: 5})
		if err != nil {
			t.Fatal(err)
		}

		if len(r.Files) == 0 {
			return ""
		}
		return r.Files[0].Path
	}
	for _, tc := range []struct {
		name, query string
		off         Components
		want        string
	}{
		{"kind prior", "retry timeout", Components{}, "pkg/retry.py"},
		{"kind prior off", "retry timeout", Components{KindPrior: true}, "tests/test_retry.py"},
		{"stemming", "it raises", Components{}, "pkg/errors.py"},
		{"stemming off", "it raises", Components{Stemming: true}, ""},
		{"cleaning", "a check fails\n```\nnumpy 1.21.0\n```\n", Components{}, "pkg/errors.py"},
		{"cleaning off", "a check fails\n```\nnumpy 1.21.0\n```\n", Components{QueryCleaning: true}, "pkg/versions.py"},
		{"own definitions", "check fails\n```python\ndef my_helper():\n    check(-1)\n```\n", Components{}, "pkg/errors.py"},
		{"own definitions off", "check fails\n```python\ndef my_helper():\n    check(-1)\n```\n", Components{QueryCleaning: true}, "pkg/helpers.py"},
	} {
		if got := first(tc.query, tc.off); got != tc.want {
			t.Errorf("%s: first file %q, want %q", tc.name, got, tc.want)
		}
	}
	r, err := Rank(ctx, ix, "a check fails\n```\nnumpy 1.21.0\n```\n", Options{})
	if err != nil {
		t.Fatal(err)
	}
	if !slices.ContainsFunc(r.Warnings, func(w string) bool { return strings.HasPrefix(w, "the query's 1 line of versions left out") }) {
		t.Errorf("the ranking does not say what cleaning took out: warnings %q", r.Warnings)
	}
}

func TestTestedNames(t *testing.T) {
	for base, want := range map[string][]string{
		"test_skipping.py":           {"skipping.py"},
		"unittest_expand_modules.py": {"expand_modules.py"},
		"skipping_test.py":           {"skipping.py"},
		"server_test.go":             {"server.go"},
		"mergeConfig.spec.js":        {"mergeConfig.js"},
		"app.test.tsx":               {"app.tsx"},
		"ParserTest.java":            {"Parser.java"},
		"user_spec.rb":               {"user.rb"},
		"conftest.py":                nil,
		"test_.py":                   nil,
		"skipping.py":                nil,
	} {
		if d := cmp.Diff(want, TestedNames(base)); d != "" {
			t.Errorf("TestedNames(%q) (-want +got):\n%s", base, d)
		}
	}
}

// A test that repeats the query's words brings in the file it tests,
// which does not; test_mapping in Off leaves it out.
func TestTestMapping(t *testing.T) {
	var tests strings.Builder
	for i := range 20 {
		fmt.Fprintf(&tests, "def test_xfail_marker_%d(pytester):\n    pytester.runpytest('-rxs')  # dynamic xfail marker\n\n", i)
	}
	ix := indexFS(t, mapFS(map[string]string{
		"testing/test_skipping.py": tests.String(),
		"src/_pytest/skipping.py":  "def evaluate(item):\n    return item.flags\n",
		"src/_pytest/other.py":     "def unrelated():\n    return 1\n",
	}))
	for _, tc := range []struct {
		off  Components
		want bool
	}{{Components{}, true}, {Components{TestMapping: true}, false}} {
		r, err := Rank(context.Background(), ix, "dynamic xfail marker", Options{Off: tc.off, Expand: -1})
		if err != nil {
			t.Fatal(err)
		}
		found := slices.ContainsFunc(r.Files, func(f File) bool { return f.Path == "src/_pytest/skipping.py" })
		if found != tc.want {
			t.Errorf("off %+v: skipping.py ranked %v, want %v (files %v)", tc.off, found, tc.want, r.Files)
		}
		for _, c := range r.Chunks {
			if c.Path == "src/_pytest/skipping.py" && !strings.Contains(c.Why(), "tested by a matching test") {
				t.Errorf("skipping.py's why %q does not say a test brought it", c.Why())
			}
		}
	}
}

// A query with more than MaxQueryTerms terms is searched for those that
// weigh most, and the ranking says how many it left out; term_selection
// in Off searches them all.
func TestTermSelection(t *testing.T) {
	var filler []string
	for _, a := range "abcdefghijkl" {
		for _, b := range "abcdefghij" {
			filler = append(filler, "q"+string(a)+string(b)+"x")
		}
	}
	files := map[string]string{"pkg/retry.py": "def backoff():\n    return 1\n"}
	for i := range 10 {
		files[fmt.Sprintf("pkg/common%d.py", i)] = "# " + strings.Join(filler, " ") + "\n"
	}
	ix := indexFS(t, mapFS(files))
	query := "backoff " + strings.Join(filler, " ") + " zzabsentone zzabsenttwo zzabsentthree"
	for _, tc := range []struct {
		off     Components
		note    string
		matched int // the terms the first common file's chunk matched
	}{
		{Components{}, "the query's 124 search terms were searched for the 96 that weigh most (uses in the query × rarity in the index); 28 left out, 3 of them in no indexed file (retrieval.off: [term_selection] searches them all)", 95},
		{Components{TermSelection: true}, "", 120},
	} {
		r, err := Rank(context.Background(), ix, query, Options{Off: tc.off, Expand: -1})
		if err != nil {
			t.Fatal(err)
		}
		var notes []string
		for _, w := range r.Warnings {
			if strings.Contains(w, "search terms") {
				notes = append(notes, w)
			}
		}
		if want := []string{tc.note}; tc.note == "" && len(notes) > 0 || tc.note != "" && !slices.Equal(notes, want) {
			t.Errorf("off %+v: notes %q, want %q", tc.off, notes, tc.note)
		}
		i := slices.IndexFunc(r.Chunks, func(c Chunk) bool { return c.Path == "pkg/common0.py" })
		if i < 0 {
			t.Fatalf("off %+v: common0.py not ranked", tc.off)
		}
		n := 0
		for _, m := range r.Chunks[i].Matched {
			n += len(m.Terms)
		}
		if n != tc.matched {
			t.Errorf("off %+v: common0.py matched %d terms, want %d", tc.off, n, tc.matched)
		}
	}
}
