package project

import (
	"bytes"
	"strings"
)

// An ignoreList holds the patterns of one ignore file, in file order.
type ignoreList struct {
	base     string // directory of the file relative to the walk's root: "" or "dir/sub/"
	patterns []pattern
}

// A pattern is one parsed line of an ignore file.
type pattern struct {
	glob     string // the pattern without "!", without a trailing "/" and without a leading "/"
	prefix   int    // length of glob's leading run of bytes that are not glob specials
	negate   bool   // "!pattern": re-include
	dirOnly  bool   // "pattern/": matches directories only
	basename bool   // no "/" in the pattern: matched against the last path element
}

// parseIgnore parses the text of an ignore file (gitignore syntax) whose
// directory is base ("" for the walk's root, else "dir/").
//
// It follows git's dir.c: a UTF-8 byte order mark is skipped, lines split at
// "\n" with one trailing "\r" removed, lines starting with "#" are comments,
// trailing spaces are trimmed unless escaped with "\", and a NUL byte ends a
// line (git handles patterns as C strings).
func parseIgnore(data []byte, base string) ignoreList {
	data = bytes.TrimPrefix(data, []byte("\ufeff"))
	l := ignoreList{base: base}
	for len(data) > 0 {
		var line []byte
		if i := bytes.IndexByte(data, '\n'); i >= 0 {
			line, data = data[:i], data[i+1:]
		} else {
			line, data = data, nil
		}
		line = bytes.TrimSuffix(line, []byte("\r"))
		if i := bytes.IndexByte(line, 0); i >= 0 {
			line = line[:i]
		}
		if len(line) == 0 || line[0] == '#' {
			continue
		}
		if p, ok := parsePattern(trimTrailingSpaces(string(line))); ok {
			l.patterns = append(l.patterns, p)
		}
	}
	return l
}

// trimTrailingSpaces removes unescaped trailing spaces (not tabs), as git's
// trim_trailing_spaces does.
func trimTrailingSpaces(s string) string {
	lastSpace := -1
	for i := 0; i < len(s); i++ {
		switch s[i] {
		case ' ':
			if lastSpace < 0 {
				lastSpace = i
			}
		case '\\':
			i++
			if i == len(s) {
				return s
			}
			lastSpace = -1
		default:
			lastSpace = -1
		}
	}
	if lastSpace >= 0 {
		return s[:lastSpace]
	}
	return s
}

// parsePattern parses one non-comment line of an ignore file. It reports
// false for lines that can never match anything (such as "", "!" and "/").
func parsePattern(line string) (pattern, bool) {
	var p pattern
	if strings.HasPrefix(line, "!") {
		p.negate = true
		line = line[1:]
	}
	if strings.HasSuffix(line, "/") {
		p.dirOnly = true
		line = line[:len(line)-1]
	}
	p.basename = !strings.Contains(line, "/")
	line = strings.TrimPrefix(line, "/") // anchored: matched from the file's directory
	if line == "" {
		return p, false
	}
	p.glob = line
	p.prefix = literalPrefix(line)
	return p, true
}

