//go:build cgo

package chunk

import (
	"bytes"
	"runtime"
	"strings"
	"sync"
	"time"
	"unsafe"

	ts "github.com/tree-sitter/go-tree-sitter"
	tsc "github.com/tree-sitter/tree-sitter-c/bindings/go"
	tscpp "github.com/tree-sitter/tree-sitter-cpp/bindings/go"
	tsjava "github.com/tree-sitter/tree-sitter-java/bindings/go"
	tsjs "github.com/tree-sitter/tree-sitter-javascript/bindings/go"
	tspy "github.com/tree-sitter/tree-sitter-python/bindings/go"
	tsrust "github.com/tree-sitter/tree-sitter-rust/bindings/go"
	tsts "github.com/tree-sitter/tree-sitter-typescript/bindings/go"
)

// A grammar is a tree-sitter language, loaded once, with its node kind and
// field names by id. After init it is read-only, so goroutines share it.
type grammar struct {
	load   func() unsafe.Pointer
	once   sync.Once
	lang   *ts.Language
	kinds  []string // node kind by kind id
	named  []bool   // whether a kind is named
	fields []string // field name by field id
}

func (g *grammar) init() {
	g.once.Do(func() {
		l := ts.NewLanguage(g.load())
		if l == nil {
			return
		}
		n := int(l.NodeKindCount())
		g.kinds = make([]string, n)
		g.named = make([]bool, n)
		for i := range n {
			g.kinds[i] = l.NodeKindForId(uint16(i))
			g.named[i] = l.NodeKindIsNamed(uint16(i))
		}
		g.fields = make([]string, int(l.FieldCount())+1)
		for i := 1; i < len(g.fields); i++ {
			g.fields[i] = l.FieldNameForId(uint16(i))
		}
		g.lang = l
	})
}

// kind returns the name of a named node kind, "ERROR" for an error node,
// and "" for an anonymous kind.
func (g *grammar) kind(id uint16) string {
	if id == 0xFFFF { // ts_builtin_sym_error
		return "ERROR"
	}
	if int(id) < len(g.kinds) && g.named[id] {
		return g.kinds[id]
	}
	return ""
}

// grammars is read-only after package initialisation; each grammar loads
// itself on first use.
var grammars = map[string]*grammar{
	"python":     {load: tspy.Language},
	"javascript": {load: tsjs.Language},
	"jsx":        {load: tsjs.Language},
	"typescript": {load: tsts.LanguageTypescript},
	"tsx":        {load: tsts.LanguageTSX},
	"java":       {load: tsjava.Language},
	"rust":       {load: tsrust.Language},
	"c":          {load: tsc.Language},
	"cpp":        {load: tscpp.Language},
}

func hasGrammar(lang string) bool { return grammars[lang] != nil }

// parseBudget is how many progress callbacks (one per about 100 parser
// operations) a parse of n bytes may take before it is cancelled. Real
// code needs one per 130 to 200 bytes (0.0196 per byte at worst, in
// Python's standard library, /usr/include and npm's JavaScript); the
// budget is six times that worst. Counting operations instead of
// measuring time gives the same result on every machine.
func parseBudget(n int) int { return 1000 + n/8 }

// parseTimeout bounds the CPU time a parse of n bytes may take: 250 ms
// and 8 µs a byte (0.125 MB/s; real code parses at 4 to 7 MB/s, and the
// slowest file measured took an eighth of its limit). Operations do not
// count the lexer's work, and some inputs (long runs of characters that
// are errors) make tree-sitter's error recovery quadratic; this is the
// backstop for them, and the only thing that can make Split depend on
// the machine's speed. It is the parsing thread's CPU time where the
// platform gives it (parseClock), not the wall clock: on a loaded machine
// a parse waits for a core, and a wall-clock limit cut pytest's
// compat.py (13 KB) short while tests ran beside the index, so the same
// file chunked two ways.
func parseTimeout(n int) time.Duration {
	return 250*time.Millisecond + time.Duration(n)*8*time.Microsecond
}

