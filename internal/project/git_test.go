package project

import (
	"bytes"
	"flag"
	"fmt"
	"math/rand/v2"
	"os"
	"os/exec"
	"path/filepath"
	"slices"
	"strings"
	"testing"
)

var gitCases = flag.Int("gitcases", 40, "number of random trees TestWalkMatchesGitRandom compares with git")

// gitListFiles runs git ls-files -co --exclude-standard in dir (after git
// init) with every user and system configuration shut out, and returns the
// sorted paths.
func gitListFiles(t *testing.T, dir string) []string {
	t.Helper()
	git, err := exec.LookPath("git")
	if err != nil {
		t.Skip("git not found on PATH: the comparison with git's own ignore rules needs the git CLI")
	}
	home := t.TempDir()
	env := append(os.Environ(),
		"HOME="+home, "XDG_CONFIG_HOME="+home,
		"GIT_CONFIG_NOSYSTEM=1", "GIT_CONFIG_GLOBAL="+os.DevNull,
	)
	run := func(args ...string) []byte {
		cmd := exec.Command(git, args...)
		cmd.Dir = dir
		cmd.Env = env
		var stderr bytes.Buffer
		cmd.Stderr = &stderr
		out, err := cmd.Output()
		if err != nil {
			t.Fatalf("git %s: %v\n%s", strings.Join(args, " "), err, stderr.Bytes())
		}
		return out
	}
	if _, err := os.Stat(filepath.Join(dir, ".git")); err != nil {
		run("init", "-q")
	}
	out := run("-c", "core.ignorecase=false", "-c", "core.excludesFile="+os.DevNull,
		"ls-files", "-z", "-co", "--exclude-standard")
	var paths []string
	for _, p := range strings.Split(string(out), "\x00") {
		if p != "" {
			paths = append(paths, p)
		}
	}
	slices.Sort(paths)
	return paths
}

// writeTree creates files (path → content) under dir.
func writeTree(t *testing.T, dir string, files map[string]string) {
	t.Helper()
	for p, content := range files {
		full := filepath.Join(dir, filepath.FromSlash(p))
		if err := os.MkdirAll(filepath.Dir(full), 0o755); err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(full, []byte(content), 0o644); err != nil {
			t.Fatal(err)
		}
	}
}

// walkedPaths returns every path Walk found, listed or skipped, sorted: what
// git ls-files lists (it has no notion of binary or oversized files).
func walkedPaths(t *testing.T, dir string, opt WalkOptions) []string {
	t.Helper()
	files, skipped, err := Walk(os.DirFS(dir), nil, opt)
	if err != nil {
		t.Fatal(err)
	}
	var paths []string
	for _, f := range files {
		paths = append(paths, f.Path)
	}
	for _, s := range skipped {
		paths = append(paths, s.Path)
	}
	slices.Sort(paths)
	return paths
}

func diffLists(want, got []string) string {
	var b strings.Builder
	i, j := 0, 0
	for i < len(want) || j < len(got) {
		switch {
		case j == len(got) || (i < len(want) && want[i] < got[j]):
			fmt.Fprintf(&b, "-%q\n", want[i])
			i++
		case i == len(want) || got[j] < want[i]:
			fmt.Fprintf(&b, "+%q\n", got[j])
			j++
		default:
			i++
			j++
		}
	}
	return b.String()
}

