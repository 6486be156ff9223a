package project

import (
	"errors"
	"io/fs"
	"strconv"
	"strings"
	"testing"
	"testing/fstest"
)

// globEscape quotes every glob special in s.
func globEscape(s string) string {
	var b strings.Builder
	for i := 0; i < len(s); i++ {
		if isGlobSpecial(s[i]) {
			b.WriteByte('\\')
		}
		b.WriteByte(s[i])
	}
	return b.String()
}

// FuzzMatch runs the ignore-file parser and the matcher on arbitrary
// patterns and paths: they must not panic, and a few identities must hold.
func FuzzMatch(f *testing.F) {
	for _, seed := range [][2]string{
		{"*.go", "a/b.go"},
		{"!/build/\n", "build"},
		{"docs/**/*.tmp", "docs/x/y/a.tmp"},
		{"a/**/b", "a/b"},
		{"[!a-c][[:digit:]]?", "d1x"},
		{`\#x\ \ `, "#x  "},
		{"foo**/bar", "foox/y/bar"},
		{"[[:x", "[:x"},
		{"**/", "a/b/"},
		{"*a*a*a*a*a*a*a*b", "aaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaa"},
	} {
		f.Add(seed[0], seed[1])
	}
	f.Fuzz(func(t *testing.T, text, path string) {
		if len(text) > 512 || len(path) > 512 {
			return
		}
		wildmatch(text, path, true)
		wildmatch(text, path, false)

		// Escaping every special makes a pattern match exactly its text.
		if esc := globEscape(path); !wildmatch(esc, path, true) || !wildmatch(esc, path, false) {
			t.Errorf("escaped %q does not match itself", path)
		}
		if esc := globEscape(path); wildmatch(esc, path+"x", true) {
			t.Errorf("escaped %q matches a longer text", path)
		}
		if !wildmatch("**", path, true) {
			t.Errorf(`"**" does not match %q`, path)
		}
		if got, want := wildmatch("*", path, true), !strings.Contains(path, "/"); got != want && path != "" {
			t.Errorf(`"*" on %q = %v, want %v`, path, got, want)
		}

		// Lines of an ignore file, matched against a path as a walk would
		// give it (clean, relative), inside a nested directory's list.
		p := strings.Trim(path, "/")
		if p == "" || strings.Contains(p, "//") {
			return
		}
		l := parseIgnore([]byte(text), "")
		stack := []*ignoreList{&l}
		ignored(stack, p, false)
		ignored(stack, p, true)
		nested := parseIgnore([]byte(text), "dir/")
		ignored([]*ignoreList{&l, &nested}, "dir/"+p, false)
		for _, pat := range l.patterns {
			if pat.glob == "" || pat.prefix > len(pat.glob) {
				t.Errorf("bad pattern %+v from %q", pat, text)
			}
		}
	})
}

// FuzzLoadConfig feeds arbitrary bytes to LoadConfig: it must not panic,
// every error must be a *ConfigError starting with "project: ", and a Config
// it accepts must validate.
func FuzzLoadConfig(f *testing.F) {
	for _, seed := range []string{
		"",
		"budget: 4000\n",
		"tokenizer: cl100k_base\nformat: json\nwindow: 128000\nreserves: {system: 1, query: 2, response: 3}\n",
		"pack:\n  strategy: score\n  overflow: dorp\n  dedup_threshold: 0.5\n  item_cap: .nan\n",
		"walk:\n  max_file_bytes: 0x10\n  include_hidden: yes\n",
		"base: &b {strategy: score}\npack:\n  <<: *b\n  <<: [*b, *b]\n",
		"links:\n  depth: 2\nbudgt: 1\n---\nx: 1\n",
		"a: &a [*a]\n",
		"pack: [\n",
		"? [a, b]\n: c\n",
		"budget: 1\nbudget: 2\n",
		"\t\x00\xff",
	} {
		f.Add([]byte(seed))
	}
	f.Fuzz(func(t *testing.T, data []byte) {
		fsys := fstest.MapFS{"c.yaml": {Data: data}}
		cfg, warnings, err := LoadConfig(fsys, "c.yaml")
		for _, w := range warnings {
			if w.Path != "c.yaml" {
				t.Errorf("warning without its file: %+v", w)
			}
		}
		if err != nil {
			for _, line := range strings.Split(err.Error(), "\n") {
				if !strings.HasPrefix(line, "project: ") {
					t.Errorf("error line %q does not start with \"project: \"", line)
				}
			}
			var ce *ConfigError
			if !errors.As(err, &ce) {
				t.Errorf("error %v is not a *ConfigError", err)
			}
			return
		}
		if err := cfg.Validate(); err != nil {
			t.Errorf("LoadConfig accepted a Config that does not validate: %v", err)
		}
	})
}

