package cmdutil

import (
	"fmt"
	"io"
	"os"
	"path/filepath"
	"slices"
	"strconv"
	"strings"

	"github.com/ctxpack/ctxpack/internal/app"
	"github.com/spf13/cobra"
	"github.com/spf13/pflag"
)

// Factory holds what every command is built with. A command's constructor
// copies what its command needs into its Options.
type Factory struct {
	IOStreams *IOStreams
	Globals   *Globals // the root's flags, set when the command line is parsed
}

// NewFactory returns a factory over ios with the global flags unset.
func NewFactory(ios *IOStreams) *Factory {
	return &Factory{IOStreams: ios, Globals: &Globals{}}
}

// SetupRoot makes root the root of ctxpack's commands: it takes the global
// flags, its flag errors (and so every command's) are usage errors, and
// errors are left to the caller to print.
func (f *Factory) SetupRoot(root *cobra.Command) {
	root.SilenceUsage = true
	root.SilenceErrors = true
	root.CompletionOptions.DisableDefaultCmd = true
	root.SetFlagErrorFunc(FlagErrorFunc)
	root.PersistentPreRunE = func(cmd *cobra.Command, _ []string) error { return f.Globals.CheckFormat(cmd) }
	f.Globals.addFlags(root.PersistentFlags())
	root.SetIn(f.IOStreams.In)
	root.SetOut(f.IOStreams.Out)
	root.SetErr(f.IOStreams.ErrOut)
}

// Project opens the project the command runs in, for a command whose
// facade call returns the configuration's warnings with its own (an
// assembly's plan, a score).
func (f *Factory) Project() (*app.Project, error) {
	base, err := f.Globals.Base()
	if err != nil {
		return nil, err
	}
	return app.Open(base, f.Globals.Config)
}

// ProjectWarn opens the project the command runs in and prints the
// warnings its configuration gave.
func (f *Factory) ProjectWarn() (*app.Project, error) {
	p, err := f.Project()
	if err != nil {
		return nil, err
	}
	f.IOStreams.WarnAll(p.Warnings)
	return p, nil
}

// NoRedactUsage is the help of --no-redact, on every command that
// assembles.
const NoRedactUsage = "leave secrets in the output for this run: keys, tokens, passwords and\nprivate keys are otherwise replaced by [redacted: RULE] markers\n(secrets.redact: false in .ctxpack/config.yaml turns redaction off for the\nproject; docs/security.md)"

// Globals are the flags every command takes.
type Globals struct {
	Dir       string // -C
	Format    string
	Tokenizer string
	Budget    int
	Window    int
	Reserves  string
	Config    string
}

func (g *Globals) addFlags(pf *pflag.FlagSet) {
	pf.StringVarP(&g.Dir, "dir", "C", "", "run as if started in `DIR`")
	pf.StringVar(&g.Format, "format", "", "output `FORMAT`: text, markdown, doc, xml, json, mdctx (default text)")
	pf.StringVar(&g.Tokenizer, "tokenizer", "", "`NAME`: o200k_base (default), cl100k_base, qwen3, deepseek_v3, llama3, gemma3\n(exact; llama3 and gemma3 read the tokenizer.json that CTXPACK_TOKENIZER_LLAMA3\nor CTXPACK_TOKENIZER_GEMMA3 names), or approx ((bytes+3)/4; it undercounts source code by about 1.5x,\nso a budget kept with it is an estimate)")
	pf.IntVar(&g.Budget, "budget", 0, "tokens the output may use (default from config, else 8000, for every target;\nno budget at all only with --overflow allow and no --budget or --window)")
	pf.IntVar(&g.Window, "window", 0, "context window `TOKENS`; the budget is the window less the reserves")
	pf.StringVar(&g.Reserves, "reserves", "", "tokens kept back from --window as `SYSTEM,QUERY,RESPONSE` (default 200,100,500)")
	pf.StringVar(&g.Config, "config", "", "read configuration from `FILE` instead of .ctxpack/config.yaml")
}

// Path returns p, a path the command line gives (a file to read, -o
// FILE), as a path: relative to -C DIR when given, since the command runs
// as if started there; an absolute p, and "" or "-", as they are.
func (g *Globals) Path(p string) (string, error) {
	if p == "" || p == "-" || filepath.IsAbs(p) || g == nil || g.Dir == "" {
		return p, nil
	}
	base, err := g.Base()
	if err != nil {
		return "", err
	}
	return filepath.Join(base, p), nil
}

