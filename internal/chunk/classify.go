package chunk

import (
	"bytes"
	"strings"
)

// A tok is one token of a declaration's head: an identifier, a string
// (as `"`) or one other byte.
type tok struct {
	s   string
	off int
}

// maxHeadTokens bounds the tokens read from a declaration's head.
const maxHeadTokens = 128

// headTokens tokenizes src[lo:hi], skipping comments and white space.
func (s *bscan) headTokens(lo, hi int) []tok {
	src := s.src
	var toks []tok
	var prev byte
	for i := lo; i < hi && len(toks) < maxHeadTokens; {
		c := src[i]
		if isBlank(c) {
			i++
			continue
		}
		if e := s.commentEnd(i, hi); e >= 0 {
			i = e
			continue
		}
		if isIdentByte(c) {
			j := i
			for j < hi && isIdentByte(src[j]) {
				j++
			}
			toks = append(toks, tok{string(src[i:j]), i})
			prev = 'a'
			i = j
			continue
		}
		if c == '"' || c == '\'' || c == '`' {
			if e := s.stringEnd(i, hi, prev); e > i {
				toks = append(toks, tok{`"`, i})
				prev = '"'
				i = e
				continue
			}
		}
		toks = append(toks, tok{string(c), i})
		prev = c
		i++
	}
	return toks
}

// modifiers are words that may come before a declaration's keyword.
var modifiers = map[string]bool{
	"export": true, "default": true, "public": true, "private": true, "protected": true,
	"internal": true, "final": true, "abstract": true, "async": true, "pub": true,
	"unsafe": true, "declare": true, "readonly": true, "override": true, "inline": true,
	"virtual": true, "sealed": true, "open": true, "data": true, "suspend": true,
	"partial": true, "constexpr": true, "explicit": true, "friend": true, "extern": true,
	"strictfp": true, "synchronized": true, "native": true, "transient": true, "volatile": true,
	"lateinit": true, "inner": true, "companion": true, "fileprivate": true, "mutating": true,
	"nonmutating": true, "dynamic": true, "required": true, "convenience": true, "lazy": true,
	"implicit": true, "unique": true, "case": true,
}

// keywords are the words classify recognises.
var keywords = map[string]bool{
	"package": true, "import": true, "use": true, "using": true, "require": true, "extern": true,
	"mod": true, "namespace": true, "module": true, "class": true, "record": true, "object": true,
	"interface": true, "trait": true, "protocol": true, "enum": true, "struct": true, "union": true,
	"impl": true, "typedef": true, "type": true, "typealias": true, "fn": true, "func": true,
	"function": true, "def": true, "fun": true, "macro_rules": true, "const": true, "let": true,
	"var": true, "static": true, "val": true,
}

// notFunctions are words that look like a function name before "(" but are not.
var notFunctions = map[string]bool{
	"if": true, "for": true, "while": true, "switch": true, "catch": true, "return": true,
	"sizeof": true, "new": true, "delete": true, "throw": true, "else": true, "do": true,
	"case": true, "typeof": true, "await": true, "yield": true, "super": true, "this": true,
	"foreach": true, "using": true, "lock": true, "defined": true, "alignof": true, "decltype": true,
	"static_assert": true, "when": true, "match": true, "loop": true, "try": true, "with": true,
}

// skipAttributes returns where the declaration starting at i begins once
// its annotations (@Name(...)), Rust attributes (#[...]) and C# attributes
// ([...]) are skipped.
func (s *bscan) skipAttributes(i, hi int) int {
	src := s.src
	for i < hi {
		c := src[i]
		switch {
		case isBlank(c):
			i++
			continue
		case s.commentEnd(i, hi) >= 0:
			i = s.commentEnd(i, hi)
			continue
		case c == '@' && s.lang.annotations && i+1 < hi && isIdentByte(src[i+1]) && !bytes.HasPrefix(src[i+1:], []byte("interface")):
			j := i + 1
			for j < hi && (isIdentByte(src[j]) || src[j] == '.') {
				j++
			}
			k := j
			for k < hi && (src[k] == ' ' || src[k] == '\t') {
				k++
			}
			if k < hi && src[k] == '(' {
				j = s.groupEnd(k, hi)
			}
			i = j
			continue
		case c == '#' && s.lang.rustQuotes && i+1 < hi && (src[i+1] == '[' || src[i+1] == '!'):
			k := i + 1
			if src[k] == '!' {
				k++
			}
			if k < hi && src[k] == '[' {
				i = s.groupEnd(k, hi)
				continue
			}
		case c == '[' && s.lang.preproc && s.lang.semicolons && s.lang.sep == ".": // C#
			i = s.groupEnd(i, hi)
			continue
		}
		return i
	}
	return i
}

