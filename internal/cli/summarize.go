package cli

import (
	"context"
	"errors"
	"fmt"
	"io"
	"math"
	"os"
	"path/filepath"
	"strconv"
	"strings"

	"github.com/ctxpack/ctxpack/internal/app"
	"github.com/ctxpack/ctxpack/internal/cli/cmdutil"
	"github.com/spf13/cobra"
)

// SummarizeOptions are the options of 'ctxpack summarize'.
type SummarizeOptions struct {
	IO      *cmdutil.IOStreams
	Globals *cmdutil.Globals
	Project func() (*app.Project, error) // prints the configuration's warnings

	File  string
	Depth string // --depth, or the deprecated --level
	Cache bool
	Level bool // the deprecated --level was given
}

const summarizeLong = `Print FILE at a level, as ctxpack puts it in a context, and the tokens of
each level the file has on standard error.

FILE:START-END is lines START to END of FILE (1-based, inclusive): with
--depth full exactly those lines, at the other levels those lines as a
context shows a chunk of the file (the summary of that code alone). It is
the command a part's header names when the part is shown at less than
whole: "full: ctxpack summarize net/http/server.go:343-370 --depth full".
A file whose name holds a colon is still that file when no FILE of the
span exists.

Levels, lowest to highest (DESIGN §3; all extractive, none written by a
model):

  meta      path, language, line count, bytes and the last commit that
            changed the file (when git knows it); an artifact's frontmatter
  summary   code: the doc comment and the top-level symbols, one line each;
            Markdown: its headings; an artifact: the frontmatter and the
            first section; plain text: the first section (up to the first
            blank line, at most 20 lines) and the count of lines left out
  detailed  code: the text with function bodies elided, keeping signatures,
            types and doc comments; an artifact: every heading with its
            first paragraph
  full      the whole text (an artifact: frontmatter and body)

FILE must be a regular file of at most walk.max_file_bytes (1 MiB unless
.ctxpack/config.yaml raises it), as an assembly reads it; a named pipe, a
device or a larger file is refused without being read.

A level the file does not have (a detailed level of plain text) is shown at
the next lower level it has, as an assembly would show it; standard error
lists only the levels the file has. Tokens are counted with --tokenizer
(default from the config, else o200k_base).

--cache keeps each level's text and tokens in .ctxpack/cache/summaries/,
keyed by the file's path and content id, the level, the tokenizer, the
chunker's version and ctxpack's build, and reuses them; a changed file has
a new content id and a new ctxpack a new build, so a cached level is never
stale, and the output is the same with or without it. --format json prints {"path", "kind", "language", "level", "shown",
"tokenizer", "levels": [{"level", "tokens"}], "text", "warnings"}.`

// NewCmdSummarize is 'ctxpack summarize FILE': a file at a level, with
// each level's tokens.
func NewCmdSummarize(f *cmdutil.Factory, runF func(*SummarizeOptions) error) *cobra.Command {
	o := &SummarizeOptions{IO: f.IOStreams, Globals: f.Globals, Project: f.ProjectWarn}
	cmd := &cobra.Command{
		Use:   "summarize FILE[:START-END]",
		Short: "Print a file, or lines of it, at a level (full, detailed, summary, meta) with each level's tokens",
		Long:  summarizeLong,
		Example: `  ctxpack summarize internal/index/search.go --depth detailed
  ctxpack summarize internal/index/search.go:120-180 --depth full
  ctxpack summarize .ctxpack/system/specs/SPEC-BILLING-001.md --depth summary
  ctxpack summarize README.md --depth meta --format json
  ctxpack summarize big.py --depth summary --cache`,
		Args:        cmdutil.ExactArgs(1),
		Annotations: cmdutil.ArgHelp("FILE", "the file to summarize (FILE:START-END: lines START to END of it)"),
		RunE: func(cmd *cobra.Command, args []string) error {
			o.File = args[0]
			o.Level = cmd.Flags().Changed("level")
			if runF != nil {
				return runF(o)
			}
			return summarizeRun(cmd.Context(), o)
		},
	}
	fs := cmd.Flags()
	fs.StringVar(&o.Depth, "depth", "summary", "`LEVEL` to print: full, detailed, summary, meta (or stub)")
	// --level was this flag's name before --depth, the name every other
	// command gives a level; it still works, hidden from the help, with a
	// warning on standard error. (Not MarkDeprecated: cobra prints pflag's
	// notice to standard output, into what the command prints.)
	fs.StringVar(&o.Depth, "level", "summary", "`LEVEL`: the old name of --depth")
	_ = fs.MarkHidden("level")
	fs.BoolVar(&o.Cache, "cache", false, "keep and reuse the levels in .ctxpack/cache/summaries/")
	cmdutil.SetFormats(cmd, "text", "json")
	return cmd
}