// parseClock returns a clock for one parse: the time the calling thread
// has spent on the CPU since the call, or, where that is not measured, the
// wall time since the call. The caller must stay on its OS thread
// (runtime.LockOSThread) while it reads the clock.
func parseClock() func() time.Duration {
	if start, ok := threadCPU(); ok {
		return func() time.Duration {
			now, _ := threadCPU()
			return now - start
		}
	}
	start := time.Now()
	return func() time.Duration { return time.Since(start) }
}

// maxParseBytes is the largest input given to tree-sitter (the index skips
// files over 1 MiB by default anyway); larger ones go to the heuristics,
// so no parse runs longer than about 8.6 s.
const maxParseBytes = 1 << 20

// treeSitterOutline parses src with tree-sitter. ok is false when the
// grammar cannot be loaded or the parse runs over its budget.
func treeSitterOutline(lang string, src []byte) (o outline, ok bool) {
	g := grammars[lang]
	if g == nil || len(src) > maxParseBytes {
		return outline{}, false
	}
	g.init()
	if g.lang == nil {
		return outline{}, false
	}
	// Parsers are not safe for concurrent use; one costs microseconds to
	// make, so each call has its own.
	p := ts.NewParser()
	defer p.Close()
	if err := p.SetLanguage(g.lang); err != nil {
		return outline{}, false
	}
	calls, budget := 0, parseBudget(len(src))
	// The progress callback runs on the thread that calls the parser; the
	// clock measures that thread.
	runtime.LockOSThread()
	defer runtime.UnlockOSThread()
	elapsed, limit := parseClock(), parseTimeout(len(src))
	tree := p.ParseWithOptions(func(i int, _ ts.Point) []byte {
		if i < len(src) {
			return src[i:]
		}
		return nil
	}, nil, &ts.ParseOptions{ProgressCallback: func(ts.ParseState) bool {
		calls++
		// The clock is a system call (0.7 µs); a backstop need not read it
		// at every callback.
		return calls > budget || calls%16 == 0 && elapsed() > limit
	}})
	if tree == nil {
		return outline{}, false
	}
	defer tree.Close()
	root := tree.RootNode()
	cur := root.Walk()
	defer cur.Close()
	w := &walker{src: src, g: g, cur: cur, lang: lang, c: collector{src: src, li: newLineIndex(src)}}
	if g.kind(root.KindId()) == "ERROR" {
		return outline{}, false // nothing understood: the heuristics do better
	}
	top := w.children(root)
	errBytes := 0
	for _, n := range top {
		if n.kind == "ERROR" {
			errBytes += n.end - n.start
		}
	}
	if errBytes > len(src)/2 {
		// Mostly not understood (C's "#ifdef __cplusplus extern "C" {
		// #endif", or another language): the heuristics do better.
		return outline{}, false
	}
	items := w.itemsIn(top, context{})
	o.units = w.c.collect(items, true)
	if lang == "python" {
		for _, it := range items {
			if !it.comment {
				if it.preamble && pyString(src[it.start:it.end]) {
					o.doc = span{it.start, it.end}
				}
				break
			}
		}
	} else {
		o.doc = leadingDoc(&w.c, items, o.units, lang)
	}
	return o, true
}

// walker reads a tree through one cursor, a level at a time.
type walker struct {
	src  []byte
	g    *grammar
	cur  *ts.TreeCursor
	lang string
	c    collector
}

// A tnode is a named node with what the front end needs of it.
type tnode struct {
	n          ts.Node
	kind       string
	field      string
	start, end int
}

// children returns the named children of n.
func (w *walker) children(n *ts.Node) []tnode {
	w.cur.Reset(*n)
	if !w.cur.GotoFirstChild() {
		return nil
	}
	var out []tnode
	for {
		nd := w.cur.Node()
		if kind := w.g.kind(nd.KindId()); kind != "" {
			s, e := int(nd.StartByte()), int(nd.EndByte())
			f := int(w.cur.FieldId())
			var field string
			if f < len(w.g.fields) {
				field = w.g.fields[f]
			}
			if s >= 0 && e <= len(w.src) && s <= e {
				out = append(out, tnode{n: *nd, kind: kind, field: field, start: s, end: e})
			}
		}
		if !w.cur.GotoNextSibling() {
			break
		}
	}
	return out
}

