package refgraph

import "strings"

// grammar is what the lexical scan of a family's files looks for.
type grammar struct {
	syn syntax
	// keywords are followed by the name they define, anywhere:
	// "def name", "class Name", "fn name", "#define NAME".
	keywords map[string]bool
	// topLevel are followed by the name they define outside braces only:
	// "const x" at the top of a JavaScript module, not in a function.
	topLevel map[string]bool
	// calls: "name(…) {" defines name (C, C++, Java, C#, JavaScript
	// methods), unless name is a control keyword.
	calls bool
	// assigns: "NAME =" at the start of a line defines NAME (Python).
	assigns bool
	// declarations: "type name(…);", "type name;", "type name = …;" and
	// "} name;" outside braces declare name (C, C++).
	declarations bool
}

func words(s string) map[string]bool {
	m := map[string]bool{}
	for _, w := range strings.Fields(s) {
		m[w] = true
	}
	return m
}

// grammars are the families other than Go, whose definitions are found by
// otherDefs. Their keywords give the units chunk.Split names: functions,
// methods, classes, types, interfaces, enums, modules, macros, top-level
// variables and constants.
var grammars = map[string]*grammar{
	"python": {syn: hashy, keywords: words("def class"), assigns: true},
	"js": {syn: cLike, keywords: words("function class interface enum namespace"),
		topLevel: words("const let var type"), calls: true},
	"c":      {syn: cLike, keywords: words("struct union enum class namespace define"), calls: true, declarations: true},
	"csharp": {syn: cLike, keywords: words("class interface enum record struct"), calls: true},
	"jvm": {syn: cLike, keywords: words("class interface enum record object trait fun def typealias"),
		topLevel: words("val var type"), calls: true},
	"rust":  {syn: cLike, keywords: words("fn struct enum trait type mod union macro_rules"), topLevel: words("const static")},
	"swift": {syn: cLike, keywords: words("func class struct enum protocol typealias"), topLevel: words("let var")},
}

// reserved are keywords and built-in types of the languages otherDefs
// reads: a declaration's words that are not its name ("unsigned char;").
var reserved = words(`auto break case char const continue default do double else enum
	extern float for goto if inline int long register restrict return short signed sizeof
	static struct switch typedef union unsigned void volatile while bool true false class
	namespace template typename public private protected virtual override final new
	delete this operator friend using nullptr abstract boolean byte extends implements
	import package super synchronized throws throw try catch finally instanceof
	interface native transient var val fun object def lazy function let yield await
	async export from typeof undefined null any number string symbol None True False
	and not lambda pass raise with global nonlocal del elif except impl mut pub crate
	self Self trait where mod loop match move ref dyn unsafe use func protocol
	extension guard inout usize isize u16 u32 u64 i16 i32 i64 f32 f64 str`)

// notDefined are the words before "(…) {" that open a block rather than
// define a function.
var notDefined = words(`if for while switch catch return sizeof foreach using lock
	fixed synchronized when elif with typeof new throw else do try function await
	yield case delete void in of instanceof defined alignof decltype static_assert
	assert match loop unsafe goto break continue`)

// notType are the words before "name(…);" that make it a call, not a
// declaration.
var notType = words("return else case goto throw new delete sizeof typeof await yield do in of")

// otherDefs calls add with the names a file of a family other than Go
// defines: the name after a definition keyword ("class Name", "fn name",
// "def name"; "const x" outside braces), a function or method whose
// parameter list is followed by its body ("int main(void) {"), and, in
// Python, "NAME =" at the start of a line. Comments and literals are
// skipped. Like goDefs, it reads tokens, in linear time; it finds nine in
// ten of the names chunk.Split gives these files' units (a test measures
// it), some forty to a hundred times faster than tree-sitter parses them.
func otherDefs(fam, src string, add func(string)) {
	g := grammars[fam]
	if g == nil {
		return
	}
	define := func(name string) {
		if !reserved[name] {
			add(name)
		}
	}
	depth := 0
	typed := false  // the previous token is a word or '*' or '&': "int *name(…);"
	closed := false // the previous token is a '}' outside braces: "} name;"
	for i, n := 0, len(src); i < n; {
		c := src[i]
		if !identByte[c] {
			switch c {
			case '{':
				depth++
			case '}':
				depth = max(depth-1, 0)
			}
			if c != ' ' && c != '\t' && c != '\r' && c != '\n' {
				typed = c == '*' || c == '&'
				closed = c == '}' && depth == 0
			}
			i = skipNonCode(src, i, g.syn)
			continue
		}
		j := i + 1
		for j < n && identByte[src[j]] {
			j++
		}
		word := src[i:j]
		wasTyped, wasClosed := typed, closed
		typed, closed = identStart[c] && !notType[word], false
		if !identStart[c] {
			i = j
			continue
		}
		switch {
		case g.keywords[word] || depth == 0 && g.topLevel[word]:
			if i > 0 && src[i-1] == '.' {
				break // a property: obj.type
			}
			if name, end := nameAfter(src, j); name != "" {
				define(name)
				j = end
			}
		case g.assigns && (i == 0 || src[i-1] == '\n') && assignment(src, j):
			define(word)
		case g.calls && !notDefined[word] && definesCall(src, j, g.declarations && wasTyped):
			define(word)
		case g.declarations && depth == 0 && (wasTyped || wasClosed) && declares(src, j):
			define(word)
		}
		i = j
	}
}