// Base is the directory the command runs in: -C, else the working
// directory. It is made absolute; the process never changes directory.
func (g *Globals) Base() (string, error) {
	wd, err := os.Getwd()
	if err != nil {
		return "", err
	}
	if g.Dir == "" {
		return wd, nil
	}
	d := g.Dir
	if !filepath.IsAbs(d) {
		d = filepath.Join(wd, d)
	}
	st, err := os.Stat(d)
	if err != nil {
		return "", Usagef("-C: %v", err)
	}
	if !st.IsDir() {
		return "", Usagef("-C: %s is not a directory", g.Dir)
	}
	return d, nil
}

// formatsKey is the annotation that lists the formats a command prints.
const formatsKey = "cmdutil.formats"

// AnyFormat is what a command that prints every format the facade
// renders takes (the facade checks the value: a *app.ValueError).
const AnyFormat = "*"

// SetFormats says which --format values cmd prints, the first its
// default: AnyFormat, or a list such as "text", "json". A command
// without any prints text only.
func SetFormats(cmd *cobra.Command, formats ...string) {
	if cmd.Annotations == nil {
		cmd.Annotations = map[string]string{}
	}
	cmd.Annotations[formatsKey] = strings.Join(formats, ",")
}

// Formats are the --format values cmd prints: its own SetFormats, else
// its group's, else text.
func Formats(cmd *cobra.Command) []string {
	for c := cmd; c != nil; c = c.Parent() {
		if v, ok := c.Annotations[formatsKey]; ok {
			return strings.Split(v, ",")
		}
	}
	return []string{"text"}
}

// CheckFormat refuses a --format the command does not print, so that
// none is silently ignored: every command runs it before its work (the
// root's PersistentPreRunE).
func (g *Globals) CheckFormat(cmd *cobra.Command) error {
	takes := Formats(cmd)
	if g.Format == "" || slices.Contains(takes, AnyFormat) || slices.Contains(takes, g.Format) {
		return nil
	}
	prefix := ""
	if n := CommandName(cmd); n != "" {
		prefix = n + ": "
	}
	msg := fmt.Sprintf("%s--format %q is not one this command prints: it prints %s", prefix, g.Format, orList(takes))
	if s := app.Suggest(g.Format, takes); s != "" {
		msg += fmt.Sprintf("; did you mean %q?", s)
	}
	return Usagef("%s", msg)
}

// orList is "a", "a or b", "a, b or c".
func orList(s []string) string {
	if len(s) < 2 {
		return strings.Join(s, "")
	}
	return strings.Join(s[:len(s)-1], ", ") + " or " + s[len(s)-1]
}

// JSON reports whether --format asks for json.
func (g *Globals) JSON() bool { return g.Format == "json" }

// TextOrJSON checks --format for a command that prints text or json.
func (g *Globals) TextOrJSON(command string) error {
	switch g.Format {
	case "", "text", "json":
		return nil
	}
	return Usagef("%s: --format must be text or json (got %q)", command, g.Format)
}

// BudgetFlags checks --budget and --window and puts --reserves in req.
func (g *Globals) BudgetFlags(req *app.Request) error {
	if g.Reserves != "" {
		r, err := parseReserves(g.Reserves)
		if err != nil {
			return err
		}
		req.Reserves = &r
	}
	if g.Budget > 0 && g.Window > 0 {
		return Usagef("give --budget or --window, not both")
	}
	return nil
}

func parseReserves(s string) (app.Reserves, error) {
	f := strings.Split(s, ",")
	if len(f) != 3 {
		return app.Reserves{}, Usagef("--reserves wants SYSTEM,QUERY,RESPONSE, for example 200,100,500 (got %q)", s)
	}
	var n [3]int
	for i, v := range f {
		x, err := strconv.Atoi(strings.TrimSpace(v))
		if err != nil || x < 0 {
			return app.Reserves{}, Usagef("--reserves: %q is not a non-negative number", v)
		}
		n[i] = x
	}
	return app.Reserves{System: n[0], Query: n[1], Response: n[2]}, nil
}

// WriteJSON writes v as every command's json format has it: indented by
// two spaces, with <, > and & as they are, in one Write.
func WriteJSON(w io.Writer, v any) error {
	data, err := app.EncodeJSON(v)
	if err != nil {
		return err
	}
	_, err = w.Write(data)
	return err
}