// literalPrefix returns the length of s's leading run of bytes that are not
// glob specials (git's simple_length).
func literalPrefix(s string) int {
	if i := strings.IndexAny(s, `*?[\`); i >= 0 {
		return i
	}
	return len(s)
}

// match reports whether p, a pattern of l, matches path (relative to the
// walk's root), which is a directory when isDir. path must be below l.base:
// a walk puts a directory's lists on the stack only inside it.
func (p *pattern) match(l *ignoreList, path string, isDir bool) bool {
	if p.dirOnly && !isDir {
		return false
	}
	if p.basename {
		name := path[strings.LastIndexByte(path, '/')+1:]
		if p.prefix == len(p.glob) {
			return name == p.glob
		}
		return wildmatch(p.glob, name, false)
	}
	// git's match_pathname: compare the literal prefix, then wildmatch the
	// rest. Splitting there is observable ("a**/b" acts like "a/**/b" after
	// the split), so it is kept.
	rel := path[len(l.base):]
	if p.prefix > len(rel) || rel[:p.prefix] != p.glob[:p.prefix] {
		return false
	}
	glob, rel := p.glob[p.prefix:], rel[p.prefix:]
	if glob == "" {
		return rel == ""
	}
	return wildmatch(glob, rel, true)
}

// ignored reports whether path (a directory when isDir) is excluded by the
// stack of lists, ordered from lowest precedence (.git/info/exclude, then the
// root's files) to highest (the deepest directory's files). As in git, the
// last matching pattern of the highest-precedence list that has one decides.
func ignored(stack []*ignoreList, path string, isDir bool) bool {
	for i := len(stack) - 1; i >= 0; i-- {
		l := stack[i]
		for j := len(l.patterns) - 1; j >= 0; j-- {
			if p := &l.patterns[j]; p.match(l, path, isDir) {
				return !p.negate
			}
		}
	}
	return false
}

// MatchGlob reports whether name, a slash-separated path, matches pattern
// with git's wildmatch rules for pathnames: "*" and "?" do not match "/",
// "[...]" is a byte class ("[!...]" or "[^...]" negated, ranges, and POSIX
// classes such as "[[:digit:]]"), "\" quotes the next byte, and "**" between
// slashes (or at either end) matches any number of directories. A malformed
// pattern matches nothing.
func MatchGlob(pattern, name string) bool {
	return wildmatch(pattern, name, true)
}

// wildmatch reports whether text matches the glob p; with pathname set, "*"
// and "?" do not match "/" (git's WM_PATHNAME).
func wildmatch(p, text string, pathname bool) bool {
	w := wild{p: p, text: text, pathname: pathname}
	return w.dowild(0, 0) == wmMatch
}

const (
	wmMatch = iota
	wmNoMatch
	wmAbortAll
	wmAbortToStarStar
)

// wild is one wildmatch call. Its results for (pattern offset, text offset)
// pairs are memoized once a match has backtracked a lot: git's algorithm is
// exponential on patterns like "*a*a*a*a*b", and ignore files come from the
// repository being read.
type wild struct {
	p, text  string
	pathname bool
	calls    int
	memo     map[[2]int]int
}

// memoAfter is how many recursive calls a match makes before memoizing.
const memoAfter = 64

// end is what at returns past the end of a string.
const end = -1

// at returns s[i], or end past the end. (The C code this follows reads a
// NUL-terminated string; here a NUL byte is an ordinary byte.)
func at(s string, i int) int {
	if i < len(s) {
		return int(s[i])
	}
	return end
}

func isGlobSpecial(c byte) bool {
	return c == '*' || c == '?' || c == '[' || c == '\\'
}

// dowild matches w.p[ps:] against w.text[ts:]. It is a transcription of
// dowild in git's wildmatch.c (without WM_CASEFOLD), including its abort
// codes, which prune the backtracking.
func (w *wild) dowild(ps, ts int) int {
	key := [2]int{ps, ts}
	if r, ok := w.memo[key]; ok {
		return r
	}
	r := w.match(ps, ts)
	if w.calls++; w.calls > memoAfter {
		if w.memo == nil {
			w.memo = make(map[[2]int]int)
		}
		w.memo[key] = r
	}
	return r
}

func (w *wild) match(ps, ts int) int {
	p, text, pathname := w.p, w.text, w.pathname
	pi, ti := ps, ts
	for ; pi < len(p); pi, ti = pi+1, ti+1 {
		pch := int(p[pi])
		tch := at(text, ti)
		if tch == end && pch != '*' {
			return wmAbortAll
		}
		switch pch {
		case '\\':
			// Literal match with the next byte; a trailing "\" matches nothing.
			pi++
			if tch != at(p, pi) {
				return wmNoMatch
			}
		default:
			if tch != pch {
				return wmNoMatch
			}
		case '?':
			if pathname && tch == '/' {
				return wmNoMatch
			}
		case '*':
			var matchSlash bool
			pi++
			if at(p, pi) == '*' {
				prev := pi - 2
				for at(p, pi) == '*' {
					pi++
				}
				switch {
				case !pathname:
					matchSlash = true
				case (prev < ps || p[prev] == '/') &&
					(at(p, pi) == end || at(p, pi) == '/' || (at(p, pi) == '\\' && at(p, pi+1) == '/')):
					// "**/" may match no directory at all: try the rest of
					// the pattern right here.
					if at(p, pi) == '/' && w.dowild(pi+1, ti) == wmMatch {
						return wmMatch
					}
					matchSlash = true
				default:
					matchSlash = false
				}
			} else {
				matchSlash = !pathname
			}
			if pi == len(p) {
				// A trailing "**" matches everything; a trailing "*" only
				// when no "/" is left.
				if !matchSlash && strings.IndexByte(text[ti:], '/') >= 0 {
					return wmNoMatch
				}
				return wmMatch
			}
			if !matchSlash && p[pi] == '/' {
				// One "*" then "/" matches the rest of this path element.
				slash := strings.IndexByte(text[ti:], '/')
				if slash < 0 {
					return wmNoMatch
				}
				ti += slash // the "/" itself is consumed by the loop
				continue
			}
			for tch != end {
				if c := p[pi]; !isGlobSpecial(c) {
					// Skip ahead to the next occurrence of the literal.
					for {
						tch = at(text, ti)
						if tch == end || (!matchSlash && tch == '/') || tch == int(c) {
							break
						}
						ti++
					}
					if tch != int(c) {
						return wmNoMatch
					}
				}
				m := w.dowild(pi, ti)
				if m != wmNoMatch {
					if !matchSlash || m != wmAbortToStarStar {
						return m
					}
				} else if !matchSlash && tch == '/' {
					return wmAbortToStarStar
				}
				ti++
				tch = at(text, ti)
			}
			return wmAbortAll
		case '[':
			pi++
			pch = at(p, pi)
			if pch == '^' {
				pch = '!'
			}
			negated := pch == '!'
			if negated {
				pi++
				pch = at(p, pi)
			}
			prev := end // the byte that may start a range; end when none may
			matched := false
			for {
				if pch == end {
					return wmAbortAll
				}
				switch {
				case pch == '\\':
					pi++
					pch = at(p, pi)
					if pch == end {
						return wmAbortAll
					}
					if tch == pch {
						matched = true
					}
				case pch == '-' && prev != end && at(p, pi+1) != end && at(p, pi+1) != ']':
					pi++
					pch = int(p[pi])
					if pch == '\\' {
						pi++
						pch = at(p, pi)
						if pch == end {
							return wmAbortAll
						}
					}
					if tch <= pch && tch >= prev {
						matched = true
					}
					pch = end // a range cannot start another range
				case pch == '[' && at(p, pi+1) == ':':
					pi += 2
					s := pi
					for at(p, pi) != end && p[pi] != ']' {
						pi++
					}
					if pi == len(p) {
						return wmAbortAll
					}
					if pi-s-1 < 0 || p[pi-1] != ':' {
						// No ":]": the "[" is an ordinary member.
						pi = s - 2
						pch = '['
						if tch == pch {
							matched = true
						}
						break
					}
					in, ok := inClass(p[s:pi-1], byte(tch))
					if !ok {
						return wmAbortAll
					}
					if in {
						matched = true
					}
					pch = end
				default:
					if tch == pch {
						matched = true
					}
				}
				prev = pch
				pi++
				pch = at(p, pi)
				if pch == ']' {
					break
				}
			}
			if matched == negated || (pathname && tch == '/') {
				return wmNoMatch
			}
		}
	}
	if ti < len(text) {
		return wmNoMatch
	}
	return wmMatch
}

// inClass reports whether c is in the POSIX class name (ASCII only, as in
// git's sane ctype), and false for ok when the class name is unknown.
func inClass(name string, c byte) (in, ok bool) {
	upper := 'A' <= c && c <= 'Z'
	lower := 'a' <= c && c <= 'z'
	digit := '0' <= c && c <= '9'
	switch name {
	case "alnum":
		return upper || lower || digit, true
	case "alpha":
		return upper || lower, true
	case "blank":
		return c == ' ' || c == '\t', true
	case "cntrl":
		return c < 0x20 || c == 0x7f, true
	case "digit":
		return digit, true
	case "graph":
		return 0x21 <= c && c <= 0x7e, true
	case "lower":
		return lower, true
	case "print":
		return 0x20 <= c && c <= 0x7e, true
	case "punct":
		return 0x21 <= c && c <= 0x7e && !upper && !lower && !digit, true
	case "space":
		return c == ' ' || c == '\t' || c == '\n' || c == '\r', true
	case "upper":
		return upper, true
	case "xdigit":
		return digit || ('a' <= c && c <= 'f') || ('A' <= c && c <= 'F'), true
	}
	return false, false
}