// field returns the first child with the field name f.
func field(ch []tnode, f string) *tnode {
	for i := range ch {
		if ch[i].field == f {
			return &ch[i]
		}
	}
	return nil
}

// kindOf returns the first child of one of the kinds.
func kindOf(ch []tnode, kinds ...string) *tnode {
	for i := range ch {
		for _, k := range kinds {
			if ch[i].kind == k {
				return &ch[i]
			}
		}
	}
	return nil
}

func (w *walker) text(n *tnode) string {
	if n == nil {
		return ""
	}
	return string(w.src[n.start:n.end])
}

// A context says where a list of siblings is.
type context struct {
	prefix string // the container's symbol and separator, "" at the top level
	// member is true in a class, interface, impl or trait body: functions
	// are methods there, and what declares nothing is left out.
	member  bool
	nesting int
}

// itemsIn makes items of a list of siblings.
func (w *walker) itemsIn(nodes []tnode, cx context) []item {
	var out []item
	for i := range nodes {
		n := &nodes[i]
		switch {
		case n.kind == "comment" || n.kind == "line_comment" || n.kind == "block_comment":
			out = append(out, item{start: n.start, end: n.end, comment: true})
			continue
		case n.kind == "ERROR" && cx.nesting < maxNesting:
			cx2 := cx
			cx2.nesting++
			out = append(out, w.itemsIn(w.children(&n.n), cx2)...)
			continue
		case (w.lang == "c" || w.lang == "cpp") && strings.HasPrefix(n.kind, "preproc_") && (strings.HasPrefix(n.kind, "preproc_if") || strings.HasPrefix(n.kind, "preproc_el")) && cx.nesting < maxNesting:
			// #if blocks are transparent: their declarations are siblings.
			var inner []tnode
			for _, c := range w.children(&n.n) {
				if c.field != "name" && c.field != "condition" {
					inner = append(inner, c)
				}
			}
			cx2 := cx
			cx2.nesting++
			out = append(out, w.itemsIn(inner, cx2)...)
			continue
		}
		it := item{start: n.start, end: n.end}
		var ok bool
		switch w.lang {
		case "python":
			ok = w.python(n, &it, cx, countCode(out) == 0)
		case "javascript", "jsx", "typescript", "tsx":
			ok = w.js(n, &it, cx)
		case "java":
			ok = w.java(n, &it, cx)
		case "rust":
			ok = w.rust(n, &it, cx)
		case "c", "cpp":
			ok = w.cfamily(n, &it, cx)
		}
		if ok && it.end > it.start {
			if (w.lang == "c" || w.lang == "cpp") && len(out) > 0 {
				// After a declaration with no ";" (glibc's "f(int) __THROW
				// __nonnull ((1));" parses as two), what follows on the
				// same or the next line is the rest of it.
				prev := out[len(out)-1]
				switch prev.u.kind {
				case KindFunction, KindMethod, KindVariable, KindBlock:
					if !prev.comment && !prev.attribute && w.c.li.line(it.start)-w.c.li.endLine(prev.end) <= 1 &&
						w.src[prev.end-1] != ';' && w.src[prev.end-1] != '}' && it.u.kind != KindMacro && !it.preamble {
						it.cont = true
					}
				}
			}
			out = append(out, it)
		}
	}
	return out
}

// countCode counts the items that are neither comments nor attributes.
func countCode(items []item) int {
	n := 0
	for _, it := range items {
		if !it.comment && !it.attribute {
			n++
		}
	}
	return n
}

// block marks it as top-level code that declares nothing: kept at the top
// level, left out in a container body.
func block(it *item, cx context) bool {
	it.u.kind = KindBlock
	return !cx.member
}

// define fills in a unit.
func (w *walker) define(it *item, cx context, kind, name string) {
	it.u.kind = kind
	it.u.symbol = cx.prefix + name
	if cx.member && kind == KindFunction {
		it.u.kind = KindMethod
	}
}

// function fills in a function or method whose body (a {...} block) is
// elided by the detailed level.
func (w *walker) function(it *item, cx context, name string, sigStart int, body *tnode) bool {
	w.define(it, cx, KindFunction, name)
	if body != nil && body.start > sigStart {
		it.u.sig = span{sigStart, body.start}
		it.u.elide = bodyElision(w.src, body.start, body.end)
	}
	return true
}

