package retrieve

import (
	"path"
	"strings"
	"unicode"
	"unicode/utf8"
)

// Mentions are what a query names explicitly: identifiers that look like
// code, and path-like words.
type Mentions struct {
	// Idents are the code-like identifiers of the query, distinct, in
	// order of first occurrence: words with an underscore, an inner capital
	// or a digit after letters, words followed by "(" or joined by "." to
	// another word, and words inside backquotes.
	Idents []string
	// Paths are the query's path-like words: with a "/" or a file
	// extension, or dotted module names (a.b.c), distinct, in order.
	Paths []string
}

// ParseMentions finds the mentions in a query.
func ParseMentions(q string) Mentions {
	var m Mentions
	seenI := map[string]bool{}
	seenP := map[string]bool{}
	addIdent := func(w string) {
		if len(w) < 3 || seenI[w] || !isIdentStart(w) {
			return
		}
		seenI[w] = true
		m.Idents = append(m.Idents, w)
	}
	addPath := func(p string) {
		p = strings.Trim(p, "./:")
		if p == "" || seenP[p] {
			return
		}
		seenP[p] = true
		m.Paths = append(m.Paths, p)
	}
	inTicks := false
	for i := 0; i < len(q); {
		r, n := utf8.DecodeRuneInString(q[i:])
		if r == '`' {
			inTicks = !inTicks
			i += n
			continue
		}
		if !isWordRune(r) && r != '/' && r != '.' && r != '\\' {
			i += n
			continue
		}
		// A token: a run of word runes, slashes and dots.
		j := i
		for j < len(q) {
			r, n := utf8.DecodeRuneInString(q[j:])
			if !isWordRune(r) && r != '/' && r != '.' && r != '\\' && r != '-' {
				break
			}
			j += n
		}
		tok := strings.TrimRight(q[i:j], ".-")
		next := byte(0)
		if j < len(q) {
			next = q[j]
		}
		i = j
		if tok == "" {
			continue
		}
		tok = strings.ReplaceAll(tok, `\`, "/")
		if strings.Contains(tok, "/") || hasExt(tok) {
			addPath(tok)
		} else if strings.Count(tok, ".") >= 1 && !strings.Contains(tok, "..") && allIdents(strings.Split(tok, ".")) {
			addPath(tok) // a dotted module or attribute path
		}
		// The identifiers inside the token.
		words := splitIdents(tok)
		for k, w := range words {
			switch {
			case inTicks, looksLikeCode(w):
				addIdent(w)
			case k == len(words)-1 && next == '(':
				addIdent(w)
			case len(words) > 1 && k > 0 && !strings.Contains(tok, "/"):
				addIdent(w) // the attribute of a.b
			}
		}
	}
	return m
}

// splitIdents cuts a token into its identifier words.
func splitIdents(tok string) []string {
	return strings.FieldsFunc(tok, func(r rune) bool { return !isWordRune(r) })
}

func isWordRune(r rune) bool {
	return r == '_' || unicode.IsLetter(r) || unicode.IsDigit(r)
}

func isIdentStart(w string) bool {
	r, _ := utf8.DecodeRuneInString(w)
	return r == '_' || unicode.IsLetter(r)
}

func allIdents(ws []string) bool {
	for _, w := range ws {
		if w == "" || !isIdentStart(w) {
			return false
		}
	}
	return len(ws) > 1
}

// looksLikeCode reports whether a word is written like an identifier
// rather than prose: snake_case, camelCase or PascalCase with an inner
// capital, an acronym before a word (HTTPServer), or letters then digits.
func looksLikeCode(w string) bool {
	if strings.Contains(strings.Trim(w, "_"), "_") || strings.HasPrefix(w, "_") {
		return true
	}
	lower, inner, upper := false, false, 0
	for i, r := range w {
		switch {
		case unicode.IsLower(r):
			lower = true
		case unicode.IsUpper(r):
			upper++
			inner = inner || i > 0 && lower
		case unicode.IsDigit(r) && lower && i > 1:
			inner = true
		}
	}
	return inner || upper >= 2 && lower // HTTPServer
}

// IsFileName reports whether a word reads as a file name: it ends in the
// extension of a common source, text or config file ("models.py",
// "a/b.go"), in lower case.
func IsFileName(w string) bool { return hasExt(w) }

// hasExt reports whether a word ends in a file extension of 1 to 5
// letters after a non-empty name: "models.py", "a/b.go".
func hasExt(w string) bool {
	ext := path.Ext(w)
	if len(ext) < 2 || len(ext) > 6 || len(w) == len(ext) {
		return false
	}
	for _, r := range ext[1:] {
		if !unicode.IsLetter(r) {
			return false
		}
	}
	// Lower-case extensions only: "Foo.Bar" is an attribute, not a file.
	return strings.ToLower(ext) == ext && knownExt[ext[1:]]
}

// knownExt are the extensions that make a dotted word a file name.
var knownExt = map[string]bool{
	"go": true, "py": true, "pyi": true, "js": true, "mjs": true, "cjs": true, "jsx": true, "ts": true, "tsx": true,
	"java": true, "kt": true, "rs": true, "c": true, "h": true, "cc": true, "cpp": true, "hpp": true, "cs": true,
	"rb": true, "php": true, "swift": true, "scala": true, "sh": true, "md": true, "rst": true, "txt": true,
	"toml": true, "yaml": true, "yml": true, "json": true, "cfg": true, "ini": true, "html": true, "css": true,
	"sql": true, "proto": true, "lua": true, "pl": true, "r": true, "m": true, "mm": true, "vue": true, "svelte": true,
}

// pathMention is how strongly a file path is mentioned by a query's path
// words: 1 for its whole path, 0.9 for a suffix of two or more
// components, 0.6 for its file name alone (with its extension) when the
// name is not a generic one, and the same for dotted module names (a.b.c
// for a/b/c.py or a/b/c/__init__.py). 0 if not mentioned.
func pathMention(p string, mentioned []string) float64 {
	best := 0.0
	noExt := strings.TrimSuffix(p, path.Ext(p))
	dotted := strings.ReplaceAll(noExt, "/", ".")
	pkg := strings.TrimSuffix(dotted, ".__init__")
	base := path.Base(p)
	for _, m := range mentioned {
		var s float64
		switch {
		case m == p || m == dotted || m == pkg:
			s = 1
		case strings.HasSuffix("/"+p, "/"+m) && strings.Contains(m, "/"):
			s = 0.9
		case strings.Contains(m, "/") && strings.HasSuffix(m, "/"+p):
			s = 1 // an absolute or site-packages path ending in p
		case strings.Contains(m, "/") && strings.Contains(p, "/") && suffixComponents(m, p) >= 2:
			s = 0.9
		case strings.Contains(m, ".") && !strings.Contains(m, "/") && (strings.HasSuffix("."+dotted, "."+m) || strings.HasSuffix("."+pkg, "."+m)) && strings.Count(m, ".") >= 1:
			s = 0.8
		case m == base && !genericName[base]:
			s = 0.6
		}
		best = max(best, s)
	}
	return best
}

// suffixComponents is the number of trailing path components a and b share.
func suffixComponents(a, b string) int {
	x, y := strings.Split(a, "/"), strings.Split(b, "/")
	n := 0
	for n < len(x) && n < len(y) && x[len(x)-1-n] == y[len(y)-1-n] {
		n++
	}
	return n
}

// genericName are file names too common to point at one file.
var genericName = map[string]bool{
	"__init__.py": true, "index.js": true, "index.ts": true, "main.go": true, "mod.rs": true, "lib.rs": true,
	"main.py": true, "utils.py": true, "setup.py": true, "conftest.py": true, "README.md": true, "doc.go": true,
}
