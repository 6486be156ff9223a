package chunk

import "github.com/ctxpack/ctxpack/internal/lang"

// Language returns the language of the file at p, from its extension (or,
// for a few well-known files, its name): "go", "python", "javascript",
// "jsx", "typescript", "tsx", "java", "rust", "c", "cpp", "csharp",
// "kotlin", "swift", "scala", "markdown" and others; "" for plain text and
// anything unknown, from the one table of internal/lang. The result is
// the same whatever the case of the name.
func Language(p string) string { return lang.Language(p) }
