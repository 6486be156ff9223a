package render

import "testing"

func TestTree(t *testing.T) {
	files := []TreeFile{
		{Path: "src/flask/app.py", Tokens: 15200},
		{Path: "README.md", Tokens: 300},
		{Path: "docs/b.rst", Tokens: 1000},
		{Path: "docs/a.rst", Tokens: 2000},
		{Path: "docs/api/x.rst", Tokens: 5},
		{Path: "docs/blueprints.rst", Tokens: 120},
		{Path: "src/flask/json/tag.py", Tokens: 1},
	}
	for _, tc := range []struct {
		max  int
		want string
	}{
		{100, `README.md 300
docs/
  a.rst 2,000
  b.rst 1,000
  blueprints.rst 120
  api/
    x.rst 5
src/flask/
  app.py 15,200
  json/
    tag.py 1
`},
		{7, `README.md 300
docs/ (4 files, 3,125 tokens)
src/flask/
  app.py 15,200
  json/
    tag.py 1
`},
		{4, `README.md 300
docs/ (4 files, 3,125 tokens)
src/flask/ (2 files, 15,201 tokens)
`},
		{1, "./ (7 files, 18,626 tokens)\n"},
	} {
		if got := Tree(files, tc.max); got != tc.want {
			t.Errorf("Tree(max %d) =\n%s\nwant\n%s", tc.max, got, tc.want)
		}
		// The order of the input does not matter.
		rev := make([]TreeFile, len(files))
		for i, f := range files {
			rev[len(files)-1-i] = f
		}
		if got := Tree(rev, tc.max); got != tc.want {
			t.Errorf("Tree(reversed, max %d) =\n%s", tc.max, got)
		}
	}
}

// The least relevant directory is folded first; spans are listed with
// their lines and counted as parts.
func TestTreeRankSpans(t *testing.T) {
	files := []TreeFile{
		{Path: "a/x.py", Lines: [2]int{1, 9}, Tokens: 10, Rank: 5},
		{Path: "a/x.py", Lines: [2]int{10, 20}, Tokens: 10, Rank: 6},
		{Path: "b/y.py", Tokens: 10, Rank: 0},
		{Path: "b/z.py", Tokens: 10, Rank: 1},
	}
	want := `a/ (2 parts, 20 tokens)
b/
  y.py 10
  z.py 10
`
	if got := Tree(files, 4); got != want {
		t.Errorf("Tree =\n%s\nwant\n%s", got, want)
	}
	want = `a/
  x.py:1-9 10
  x.py:10-20 10
b/
  y.py 10
  z.py 10
`
	if got := Tree(files, 6); got != want {
		t.Errorf("Tree =\n%s\nwant\n%s", got, want)
	}
}

func TestThousands(t *testing.T) {
	for n, want := range map[int]string{0: "0", 999: "999", 1000: "1,000", 61200: "61,200", 1234567: "1,234,567", -1500: "-1,500"} {
		if got := Thousands(n); got != want {
			t.Errorf("Thousands(%d) = %q, want %q", n, got, want)
		}
	}
}