// FuzzShowPath: a name NameProblem accepts has no byte that could break
// or fake a line of the output, and ShowPath shows any other name quoted,
// on one line, as Go would read it back.
func FuzzShowPath(f *testing.F) {
	for _, s := range []string{"a/b.go", "bad\nname.go", "\x1b[31mred", "caf\xc3", "ok\u202ename", "tab\there"} {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, name string) {
		shown := ShowPath(name)
		if NameProblem(name) == "" {
			if shown != name || strings.ContainsAny(name, "\n\r\t\x1b\x00\x7f") {
				t.Fatalf("accepted %q, shown %q", name, shown)
			}
			return
		}
		back, err := strconv.Unquote(shown)
		if err != nil || back != name || strings.ContainsAny(shown, "\n\r\x1b") {
			t.Fatalf("ShowPath(%q) = %q, which does not read back (%v)", name, shown, err)
		}
	})
}

// FuzzGlob parses arbitrary command-line globs in arbitrary folders and
// matches them: no panic; a glob that parses never leaves the root (its
// Base is a valid path), and a file under Base is what it can match.
func FuzzGlob(f *testing.F) {
	for _, seed := range [][3]string{
		{"src/**/*.py", ".", "src/a/b.py"},
		{"*.md", "docs", "docs/x.md"},
		{"../lib/*.go", "cmd", "lib/a.go"},
		{"vendor/", ".", "x/vendor/a"},
		{"./*.go", "a/b", "a/b/c.go"},
		{"a/../../x", ".", "x"},
	} {
		f.Add(seed[0], seed[1], seed[2])
	}
	f.Fuzz(func(t *testing.T, pattern, dir, file string) {
		if !fs.ValidPath(dir) {
			return
		}
		g, err := ParseGlob(pattern, pattern, dir)
		if err != nil {
			return
		}
		base := g.Base()
		if base == ".." || strings.HasPrefix(base, "/") || strings.HasPrefix(base, "../") || strings.Contains(base, "/../") || strings.HasSuffix(base, "/..") {
			t.Fatalf("ParseGlob(%q, %q).Base() = %q, not a path inside the root", pattern, dir, base)
		}
		if fs.ValidPath(file) && g.Match(file) && base != "." && file != base && !strings.HasPrefix(file, base+"/") {
			t.Fatalf("ParseGlob(%q, %q) matches %q, outside its base %q", pattern, dir, file, base)
		}
		g.MatchDir(file)
	})
}

// FuzzGenerated reads arbitrary heads for generated-file markers: no
// panic, and a head with no "generated" at all is never generated.
func FuzzGenerated(f *testing.F) {
	f.Add("// Code generated by x. DO NOT EDIT.\npackage a\n")
	f.Add("/**\n * @generated\n */\n")
	f.Add("\ufeff#!/bin/sh\n# Code generated x DO NOT EDIT.\r\n")
	f.Fuzz(func(t *testing.T, head string) {
		why := Generated([]byte(head))
		if why != "" && !strings.Contains(head, "generated") {
			t.Fatalf("Generated(%q) = %q without the word", head, why)
		}
	})
}
