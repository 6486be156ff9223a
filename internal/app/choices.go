package app

import (
	"github.com/ctxpack/ctxpack/internal/chunk"
	"github.com/ctxpack/ctxpack/internal/pack"
	"github.com/ctxpack/ctxpack/internal/project"
	"github.com/ctxpack/ctxpack/internal/render"
	"github.com/ctxpack/ctxpack/internal/tokenizer"
)

// The values a request's fields take, for front ends that list them
// (flag completion, MCP tool schemas) or check them before the work.

// Formats are the output formats: text, markdown, doc, xml, json, mdctx.
func Formats() []string { return project.Formats() }

// ShowPath returns a path as messages show it: as it is, or quoted with
// Go's escapes when it holds what printing would break or spoof (a
// newline, an escape, another control character, invalid UTF-8).
func ShowPath(p string) string { return project.ShowPath(p) }

// Tokenizers are the names a request's Tokenizer takes.
func Tokenizers() []string { return tokenizer.Names() }

// DefaultTokenizer is the tokenizer of a project that names none.
const DefaultTokenizer = tokenizer.Default

// Strategies are the packing strategies: greedy, interleaved, score.
func Strategies() []string { return project.Strategies() }

// Overflows are the overflow strategies: degrade, drop, truncate, error,
// allow.
func Overflows() []string { return project.Overflows() }

// CheckDepth checks a depth (a level: meta, summary, detailed, full, or
// stub for meta).
func CheckDepth(s string) error {
	_, err := pack.ParseLevel(s)
	return err
}

// CheckFormat checks an output format.
func CheckFormat(s string) error {
	_, err := render.ParseFormat(s)
	return err
}

// Chunker names this build's chunker: its parsers and version. Plans name
// it, and their digests cover it (see DESIGN §2: the same build gives the
// same bytes).
func Chunker() string { return chunk.Name() }

// CheckTokenizer checks a tokenizer's name; "" is the default.
func CheckTokenizer(name string) error {
	if name == "" {
		return nil
	}
	_, err := tokenizer.Get(name)
	return err
}
