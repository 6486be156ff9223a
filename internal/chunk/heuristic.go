package chunk

import (
	"bytes"
	"strings"
)

// heuristicOutline finds units without a parser: by braces and keywords for
// the C family (C, C++, Java, C#, JavaScript, TypeScript, Rust, Go, Kotlin,
// Swift, Scala), by indentation for Python, by blank lines for everything
// else. It runs in time linear in len(src) for each level of nesting it
// looks into (at most maxNesting).
func heuristicOutline(lang string, src []byte) outline {
	if lang == "python" {
		return pythonOutline(src)
	}
	bl, ok := braceLangs[lang]
	if !ok {
		return textOutline(src)
	}
	s := &bscan{src: src, lang: bl, c: collector{src: src, li: newLineIndex(src)}}
	items := s.segment(0, len(src), "", false, 0)
	o := outline{units: s.c.collect(items, true)}
	o.doc = leadingDoc(&s.c, items, o.units, lang)
	return o
}

// maxNesting bounds how deep the front ends look into containers
// (namespace, class, nested class…).
const maxNesting = 6

// braceLang describes the lexical rules of a C-family language.
type braceLang struct {
	semicolons     bool   // a statement ends only at ";" or a closed block (C, C++, Java, C#, Rust)
	nestedComments bool   // /* /* */ */ nests (Rust, Swift, Kotlin, Scala)
	rustQuotes     bool   // ' is a lifetime unless it closes a character literal
	backticks      bool   // `...` is a string (JavaScript templates, Go raw strings)
	preproc        bool   // a line starting with # is a directive (C, C++, C#)
	tripleQuotes   bool   // """...""" text blocks
	regex          bool   // /.../ regular expression literals (JavaScript, TypeScript)
	annotations    bool   // @Name(...) before a declaration
	sep            string // between a container's symbol and a member's
	// typed languages declare functions as "type name(…)": a prototype
	// ending in ";" is a function.
	typed bool
}

var braceLangs = map[string]*braceLang{
	"c":          {semicolons: true, preproc: true, sep: "::", typed: true},
	"cpp":        {semicolons: true, preproc: true, sep: "::", typed: true},
	"java":       {semicolons: true, tripleQuotes: true, annotations: true, sep: ".", typed: true},
	"csharp":     {semicolons: true, preproc: true, sep: ".", typed: true},
	"rust":       {semicolons: true, nestedComments: true, rustQuotes: true, sep: "::"},
	"javascript": {backticks: true, regex: true, annotations: true, sep: "."},
	"jsx":        {backticks: true, regex: true, annotations: true, sep: "."},
	"typescript": {backticks: true, regex: true, annotations: true, sep: "."},
	"tsx":        {backticks: true, regex: true, annotations: true, sep: "."},
	"go":         {backticks: true, sep: "."},
	"kotlin":     {nestedComments: true, tripleQuotes: true, annotations: true, sep: "."},
	"swift":      {nestedComments: true, tripleQuotes: true, annotations: true, sep: "."},
	"scala":      {nestedComments: true, tripleQuotes: true, annotations: true, sep: "."},
}

// bscan scans a C-family source.
type bscan struct {
	src  []byte
	lang *braceLang
	c    collector
}

// stmt is one statement found by bscan.statement.
type stmt struct {
	start, end int
	firstParen int  // the first "(" at depth 0, or -1
	firstBrace int  // the first "{" at depth 0, or -1
	brace      span // the last {...} group at depth 0
	group      span // the last (...), [...] or {...} group at depth 0
	groupOpen  byte
}

func isIdentByte(c byte) bool {
	return c == '_' || c == '$' || c >= 'a' && c <= 'z' || c >= 'A' && c <= 'Z' || c >= '0' && c <= '9' || c >= 0x80
}

func isBlank(c byte) bool {
	return c == ' ' || c == '\t' || c == '\n' || c == '\r' || c == '\f' || c == '\v'
}

