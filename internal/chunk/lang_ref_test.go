package chunk

import (
	"path"
	"strings"
	"testing"
)

// The table Language read before internal/lang held it, kept to show that
// the move changed nothing but the case of base names.
// languageExts maps extensions to languages; read-only after package
// initialisation.
var oldLanguageExts = func() map[string]string {
	m := map[string]string{}
	for lang, exts := range map[string]string{
		"go":         ".go",
		"python":     ".py .pyi .pyw",
		"javascript": ".js .mjs .cjs",
		"jsx":        ".jsx",
		"typescript": ".ts .mts .cts",
		"tsx":        ".tsx",
		"java":       ".java",
		"rust":       ".rs",
		"c":          ".c .h",
		"cpp":        ".cc .cpp .cxx .c++ .hh .hpp .hxx .h++ .ipp",
		"csharp":     ".cs",
		"kotlin":     ".kt .kts",
		"swift":      ".swift",
		"scala":      ".scala .sc",
		"ruby":       ".rb",
		"php":        ".php",
		"bash":       ".sh .bash",
		"asm":        ".s",
		"sql":        ".sql",
		"markdown":   ".md .markdown .mdx",
		"html":       ".html .htm",
		"css":        ".css",
		"json":       ".json",
		"yaml":       ".yaml .yml",
		"toml":       ".toml",
		"xml":        ".xml",
		"protobuf":   ".proto",
		"lua":        ".lua",
		"r":          ".r",
		"perl":       ".pl",
	} {
		for _, e := range strings.Fields(exts) {
			m[e] = lang
		}
	}
	return m
}()

var oldLanguageNames = map[string]string{
	"Makefile":    "make",
	"GNUmakefile": "make",
	"Dockerfile":  "dockerfile",
}

func oldLanguage(p string) string {
	base := path.Base(strings.ReplaceAll(p, "\\", "/"))
	if l, ok := oldLanguageNames[base]; ok {
		return l
	}
	i := strings.LastIndexByte(base, '.')
	if i < 0 {
		return ""
	}
	return oldLanguageExts[strings.ToLower(base[i:])]
}

func TestLanguageAsBefore(t *testing.T) {
	var names []string
	for e := range oldLanguageExts {
		names = append(names, "a/b"+e, "X"+strings.ToUpper(e))
	}
	for n := range oldLanguageNames {
		names = append(names, "dir/"+n, n+".txt", "x."+n)
	}
	names = append(names, "README", "a.unknown", ".gitignore", "go.mod", "CMakeLists.txt", "setup.py", "x\\y.go", "noext")
	for _, n := range names {
		if got, want := Language(n), oldLanguage(n); got != want {
			t.Errorf("Language(%q) = %q, was %q", n, got, want)
		}
	}
	// The one change: base names are known in any case.
	if Language("makefile") != "make" || oldLanguage("makefile") != "" {
		t.Error("a lower-case makefile")
	}
}
