package main

import (
	"fmt"
	"path"
	"strings"
)

// languages maps a language of the repository list to the extensions of
// its source files.
var languages = map[string][]string{
	"python":     {".py", ".pyi"},
	"go":         {".go"},
	"javascript": {".js", ".mjs", ".cjs", ".jsx", ".ts", ".mts", ".cts", ".tsx"},
	"typescript": {".ts", ".mts", ".cts", ".tsx", ".js", ".mjs", ".cjs", ".jsx"},
	"rust":       {".rs"},
}

// codeExts are the extensions of source code in any language: a commit
// that changes such a file outside its repository's language is left out,
// since its gold files would miss part of the fix.
var codeExts = map[string]bool{
	".py": true, ".pyi": true, ".pyx": true, ".pxd": true, ".go": true, ".rs": true,
	".js": true, ".mjs": true, ".cjs": true, ".jsx": true, ".ts": true, ".mts": true, ".cts": true, ".tsx": true,
	".c": true, ".h": true, ".cc": true, ".cpp": true, ".hpp": true, ".cxx": true,
	".java": true, ".kt": true, ".rb": true, ".swift": true, ".cs": true, ".php": true,
}

// kind is what a changed file is to the selection.
type kind int

const (
	kindOther   kind = iota // docs, changelogs, configuration, data: ignored
	kindSource              // a source file of the language: a gold file candidate
	kindTest                // a test, fixture or benchmark: ignored
	kindForeign             // source code outside the language: the commit is left out
)

func (k kind) String() string {
	switch k {
	case kindSource:
		return "source"
	case kindTest:
		return "test"
	case kindForeign:
		return "foreign"
	}
	return "other"
}

// testDirs are folder names that hold tests, fixtures and benchmarks,
// besides any whose name starts with "test" (testsuite, tests_py3).
var testDirs = map[string]bool{
	"test": true, "tests": true, "testing": true, "__tests__": true, "__mocks__": true,
	"testdata": true, "test_data": true, "fixtures": true, "spec": true, "specs": true,
	"e2e": true, "bench": true, "benches": true, "benchmark": true, "benchmarks": true,
}

// skipDirs are folder names whose files are neither source nor tests:
// documentation, examples, scripts, vendored and generated code.
var skipDirs = map[string]bool{
	"doc": true, "docs": true, "documentation": true, "example": true, "examples": true,
	"_examples": true, "gallery": true, "scripts": true, "script": true, "tools": true,
	"ci": true, ".github": true, ".circleci": true, "vendor": true, "vendored": true,
	"_vendor": true, "third_party": true, "third-party": true, "thirdparty": true,
	"node_modules": true, "dist": true, "build": true, "site-packages": true,
}

// configNames are source-language files that configure the build or the
// test run rather than implement the project.
var configNames = map[string]bool{
	"setup.py": true, "noxfile.py": true, "conftest.py": true, "fabfile.py": true,
	"tasks.py": true, "build.rs": true, "build.go": true, "magefile.go": true,
	"gulpfile.js": true, "gruntfile.js": true, "webpack.config.js": true,
	"rollup.config.js": true, "rollup.config.mjs": true, "karma.conf.js": true,
	"karma.conf.cjs": true, "jest.config.js": true, "eslint.config.js": true,
	"vite.config.ts": true, "vite.config.js": true, "tsconfig.json": true,
}

// classify says what the file at p is to a repository in language lang.
func classify(p, lang string) kind {
	ext := path.Ext(p)
	base := path.Base(p)
	lower := strings.ToLower(base)
	dirs := strings.Split(path.Dir(p), "/")
	if p != "" && !strings.Contains(p, "/") {
		dirs = nil
	}
	for _, d := range dirs {
		d = strings.ToLower(d)
		if testDirs[d] || strings.HasPrefix(d, "test") && !strings.HasPrefix(d, "testify") {
			return kindTest
		}
	}
	if isTestName(lower, ext) {
		return kindTest
	}
	if !codeExts[ext] {
		return kindOther
	}
	for _, d := range dirs {
		if skipDirs[strings.ToLower(d)] || strings.HasPrefix(d, ".") {
			return kindOther
		}
	}
	if configNames[lower] || isGenerated(lower) || strings.HasSuffix(lower, ".config.js") || strings.HasSuffix(lower, ".config.ts") {
		return kindOther
	}
	for _, e := range languages[lang] {
		if ext == e {
			return kindSource
		}
	}
	return kindForeign
}

// isTestName reports whether a file's name marks it as a test.
func isTestName(base, ext string) bool {
	stem := strings.TrimSuffix(base, ext)
	switch {
	case strings.HasPrefix(base, "test_") && ext == ".py",
		strings.HasSuffix(stem, "_test"), strings.HasSuffix(stem, "_tests"),
		strings.HasSuffix(stem, ".test"), strings.HasSuffix(stem, ".spec"),
		strings.HasSuffix(stem, "_spec"), stem == "test", stem == "tests",
		stem == "conftest", stem == "testing" && ext == ".go":
		return true
	}
	return false
}

// isGenerated reports whether a file's name marks it as generated or
// minified.
func isGenerated(base string) bool {
	for _, s := range []string{"_pb2.py", "_pb2_grpc.py", ".pb.go", ".pb.gw.go", ".min.js", ".bundle.js", "_generated.go", "bindata.go"} {
		if strings.HasSuffix(base, s) {
			return true
		}
	}
	return strings.HasPrefix(base, "zz_generated")
}

// checkLanguage returns an error for a language the list may not name.
func checkLanguage(lang string) error {
	if _, ok := languages[lang]; !ok {
		return fmt.Errorf("unknown language %q (want one of go, javascript, python, rust, typescript)", lang)
	}
	return nil
}