// commentEnd returns the end of the comment at i, or -1 if none starts there.
func (s *bscan) commentEnd(i, hi int) int {
	src := s.src
	if i+1 >= hi || src[i] != '/' {
		return -1
	}
	switch src[i+1] {
	case '/':
		e := bytes.IndexByte(src[i:hi], '\n')
		if e < 0 {
			return hi
		}
		return i + e
	case '*':
		depth := 1
		for j := i + 2; j+1 < hi; j++ {
			switch {
			case src[j] == '*' && src[j+1] == '/':
				depth--
				j++
				if depth == 0 || !s.lang.nestedComments {
					return j + 1
				}
			case s.lang.nestedComments && src[j] == '/' && src[j+1] == '*':
				depth++
				j++
			}
		}
		return hi
	}
	return -1
}

// stringEnd returns the end of the string or character literal at i, or -1
// if none starts there. prev is the last significant byte before i (for
// telling a regular expression from a division).
func (s *bscan) stringEnd(i, hi int, prev byte) int {
	src := s.src
	c := src[i]
	switch {
	case c == '"' && s.lang.tripleQuotes && i+2 < hi && src[i+1] == '"' && src[i+2] == '"':
		if e := bytes.Index(src[i+3:hi], []byte(`"""`)); e >= 0 {
			return i + 3 + e + 3
		}
		return hi
	case c == '"':
		return quoteEnd(src, i, hi, '"', !s.lang.semicolons || s.lang.rustQuotes)
	case c == '\'' && s.lang.rustQuotes:
		// 'a' '\n' '\u{1F600}' are characters; 'a alone is a lifetime.
		if i+2 < hi && src[i+1] == '\\' {
			if e := bytes.IndexByte(src[i+2:min(hi, i+12)], '\''); e >= 0 {
				return i + 2 + e + 1
			}
			return i + 1
		}
		for k := i + 2; k < min(hi, i+6); k++ {
			if src[k] == '\'' {
				if k == i+2 || src[i+1] >= 0x80 {
					return k + 1
				}
				break
			}
		}
		return i + 1
	case c == '\'':
		return quoteEnd(src, i, hi, '\'', false)
	case c == '`' && s.lang.backticks:
		return quoteEnd(src, i, hi, '`', true)
	case c == 'R' && s.lang.preproc && i+2 < hi && src[i+1] == '"' && (i == 0 || !isIdentByte(src[i-1])):
		// C++ raw string R"delim( ... )delim"
		p := bytes.IndexByte(src[i+2:min(hi, i+20)], '(')
		if p < 0 {
			return -1
		}
		delim := ")" + string(src[i+2:i+2+p]) + `"`
		if e := bytes.Index(src[i+2+p:hi], []byte(delim)); e >= 0 {
			return i + 2 + p + e + len(delim)
		}
		return hi
	case c == 'r' && s.lang.rustQuotes && i+1 < hi && (src[i+1] == '"' || src[i+1] == '#') && (i == 0 || !isIdentByte(src[i-1])):
		// Rust raw string r"..." r#"..."#
		k := i + 1
		for k < hi && src[k] == '#' {
			k++
		}
		if k >= hi || src[k] != '"' {
			return -1
		}
		delim := `"` + strings.Repeat("#", k-i-1)
		if e := bytes.Index(src[k+1:hi], []byte(delim)); e >= 0 {
			return k + 1 + e + len(delim)
		}
		return hi
	case c == '/' && s.lang.regex && strings.IndexByte("(,=:[!&|?{};+-*%<>~^", prev) >= 0:
		// A regular expression: up to an unescaped / outside [...] on this line.
		class := false
		for k := i + 1; k < hi; k++ {
			switch src[k] {
			case '\\':
				k++
			case '[':
				class = true
			case ']':
				class = false
			case '/':
				if !class {
					return k + 1
				}
			case '\n':
				return i + 1 // not a regular expression after all
			}
		}
		return i + 1
	}
	return -1
}

