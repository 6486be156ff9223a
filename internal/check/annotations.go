package check

import (
	"strings"

	"github.com/ctxpack/ctxpack/internal/lang"
)

// Annotation is one artifact id named by an @spec or @decision annotation
// in a comment. An annotation naming several ids gives one Annotation per
// id, in the order written.
type Annotation struct {
	Kind string // "spec" or "decision"
	ID   string
	Line int // 1-based
}

// The annotation tags, as written after "@".
var tags = []string{"spec", "decision"}

// A syntax is how one language writes comments and strings, as far as the
// annotation lexer needs to know.
type syntax struct {
	line   []string    // line comment starts: "//", "#"
	block  []delimiter // block comments: "/*" … "*/"
	mlstr  []delimiter // strings that may span lines: `"""`, "`"
	quotes string      // quote characters of one-line strings, with \ escapes
	// loose requires a line comment start to open the line or follow a
	// space or tab: for unknown file types, where "#" or ";" may be code.
	loose bool
}

type delimiter struct{ open, close string }

var (
	cBlock    = []delimiter{{"/*", "*/"}}
	htmlBlock = []delimiter{{"<!--", "-->"}}
	backtick  = []delimiter{{"`", "`"}}

	cLike   = syntax{line: []string{"//"}, block: cBlock, quotes: `"'`}
	goLike  = syntax{line: []string{"//"}, block: cBlock, mlstr: backtick, quotes: `"'`} // Go raw strings, JS templates
	hash    = syntax{line: []string{"#"}, quotes: `"'`}
	python  = syntax{line: []string{"#"}, mlstr: []delimiter{{`"""`, `"""`}, {`'''`, `'''`}}, quotes: `"'`}
	php     = syntax{line: []string{"//", "#"}, block: cBlock, quotes: `"'`}
	sql     = syntax{line: []string{"--"}, block: cBlock, quotes: `"'`}
	lua     = syntax{line: []string{"--"}, block: []delimiter{{"--[[", "]]"}}, quotes: `"'`}
	haskell = syntax{line: []string{"--"}, block: []delimiter{{"{-", "-}"}}, quotes: `"`}
	lisp    = syntax{line: []string{";"}, quotes: `"`}
	percent = syntax{line: []string{"%"}, quotes: `"`}
	css     = syntax{block: cBlock, quotes: `"'`}
	markup  = syntax{block: htmlBlock, quotes: `"`}
	// Markdown: inline code spans and fenced blocks are code, not comments.
	markdown = syntax{block: htmlBlock, mlstr: []delimiter{{"```", "```"}, {"~~~", "~~~"}}, quotes: "`"}
	// A component file mixes markup and script.
	component = syntax{line: []string{"//"}, block: append([]delimiter{{"<!--", "-->"}}, cBlock...), quotes: `"'`}
	ini       = syntax{line: []string{";", "#"}, quotes: `"`}
	// Plain data: no comments at all.
	data = syntax{quotes: `"`}
	// Anything else: every common comment start, when it opens the line or
	// follows a space.
	generic = syntax{line: []string{"//", "#", "--", ";", "%"}, block: append([]delimiter{{"<!--", "-->"}}, cBlock...), quotes: `"`, loose: true}
)

// families are the comment syntaxes by the names internal/lang's table
// gives them (lang.File.Comments).
var families = map[string]syntax{
	"c": cLike, "go": goLike, "hash": hash, "python": python, "php": php, "sql": sql, "lua": lua,
	"haskell": haskell, "lisp": lisp, "percent": percent, "css": css, "markup": markup,
	"markdown": markdown, "component": component, "ini": ini, "data": data,
}

// syntaxFor returns the comment syntax of the file at p (a slash path), by
// its base name or extension (lang.Of); anything else gets generic.
func syntaxFor(p string) syntax {
	if s, ok := families[lang.Of(p).Comments]; ok {
		return s
	}
	return generic
}

