package ctxpack

import (
	"fmt"
	"os"
	"path"
	"path/filepath"
	"regexp"
	"strings"
	"testing"
)

// repoDocs are the Markdown files a reader of the repository meets: the
// README, docs/ and the benchmarks' notes.
func repoDocs(t *testing.T) []string {
	t.Helper()
	var docs []string
	for _, pattern := range []string{"README.md", "docs/*.md", "bench/*.md", "bench/*/README.md"} {
		m, err := filepath.Glob(pattern)
		if err != nil {
			t.Fatal(err)
		}
		docs = append(docs, m...)
	}
	if len(docs) < 2 {
		t.Fatalf("found only %v", docs)
	}
	return docs
}

var (
	mdLink   = regexp.MustCompile(`\]\(([^)\s]+)\)`)
	codeSpan = regexp.MustCompile("`([^`\n]+)`")
	heading  = regexp.MustCompile(`^#{1,6}\s+(.*)$`)
)

// docLine is one line of a Markdown file outside fenced code blocks.
type docLine struct {
	n    int
	text string
}

func proseLines(data string) []docLine {
	var out []docLine
	fence := false
	for i, line := range strings.Split(data, "\n") {
		if strings.HasPrefix(strings.TrimSpace(line), "```") {
			fence = !fence
			continue
		}
		if !fence {
			out = append(out, docLine{i + 1, line})
		}
	}
	return out
}

// anchor is GitHub's anchor for a heading: lower case, punctuation other
// than hyphens and underscores removed, spaces as hyphens.
func anchor(h string) string {
	var b strings.Builder
	for _, r := range strings.ToLower(strings.ReplaceAll(h, "`", "")) {
		switch {
		case r == ' ':
			b.WriteRune('-')
		case r == '-' || r == '_' || r >= 'a' && r <= 'z' || r >= '0' && r <= '9' || r > 127:
			b.WriteRune(r)
		}
	}
	return b.String()
}

// TestDocLinksStayInRepository checks what a reader of a clone can follow:
// every relative link in the README, docs/ and bench/ notes names a file or
// folder of the repository (and its #anchor a heading there), and no link
// or path in backquotes leads out of it (`../shared/...` names the
// workspace the repository was written in, which a clone does not have).
func TestDocLinksStayInRepository(t *testing.T) {
	root, err := filepath.Abs(".")
	if err != nil {
		t.Fatal(err)
	}
	anchors := map[string]map[string]bool{} // doc (slash path) -> anchors
	anchorsOf := func(doc string) map[string]bool {
		if a, ok := anchors[doc]; ok {
			return a
		}
		a := map[string]bool{}
		data, err := os.ReadFile(filepath.FromSlash(doc))
		if err == nil {
			for _, l := range proseLines(string(data)) {
				if m := heading.FindStringSubmatch(l.text); m != nil {
					a[anchor(strings.TrimSpace(m[1]))] = true
				}
			}
		}
		anchors[doc] = a
		return a
	}
	// resolve returns target, relative to doc's folder, as a slash path
	// from the repository root, or an error when it leaves the repository
	// or names nothing.
	resolve := func(doc, target string) (string, error) {
		p := path.Join(path.Dir(doc), target)
		if p == ".." || strings.HasPrefix(p, "../") {
			return "", fmt.Errorf("leads out of the repository (to %s); name a file inside it, or drop the reference", p)
		}
		if _, err := os.Stat(filepath.Join(root, filepath.FromSlash(p))); err != nil {
			return "", fmt.Errorf("names %s, which is not in the repository", p)
		}
		return p, nil
	}
	for _, doc := range repoDocs(t) {
		doc = filepath.ToSlash(doc)
		data, err := os.ReadFile(filepath.FromSlash(doc))
		if err != nil {
			t.Fatal(err)
		}
		for _, l := range proseLines(string(data)) {
			for _, m := range mdLink.FindAllStringSubmatch(l.text, -1) {
				target := m[1]
				if strings.Contains(target, "://") || strings.HasPrefix(target, "mailto:") {
					continue
				}
				file, frag, _ := strings.Cut(target, "#")
				dest := doc
				if file != "" {
					p, err := resolve(doc, file)
					if err != nil {
						t.Errorf("%s:%d: link %s %v", doc, l.n, target, err)
						continue
					}
					dest = p
				}
				if frag != "" && strings.HasSuffix(dest, ".md") && !anchorsOf(dest)[frag] {
					t.Errorf("%s:%d: link %s: %s has no heading with anchor #%s", doc, l.n, target, dest, frag)
				}
			}
			for _, m := range codeSpan.FindAllStringSubmatch(l.text, -1) {
				if s := m[1]; strings.HasPrefix(s, "../") && !strings.ContainsAny(s, " \t") {
					if _, err := resolve(doc, s); err != nil {
						t.Errorf("%s:%d: path `%s` %v", doc, l.n, s, err)
					}
				}
			}
		}
	}
}

// TestReadmePathsExist checks that every path the README names in
// backquotes under one of the repository's top-level folders (docs/...,
// bench/..., testdata/...) exists in the repository; a pattern (`*`, or a
// Go package pattern ending in /...) must match something.
func TestReadmePathsExist(t *testing.T) {
	data, err := os.ReadFile("README.md")
	if err != nil {
		t.Fatal(err)
	}
	for _, l := range proseLines(string(data)) {
		for _, m := range codeSpan.FindAllStringSubmatch(l.text, -1) {
			s := m[1]
			first, _, ok := strings.Cut(s, "/")
			if !ok || first == "" || first == "." || first == ".." || strings.ContainsAny(s, " \t") {
				continue
			}
			if fi, err := os.Stat(first); err != nil || !fi.IsDir() {
				continue
			}
			pattern := strings.TrimSuffix(strings.TrimSuffix(s, "/..."), "/")
			matches, err := filepath.Glob(filepath.FromSlash(pattern))
			if err != nil || len(matches) == 0 {
				t.Errorf("README.md:%d: `%s` names nothing in the repository", l.n, s)
			}
		}
	}
}

// TestReadmeNamesEveryNpmInstall checks that the README and .ci/run name
// `npm ci --prefix testdata/NAME` for every testdata/NAME/package.json: the
// tests that use one skip without it locally and fail when CI=true.
func TestReadmeNamesEveryNpmInstall(t *testing.T) {
	pkgs, err := filepath.Glob("testdata/*/package.json")
	if err != nil || len(pkgs) == 0 {
		t.Fatalf("no testdata/*/package.json (%v)", err)
	}
	for _, file := range []string{"README.md", ".ci/run"} {
		data, err := os.ReadFile(filepath.FromSlash(file))
		if err != nil {
			t.Fatal(err)
		}
		for _, p := range pkgs {
			dir := filepath.ToSlash(filepath.Dir(p))
			if want := "npm ci --prefix " + dir; !strings.Contains(string(data), want) {
				t.Errorf("%s does not say %q; the tests that use %s skip without it (fail with CI=true)", file, want, dir)
			}
		}
	}
}
