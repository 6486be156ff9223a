package app

import (
	"fmt"
	"slices"
	"strings"

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

// Strategies are the packing strategies: greedy, interleaved, score, relevance.
func Strategies() []string { return project.Strategies() }

// Overflows are the overflow strategies: degrade, drop, truncate, error,
// allow.
func Overflows() []string { return project.Overflows() }

// The Check functions check a value before the work; a value they do not
// take is a *ValueError.

// CheckDepth checks a depth (a level: meta, summary, detailed, full, or
// stub for meta).
func CheckDepth(s string) error {
	_, err := parseLevel(s)
	return err
}

// CheckFormat checks an output format.
func CheckFormat(s string) error {
	_, err := parseFormat(s)
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
	_, err := getTokenizer(name)
	return err
}

// Depths are the levels a request's Depth takes, lowest first ("stub" is
// also taken, for meta).
func Depths() []string { return []string{"meta", "summary", "detailed", "full"} }

// ValueError is a request's value that is not one of those its field
// takes: Name is the field as the front ends name it (format, tokenizer,
// strategy, overflow, depth: the CLI's flag and the MCP tools' argument
// of the same name), Valid the values it takes. It is the caller's
// mistake, not the project's.
type ValueError struct {
	Name  string
	Value string
	Valid []string
}

func (e *ValueError) Error() string {
	msg := fmt.Sprintf("unknown %s %q", e.Name, e.Value)
	if s := e.Suggestion(); s != "" {
		msg += fmt.Sprintf("; did you mean %q?", s)
	}
	return msg + " (valid: " + strings.Join(e.Valid, ", ") + ")"
}

// Suggestion is the valid value nearest to Value, or "" when none is
// near.
func (e *ValueError) Suggestion() string { return Suggest(e.Value, e.Valid) }

// Suggest returns the candidate nearest to s by edit distance, or "" when
// none is within two edits: what "did you mean" messages offer.
func Suggest(s string, candidates []string) string { return project.Suggest(s, candidates) }

// parseFormat, parseLevel, parseStrategy, parseOverflow and getTokenizer
// parse a request's values, a value they do not take a *ValueError.

func parseFormat(s string) (render.Format, error) {
	f, err := render.ParseFormat(s)
	if err != nil {
		return f, &ValueError{Name: "format", Value: s, Valid: Formats()}
	}
	return f, nil
}

func parseLevel(s string) (pack.Level, error) {
	l, err := pack.ParseLevel(s)
	if err != nil {
		return l, &ValueError{Name: "depth", Value: s, Valid: Depths()}
	}
	return l, nil
}

func parseStrategy(s string) (pack.Strategy, error) {
	v, err := pack.ParseStrategy(s)
	if err != nil {
		return v, &ValueError{Name: "strategy", Value: s, Valid: Strategies()}
	}
	return v, nil
}

func parseOverflow(s string) (pack.Overflow, error) {
	v, err := pack.ParseOverflow(s)
	if err != nil {
		return v, &ValueError{Name: "overflow", Value: s, Valid: Overflows()}
	}
	return v, nil
}

func getTokenizer(name string) (tokenizer.Tokenizer, error) {
	if name != "" && !slices.Contains(tokenizer.Names(), name) {
		return nil, &ValueError{Name: "tokenizer", Value: name, Valid: Tokenizers()}
	}
	return tokenizer.Get(name)
}
