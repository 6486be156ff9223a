package project

import (
	"fmt"
	"path"
	"strings"
)

// A Glob selects files by a pattern given on a command line (ctxpack pack
// --include, --exclude, or a path argument with glob characters), with the
// semantics of a .gitignore line: "*" and "?" do not cross "/", "**"
// between slashes (or at either end) matches any number of directories,
// "[...]" is a byte class, "\" quotes the next byte; a pattern with no "/"
// but a trailing one matches a name at any depth ("*.md", "testdata/"),
// any other is anchored at the project root ("src/**/*.py"); a trailing
// "/" matches directories only. A file matches when the pattern matches
// its path or the path of a directory above it, so "src" and "vendor/"
// select everything under them.
type Glob struct {
	src string // as given, for messages
	p   pattern
}

// HasGlobMeta reports whether s holds a glob character ("*", "?", "[").
func HasGlobMeta(s string) bool { return strings.ContainsAny(s, "*?[") }

// ParseGlob parses pattern, a slash pattern relative to the directory dir
// (a slash path relative to the project root, "." for the root): a
// pattern with a "/" is anchored at dir, one without matches a name at
// any depth under dir. src is the pattern as the user gave it, for
// messages. It fails on an empty pattern, a leading "!" (negation belongs
// to .ctxpackignore; use an exclude), and a pattern that climbs out of
// the project with "..".
func ParseGlob(src, pattern, dir string) (Glob, error) {
	if strings.TrimSpace(pattern) == "" {
		return Glob{}, fmt.Errorf("project: glob %q is empty", src)
	}
	if strings.HasPrefix(pattern, "!") {
		return Glob{}, fmt.Errorf("project: glob %q: a leading \"!\" does not negate here; exclude with --exclude (or write \\! for a name that starts with \"!\")", src)
	}
	dirOnly := strings.HasSuffix(pattern, "/")
	body := strings.TrimSuffix(pattern, "/")
	if dir == "" {
		dir = "."
	}
	if !strings.Contains(body, "/") {
		if dir != "." {
			body = dir + "/**/" + body
		}
	} else {
		// Lexically clean the literal directories before the first glob
		// character, so "../lib/*.go" from a subdirectory works and one
		// that leaves the root is refused.
		lit, rest := splitLiteral(body)
		lit = path.Join(dir, lit)
		if lit == ".." || strings.HasPrefix(lit, "../") {
			return Glob{}, fmt.Errorf("project: glob %q leads outside the project root", src)
		}
		switch {
		case rest == "":
			body = lit
		case lit == ".":
			body = rest
		default:
			body = lit + "/" + rest
		}
		if !strings.Contains(body, "/") {
			body = "/" + body // still anchored at the root
		}
	}
	if dirOnly {
		body += "/"
	}
	p, ok := parsePattern(body)
	if !ok {
		return Glob{}, fmt.Errorf("project: glob %q matches nothing", src)
	}
	return Glob{src: src, p: p}, nil
}

// splitLiteral splits a slash pattern into its leading directories that
// hold no glob character and the rest, which starts at the first element
// that does (or is "" when none does).
func splitLiteral(s string) (lit, rest string) {
	elems := strings.Split(s, "/")
	for i, e := range elems {
		if strings.ContainsAny(e, `*?[\`) {
			return path.Join(elems[:i]...), strings.Join(elems[i:], "/")
		}
	}
	return path.Join(elems...), ""
}

// String returns the glob as it was given.
func (g Glob) String() string { return g.src }

// Pattern returns the glob relative to the project root, whatever folder
// it was given in: "*.md" (a name at any depth), "src/**/*.py",
// "vendor/".
func (g Glob) Pattern() string {
	s := g.p.glob
	if !g.p.basename && !strings.Contains(s, "/") {
		s = "/" + s // anchored at the root
	}
	if g.p.dirOnly {
		s += "/"
	}
	return s
}

// Base returns the directory under which every file the glob matches
// lies, a slash path relative to the project root ("." for all of it): a
// walk for the glob need start no higher.
func (g Glob) Base() string {
	if g.p.basename {
		return "."
	}
	lit, rest := splitLiteral(g.p.glob)
	if rest == "" {
		// A literal pattern names a file or a directory: walk its parent,
		// since a file is no directory to walk.
		lit = path.Dir(lit)
	}
	if lit == "" {
		return "."
	}
	return lit
}

// Match reports whether the glob matches the file at p (a slash path
// relative to the project root) or a directory above it.
func (g Glob) Match(p string) bool { return g.match(p, false) }

// MatchDir reports whether the glob matches the directory at p or a
// directory above it: then it matches every file under p.
func (g Glob) MatchDir(p string) bool { return g.match(p, true) }

func (g Glob) match(p string, isDir bool) bool {
	root := ignoreList{}
	if g.p.match(&root, p, isDir) {
		return true
	}
	for i := strings.IndexByte(p, '/'); i >= 0; {
		if g.p.match(&root, p[:i], true) {
			return true
		}
		j := strings.IndexByte(p[i+1:], '/')
		if j < 0 {
			break
		}
		i += 1 + j
	}
	return false
}