// quoteEnd returns the end of a string opened by q at i: the byte after the
// closing q (backslash escapes skipped), or the end of the line when the
// string may not span lines (a stray quote then costs one line), or hi.
func quoteEnd(src []byte, i, hi int, q byte, multiline bool) int {
	for k := i + 1; k < hi; k++ {
		switch src[k] {
		case '\\':
			k++
		case q:
			return k + 1
		case '\n':
			if !multiline {
				return k
			}
		}
	}
	return hi
}

// segment splits src[lo:hi] into items at nesting depth 0. prefix
// qualifies the symbols found (a container's symbol and separator). In a
// class-like body (member), functions are methods and statements that
// declare nothing (fields, initializers) are left out, so they belong to
// the neighbouring members.
func (s *bscan) segment(lo, hi int, prefix string, member bool, nesting int) []item {
	src := s.src
	var items []item
	for i := lo; i < hi; {
		c := src[i]
		if isBlank(c) || c == ';' || c == ',' {
			i++
			continue
		}
		if e := s.commentEnd(i, hi); e >= 0 {
			items = append(items, item{start: i, end: e, comment: true})
			i = e
			continue
		}
		if c == '#' && s.lang.preproc && isSpace(src[bytes.LastIndexByte(src[lo:i], '\n')+1+lo:i]) {
			e := directiveEnd(src, i, hi)
			items = append(items, s.directive(i, e, member))
			i = e
			continue
		}
		st := s.statement(i, hi)
		if st.end <= i {
			st.end = i + 1
		}
		if it, ok := s.classify(st, prefix, member, nesting); ok {
			items = append(items, it)
		}
		i = st.end
	}
	return items
}

// directiveEnd returns the end of the preprocessor line at i (with its
// backslash continuations), without the line end.
func directiveEnd(src []byte, i, hi int) int {
	for {
		e := bytes.IndexByte(src[i:hi], '\n')
		if e < 0 {
			return hi
		}
		e += i
		b := e
		if b > i && src[b-1] == '\r' {
			b--
		}
		if b > i && src[b-1] == '\\' {
			i = e + 1
			continue
		}
		return b
	}
}

// directive classifies a preprocessor line.
func (s *bscan) directive(i, e int, member bool) item {
	words := fields(s.src[i+1:e], 3)
	it := item{start: i, end: e}
	it.u.kind = KindBlock
	if len(words) == 0 {
		return it
	}
	switch words[0] {
	case "include", "import", "pragma", "using":
		it.preamble = true
	case "define":
		if len(words) > 1 {
			name := words[1]
			if p := strings.IndexByte(name, '('); p >= 0 {
				name = name[:p]
			}
			if (len(words) == 2 || words[2] == "1") && !strings.Contains(words[1], "(") {
				it.preamble = true // an include guard, or a flag
			}
			it.u.kind, it.u.symbol = KindMacro, name
		}
	default:
		// #if, #ifdef, #endif…: in the preamble while it lasts, else left
		// to the units around them.
		it.preamble = true
		it.u.kind = ""
	}
	return it
}

// fields returns up to n white-space separated words of b.
func fields(b []byte, n int) []string {
	var out []string
	for len(out) < n {
		for len(b) > 0 && isBlank(b[0]) {
			b = b[1:]
		}
		if len(b) == 0 {
			break
		}
		k := 0
		for k < len(b) && !isBlank(b[k]) {
			k++
		}
		out = append(out, string(b[:k]))
		b = b[k:]
	}
	return out
}