// container fills in a class, impl, namespace… whose members are the
// children of body, read with itemsIn.
func (w *walker) container(it *item, cx context, kind, name string, sigStart int, body *tnode, members bool, sep string) bool {
	w.define(it, cx, kind, name)
	if body == nil {
		return true
	}
	if body.start > sigStart {
		it.u.sig = span{sigStart, body.start}
	}
	if cx.nesting+1 < maxNesting {
		inner := context{prefix: it.u.symbol + sep, member: members, nesting: cx.nesting + 1}
		it.u.members = w.c.collect(w.itemsIn(w.children(&body.n), inner), false)
	}
	return true
}

// valueElision elides a multi-line collection literal or function body
// in the value of a variable, looking through a few wrapping nodes
// (calls, new expressions) along their last child.
func (w *walker) valueElision(it *item, v *tnode) {
	for depth := 0; v != nil && depth < 4; depth++ {
		if !multiline(w.src, v.start, v.end) {
			return
		}
		switch v.kind {
		case "dictionary", "list", "set", "tuple", "object", "array", "array_expression", "initializer_list",
			"array_initializer", "list_comprehension", "dictionary_comprehension", "set_comprehension", "arguments",
			"argument_list", "field_initializer_list", "tuple_expression", "struct_expression", "field_declaration_list", "object_type":
			open, close := w.src[v.start], w.src[v.end-1]
			if strings.IndexByte("{[(", open) >= 0 && close == closer(open) {
				if el, ok := groupElision(w.src, v.start, v.end, w.lang == "python"); ok {
					it.u.elide = []elision{el}
				}
				return
			}
			if v.kind == "struct_expression" {
				ch := w.children(&v.n)
				v = field(ch, "body")
				continue
			}
			return
		case "arrow_function", "function_expression", "function", "generator_function", "closure_expression", "lambda_expression":
			if b := field(w.children(&v.n), "body"); b != nil && b.kind != "expression" && strings.HasPrefix(w.text(b), "{") {
				it.u.elide = bodyElision(w.src, b.start, b.end)
			}
			return
		}
		ch := w.children(&v.n)
		if len(ch) == 0 {
			return
		}
		v = &ch[len(ch)-1]
	}
}

// python classifies one Python statement. first says whether no code came
// before it (a string then is the module docstring).
func (w *walker) python(n *tnode, it *item, cx context, first bool) bool {
	switch n.kind {
	case "decorated_definition":
		ch := w.children(&n.n)
		def := field(ch, "definition")
		if def == nil {
			return block(it, cx)
		}
		sub := item{start: def.start, end: def.end}
		if !w.python(def, &sub, cx, false) {
			return false
		}
		it.u = sub.u
		return true
	case "function_definition":
		ch := w.children(&n.n)
		body := field(ch, "body")
		w.define(it, cx, KindFunction, w.text(field(ch, "name")))
		if body == nil {
			return true
		}
		// The header ends at the ":" before the body (or before a comment
		// between the two).
		hdrEnd := body.start
		for _, c := range ch {
			if c.kind == "comment" && c.start < hdrEnd {
				hdrEnd = c.start
			}
		}
		hdrEnd = trimRightSpace(w.src, n.start, hdrEnd)
		it.u.sig = span{n.start, hdrEnd}
		it.u.elide = w.pyBodyElision(hdrEnd, body)
		return true
	case "class_definition":
		ch := w.children(&n.n)
		body := field(ch, "body")
		w.define(it, cx, KindClass, w.text(field(ch, "name")))
		if body == nil {
			return true
		}
		it.u.sig = span{n.start, trimRightSpace(w.src, n.start, body.start)}
		if cx.nesting+1 < maxNesting {
			inner := context{prefix: it.u.symbol + ".", member: true, nesting: cx.nesting + 1}
			it.u.members = w.c.collect(w.itemsIn(w.children(&body.n), inner), false)
		}
		return true
	}
	if cx.member {
		return false
	}
	switch n.kind {
	case "import_statement", "import_from_statement", "future_import_statement":
		it.preamble = true
		return block(it, cx)
	case "expression_statement":
		ch := w.children(&n.n)
		if len(ch) == 1 && ch[0].kind == "string" && first {
			it.preamble = true
			return block(it, cx)
		}
		if a := kindOf(ch, "assignment"); a != nil {
			ach := w.children(&a.n)
			w.define(it, cx, KindVariable, w.text(field(ach, "left")))
			w.valueElision(it, field(ach, "right"))
			return true
		}
	}
	return block(it, cx)
}