func summarizeRun(ctx context.Context, o *SummarizeOptions) error {
	if err := o.Globals.TextOrJSON("summarize"); err != nil {
		return err
	}
	if o.Level {
		o.IO.Warn("summarize: --level is deprecated: use --depth, as every other command names a level")
	}
	if err := app.CheckDepth(o.Depth); err != nil {
		return err // a *app.ValueError: a usage error
	}
	p, err := o.Project()
	if err != nil {
		return err
	}
	file, lines, err := fileSpan(o.File, func(name string) bool {
		if !filepath.IsAbs(name) {
			name = filepath.Join(p.Dir, name)
		}
		_, err := os.Stat(name)
		return err == nil
	})
	if err != nil {
		return err
	}
	s, err := p.Summarize(ctx, file, app.SummarizeOptions{Level: o.Depth, Tokenizer: o.Globals.Tokenizer, Cache: o.Cache, Lines: lines})
	var se *app.SpanError
	if errors.As(err, &se) {
		return spanUsage(o.File, file, se)
	}
	if err != nil {
		return err
	}
	o.IO.WarnAll(s.Warnings)
	if o.Globals.JSON() {
		return cmdutil.WriteJSON(o.IO.Out, s)
	}
	var sizes []string
	for _, l := range s.Levels {
		sizes = append(sizes, fmt.Sprintf("%s %s", l.Level, thousands(l.Tokens)))
	}
	note := ""
	if s.Shown != s.Level {
		note = fmt.Sprintf("; no %s level: shown at %s", s.Level, s.Shown)
	}
	shown := s.Path
	if s.Lines != nil {
		shown += fmt.Sprintf(":%d-%d", s.Lines[0], s.Lines[1])
	}
	fmt.Fprintf(o.IO.ErrOut, "summarize: %s (%s): %s tokens (%s)%s\n", shown, s.Kind, strings.Join(sizes, ", "), s.Tokenizer, note)
	text := s.Text
	if text != "" && !strings.HasSuffix(text, "\n") {
		text += "\n" // a level cut from the text may end mid-line; the output ends its line
	}
	_, err = io.WriteString(o.IO.Out, text)
	return err
}

// fileSpan reads summarize's argument: FILE:START-END is lines START to
// END of FILE when FILE exists (the facade checks the span against the
// file); an argument that names a file itself is that file, a name with
// a colon included; FILE:ANYTHING-ELSE of a FILE that exists is a usage
// error; anything else is the file, for the facade to find or not
// (FILE:START-END of no file is FILE, which the facade reports missing).
func fileSpan(arg string, exists func(string) bool) (string, [2]int, error) {
	i := strings.LastIndexByte(arg, ':')
	if i <= 0 {
		return arg, [2]int{}, nil
	}
	name, spec := arg[:i], arg[i+1:]
	lines, ok := parseSpan(spec)
	switch {
	case ok && exists(name):
		return name, lines, nil
	case exists(arg):
		return arg, [2]int{}, nil
	case ok:
		return name, lines, nil
	case exists(name):
		return "", [2]int{}, cmdutil.Usagef("summarize: %s: %q is not a span of lines (valid: FILE:START-END, two line numbers, 1-based and inclusive, as in %s:10-20)", arg, spec, name)
	}
	return arg, [2]int{}, nil
}

// parseSpan parses START-END, two decimal numbers; it does not check
// their values. A number too large for an int is the largest int: past
// any file's end.
func parseSpan(spec string) ([2]int, bool) {
	a, b, ok := strings.Cut(spec, "-")
	if !ok {
		return [2]int{}, false
	}
	var lines [2]int
	for i, s := range []string{a, b} {
		if s == "" || strings.Trim(s, "0123456789") != "" {
			return [2]int{}, false
		}
		n, err := strconv.Atoi(s)
		if err != nil {
			n = math.MaxInt // only digits: out of range
		}
		lines[i] = n
	}
	return lines, true
}

// spanUsage is the usage error of a span the file does not have, in the
// command line's terms: arg as given, file the FILE of it.
func spanUsage(arg, file string, e *app.SpanError) error {
	if e.FileLines == 0 {
		return cmdutil.Usagef("summarize: %s: %s is empty: it has no lines to show", arg, file)
	}
	var what string
	switch {
	case e.Lines[0] < 1:
		what = "lines are numbered from 1"
	case e.Lines[1] < e.Lines[0]:
		what = "START is after END"
	default:
		what = fmt.Sprintf("%s ends at line %d", file, e.FileLines)
	}
	return cmdutil.Usagef("summarize: %s: %s (valid: FILE:START-END with 1 <= START <= END <= %d)", arg, what, e.FileLines)
}