// nameAfter returns the name that follows a definition keyword ending at
// src[i] and where it ends: spaces, '*' ("function* gen"), '!'
// ("macro_rules! name") and one <…> ("fun <T> name") may come between, a
// second keyword ("enum class Name") is skipped, and of a dotted name
// ("fun Type.name") the last part is the name. It returns "" when no
// identifier follows ("define(x)", "type: 1").
func nameAfter(src string, i int) (string, int) {
	n := len(src)
	skip := func() {
		for i < n && (src[i] == ' ' || src[i] == '\t' || src[i] == '*' || src[i] == '!') {
			i++
		}
		if i < n && src[i] == '<' {
			if k := strings.IndexByte(src[i:min(n, i+200)], '>'); k > 0 {
				i += k + 1
			}
			for i < n && (src[i] == ' ' || src[i] == '\t') {
				i++
			}
		}
	}
	skip()
	name := ""
	for {
		if i >= n || !identStart[src[i]] {
			return name, i
		}
		j := i + 1
		for j < n && identByte[src[j]] {
			j++
		}
		name, i = src[i:j], j
		if i < n && src[i] == '<' { // a receiver type's arguments: "List<T>.second"
			if k := strings.IndexByte(src[i:min(n, i+200)], '>'); k > 0 && i+k+1 < n && src[i+k+1] == '.' {
				i += k + 1
			}
		}
		switch {
		case name == "class" || name == "struct":
			skip()
		case i < n && src[i] == '.':
			i++
		default:
			return name, i
		}
	}
}

// declares reports whether ";", "=" (not "=="), "[", "," or ") ("
// follows src[i] after spaces: the end of a declarator.
func declares(src string, i int) bool {
	for i < len(src) && (src[i] == ' ' || src[i] == '\t') {
		i++
	}
	if i >= len(src) {
		return false
	}
	switch src[i] {
	case ';', '[', ',':
		return true
	case '=':
		return i+1 >= len(src) || src[i+1] != '='
	case ')': // a function pointer: "void (*name)(int);"
		for i++; i < len(src) && (src[i] == ' ' || src[i] == '\t'); i++ {
		}
		return i < len(src) && src[i] == '('
	}
	return false
}

// assignment reports whether "=" (not "==") follows src[i] after spaces.
func assignment(src string, i int) bool {
	for i < len(src) && (src[i] == ' ' || src[i] == '\t') {
		i++
	}
	return i+1 < len(src) && src[i] == '=' && src[i+1] != '='
}

// definesCall reports whether the identifier ending at src[i] is followed
// by a parameter list and a body: "(", the matching ")" with no brace or
// semicolon inside, then, before "{", only words and the punctuation of
// return types, qualifiers and C++ initializer lists (": a(x), b(y)").
// With prototype, a ";" instead of the body will do. It looks at most
// 1 KiB ahead.
func definesCall(src string, i int, prototype bool) bool {
	end := min(len(src), i+1024)
	for i < end && (src[i] == ' ' || src[i] == '\t') {
		i++
	}
	if i >= end || src[i] != '(' {
		return false
	}
	depth := 0
	for ; i < end; i++ {
		switch src[i] {
		case '(':
			depth++
			continue
		case ')':
			depth--
			if depth > 0 {
				continue
			}
		case '{', '}', ';':
			return false
		default:
			continue
		}
		break
	}
	init := false // in a C++ initializer list, where parentheses may come
	for i++; i < end; i++ {
		switch c := src[i]; {
		case c == '{':
			return true
		case c == ';':
			return prototype
		case identByte[c], c == ' ', c == '\t', c == '\r', c == '\n',
			c == '<', c == '>', c == ',', c == '*', c == '&', c == '-', c == '.', c == '[', c == ']', c == '?':
		case c == ':':
			init = true
		case (c == '(' || c == ')') && (init || prototype): // "__attribute__((noreturn))"
		default:
			return false
		}
	}
	return false
}