// pyBodyElision elides a def's body, keeping its docstring: "# … N
// lines elided", indented like the body. A body on the header's line stays.
func (w *walker) pyBodyElision(hdrEnd int, body *tnode) []elision {
	if !multiline(w.src, hdrEnd, body.end) {
		return nil
	}
	ls := bytes.LastIndexByte(w.src[:body.start], '\n') + 1
	ind := w.src[ls:body.start]
	if !isSpace(ind) || ls <= hdrEnd {
		ind = []byte("    ")
	}
	from := hdrEnd
	stmts := w.children(&body.n)
	if len(stmts) > 0 && stmts[0].kind == "expression_statement" {
		if sc := w.children(&stmts[0].n); len(sc) == 1 && sc[0].kind == "string" {
			from = stmts[0].end
			if len(stmts) == 1 {
				return nil // only a docstring
			}
		}
	}
	if body.end-from < 2 {
		return nil
	}
	return pyBodyElision(w.src, from, body.end, string(ind))
}

// js classifies one JavaScript or TypeScript statement or class member.
func (w *walker) js(n *tnode, it *item, cx context) bool {
	ch := w.children(&n.n)
	switch n.kind {
	case "export_statement":
		if d := field(ch, "declaration"); d != nil {
			sub := item{start: d.start, end: d.end}
			if !w.js(d, &sub, cx) {
				return block(it, cx)
			}
			it.u, it.preamble = sub.u, false
			if it.u.sig.empty() {
				it.u.sig = span{n.start, n.start + lineLen(w.src[n.start:n.end])}
			} else {
				it.u.sig.start = n.start
			}
			return true
		}
		if v := field(ch, "value"); v != nil {
			switch v.kind {
			case "function_expression", "function", "generator_function", "class", "arrow_function":
				sub := item{start: v.start, end: v.end}
				if w.js(v, &sub, cx) {
					it.u = sub.u
					if it.u.symbol == cx.prefix {
						it.u.symbol = cx.prefix + "default"
					}
					if !it.u.sig.empty() {
						it.u.sig.start = n.start
					}
					return true
				}
			}
		}
		if field(ch, "source") != nil {
			it.preamble = true // export … from "…"
		}
		return block(it, cx)
	case "function_declaration", "generator_function_declaration", "function_signature", "function_expression", "function", "generator_function":
		if cx.member {
			return false
		}
		return w.function(it, cx, w.text(field(ch, "name")), n.start, field(ch, "body"))
	case "class_declaration", "abstract_class_declaration", "class":
		if cx.member {
			return false
		}
		return w.container(it, cx, KindClass, w.text(field(ch, "name")), n.start, field(ch, "body"), true, ".")
	case "method_definition", "method_signature", "abstract_method_signature":
		if !cx.member {
			return block(it, cx)
		}
		return w.function(it, cx, w.text(field(ch, "name")), n.start, field(ch, "body"))
	case "public_field_definition", "field_definition":
		if v := field(ch, "value"); v != nil && (v.kind == "arrow_function" || v.kind == "function_expression" || v.kind == "function") {
			name := field(ch, "name")
			if name == nil {
				name = field(ch, "property")
			}
			w.function(it, cx, w.text(name), n.start, nil)
			w.valueElision(it, v)
			return true
		}
		return false
	}
	if cx.member {
		return false
	}
	switch n.kind {
	case "import_statement", "hash_bang_line":
		it.preamble = true
		return block(it, cx)
	case "interface_declaration":
		w.define(it, cx, KindInterface, w.text(field(ch, "name")))
		if b := field(ch, "body"); b != nil {
			it.u.sig = span{n.start, b.start}
		}
		return true
	case "type_alias_declaration":
		w.define(it, cx, KindType, w.text(field(ch, "name")))
		return true
	case "enum_declaration":
		w.define(it, cx, KindEnum, w.text(field(ch, "name")))
		if b := field(ch, "body"); b != nil {
			it.u.sig = span{n.start, b.start}
		}
		return true
	case "lexical_declaration", "variable_declaration":
		var names []string
		var decls []tnode
		for _, c := range ch {
			if c.kind == "variable_declarator" {
				decls = append(decls, c)
			}
		}
		for i := range decls {
			name := field(w.children(&decls[i].n), "name")
			if name != nil && name.kind != "identifier" {
				// A pattern: const { a, b } = … is named "a, b".
				names = append(names, strings.Trim(collapseSpace([]byte(strings.NewReplacer("{", " ", "}", " ", "[", " ", "]", " ").Replace(w.text(name)))), " ,"))
				continue
			}
			names = append(names, w.text(name))
		}
		if len(decls) == 1 {
			dch := w.children(&decls[0].n)
			v := field(dch, "value")
			if v != nil && (v.kind == "arrow_function" || v.kind == "function_expression" || v.kind == "function" || v.kind == "generator_function") {
				w.define(it, cx, KindFunction, names[0])
				if b := field(w.children(&v.n), "body"); b != nil && b.kind == "statement_block" {
					it.u.sig = span{n.start, b.start}
				}
				w.valueElision(it, v)
				return true
			}
			w.define(it, cx, KindVariable, joinNames(names))
			w.valueElision(it, v)
			return true
		}
		w.define(it, cx, KindVariable, joinNames(names))
		return true
	case "ambient_declaration":
		for i := range ch {
			sub := item{start: ch[i].start, end: ch[i].end}
			if w.js(&ch[i], &sub, cx) && sub.u.kind != KindBlock {
				it.u = sub.u
				it.u.sig.start = n.start
				return true
			}
		}
		return block(it, cx)
	case "expression_statement":
		if len(ch) == 1 {
			switch ch[0].kind {
			case "internal_module", "module":
				return w.js(&ch[0], it, cx)
			case "string":
				it.preamble = true // "use strict"
			}
		}
		return block(it, cx)
	case "internal_module", "module":
		return w.container(it, cx, KindModule, w.text(field(ch, "name")), n.start, field(ch, "body"), false, ".")
	}
	return block(it, cx)
}