// groupEnd returns the end of the bracket group opened at i (or hi).
func (s *bscan) groupEnd(i, hi int) int {
	depth := 0
	var prev byte
	for j := i; j < hi; {
		if e := s.commentEnd(j, hi); e >= 0 {
			j = e
			continue
		}
		if e := s.stringEnd(j, hi, prev); e > j {
			j = e
			continue
		}
		switch s.src[j] {
		case '(', '[', '{':
			depth++
		case ')', ']', '}':
			depth--
			if depth == 0 {
				return j + 1
			}
		}
		if !isBlank(s.src[j]) {
			prev = s.src[j]
		}
		j++
	}
	return hi
}

// classify makes an item of a statement; ok is false for a statement inside
// a container that declares nothing worth a unit of its own.
func (s *bscan) classify(st stmt, prefix string, member bool, nesting int) (it item, ok bool) {
	src := s.src
	it = item{start: st.start, end: st.end}
	u := &it.u
	headEnd := st.end
	if st.firstBrace >= 0 {
		headEnd = st.firstBrace
	}
	d := s.skipAttributes(st.start, headEnd)
	if d >= headEnd && st.firstBrace < 0 {
		u.kind = KindBlock
		return it, !member
	}
	toks := s.headTokens(d, headEnd)
	ki := 0
	for ki < len(toks) {
		t := toks[ki].s
		switch {
		case modifiers[t] && !(t == "extern" && ki+1 < len(toks) && toks[ki+1].s == `"` && st.firstBrace >= 0):
			ki++
			if t == "pub" && ki < len(toks) && toks[ki].s == "(" {
				for ki < len(toks) && toks[ki].s != ")" {
					ki++
				}
				ki++
			}
			continue
		case s.lang.typed && (t == "static" || t == "const" || t == "register" || t == "thread_local" || t == "mutable"):
			ki++
			continue
		case t == "template" && ki+1 < len(toks) && toks[ki+1].s == "<":
			ki = skipAngles(toks, ki+1)
			continue
		}
		break
	}
	next := func(k int) string { // the identifier after token k
		for k++; k < len(toks); k++ {
			if t := toks[k].s; isIdentByte(t[0]) {
				return t
			}
			if t := toks[k].s; t == "{" || t == "(" || t == "=" || t == ":" || t == ";" {
				return ""
			}
		}
		return ""
	}
	body := span{-1, -1}
	if st.firstBrace >= 0 && st.brace.start == st.firstBrace {
		body = st.brace
	}
	container := func(kind, symbol string) (item, bool) {
		u.kind, u.symbol = kind, prefix+symbol
		if body.start >= 0 {
			u.sig = span{d, body.start}
			if nesting+1 < maxNesting {
				members := kind != KindModule
				inner := u.symbol
				if kind == KindImpl {
					// Members are named after the type: Money::fmt.
					inner = symbol
					if i := strings.LastIndex(inner, " for "); i >= 0 {
						inner = inner[i+len(" for "):]
					}
					if i := strings.IndexByte(inner, '<'); i > 0 {
						inner = inner[:i]
					}
					inner = prefix + inner
				}
				u.members = s.c.collect(s.segment(body.start+1, body.end-1, inner+s.lang.sep, members, nesting+1), false)
			}
		}
		return it, true
	}
	function := func(symbol string) (item, bool) {
		u.kind, u.symbol = KindFunction, prefix+symbol
		if member {
			u.kind = KindMethod
		}
		if st.brace.start > d {
			u.sig = span{d, st.brace.start}
			u.elide = bodyElision(src, st.brace.start, st.brace.end)
		}
		return it, true
	}
	if ki >= len(toks) {
		u.kind = KindBlock
		return it, !member
	}
	w := toks[ki].s
	if ki+1 < len(toks) && keywords[w] {
		// A keyword used as a name: module.exports, type = 1, class.x.
		switch toks[ki+1].s {
		case ".", "=", ")", ",", ";", "[":
			w = ""
		case "(":
			switch w {
			case "func", "function", "import", "const", "var", "type", "let":
			default:
				w = ""
			}
		case ":":
			if w != "impl" && w != "def" {
				w = ""
			}
		}
	}
	if w == `"` && (ki+1 == len(toks) || ki+2 == len(toks) && toks[ki+1].s == ";") && !member && st.firstBrace < 0 {
		it.preamble = true // a directive: "use strict"
		u.kind = KindBlock
		return it, true
	}
	switch w {
	case "package", "import", "use", "using", "require":
		if member {
			return it, false
		}
		if w == "using" && s.lang.typed && next(ki) != "namespace" && strings.Contains(string(src[toks[ki].off:st.end]), "=") {
			break // a type alias
		}
		if w == "use" && s.lang.sep != "::" {
			break
		}
		it.preamble = true
		u.kind = KindBlock
		return it, true
	case "extern":
		if next(ki) == "crate" {
			it.preamble = true
			u.kind = KindBlock
			return it, !member
		}
		if body.start >= 0 {
			return container(KindModule, `extern "C"`)
		}
	case "mod", "namespace", "module":
		if body.start < 0 {
			it.preamble = !member
			u.kind = KindBlock
			return it, !member
		}
		return container(KindModule, next(ki))
	case "class", "record", "object", "interface", "trait", "protocol", "enum", "struct", "union":
		kind := map[string]string{"class": KindClass, "record": KindClass, "object": KindClass, "interface": KindInterface,
			"trait": KindInterface, "protocol": KindInterface, "enum": KindEnum, "struct": KindType, "union": KindType}[w]
		k := ki
		if w == "enum" && k+1 < len(toks) && (toks[k+1].s == "class" || toks[k+1].s == "struct") {
			k++
		}
		name := next(k)
		if s.lang.typed && (w == "struct" || w == "union" || w == "enum") {
			// "struct buf *buf_new(void) {...}" is a function and
			// "struct buf b = {...};" a variable: a type has its body, a
			// base list or nothing after its name.
			after := k + 1
			if name != "" {
				for after < len(toks) && toks[after].s != name {
					after++
				}
				after++
			}
			if after < len(toks) && toks[after].s != ":" && toks[after].s != "final" && toks[after].s != ";" {
				break
			}
		}
		if w == "struct" && (s.lang.sep == "." || strings.Contains(string(src[d:headEnd]), "class")) {
			kind = KindClass
		}
		return container(kind, name)
	case "impl":
		u.kind = KindImpl
		h := collapseSpace(src[toks[ki].off+len("impl") : headEnd])
		if strings.HasPrefix(h, "<") {
			h = strings.TrimSpace(h[angleEnd(h):])
		}
		if i := strings.Index(h, " where "); i >= 0 {
			h = h[:i]
		}
		return container(KindImpl, h)
	case "typedef", "type", "typealias":
		if w == "type" && member {
			return it, false
		}
		u.kind, u.symbol = KindType, prefix+next(ki)
		if w == "type" && ki+2 < len(toks) && toks[ki+2].s == "interface" {
			u.kind = KindInterface // Go
		}
		if w == "type" && ki+1 < len(toks) && toks[ki+1].s == "(" {
			u.symbol = "" // a Go group
		}
		if w == "typedef" {
			u.symbol = prefix + lastIdent(toks, len(toks))
			if st.brace.end > 0 {
				t := s.headTokens(st.brace.end, st.end)
				u.symbol = prefix + lastIdent(t, len(t))
			}
		}
		return it, !member
	case "fn":
		return function(next(ki))
	case "func":
		if ki+1 < len(toks) && toks[ki+1].s == "(" { // a Go method
			close := ki + 1
			for close < len(toks) && toks[close].s != ")" {
				close++
			}
			// (t *T[K]) → (*T); (t T) → T; (T) → T.
			var idents []string
			recv := ""
			for k := ki + 2; k < close; k++ {
				switch t := toks[k].s; {
				case t == "[":
					k = close // type parameters
				case t == "*" && k+1 < close:
					recv = "(*" + toks[k+1].s + ")"
					k = close
				case isIdentByte(t[0]):
					idents = append(idents, t)
				}
			}
			if recv == "" && len(idents) > 0 {
				recv = idents[min(1, len(idents)-1)]
			}
			sym := recv + "." + next(close)
			fn, ok := function(sym)
			fn.u.kind = KindMethod
			return fn, ok
		}
		return function(next(ki))
	case "function", "def", "fun":
		k := ki
		if k+1 < len(toks) && toks[k+1].s == "*" {
			k++
		}
		name := next(k)
		if w == "fun" && st.firstParen >= 0 { // fun <T> String.ext(
			name = identBefore(src, d, st.firstParen)
		}
		return function(name)
	case "macro_rules":
		u.kind, u.symbol = KindMacro, prefix+next(ki)
		return it, !member
	case "const", "let", "var", "static", "val":
		// const fn, const unsafe fn, static func, static async foo() {…}
		k := ki + 1
		for k < len(toks) && (toks[k].s == "async" || toks[k].s == "unsafe") {
			k++
		}
		if k < len(toks) {
			switch t := toks[k].s; {
			case t == "fn" || t == "func" || t == "function" || t == "fun" || t == "def":
				return function(next(k))
			case member && isIdentByte(t[0]) && k+1 < len(toks) && toks[k+1].s == "(":
				return function(t)
			}
		}
		name := next(ki)
		if w == "let" && name == "mut" {
			name = next(ki + 1)
		}
		head := src[d:st.end]
		if eq := bytes.IndexByte(head, '='); eq >= 0 {
			rest := head[eq:]
			if bytes.HasPrefix(rest, []byte("=>")) || bytes.Contains(rest[:min(len(rest), 200)], []byte("=>")) || bytes.HasPrefix(bytes.TrimSpace(rest[1:]), []byte("function")) || bytes.HasPrefix(bytes.TrimSpace(rest[1:]), []byte("async")) {
				if st.brace.start > d || !member {
					return function(name)
				}
			}
		}
		if member {
			return it, false
		}
		u.kind, u.symbol = KindVariable, name
		if w == "const" && (s.lang.sep == "::" || !s.lang.regex) {
			u.kind = KindConstant
		}
		if st.group.start > d && (st.groupOpen == '{' || st.groupOpen == '[') && multiline(src, st.group.start, st.group.end) {
			if el, ok := groupElision(src, st.group.start, st.group.end, false); ok {
				u.elide = []elision{el}
			}
		}
		return it, true
	}
	// JavaScript class fields holding functions: handle = (e) => {...}
	if s.lang.regex && ki+1 < len(toks) && toks[ki+1].s == "=" && w != "" && isIdentByte(w[0]) && bytes.Contains(src[toks[ki+1].off:min(st.end, toks[ki+1].off+200)], []byte("=>")) {
		return function(w)
	}
	// A C-style function: "type name(params) {" or, in typed languages, a
	// prototype "type name(params);".
	if p := st.firstParen; p >= d && p < headEnd {
		name := identBefore(src, d, p)
		eqBefore := false
		for _, t := range toks {
			if t.off >= p {
				break
			}
			if t.s == "=" && !strings.Contains(name, "operator") {
				eqBefore = true
			}
		}
		words := 0
		for _, t := range toks {
			if t.off >= p {
				break
			}
			if isIdentByte(t.s[0]) || t.s == "*" || t.s == "&" {
				words++
			}
		}
		if name != "" && !notFunctions[lastSegment(name)] && !eqBefore {
			if st.firstBrace > p {
				return function(name)
			}
			if s.lang.typed && words >= 2 && st.end > 0 && src[st.end-1] == ';' {
				u.kind, u.symbol = KindFunction, prefix+name
				if member {
					u.kind = KindMethod
				}
				return it, true
			}
		}
	}
	if member {
		return it, false
	}
	u.kind = KindBlock
	if s.lang.typed && st.end > 0 && src[st.end-1] == ';' && st.firstParen < 0 {
		u.kind, u.symbol = KindVariable, lastIdentBefore(toks, "=")
	}
	return it, true
}

