// Package lang is what ctxpack knows of a file from its name: the
// language chunk parses it as, the comment syntax check reads annotations
// in, and whether it is configuration or code the chunker does not parse,
// which retrieval's file kinds use. One table holds all of it, so that the
// packages that read files agree on what a file is.
//
// Lookups are by base name first (Makefile, go.mod, .gitignore; any case),
// then by extension (the last dot's; any case). The table is read-only.
package lang

import (
	"path"
	"strings"
)

// File is what the table says of a file.
type File struct {
	// Language is the language chunk parses the file as ("go", "python",
	// "markdown"…); "" for plain text and anything unknown.
	Language string
	// Comments names the comment syntax of check's annotation lexer: c,
	// go, hash, python, php, sql, lua, haskell, lisp, percent, css, markup,
	// markdown, component, ini or data; "" when unknown (every common
	// syntax, loosely).
	Comments string
	// Config says the file is configuration or data (JSON, YAML, TOML, a
	// lock file…).
	Config bool
	// Code says the file is source code the chunker does not parse (Vue,
	// Svelte, Objective-C); a file with a Language is code or prose by it.
	Code bool
	// Build says the file configures a build or a package rather than
	// being part of the program (setup.py, Makefile, webpack.config.js).
	Build bool
}

// Of returns what the table says of the file at p (a slash or OS path).
func Of(p string) File {
	base := path.Base(strings.ReplaceAll(p, "\\", "/"))
	f, ok := byName[strings.ToLower(base)]
	if ok {
		return f
	}
	if i := strings.LastIndexByte(base, '.'); i >= 0 {
		return byName[strings.ToLower(base[i:])]
	}
	return File{}
}

// Language is Of(p).Language.
func Language(p string) string { return Of(p).Language }

// row is a line of the table: the names (extensions with their dot, or
// base names) it covers, and what it says of them.
type row struct {
	names    string
	language string
	comments string
	flags    flag
}

type flag uint8

const (
	config flag = 1 << iota
	code
	build
)

// table is every name ctxpack knows. A name is in one row only.
var table = []row{
	// Languages chunk parses.
	{".go", "go", "go", 0},
	{".py .pyi", "python", "python", 0},
	{".pyw", "python", "", 0},
	{".js .mjs .cjs", "javascript", "go", 0},
	{".jsx", "jsx", "go", 0},
	{".ts .mts .cts", "typescript", "go", 0},
	{".tsx", "tsx", "go", 0},
	{".java", "java", "c", 0},
	{".rs", "rust", "c", 0},
	{".c .h", "c", "c", 0},
	{".cc .cpp .cxx .hh .hpp", "cpp", "c", 0},
	{".c++ .hxx .h++ .ipp", "cpp", "", 0},
	{".cs", "csharp", "c", 0},
	{".kt .kts", "kotlin", "c", 0},
	{".swift", "swift", "c", 0},
	{".scala", "scala", "c", 0},
	{".sc", "scala", "", 0},
	{".rb", "ruby", "hash", 0},
	{".php", "php", "php", 0},
	{".sh .bash", "bash", "hash", 0},
	{".s", "asm", "lisp", 0},
	{".sql", "sql", "sql", 0},
	{".md .markdown .mdx", "markdown", "markdown", 0},
	{".html .htm", "html", "markup", 0},
	{".css", "css", "css", 0},
	{".json", "json", "data", config},
	{".yaml .yml", "yaml", "hash", config},
	{".toml", "toml", "hash", config},
	{".xml", "xml", "markup", 0},
	{".proto", "protobuf", "c", 0},
	{".lua", "lua", "lua", 0},
	{".r", "r", "hash", 0},
	{".pl", "perl", "hash", 0},
	{"makefile", "make", "hash", build},
	{"gnumakefile", "make", "hash", 0},
	{"dockerfile", "dockerfile", "hash", 0},

	// Code the chunker does not parse.
	{".m .mm", "", "c", code},
	{".vue .svelte", "", "component", code},
	{".astro", "", "component", 0},

	// Comment syntaxes alone.
	{".groovy .gradle .fs .dart .zig .sol .v .scss .less .jsonc .json5", "", "c", 0},
	{".hcl .tf", "", "php", 0},
	{".zsh .fish .ksh .pm .jl .ex .exs .nim .cr .ps1 .psm1 .tcl .awk .cmake .mk .nix .properties .dockerfile .gitignore", "", "hash", 0},
	{".conf .cfg", "", "hash", config},
	{".ada .adb .ads .vhd .vhdl", "", "sql", 0},
	{".hs .elm .purs", "", "haskell", 0},
	{".lisp .lsp .el .clj .cljs .cljc .edn .scm .ss .rkt .asm", "", "lisp", 0},
	{".tex .sty .cls .erl .hrl .matlab", "", "percent", 0},
	{".svg .xhtml", "", "markup", 0},
	{".ini", "", "ini", config},
	{".csv .tsv .txt .txtar", "", "data", 0},
	{".sum .lock", "", "data", config},
	{".mod", "", "", config},
	{"containerfile rakefile gemfile justfile build workspace .bazelrc .gitattributes .dockerignore .ctxpackignore", "", "hash", 0},
	{"cmakelists.txt", "", "hash", build},
	{".editorconfig", "", "ini", 0},
	{"go.mod", "", "c", config},

	// Build files of other languages.
	{"setup.py noxfile.py fabfile.py", "python", "python", build},
	{"build.gradle", "", "c", build},
	{"webpack.config.js rollup.config.js babel.config.js jest.config.js gulpfile.js gruntfile.js", "javascript", "go", build},
	{"vite.config.ts", "typescript", "go", build},
}

// byName is the table by lower-case name.
var byName = func() map[string]File {
	m := map[string]File{}
	for _, r := range table {
		f := File{Language: r.language, Comments: r.comments, Config: r.flags&config != 0, Code: r.flags&code != 0, Build: r.flags&build != 0}
		for _, n := range strings.Fields(r.names) {
			if _, dup := m[n]; dup {
				panic("lang: " + n + " is in two rows")
			}
			m[n] = f
		}
	}
	return m
}()