// TestWalkMatchesGit builds a tree that exercises every part of gitignore
// syntax and checks that Walk keeps exactly the files git does.
func TestWalkMatchesGit(t *testing.T) {
	dir := t.TempDir()
	tree := map[string]string{
		".gitignore": strings.Join([]string{
			"# a comment, then a blank line",
			"",
			"*.log",
			"!keep.log",
			"/anchored.txt",
			"build/",
			"docs/**/*.tmp",
			"**/generated",
			"a/**/z.txt",
			"trailing-space.txt   ",
			`escaped-space\ `,
			"tab.txt\t",
			`\#hash.txt`,
			`\!bang.txt`,
			"[abc]-class.txt",
			"[!x]-neg.txt",
			"[^y]-caret.txt",
			"file?.dat",
			"num[0-9].txt",
			"[[:digit:]]x.txt",
			"sub/*.md",
			"logs/",
			"!logs/important.txt",
			"deep/**",
			"!deep/keep/",
			"!deep/keep/**",
			"**/cache/",
			"onlydir/",
			"star*/inner.txt",
			"x/**/",
			"mid/**/end",
			"lit\\*.txt",
			"foo**/bar",
			"/root-only",
			"dirpat/*/",
		}, "\n") + "\n",
		"keep.log": "", "drop.log": "", "UPPER.LOG": "", "sub/x.log": "", "sub/keep.log": "",
		"anchored.txt": "", "sub/anchored.txt": "",
		"build/out.txt": "", "sub/build/out.txt": "", "build.txt": "",
		"docs/a.tmp": "", "docs/x/a.tmp": "", "docs/x/y/a.tmp": "", "docs/a.txt": "",
		"generated": "", "src/generated/x.go": "", "src/generated.go": "",
		"a/z.txt": "", "a/b/z.txt": "", "a/b/c/z.txt": "", "a/b/c/y.txt": "",
		"trailing-space.txt": "", "escaped-space ": "", "escaped-space": "", "tab.txt": "",
		"#hash.txt": "", "!bang.txt": "",
		"a-class.txt": "", "d-class.txt": "", "q-neg.txt": "", "x-neg.txt": "", "q-caret.txt": "", "y-caret.txt": "",
		"file1.dat": "", "file12.dat": "", "num5.txt": "", "numx.txt": "", "7x.txt": "", "ax.txt": "",
		"sub/readme.md": "", "sub/deeper/readme.md": "", "readme.md": "",
		"logs/important.txt": "", "logs/other.txt": "",
		"deep/a.txt": "", "deep/keep/b.txt": "", "deep/keep/c/d.txt": "", "deep/other/e.txt": "",
		"p/cache/c.bin": "", "cache": "",
		"onlydir": "", "z/onlydir/f.txt": "",
		"star1/inner.txt": "", "star2/outer.txt": "", "nostar/inner.txt": "",
		"x/f.txt": "", "x/y/f.txt": "",
		"mid/end": "", "mid/a/b/end": "", "mid/end2": "",
		"lit*.txt": "", "litx.txt": "",
		"foo/bar": "", "foox/bar": "", "foox/y/bar": "",
		"root-only": "", "sub/root-only": "",
		"dirpat/file": "", "dirpat/d/file": "",

		// Nested ignore files apply relative to their directory.
		"sub/.gitignore":        "*.txt\n!important.txt\n/local-only\nnested/deeper/\n!*.log\n",
		"sub/a.txt":             "",
		"sub/important.txt":     "",
		"sub/local-only":        "",
		"sub/nested/local-only": "",
		"sub/nested/b.txt":      "",
		"sub/nested/deeper/c.c": "",
		"sub/nested/.gitignore": "!*.txt\n",
		"sub/nested/n.txt":      "",

		// CRLF line ends and a byte order mark.
		"crlf/.gitignore": "*.tmp\r\n!keep.tmp\r\n",
		"crlf/a.tmp":      "", "crlf/keep.tmp": "",
		"bom/.gitignore": "\ufeff*.bak\n",
		"bom/x.bak":      "", "bom/y.txt": "",

		// Odd names.
		"a b.txt": "", "x[1].txt": "", "-dash": "", "日本.txt": "",

		// Hidden files, binary and large files: git lists them all.
		".hidden": "", ".config/x": "",
		"bin.dat":   "a\x00b",
		"large.txt": strings.Repeat("x", 2048),

		// .git/info/exclude is honoured.
		"excluded-by-info.txt": "",
	}
	writeTree(t, dir, tree)
	gitListFiles(t, dir) // git init
	writeTree(t, dir, map[string]string{".git/info/exclude": "excluded-by-info.txt\n"})
	for _, l := range [][2]string{
		{"bin.dat", "link-to-file"},
		{"sub", "link-to-dir"},
		{"../outside", "link-outside"},
		{"/etc/hostname", "link-absolute"},
		{"missing", "link-broken"},
	} {
		if err := os.Symlink(l[0], filepath.Join(dir, l[1])); err != nil {
			t.Fatal(err)
		}
	}

	want := gitListFiles(t, dir)
	got := walkedPaths(t, dir, WalkOptions{IncludeHidden: true, IgnoreFiles: []string{".gitignore"}, MaxFileBytes: 1024})
	if d := diffLists(want, got); d != "" {
		t.Errorf("Walk differs from git ls-files -co --exclude-standard (-git +Walk):\n%s", d)
	}
	// Sanity: the tree really exercises the rules.
	for _, p := range []string{"drop.log", "sub/a.txt", "deep/other/e.txt", "logs/important.txt", "escaped-space "} {
		if slices.Contains(got, p) {
			t.Errorf("%s should be ignored", p)
		}
	}
	for _, p := range []string{"keep.log", "sub/important.txt", "deep/keep/c/d.txt", "sub/nested/n.txt", "escaped-space"} {
		if !slices.Contains(got, p) {
			t.Errorf("%s should be listed", p)
		}
	}
}