// closer returns the bracket that closes open.
func closer(open byte) byte {
	switch open {
	case '{':
		return '}'
	case '[':
		return ']'
	}
	return ')'
}

// skipAngles returns the index after the <...> group starting at toks[k].
func skipAngles(toks []tok, k int) int {
	depth := 0
	for ; k < len(toks); k++ {
		switch toks[k].s {
		case "<":
			depth++
		case ">":
			depth--
			if depth == 0 {
				return k + 1
			}
		}
	}
	return k
}

// angleEnd returns the index after the <...> group at the start of h.
func angleEnd(h string) int {
	depth := 0
	for i := 0; i < len(h); i++ {
		switch h[i] {
		case '<':
			depth++
		case '>':
			depth--
			if depth == 0 {
				return i + 1
			}
		}
	}
	return len(h)
}

// lastIdent returns the last identifier among toks[:k].
func lastIdent(toks []tok, k int) string {
	for k--; k >= 0; k-- {
		if isIdentByte(toks[k].s[0]) {
			return toks[k].s
		}
	}
	return ""
}

// lastIdentBefore returns the last identifier before the first token s
// (or among all tokens).
func lastIdentBefore(toks []tok, s string) string {
	k := 0
	for k < len(toks) && toks[k].s != s {
		k++
	}
	return lastIdent(toks, k)
}