// java classifies one Java declaration.
func (w *walker) java(n *tnode, it *item, cx context) bool {
	ch := w.children(&n.n)
	name := w.text(field(ch, "name"))
	switch n.kind {
	case "package_declaration", "import_declaration", "module_declaration":
		if cx.member {
			return false
		}
		it.preamble = true
		return block(it, cx)
	case "class_declaration", "record_declaration":
		return w.container(it, cx, KindClass, name, w.afterModifiers(n, ch), field(ch, "body"), true, ".")
	case "interface_declaration", "annotation_type_declaration":
		return w.container(it, cx, KindInterface, name, w.afterModifiers(n, ch), field(ch, "body"), true, ".")
	case "enum_declaration":
		body := field(ch, "body")
		w.container(it, cx, KindEnum, name, w.afterModifiers(n, ch), body, true, ".")
		if body != nil && cx.nesting+1 < maxNesting {
			// Members live in the enum body's declarations.
			if d := kindOf(w.children(&body.n), "enum_body_declarations"); d != nil {
				inner := context{prefix: it.u.symbol + ".", member: true, nesting: cx.nesting + 1}
				it.u.members = w.c.collect(w.itemsIn(w.children(&d.n), inner), false)
			}
		}
		return true
	case "method_declaration", "constructor_declaration", "compact_constructor_declaration":
		fcx := cx
		fcx.member = true
		return w.function(it, fcx, name, w.afterModifiers(n, ch), field(ch, "body"))
	}
	return block(it, cx)
}

// afterModifiers returns where a Java declaration starts once its
// annotations are passed: the signature starts there.
func (w *walker) afterModifiers(n *tnode, ch []tnode) int {
	if m := kindOf(ch, "modifiers"); m != nil && m.start == n.start {
		mch := w.children(&m.n)
		start := n.start
		for _, c := range mch {
			if c.kind == "marker_annotation" || c.kind == "annotation" {
				start = c.end
			}
		}
		for start < n.end && isBlank(w.src[start]) {
			start++
		}
		return start
	}
	return n.start
}

