package refgraph

import "strings"

// goPredeclared are Go's predeclared identifiers: a file that declares
// one (builtin/builtin.go documents them all) does not define what other
// files mean by it.
var goPredeclared = func() map[string]bool {
	m := map[string]bool{}
	for _, s := range strings.Fields(`any bool byte comparable complex64 complex128 error
		float32 float64 int int8 int16 int32 int64 rune string uint uint8 uint16 uint32
		uint64 uintptr true false iota nil append cap clear close complex copy delete
		imag len make max min new panic print println real recover`) {
		m[s] = true
	}
	return m
}()

// goDefs calls add with the name of every top-level declaration of a Go
// file: functions, methods, types, variables and constants, alone or in
// groups. These are the units chunk.Split finds in Go files, with every
// name of a group (Split names a group by its first eight). It scans
// tokens rather than parsing: comments, strings and runes are skipped,
// brackets counted, and a newline ends a declaration where Go would insert
// a semicolon. This reads Go's 90 MB of Go files several times faster
// than go/parser, which the budget of a pack cannot afford; broken files
// give what their tokens say.
func goDefs(src string, add func(string)) {
	const (
		none     = iota
		fun      // after "func": a receiver or the name
		recv     // inside the receiver
		funName  // after the receiver: the name
		decl     // after "type", "var" or "const": a name or "("
		spec     // at the start of a spec in a group
		names    // after a spec's first name: ", name" continues the list
		rest     // the rest of a declaration or spec
		typeDecl = 't'
		varDecl  = 'v'
	)
	state, kind := none, byte(0)
	depth := 0
	group := false    // inside the parentheses of a group of specs
	semi := false     // a newline here ends the statement
	wantName := false // after a ',' in a list of names
	end := func() {   // a ';', or a newline where Go inserts one
		switch {
		case group && depth == 1:
			state = spec
		case !group && depth == 0:
			state = none
		}
		wantName = false
	}
	for i, n := 0, len(src); i < n; {
		if depth > 0 && state == none && !group {
			// In a body: only brackets, comments and literals matter.
			for i < n && !bodyByte[src[i]] {
				i++
			}
			if i == n {
				return
			}
		}
		c := src[i]
		switch {
		case c == '\n':
			if semi {
				end()
			}
			semi = false
			i++
			continue
		case c == ' ' || c == '\t' || c == '\r':
			i++
			continue
		case c == '/' && i+1 < n && src[i+1] == '/':
			j := strings.IndexByte(src[i:], '\n')
			if j < 0 {
				return
			}
			i += j
			continue
		case c == '/' && i+1 < n && src[i+1] == '*':
			j := strings.Index(src[i+2:], "*/")
			if j < 0 {
				return
			}
			if semi && strings.IndexByte(src[i+2:i+2+j], '\n') >= 0 {
				end()
				semi = false
			}
			i += j + 4
			continue
		case c == '"' || c == '\'':
			i = quoted(src, i, c)
			semi = true
			if state == names {
				state = rest
			}
			continue
		case c == '`':
			j := strings.IndexByte(src[i+1:], '`')
			if j < 0 {
				return
			}
			i += j + 2
			semi = true
			if state == names {
				state = rest
			}
			continue
		case identStart[c]:
			j := i + 1
			for j < n && identByte[src[j]] {
				j++
			}
			word := src[i:j]
			i = j
			semi = true
			switch state {
			case none:
				if depth == 0 && !group {
					switch word {
					case "func":
						state = fun
					case "type":
						state, kind = decl, typeDecl
					case "var", "const":
						state, kind = decl, varDecl
					}
				}
			case fun, funName, decl, spec:
				add(word)
				switch {
				case kind == varDecl && (state == decl || state == spec):
					state = names
				case state == spec:
					state = rest
				default:
					state = none
				}
				if state == none && group {
					state = rest
				}
			case names:
				if wantName {
					add(word)
					wantName = false
				} else {
					state = rest
				}
			}
			continue
		case c >= '0' && c <= '9':
			j := i + 1
			for j < n && (identByte[src[j]] || src[j] == '.') {
				j++
			}
			i = j
			semi = true
			if state == names {
				state = rest
			}
			continue
		}
		// Punctuation.
		i++
		semi = false
		switch c {
		case '(', '[', '{':
			switch {
			case state == fun && c == '(' && depth == 0:
				state = recv
			case state == decl && c == '(' && depth == 0:
				group, state = true, spec
			case state == fun || state == funName || state == decl:
				state = none
			case state == names:
				state = rest
			}
			depth++
		case ')', ']', '}':
			semi = true
			depth = max(depth-1, 0)
			switch {
			case state == recv && depth == 0:
				state = funName
			case group && depth == 0:
				group, state = false, none
			case state == names:
				state = rest
			}
		case ',':
			if state == names {
				wantName = true
			}
		case ';':
			end()
		default:
			switch state {
			case names:
				state = rest
			case fun, funName, decl:
				state = none
			}
		}
	}
}

// bodyByte marks the bytes goDefs stops at inside a body.
var bodyByte = func() (b [256]bool) {
	for _, c := range []byte("{}()[]\"'`/") {
		b[c] = true
	}
	return b
}()