// lastSegment returns the part of a qualified name after the last "::" or ".".
func lastSegment(name string) string {
	if i := strings.LastIndexAny(name, ":."); i >= 0 {
		return name[i+1:]
	}
	return name
}

// identBefore returns the (possibly qualified) name just before the "(" at
// p: "main", "geo::total_area", "Circle::~Circle", "operator==", "List<T>"
// without its type arguments.
func identBefore(src []byte, lo, p int) string {
	e := p
	for e > lo && isBlank(src[e-1]) {
		e--
	}
	if e > lo && src[e-1] == '>' { // generic arguments: name<T>(
		depth := 0
		for k := e - 1; k >= lo; k-- {
			if src[k] == '>' {
				depth++
			} else if src[k] == '<' {
				depth--
				if depth == 0 {
					e = k
					break
				}
			}
		}
	}
	s := e
	for s > lo {
		c := src[s-1]
		switch {
		case isIdentByte(c) || c == '~':
			s--
		case c == ':' && s-1 > lo && src[s-2] == ':':
			s -= 2
		case c == '.' && s-1 > lo && isIdentByte(src[s-2]):
			s--
		default:
			if bytes.HasSuffix(src[lo:s], []byte("operator")) || s < e && bytes.HasSuffix(src[lo:s], []byte("operator ")) {
				s -= len("operator")
				continue
			}
			goto done
		}
	}
done:
	name := string(bytes.TrimSpace(src[s:e]))
	if name == "" {
		// operator==, operator()...
		if k := bytes.LastIndex(src[lo:p], []byte("operator")); k >= 0 {
			return collapseSpace(src[lo+k : p])
		}
		return ""
	}
	if c := name[0]; c >= '0' && c <= '9' {
		return ""
	}
	return name
}

