package cli

import (
	"bytes"
	"errors"
	"strings"
	"testing"

	"github.com/ctxpack/ctxpack/internal/cli/cmdutil"
	"github.com/spf13/cobra"
)

// TestUsageErrors: what cobra finds wrong with a command line (an unknown
// command or flag, a flag's value, the number of arguments) is a usage
// error: its message, with the nearest command, flag or value where one is
// near, the pointer to the command's own --help, exit 2.
func TestUsageErrors(t *testing.T) {
	for _, tc := range []struct {
		args []string
		msg  string
		help string // the command whose --help the error points at
	}{
		{[]string{"frobnicate"}, `unknown command "frobnicate" for "ctxpack"`, "ctxpack"},
		{[]string{"pakc"}, `unknown command "pakc" for "ctxpack"; did you mean "pack"?`, "ctxpack"},
		{[]string{"frobnicate", "--budget", "3"}, `unknown command "frobnicate" for "ctxpack"`, "ctxpack"},
		{[]string{"memory", "frob"}, `unknown command "frob" for "ctxpack memory"`, "ctxpack memory"},
		{[]string{"memory", "ad"}, `unknown command "ad" for "ctxpack memory"; did you mean "add" or "rm"?`, "ctxpack memory"},
		{[]string{"evidence", "add", "a", "--ctx", "x", "b"}, `evidence add: takes one argument, SELECTOR, got 2: "a" "b" (quote an argument that holds spaces)`, "ctxpack evidence add"},
		{[]string{"check", "SPEC-1"}, `check: takes no arguments, got 1: "SPEC-1" (quote an argument that holds spaces)`, "ctxpack check"},
		{[]string{"pack", "--budgett", "10"}, "pack: unknown flag --budgett; did you mean --budget?", "ctxpack pack"},
		{[]string{"pack", "--frobnicate"}, "pack: unknown flag --frobnicate", "ctxpack pack"},
		{[]string{"pack", "-Z"}, "unknown shorthand flag: 'Z' in -Z", "ctxpack pack"},
		{[]string{"pack", "--budget"}, "flag needs an argument: --budget", "ctxpack pack"},
		{[]string{"pack", "--budget", "abc"}, `invalid argument "abc" for "--budget" flag: strconv.ParseInt: parsing "abc": invalid syntax`, "ctxpack pack"},
		{[]string{"pack", "--format", "yaml"}, `--format: unknown value "yaml"; did you mean "xml"? (valid: text, markdown, doc, xml, json, mdctx)`, "ctxpack pack"},
		{[]string{"tokens"}, "tokens: missing PATH (a file or directory to count, or - for standard input)", "ctxpack tokens"},
		{[]string{"context"}, "context: missing TARGET (a task id, a path, or free text; - reads it from standard input)", "ctxpack context"},
		{[]string{"explain", "TASK-1"}, "explain: missing ARTIFACT-ID (the artifact to explain, or a file of the project)", "ctxpack explain"},
		{[]string{"evidence", "toggle", "a", "b", "c"}, `evidence toggle: takes at most 2 arguments, got 3: "a" "b" "c" (quote an argument that holds spaces)`, "ctxpack evidence toggle"},
	} {
		t.Run(strings.Join(tc.args, " "), func(t *testing.T) {
			var out, errOut bytes.Buffer
			code := Run(t.Context(), tc.args, &cmdutil.IOStreams{In: strings.NewReader(""), Out: &out, ErrOut: &errOut})
			want := "ctxpack: " + tc.msg + "\nRun '" + tc.help + " --help' for usage.\n"
			if code != cmdutil.ExitUsage || errOut.String() != want || out.Len() > 0 {
				t.Errorf("exit %d, stderr %q, stdout %q; want exit 2, stderr %q", code, errOut.String(), out.String(), want)
			}
		})
	}
}

// TestArgsTyped: every command's argument validator returns a usage
// error, so that no code has to recognise cobra's messages; the root and
// the groups have one (without it cobra's own check of the root's
// subcommands would answer, untyped).
func TestArgsTyped(t *testing.T) {
	ios := &cmdutil.IOStreams{In: strings.NewReader(""), Out: &bytes.Buffer{}, ErrOut: &bytes.Buffer{}}
	var walk func(c *cobra.Command)
	walk = func(c *cobra.Command) {
		if c.Args == nil && (!c.HasParent() || c.HasSubCommands()) {
			t.Errorf("%s: no Args validator", c.CommandPath())
		}
		if c.Args != nil {
			for _, args := range [][]string{nil, {"a", "b", "c", "d", "e"}} {
				if err := c.Args(c, args); err != nil && !errors.As(err, new(cmdutil.UsageError)) {
					t.Errorf("%s with %d arguments: %T %v is not a usage error", c.CommandPath(), len(args), err, err)
				}
			}
		}
		for _, sub := range c.Commands() {
			walk(sub)
		}
	}
	walk(newRoot(cmdutil.NewFactory(ios)))
}