// TestWalkMatchesGitRandom compares Walk with git on random trees and random
// ignore files built from the pieces of gitignore syntax.
func TestWalkMatchesGitRandom(t *testing.T) {
	if _, err := exec.LookPath("git"); err != nil {
		t.Skip("git not found on PATH: the comparison with git's own ignore rules needs the git CLI")
	}
	cases := *gitCases
	if testing.Short() {
		cases = min(cases, 8)
	}
	ignoredTotal := 0
	names := []string{"a", "b", "ab", "a.c", "b.c", "ba", "c-d", "x[1]", "a b", ".h", "Ab", "*", "a ", "#a", "!b", "]"}
	pieces := []string{"a", "b", "c", ".", "*", "*", "**", "?", "/", "/", "**/", "/**", "[ab]", "[!a]", "[a-c]", "[^b]",
		`\*`, `\`, `\ `, "-", " ", "[[:alpha:]]", "[]", "]", "[", "!", "#"}
	for seed := range cases {
		rng := rand.New(rand.NewPCG(uint64(seed), 42))
		dir := t.TempDir()
		tree := map[string]string{}
		dirs := []string{""}
		for range 30 {
			parent := dirs[rng.IntN(len(dirs))]
			name := names[rng.IntN(len(names))]
			p := parent + name
			if _, isFile := tree[p]; isFile || slices.Contains(dirs, p+"/") {
				continue
			}
			if strings.Count(p, "/") < 3 && rng.IntN(3) == 0 {
				dirs = append(dirs, p+"/")
				continue
			}
			if slices.ContainsFunc(dirs, func(d string) bool { return strings.HasPrefix(d, p+"/") }) {
				continue
			}
			tree[p] = ""
		}
		// Directories that received no file stay empty and do not exist,
		// except as parents of ignore files.
		for _, d := range dirs {
			if rng.IntN(2) == 0 {
				continue
			}
			var lines []string
			for range 1 + rng.IntN(5) {
				var b strings.Builder
				for range 1 + rng.IntN(4) {
					b.WriteString(pieces[rng.IntN(len(pieces))])
				}
				lines = append(lines, b.String())
			}
			if hasFileUnder(tree, d) {
				if _, isFile := tree[d+".gitignore"]; !isFile {
					tree[d+".gitignore"] = strings.Join(lines, "\n") + "\n"
				}
			}
		}
		writeTree(t, dir, tree)
		want := gitListFiles(t, dir)
		got := walkedPaths(t, dir, WalkOptions{IncludeHidden: true, IgnoreFiles: []string{".gitignore"}})
		ignoredTotal += len(walkedPaths(t, dir, WalkOptions{IncludeHidden: true, IgnoreFiles: []string{}})) - len(got)
		if d := diffLists(want, got); d != "" {
			var ignores []string
			for p, c := range tree {
				if strings.HasSuffix(p, ".gitignore") {
					ignores = append(ignores, fmt.Sprintf("%s:\n%s", p, c))
				}
			}
			slices.Sort(ignores)
			t.Errorf("seed %d: Walk differs from git (-git +Walk):\n%s\nignore files:\n%s", seed, d, strings.Join(ignores, "\n"))
		}
	}
	t.Logf("%d random trees, %d files ignored in all", cases, ignoredTotal)
	if ignoredTotal == 0 {
		t.Error("the random ignore files ignored nothing: the test proves nothing")
	}
}

func hasFileUnder(tree map[string]string, dir string) bool {
	for p := range tree {
		if strings.HasPrefix(p, dir) {
			return true
		}
	}
	return false
}
