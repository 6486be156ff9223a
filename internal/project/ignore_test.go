package project

import (
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"
)

func TestWildmatch(t *testing.T) {
	// path: with WM_PATHNAME ("*" stops at "/"), as for patterns with a
	// slash; plain: without, as for basename patterns.
	tests := []struct {
		pattern, text string
		path, plain   bool
	}{
		{"foo", "foo", true, true},
		{"foo", "bar", false, false},
		{"", "", true, true},
		{"", "foo", false, false},
		{"???", "foo", true, true},
		{"??", "foo", false, false},
		{"*", "foo", true, true},
		{"f*", "foo", true, true},
		{"*f", "foo", false, false},
		{"*ob*a*r*", "foobar", true, true},
		{"*ab", "aaaaaaabababab", true, true},
		{`foo\*`, "foo*", true, true},
		{`foo\*bar`, "foobar", false, false},
		{`f\\oo`, `f\oo`, true, true},
		{`\a\b\c`, "abc", true, true},
		{`\`, `\`, false, false}, // a trailing backslash matches nothing
		{"*[al]?", "ball", true, true},
		{"[ten]", "ten", false, false},
		{"t[a-g]n", "ten", true, true},
		{"t[!a-g]n", "ten", false, false},
		{"t[^a-g]n", "ton", true, true},
		{"a[]]b", "a]b", true, true},
		{"a[]-]b", "a-b", true, true},
		{"a[]-]b", "aab", false, false},
		{"[!]-]", "a", true, true},
		{"[--A]", "5", true, true},
		{"[a-e-n]", "-", true, true},
		{"[a-e-n]", "j", false, false},
		{`[\]]`, "]", true, true},
		{"[", "[", false, false}, // unterminated class: no match
		{"a[]b", "a[]b", false, false},
		{"[[:]ab]", "[ab]", true, true},
		{"[[::]ab]", "[ab]", false, false}, // malformed class name
		{"[[:digit:]]", "7", true, true},
		{"[[:alpha:]][[:digit:]][[:upper:]]", "a1B", true, true},
		{"[[:digit:][:upper:][:spaci:]]", "1", false, false},
		{"[[:punct:]]", ".", true, true},
		{"[[:space:]]", "\v", false, false}, // git's space: " \t\n\r" only
		{"[[:xdigit:]]", "D", true, true},
		{"[a-c[:digit:]x-z]", "y", true, true},
		{"[a-c[:digit:]x-z]", "q", false, false},

		// Slashes.
		{"foo*bar", "foo/baz/bar", false, true},
		{"foo?bar", "foo/bar", false, true},
		{"foo[/]bar", "foo/bar", false, true},
		{"foo[^a-z]bar", "foo/bar", false, true},
		{"foo**bar", "foobazbar", true, true},
		{"foo**bar", "foo/baz/bar", false, true},
		{"foo/**/bar", "foo/bar", true, false},
		{"foo/**/bar", "foo/baz/bar", true, true},
		{"foo/**/bar", "foo/b/a/z/bar", true, true},
		{"foo/**/**/bar", "foo/baz/bar", true, false},
		{"**/foo", "foo", true, false},
		{"**/foo", "bar/baz/foo", true, true},
		{"*/foo", "bar/baz/foo", false, true},
		{"**/bar*", "foo/bar/baz", false, true},
		{"**/bar/*", "deep/foo/bar/baz", true, true},
		{"**/bar/*", "deep/foo/bar", false, false},
		{"**/bar/**", "deep/foo/bar/", true, true},
		{"*/bar/**", "foo/bar/baz/x", true, true},
		{"*/bar/**", "deep/foo/bar/baz/x", false, true},
		{"foo/**", "foo/bba/arr", true, true},
		{"foo/*", "foo/bba/arr", false, true},
		{"foo/**", "foo", false, false},
		{"*/*/*", "foo/bba/arr", true, true},
		{"*/*/*", "foo/bb/aa/rr", false, true},
		{"**/**/**", "foo/bb/aa/rr", true, true},
		{"**/*X*/**/*i", "ab/cXd/efXg/hi", true, true},
		{"XXX/*/*/*/*/*/*/12/*/*/*/m/*/*/*", "XXX/adobe/courier/bold/o/normal//12/120/75/75/m/70/iso8859/1", true, true},
		{"-*-*-*-*-*-*-12-*-*-*-m-*-*-*", "-adobe-courier-bold-o-normal--12-120-75-75-X-70-iso8859-1", false, false},
		{"**/*a*b*g*n*t", "abcd/abcdefg/abcdefghijk/abcdefghijklmnop.txt", true, true},
		{"**/*a*b*g*n*t", "abcd/abcdefg/abcdefghijk/abcdefghijklmnop.txtz", false, false},
	}
	for _, tt := range tests {
		if got := wildmatch(tt.pattern, tt.text, true); got != tt.path {
			t.Errorf("wildmatch(%q, %q, pathname) = %v, want %v", tt.pattern, tt.text, got, tt.path)
		}
		if got := wildmatch(tt.pattern, tt.text, false); got != tt.plain {
			t.Errorf("wildmatch(%q, %q) = %v, want %v", tt.pattern, tt.text, got, tt.plain)
		}
	}
	if !MatchGlob("src/**/*.go", "src/a/b.go") || MatchGlob("src/*.go", "src/a/b.go") {
		t.Error("MatchGlob does not match paths with WM_PATHNAME")
	}
}

func TestParseIgnore(t *testing.T) {
	type pat struct {
		Glob                      string
		Prefix                    int
		Negate, DirOnly, Basename bool
	}
	tests := []struct {
		name, text string
		want       []pat
	}{
		{"comments and blank lines", "# c\n\n  \n#*.go\n", nil},
		{"escaped hash and bang", "\\#a\n\\!b\n", []pat{{`\#a`, 0, false, false, true}, {`\!b`, 0, false, false, true}}},
		{"negation", "!keep\n", []pat{{"keep", 4, true, false, true}}},
		{"trailing spaces trimmed, escaped kept, tabs kept", "a  \nb\\ \nc\\  \nd\t\n", []pat{
			{"a", 1, false, false, true}, {`b\ `, 1, false, false, true}, {`c\ `, 1, false, false, true}, {"d\t", 2, false, false, true},
		}},
		{"directory only", "build/\n", []pat{{"build", 5, false, true, true}}},
		{"leading slash anchors", "/a\n", []pat{{"a", 1, false, false, false}}},
		{"a middle slash anchors", "a/b\n", []pat{{"a/b", 3, false, false, false}}},
		{"prefix stops at the first special", "a/b*c\n", []pat{{"a/b*c", 3, false, false, false}}},
		{"CRLF and BOM", "\ufeff*.o\r\n!x.o\r\n", []pat{{"*.o", 0, false, false, true}, {"x.o", 3, true, false, true}}},
		{"no final newline", "a\nb", []pat{{"a", 1, false, false, true}, {"b", 1, false, false, true}}},
		{"lines that match nothing are dropped", "!\n/\n!/\n", nil},
		{"a NUL byte ends the line", "ab\x00cd\n", []pat{{"ab", 2, false, false, true}}},
		{"only one trailing slash is stripped", "a//\n", []pat{{"a/", 2, false, true, false}}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			var got []pat
			for _, p := range parseIgnore([]byte(tt.text), "").patterns {
				got = append(got, pat{p.glob, p.prefix, p.negate, p.dirOnly, p.basename})
			}
			if d := cmp.Diff(tt.want, got); d != "" {
				t.Errorf("(-want +got):\n%s", d)
			}
		})
	}
}

