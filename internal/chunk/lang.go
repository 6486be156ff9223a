package chunk

import (
	"path"
	"strings"
)

// Language returns the language of the file at p, from its extension (or,
// for a few well-known files, its name): "go", "python", "javascript",
// "jsx", "typescript", "tsx", "java", "rust", "c", "cpp", "csharp",
// "kotlin", "swift", "scala", "markdown" and others; "" for plain text and
// anything unknown. The result is the same whatever the case of the
// extension.
func Language(p string) string {
	base := path.Base(strings.ReplaceAll(p, "\\", "/"))
	if l, ok := languageNames[base]; ok {
		return l
	}
	i := strings.LastIndexByte(base, '.')
	if i < 0 {
		return ""
	}
	return languageExts[strings.ToLower(base[i:])]
}

// languageExts maps extensions to languages; read-only after package
// initialisation.
var languageExts = func() map[string]string {
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

var languageNames = map[string]string{
	"Makefile":    "make",
	"GNUmakefile": "make",
	"Dockerfile":  "dockerfile",
}
