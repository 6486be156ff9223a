package check

import (
	"path"
	"reflect"
	"strings"
	"testing"
)

// The table syntaxFor read before internal/lang held it, kept to show that
// the move changed nothing.
// syntaxes maps a lower-case file extension, or a whole base name, to its
// comment syntax.
var oldSyntaxes = map[string]syntax{
	".go": goLike, ".js": goLike, ".mjs": goLike, ".cjs": goLike, ".jsx": goLike,
	".ts": goLike, ".tsx": goLike, ".mts": goLike, ".cts": goLike,
	".c": cLike, ".h": cLike, ".cc": cLike, ".cpp": cLike, ".cxx": cLike, ".hpp": cLike, ".hh": cLike,
	".m": cLike, ".mm": cLike, ".java": cLike, ".kt": cLike, ".kts": cLike, ".scala": cLike,
	".groovy": cLike, ".gradle": cLike, ".cs": cLike, ".fs": cLike, ".swift": cLike, ".rs": cLike,
	".dart": cLike, ".zig": cLike, ".proto": cLike, ".sol": cLike, ".v": cLike, ".scss": cLike,
	".less": cLike, ".jsonc": cLike, ".json5": cLike, ".css": css,
	".php": php, ".hcl": php, ".tf": php, ".py": python, ".pyi": python,
	".rb": hash, ".sh": hash, ".bash": hash, ".zsh": hash, ".fish": hash, ".ksh": hash,
	".pl": hash, ".pm": hash, ".r": hash, ".jl": hash, ".ex": hash, ".exs": hash,
	".nim": hash, ".cr": hash, ".ps1": hash, ".psm1": hash, ".tcl": hash, ".awk": hash,
	".yaml": hash, ".yml": hash, ".toml": hash, ".cmake": hash, ".mk": hash, ".nix": hash,
	".conf": hash, ".cfg": hash, ".properties": hash, ".dockerfile": hash, ".gitignore": hash,
	".sql": sql, ".ada": sql, ".adb": sql, ".ads": sql, ".vhd": sql, ".vhdl": sql,
	".lua": lua, ".ini": ini, ".hs": haskell, ".elm": haskell, ".purs": haskell,
	".lisp": lisp, ".lsp": lisp, ".el": lisp, ".clj": lisp, ".cljs": lisp, ".cljc": lisp,
	".edn": lisp, ".scm": lisp, ".ss": lisp, ".rkt": lisp, ".asm": lisp, ".s": lisp,
	".tex": percent, ".sty": percent, ".cls": percent, ".erl": percent, ".hrl": percent,
	".matlab": percent, ".html": markup, ".htm": markup, ".xml": markup, ".svg": markup,
	".xhtml": markup, ".md": markdown, ".markdown": markdown, ".mdx": markdown,
	".vue": component, ".svelte": component, ".astro": component,
	".json": data, ".csv": data, ".tsv": data, ".txt": data, ".sum": data, ".lock": data,
	".txtar": data, // test fixtures: whole projects in one file
	// Base names without a telling extension.
	"makefile": hash, "gnumakefile": hash, "dockerfile": hash, "containerfile": hash,
	"rakefile": hash, "gemfile": hash, "justfile": hash, "cmakelists.txt": hash,
	"build": hash, "workspace": hash, ".bazelrc": hash, ".editorconfig": ini,
	".gitattributes": hash, ".dockerignore": hash, ".ctxpackignore": hash, "go.mod": cLike,
}

func oldSyntaxFor(p string) syntax {
	base := strings.ToLower(path.Base(p))
	if s, ok := oldSyntaxes[base]; ok {
		return s
	}
	if s, ok := oldSyntaxes[path.Ext(base)]; ok {
		return s
	}
	return generic
}

func TestSyntaxAsBefore(t *testing.T) {
	names := []string{"README", "noext", "a.unknown", "x.mod", "x.c++", "x.pyw"}
	for k := range oldSyntaxes {
		names = append(names, "a/"+k, "B/"+strings.ToUpper(k), "x"+k)
	}
	for _, n := range names {
		if got, want := syntaxFor(n), oldSyntaxFor(n); !reflect.DeepEqual(got, want) {
			t.Errorf("syntaxFor(%q) = %+v, was %+v", n, got, want)
		}
	}
}