// rust classifies one Rust item.
func (w *walker) rust(n *tnode, it *item, cx context) bool {
	ch := w.children(&n.n)
	name := w.text(field(ch, "name"))
	body := field(ch, "body")
	switch n.kind {
	case "attribute_item":
		it.attribute = true
		return true
	case "inner_attribute_item", "use_declaration", "extern_crate_declaration":
		it.preamble = true
		return block(it, cx)
	case "function_item", "function_signature_item":
		return w.function(it, cx, name, n.start, body)
	case "impl_item":
		typ := field(ch, "type")
		sym := collapseSpace([]byte(w.text(typ)))
		if tr := field(ch, "trait"); tr != nil {
			sym = collapseSpace([]byte(w.text(tr))) + " for " + sym
		}
		w.define(it, cx, KindImpl, sym)
		if body == nil {
			return true
		}
		it.u.sig = span{n.start, body.start}
		// Members are named after the type: Money::new.
		if cx.nesting+1 < maxNesting {
			t := collapseSpace([]byte(w.text(typ)))
			if i := strings.IndexByte(t, '<'); i > 0 {
				t = t[:i]
			}
			inner := context{prefix: cx.prefix + t + "::", member: true, nesting: cx.nesting + 1}
			it.u.members = w.c.collect(w.itemsIn(w.children(&body.n), inner), false)
		}
		return true
	case "trait_item":
		return w.container(it, cx, KindInterface, name, n.start, body, true, "::")
	case "mod_item":
		if body == nil {
			it.preamble = !cx.member
			return block(it, cx)
		}
		return w.container(it, cx, KindModule, name, n.start, body, false, "::")
	case "foreign_mod_item":
		return w.container(it, cx, KindModule, `extern "C"`, n.start, body, false, "::")
	case "struct_item", "union_item", "type_item":
		w.define(it, cx, KindType, name)
		if body != nil {
			it.u.sig = span{n.start, body.start}
		}
		return true
	case "enum_item":
		w.define(it, cx, KindEnum, name)
		if body != nil {
			it.u.sig = span{n.start, body.start}
		}
		return true
	case "macro_definition":
		w.define(it, cx, KindMacro, name)
		return true
	case "const_item", "static_item":
		kind := KindConstant
		if n.kind == "static_item" {
			kind = KindVariable
		}
		if cx.member {
			return false
		}
		w.define(it, cx, kind, name)
		w.valueElision(it, field(ch, "value"))
		return true
	}
	return block(it, cx)
}

