package chunk

import (
	"go/ast"
	"go/parser"
	"go/token"
	"strings"
)

// goOutline finds the units of a Go file with go/parser, in every build:
// it is ten times faster than tree-sitter's Go grammar and is the
// language's own parser. ok is false when the file has no package clause
// (a fragment), so the caller falls back to the heuristics.
func goOutline(src []byte) (o outline, ok bool) {
	fset := token.NewFileSet()
	f, _ := parser.ParseFile(fset, "", src, parser.ParseComments|parser.SkipObjectResolution)
	if f == nil || !f.Package.IsValid() || f.Name == nil {
		return outline{}, false
	}
	tf := fset.File(f.Package)
	if tf == nil || tf.Size() != len(src) {
		return outline{}, false
	}
	off := func(p token.Pos) int {
		if !p.IsValid() {
			return -1
		}
		o := tf.Offset(p)
		return min(max(o, 0), len(src))
	}
	c := collector{src: src, li: newLineIndex(src)}

	// Items in file order: comment groups and declarations. A doc comment
	// group is an item of its own; the collector attaches it.
	var items []item
	ci := 0
	addComments := func(before int) {
		for ci < len(f.Comments) && off(f.Comments[ci].Pos()) < before {
			g := f.Comments[ci]
			items = append(items, item{start: off(g.Pos()), end: off(g.End()), comment: true})
			ci++
		}
	}
	pkgStart := off(f.Package)
	addComments(pkgStart)
	pkgEnd := off(f.Name.End())
	items = append(items, item{start: pkgStart, end: pkgEnd, preamble: true})
	for _, d := range f.Decls {
		s, e := off(d.Pos()), off(d.End())
		if s < 0 || e <= s {
			continue
		}
		// Comments before the declaration, but not its doc comment inside
		// its span (a FuncDecl's Pos is its "func", after the doc).
		addComments(s)
		// Skip comments inside the declaration.
		for ci < len(f.Comments) && off(f.Comments[ci].Pos()) < e {
			ci++
		}
		it := item{start: s, end: e}
		goDecl(src, d, off, &it)
		items = append(items, it)
	}
	addComments(len(src) + 1)
	o.units = c.collect(items, true)
	if f.Doc != nil {
		o.doc = span{off(f.Doc.Pos()), off(f.Doc.End())}
	}
	return o, true
}

// goDecl fills in the unit of one declaration.
func goDecl(src []byte, d ast.Decl, off func(token.Pos) int, it *item) {
	u := &it.u
	switch d := d.(type) {
	case *ast.FuncDecl:
		u.kind, u.symbol = KindFunction, d.Name.Name
		if d.Recv != nil && len(d.Recv.List) > 0 {
			u.kind = KindMethod
			u.symbol = goRecv(d.Recv.List[0].Type) + "." + d.Name.Name
		}
		if d.Body != nil {
			b, e := off(d.Body.Lbrace), off(d.Body.End())
			if b >= 0 && e > b {
				u.sig = span{it.start, b}
				u.elide = bodyElision(src, b, e)
			}
		}
	case *ast.GenDecl:
		var names []string
		for _, s := range d.Specs {
			switch s := s.(type) {
			case *ast.TypeSpec:
				names = append(names, s.Name.Name)
			case *ast.ValueSpec:
				for _, n := range s.Names {
					names = append(names, n.Name)
				}
			}
		}
		u.symbol = joinNames(names)
		switch d.Tok {
		case token.IMPORT:
			it.preamble = true
			u.kind = KindBlock
		case token.TYPE:
			u.kind = KindType
			if len(d.Specs) == 1 {
				ts := d.Specs[0].(*ast.TypeSpec)
				if _, isIface := ts.Type.(*ast.InterfaceType); isIface {
					u.kind = KindInterface
				}
				switch t := ts.Type.(type) {
				case *ast.StructType:
					if t.Fields != nil {
						u.sig = span{it.start, off(t.Fields.Opening)}
					}
				case *ast.InterfaceType:
					if t.Methods != nil {
						u.sig = span{it.start, off(t.Methods.Opening)}
					}
				}
			}
		case token.VAR, token.CONST:
			u.kind = KindVariable
			if d.Tok == token.CONST {
				u.kind = KindConstant
			}
			for _, s := range d.Specs {
				for _, v := range s.(*ast.ValueSpec).Values {
					u.elide = append(u.elide, goValueElisions(src, v, off)...)
				}
			}
		}
		if d.Lparen.IsValid() && d.Tok != token.IMPORT {
			// A group: the signature is the keyword and the names.
			u.sigText = d.Tok.String() + " (" + u.symbol + ")"
		}
	default:
		u.kind = KindBlock
	}
	if u.sig.start >= 0 && u.sig.end < u.sig.start {
		u.sig = span{}
	}
}

// goValueElisions elides the multi-line composite literals and function
// literals of a value, outermost first.
func goValueElisions(src []byte, v ast.Expr, off func(token.Pos) int) []elision {
	var out []elision
	ast.Inspect(v, func(n ast.Node) bool {
		var s, e int
		switch n := n.(type) {
		case *ast.CompositeLit:
			s, e = off(n.Lbrace), off(n.Rbrace)+1
		case *ast.FuncLit:
			if n.Body == nil {
				return false
			}
			s, e = off(n.Body.Lbrace), off(n.Body.End())
		default:
			return true
		}
		if s < 0 || e <= s || e > len(src) {
			return true
		}
		if el := bodyElision(src, s, e); el != nil {
			out = append(out, el...)
			return false
		}
		return true
	})
	return out
}

// goRecv returns a receiver type as Go's runtime names it: "(*T)" or "T",
// without type parameters.
func goRecv(x ast.Expr) string {
	ptr := false
	if s, ok := x.(*ast.StarExpr); ok {
		ptr, x = true, s.X
	}
	for {
		switch t := x.(type) {
		case *ast.IndexExpr:
			x = t.X
			continue
		case *ast.IndexListExpr:
			x = t.X
			continue
		case *ast.ParenExpr:
			x = t.X
			continue
		}
		break
	}
	name := "?"
	if id, ok := x.(*ast.Ident); ok {
		name = id.Name
	}
	if ptr {
		return "(*" + name + ")"
	}
	return name
}

// joinNames joins the names a declaration declares, at most eight.
func joinNames(names []string) string {
	if len(names) > 8 {
		return strings.Join(names[:8], ", ") + ", …"
	}
	return strings.Join(names, ", ")
}
