package retrieve

import (
	"path"
	"strings"
	"testing"

	"github.com/ctxpack/ctxpack/internal/chunk"
)

// The tables FileKind read before internal/lang held them, kept to show
// that the move changed nothing but the case of base names.
// buildFiles are code files that configure a build or a package rather
// than being part of the program.
var oldBuildFiles = map[string]bool{
	"setup.py": true, "noxfile.py": true, "fabfile.py": true, "Makefile": true, "CMakeLists.txt": true,
	"build.gradle": true, "webpack.config.js": true, "vite.config.ts": true, "rollup.config.js": true,
	"babel.config.js": true, "jest.config.js": true, "gulpfile.js": true, "Gruntfile.js": true,
}

var oldConfigExt = map[string]bool{".json": true, ".yaml": true, ".yml": true, ".toml": true, ".ini": true, ".cfg": true, ".conf": true, ".mod": true, ".sum": true, ".lock": true}

// codeExt are the source extensions chunk does not know.
var oldCodeExt = map[string]bool{".vue": true, ".svelte": true, ".m": true, ".mm": true}

func oldFileKind(p string) string {
	base := path.Base(p)
	ext := strings.ToLower(path.Ext(base))
	lower := "/" + strings.ToLower(p)
	prose := chunk.Language(p) == "markdown" || ext == ".rst" || ext == ".txt" || ext == ".adoc"
	switch {
	case isTest(p) && !prose:
		return "test"
	case prose && strings.Contains(lower, "requirement"):
		return "requirements"
	case prose || underAny(lower, "/doc/", "/docs/", "/example/", "/examples/", "/samples/"):
		return "documentation"
	case oldConfigExt[ext] || strings.Contains(lower, "/.") || oldBuildFiles[base]:
		return "config"
	case oldCodeExt[ext] || !notSource[chunk.Language(p)]:
		return "source"
	}
	return "other"
}

func TestFileKindAsBefore(t *testing.T) {
	names := []string{"README", "a.unknown", "go.mod", "go.sum", "x.lock", "docs/x.md", "src/x_test.go", "a/.github/w.yml", "x.rst"}
	for _, m := range []map[string]bool{oldBuildFiles, oldConfigExt, oldCodeExt} {
		for k := range m {
			names = append(names, "src/"+k, "src/x"+k, "src/X"+strings.ToUpper(k), "test/"+k)
		}
	}
	for _, e := range []string{".go", ".py", ".js", ".ts", ".c", ".h", ".rs", ".java", ".rb", ".json", ".yaml", ".toml", ".ini", ".cfg", ".xml", ".html", ".css", ".sql", ".sh", ".txt", ".vue", ".m"} {
		names = append(names, "pkg/a"+e, "pkg/A"+strings.ToUpper(e))
	}
	for _, n := range names {
		if got, want := FileKind(n), oldFileKind(n); got != want {
			t.Errorf("FileKind(%q) = %s, was %s", n, got, want)
		}
	}
}