// statement scans the statement starting at i.
func (s *bscan) statement(i, hi int) stmt {
	src := s.src
	st := stmt{start: i, firstParen: -1, firstBrace: -1}
	depth := 0
	var prev byte // the last significant byte
	closed := false
	groupOpen := -1
	var groupChar byte
	for j := i; j < hi; {
		c := src[j]
		if e := s.commentEnd(j, hi); e >= 0 {
			j = e
			continue
		}
		if e := s.stringEnd(j, hi, prev); e > j {
			j = e
			prev = '"'
			continue
		}
		switch c {
		case '{', '(', '[':
			if depth == 0 {
				groupOpen, groupChar = j, c
				if c == '{' && st.firstBrace < 0 {
					st.firstBrace = j
				}
				if c == '(' && st.firstParen < 0 {
					st.firstParen = j
				}
			}
			depth++
		case '}', ')', ']':
			if depth > 0 {
				depth--
				if depth == 0 && groupOpen >= 0 {
					st.group, st.groupOpen = span{groupOpen, j + 1}, groupChar
					if groupChar == '{' {
						st.brace = span{groupOpen, j + 1}
						closed = true
					}
				}
			}
		case ';':
			if depth == 0 {
				st.end = j + 1
				return st
			}
		case '\n':
			if depth == 0 && s.endsAt(st.start, j, prev, closed) {
				st.end = j
				if j > st.start && src[j-1] == '\r' {
					st.end--
				}
				return st
			}
		}
		if !isBlank(c) {
			prev = c
		}
		j++
	}
	st.end = hi
	return st
}

// endsAt reports whether the statement that started at start ends at the
// line end at j (at depth 0). prev is its last significant byte; closed
// says whether a {...} block has closed in it.
func (s *bscan) endsAt(start, j int, prev byte, closed bool) bool {
	src := s.src
	// The next significant line.
	k := j + 1
	for k < len(src) && isBlank(src[k]) {
		k++
	}
	if k >= len(src) {
		return true
	}
	next := src[k:min(len(src), k+8)]
	cont := len(next) > 0 && strings.IndexByte(".,)]?:+-*/%&|^=<>", next[0]) >= 0 && !bytes.HasPrefix(next, []byte("//")) && !bytes.HasPrefix(next, []byte("/*"))
	if s.lang.preproc && next[0] == '#' {
		return true // a directive ends a statement at depth 0
	}
	if s.lang.semicolons && !closed && macroLine(src[start:j]) {
		return true // __BEGIN_DECLS and other macros used as statements
	}
	if closed && prev == '}' {
		for _, w := range []string{"else", "catch", "finally", "while"} {
			if bytes.HasPrefix(next, []byte(w)) && (len(next) == len(w) || !isIdentByte(next[len(w)])) {
				return false
			}
		}
		return !cont
	}
	if s.lang.semicolons {
		return false
	}
	// Decorators and annotations belong to the declaration after them.
	ls := bytes.LastIndexByte(src[start:j], '\n') + 1 + start
	line := bytes.TrimSpace(src[ls:j])
	if len(line) > 0 && line[0] == '@' && s.lang.annotations {
		return false
	}
	if strings.IndexByte(",([{=+-*/%&|^<>!?:.\\", prev) >= 0 {
		return false
	}
	if next[0] == '{' {
		return false
	}
	return !cont
}

// macroLine reports whether b is one upper-case identifier (a macro
// invoked on a line of its own), possibly with a parenthesised argument
// list: __BEGIN_DECLS, G_DEFINE_TYPE (Foo, foo, G_TYPE_OBJECT).
func macroLine(b []byte) bool {
	b = bytes.TrimSpace(b)
	if bytes.IndexByte(b, '\n') >= 0 {
		return false
	}
	i := 0
	for i < len(b) && (b[i] == '_' || b[i] >= 'A' && b[i] <= 'Z' || i > 0 && b[i] >= '0' && b[i] <= '9') {
		i++
	}
	if i < 2 {
		return false
	}
	rest := bytes.TrimSpace(b[i:])
	return len(rest) == 0 || rest[0] == '(' && rest[len(rest)-1] == ')'
}