func TestIgnored(t *testing.T) {
	root := parseIgnore([]byte("*.log\n!important.log\n/top\ndocs/*.md\nfoo**/bar\n"), "")
	sub := parseIgnore([]byte("important.log\n/x\ny/\n"), "sub/")
	// As in a walk, a directory's list is on the stack only below it.
	stackFor := func(path string) []*ignoreList {
		if strings.HasPrefix(path, sub.base) {
			return []*ignoreList{&root, &sub}
		}
		return []*ignoreList{&root}
	}
	tests := []struct {
		path  string
		isDir bool
		want  bool
	}{
		{"a.log", false, true},
		{"important.log", false, false},
		{"sub/important.log", false, true}, // the deeper file wins
		{"top", false, true},
		{"sub/top", false, false},
		{"docs/a.md", false, true},
		{"docs/x/a.md", false, false},
		{"sub/docs/a.md", false, false},
		{"sub/x", false, true},
		{"sub/z/x", false, false},
		{"sub/y", true, true},
		{"sub/y", false, false},
		{"foox/a/bar", false, true}, // git splits "foo**/bar" after its literal prefix
	}
	for _, tt := range tests {
		if got := ignored(stackFor(tt.path), tt.path, tt.isDir); got != tt.want {
			t.Errorf("ignored(%q, dir=%v) = %v, want %v", tt.path, tt.isDir, got, tt.want)
		}
	}
}

// TestWildmatchPathological checks that backtracking stays polynomial: git's
// algorithm alone needs exponentially many steps here.
func TestWildmatchPathological(t *testing.T) {
	pattern := strings.Repeat("*a", 20) + "*b"
	text := strings.Repeat("a", 300) + "c"
	for _, pathname := range []bool{true, false} {
		w := wild{p: pattern, text: text, pathname: pathname}
		if w.dowild(0, 0) == wmMatch {
			t.Error("matched")
		}
		if limit := 2 * len(pattern) * len(text); w.calls > limit {
			t.Errorf("pathname=%v: %d recursive calls, want at most %d", pathname, w.calls, limit)
		}
	}
}