// ScanAnnotations returns the @spec and @decision annotations in text, the
// contents of the file at p, in file order. p only chooses the comment
// syntax, by extension or base name (see syntaxes; unknown types get every
// common syntax, loosely). Only comments count: "@spec X" in a string
// literal or in code is not an annotation.
//
// The lexer reads one line at a time and knows, per language, line
// comments, block comments (which may span lines), one-line strings with
// backslash escapes, and the multi-line strings that matter (Python triple
// quotes, Go raw strings and JavaScript templates, Markdown code fences).
// Its limits: a quote with no closing quote on its line is taken as an
// ordinary character (an apostrophe, a Rust lifetime), so a one-line string
// that continues with a backslash-newline is not followed; string
// interpolation (`${…}`, f-strings) and regular-expression literals are
// not parsed; a language's rarer forms (nested block comments, Lua long
// strings, heredocs, C++ raw strings) are not known; a file's type comes
// from its name alone; and the ids of one annotation must be on its line.
//
// An annotation is "@spec" or "@decision" not preceded by a letter, digit
// or one of "_.-@" (so e-mail addresses do not count) or by a quote
// character (so a comment can quote an example), then an optional
// ":", then ids separated by commas or spaces. An id is a letter, then
// letters, digits and "_", then one or more "-" segments of letters,
// digits, "_" and "." (SPEC-BILLING-001, DEC-7, spec-auth); a trailing "."
// is not part of it. The first id and those after a comma may have any
// case; an id after spaces alone must begin with an upper-case segment
// (SPEC-…), so that the annotation "@spec SPEC-A handles re-entry" names
// SPEC-A only.
func ScanAnnotations(p, text string) []Annotation {
	if !strings.Contains(text, "@spec") && !strings.Contains(text, "@decision") {
		return nil
	}
	l := lexer{syn: syntaxFor(p)}
	for n := 1; text != ""; n++ {
		line := text
		if i := strings.IndexByte(text, '\n'); i >= 0 {
			line, text = text[:i], text[i+1:]
		} else {
			text = ""
		}
		line = strings.TrimSuffix(line, "\r")
		l.line(line, n)
	}
	return l.out
}

// lexer carries the state between lines: an open block comment or
// multi-line string, and the annotations found so far.
type lexer struct {
	syn     syntax
	close   string // the closer awaited; "" when not inside a block
	comment bool   // the open block is a comment (else a string)
	out     []Annotation
}

// line lexes one line, n its 1-based number, without its line end.
func (l *lexer) line(s string, n int) {
	i := 0
	if l.close != "" {
		j := strings.Index(s, l.close)
		if j < 0 {
			if l.comment {
				l.scan(s, n)
			}
			return
		}
		if l.comment {
			l.scan(s[:j], n)
		}
		i = j + len(l.close)
		l.close = ""
	}
	syn := l.syn
	// unclosed marks the quote characters known to have no closing quote
	// in the rest of the line: once one has none, no later one has (see
	// closingQuote), and remembering it keeps the line linear.
	var unclosed [256]bool
	for i < len(s) {
		rest := s[i:]
		if d, ok := opens(syn.block, rest); ok {
			body := rest[len(d.open):]
			if j := strings.Index(body, d.close); j >= 0 {
				l.scan(body[:j], n)
				i += len(d.open) + j + len(d.close)
				continue
			}
			l.scan(body, n)
			l.close, l.comment = d.close, true
			return
		}
		if lineComment(syn, s, i) {
			l.scan(rest, n)
			return
		}
		if d, ok := opens(syn.mlstr, rest); ok {
			body := rest[len(d.open):]
			if j := strings.Index(body, d.close); j >= 0 {
				i += len(d.open) + j + len(d.close)
				continue
			}
			l.close, l.comment = d.close, false
			return
		}
		if c := s[i]; !unclosed[c] && strings.IndexByte(syn.quotes, c) >= 0 {
			if end := closingQuote(s, i); end > 0 {
				i = end + 1
				continue
			}
			unclosed[c] = true
		}
		i++
	}
}