// leadingDoc returns the file's doc comment: the first run of comments at
// the top of the file (before any other item) that is not a licence and is
// not the doc comment of a declaration (Rust: the //! comments); else the
// doc comment of the file's only class, interface or type.
func leadingDoc(c *collector, items []item, units []unit, lang string) span {
	runStart, runEnd := -1, -1
	for i, it := range items {
		if !it.comment {
			if runStart >= 0 && (it.preamble || c.li.line(it.start)-c.li.endLine(runEnd) > 1) && !licence(c.src[runStart:runEnd]) {
				return span{runStart, runEnd}
			}
			break
		}
		if lang == "rust" {
			t := c.src[it.start:it.end]
			if !bytes.HasPrefix(t, []byte("//!")) && !bytes.HasPrefix(t, []byte("/*!")) {
				break
			}
		}
		if runStart >= 0 && c.li.line(it.start)-c.li.endLine(runEnd) > 1 {
			if !licence(c.src[runStart:runEnd]) {
				return span{runStart, runEnd}
			}
			runStart = -1
		}
		if runStart < 0 {
			runStart = it.start
		}
		runEnd = it.end
		if i == len(items)-1 && !licence(c.src[runStart:runEnd]) {
			return span{runStart, runEnd}
		}
	}
	switch lang {
	case "java", "csharp", "kotlin", "scala":
	default:
		return span{} // only these keep one class to a file
	}
	var only *unit
	for i := range units {
		switch units[i].kind {
		case KindClass, KindInterface, KindType, KindEnum:
			if only != nil {
				return span{}
			}
			only = &units[i]
		}
	}
	if only != nil && only.doc < only.decl {
		return span{only.doc, trimRightSpace(c.src, only.doc, only.decl)}
	}
	return span{}
}

// trimRightSpace returns e moved back over white space, not below s.
func trimRightSpace(src []byte, s, e int) int {
	for e > s && isBlank(src[e-1]) {
		e--
	}
	return e
}

// licence reports whether a comment reads like a licence or copyright header.
func licence(b []byte) bool {
	l := bytes.ToLower(b)
	return bytes.Contains(l, []byte("copyright")) || bytes.Contains(l, []byte("license")) || bytes.Contains(l, []byte("licence")) || bytes.Contains(l, []byte("spdx-"))
}