// cfamily classifies one C or C++ declaration.
func (w *walker) cfamily(n *tnode, it *item, cx context) bool {
	ch := w.children(&n.n)
	switch n.kind {
	case "preproc_include", "preproc_call", "using_declaration", "alias_declaration", "namespace_alias_definition":
		if cx.member {
			return false
		}
		if n.kind == "alias_declaration" {
			w.define(it, cx, KindType, w.text(field(ch, "name")))
			return true
		}
		it.preamble = true
		return block(it, cx)
	case "preproc_def", "preproc_function_def":
		if cx.member {
			return false
		}
		w.define(it, cx, KindMacro, w.text(field(ch, "name")))
		if n.kind == "preproc_def" {
			// An include guard or a flag: "#define X" or "#define X 1".
			v := field(ch, "value")
			it.preamble = v == nil || strings.TrimSpace(w.text(v)) == "1"
		}
		return true
	case "function_definition":
		return w.function(it, cx, w.declName(field(ch, "declarator")), n.start, field(ch, "body"))
	case "template_declaration":
		for i := len(ch) - 1; i >= 0; i-- {
			if ch[i].field == "parameters" {
				continue
			}
			sub := item{start: ch[i].start, end: ch[i].end}
			if w.cfamily(&ch[i], &sub, cx) && sub.u.kind != KindBlock {
				it.u = sub.u
				if !it.u.sig.empty() {
					it.u.sig.start = n.start
				} else {
					it.u.sig = span{n.start, ch[i].start + lineLen(w.src[ch[i].start:ch[i].end])}
				}
				return true
			}
			break
		}
		return block(it, cx)
	case "class_specifier", "struct_specifier", "union_specifier", "enum_specifier":
		body := field(ch, "body")
		name := w.text(field(ch, "name"))
		if body == nil {
			return block(it, cx)
		}
		switch n.kind {
		case "enum_specifier":
			w.define(it, cx, KindEnum, name)
			it.u.sig = span{n.start, body.start}
			return true
		case "class_specifier":
			return w.container(it, cx, KindClass, name, n.start, body, true, "::")
		}
		if w.lang == "cpp" {
			return w.container(it, cx, KindType, name, n.start, body, true, "::")
		}
		w.define(it, cx, KindType, name)
		it.u.sig = span{n.start, body.start}
		return true
	case "type_definition":
		if cx.member {
			return false
		}
		var name string
		for i := range ch {
			if ch[i].field == "declarator" {
				name = w.declName(&ch[i])
			}
		}
		w.define(it, cx, KindType, name)
		return true
	case "namespace_definition":
		name := w.text(field(ch, "name"))
		return w.container(it, cx, KindModule, name, n.start, field(ch, "body"), false, "::")
	case "linkage_specification":
		body := field(ch, "body")
		if body != nil && body.kind == "declaration_list" {
			return w.container(it, cx, KindModule, `extern "C"`, n.start, body, false, "")
		}
		if body != nil {
			sub := item{start: body.start, end: body.end}
			if w.cfamily(body, &sub, cx) {
				it.u = sub.u
				it.u.sig.start = n.start
				return true
			}
		}
		return block(it, cx)
	case "declaration", "field_declaration":
		d := field(ch, "declarator")
		if d != nil && w.isFunctionDeclarator(d) {
			w.define(it, cx, KindFunction, w.declName(d))
			return true
		}
		if t := field(ch, "type"); t != nil && (t.kind == "class_specifier" || t.kind == "struct_specifier" || t.kind == "union_specifier" || t.kind == "enum_specifier") {
			sub := item{start: t.start, end: t.end}
			if w.cfamily(t, &sub, cx) && sub.u.kind != KindBlock {
				it.u = sub.u
				it.u.sig.start = n.start
				return true
			}
		}
		if cx.member {
			return false
		}
		var names []string
		for i := range ch {
			if ch[i].field == "declarator" {
				names = append(names, w.declName(&ch[i]))
			}
		}
		w.define(it, cx, KindVariable, joinNames(names))
		if d != nil && d.kind == "init_declarator" {
			w.valueElision(it, field(w.children(&d.n), "value"))
		}
		return true
	}
	return block(it, cx)
}

// isFunctionDeclarator reports whether a declarator declares a function
// (looking through pointers, references and parentheses).
func (w *walker) isFunctionDeclarator(d *tnode) bool {
	for depth := 0; d != nil && depth < 8; depth++ {
		switch d.kind {
		case "function_declarator":
			return true
		case "pointer_declarator", "reference_declarator", "parenthesized_declarator", "attributed_declarator":
			ch := w.children(&d.n)
			if f := field(ch, "declarator"); f != nil {
				d = f
			} else if len(ch) > 0 {
				d = &ch[len(ch)-1]
			} else {
				return false
			}
		default:
			return false
		}
	}
	return false
}

// declName returns the name a C or C++ declarator declares.
func (w *walker) declName(d *tnode) string {
	for depth := 0; d != nil && depth < 8; depth++ {
		switch d.kind {
		case "identifier", "field_identifier", "type_identifier", "qualified_identifier", "destructor_name",
			"operator_name", "namespace_identifier", "template_function", "primitive_type", "operator_cast":
			return collapseSpace(w.src[d.start:d.end])
		}
		ch := w.children(&d.n)
		if f := field(ch, "declarator"); f != nil {
			d = f
			continue
		}
		if len(ch) == 0 {
			break
		}
		d = &ch[0]
	}
	if d == nil {
		return ""
	}
	return collapseSpace(w.src[d.start:min(d.end, d.start+100)])
}