// opens returns the delimiter of ds that s starts with, the longest when
// several do.
func opens(ds []delimiter, s string) (delimiter, bool) {
	var best delimiter
	found := false
	for _, d := range ds {
		if strings.HasPrefix(s, d.open) && len(d.open) > len(best.open) {
			best, found = d, true
		}
	}
	return best, found
}

// lineComment reports whether a line comment of syn starts at s[i].
func lineComment(syn syntax, s string, i int) bool {
	for _, m := range syn.line {
		if !strings.HasPrefix(s[i:], m) {
			continue
		}
		if !syn.loose || i == 0 || s[i-1] == ' ' || s[i-1] == '\t' {
			return true
		}
	}
	return false
}

// closingQuote returns the index of the quote that closes the one at
// s[open], skipping backslash escapes, or -1 when the line has none. When
// it finds none, no later quote of the same kind has one either: a later
// one was skipped here as an escaped byte, and the scan from it continues
// in step with this one.
func closingQuote(s string, open int) int {
	q := s[open]
	for j := open + 1; j < len(s); j++ {
		switch s[j] {
		case '\\':
			j++
		case q:
			return j
		}
	}
	return -1
}

// scan finds the annotations in the comment text c, on line n.
func (l *lexer) scan(c string, n int) {
	for {
		at := strings.IndexByte(c, '@')
		if at < 0 {
			return
		}
		before := byte(' ')
		if at > 0 {
			before = c[at-1]
		}
		c = c[at+1:]
		if isWordByte(before) || strings.IndexByte(".-@\"'`", before) >= 0 {
			continue // an e-mail address, or an example quoted in prose
		}
		for _, tag := range tags {
			rest, ok := strings.CutPrefix(c, tag)
			if !ok || (rest != "" && rest[0] != ' ' && rest[0] != '\t' && rest[0] != ':') {
				continue
			}
			rest = strings.TrimPrefix(rest, ":")
			c = l.ids(tag, rest, n)
			break
		}
	}
}

// ids reads the ids after an annotation tag and returns the text after
// them.
func (l *lexer) ids(kind, s string, n int) string {
	first, comma := true, false
	for {
		t := strings.TrimLeft(s, " \t")
		spaced := len(t) < len(s)
		id, rest := cutID(t)
		if id == "" || (!first && !comma && !spaced) || (!first && !comma && !upperPrefix(id)) {
			return s
		}
		l.out = append(l.out, Annotation{Kind: kind, ID: id, Line: n})
		first = false
		s = rest
		t = strings.TrimLeft(s, " \t")
		comma = strings.HasPrefix(t, ",")
		if comma {
			s = t[1:]
		}
	}
}

// cutID splits an id off the front of s, or returns "" and s.
func cutID(s string) (id, rest string) {
	i := 0
	if i >= len(s) || !isLetter(s[i]) {
		return "", s
	}
	for i < len(s) && (isLetter(s[i]) || isDigit(s[i]) || s[i] == '_') {
		i++
	}
	segments := 0
	for i+1 < len(s) && s[i] == '-' && isWordByte(s[i+1]) {
		i++
		for i < len(s) && isSegmentByte(s[i]) {
			i++
		}
		segments++
	}
	for s[i-1] == '.' { // a segment starts with a word byte, so this stops
		i--
	}
	if segments == 0 {
		return "", s
	}
	return s[:i], s[i:]
}

// upperPrefix reports whether id's first segment is upper case: SPEC-….
func upperPrefix(id string) bool {
	for i := 0; i < len(id) && id[i] != '-'; i++ {
		if c := id[i]; c >= 'a' && c <= 'z' {
			return false
		}
	}
	return true
}

func isLetter(c byte) bool      { return c >= 'a' && c <= 'z' || c >= 'A' && c <= 'Z' }
func isDigit(c byte) bool       { return c >= '0' && c <= '9' }
func isWordByte(c byte) bool    { return isLetter(c) || isDigit(c) || c == '_' }
func isSegmentByte(c byte) bool { return isWordByte(c) || c == '.' }
