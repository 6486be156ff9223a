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
// error: its message, the pointer to --help, exit 2.
func TestUsageErrors(t *testing.T) {
	for _, tc := range []struct {
		args []string
		msg  string
	}{
		{[]string{"frobnicate"}, `unknown command "frobnicate" for "ctxpack"`},
		{[]string{"frobnicate", "--budget", "3"}, `unknown command "frobnicate" for "ctxpack"`},
		{[]string{"memory", "frob"}, `unknown command "frob" for "ctxpack memory"`},
		{[]string{"evidence", "add", "a", "--ctx", "x", "b"}, "accepts 1 arg(s), received 2"},
		{[]string{"check", "SPEC-1"}, `unknown command "SPEC-1" for "ctxpack check"`},
		{[]string{"pack", "--budgett", "10"}, "unknown flag: --budgett"},
		{[]string{"pack", "-Z"}, "unknown shorthand flag: 'Z' in -Z"},
		{[]string{"pack", "--budget"}, "flag needs an argument: --budget"},
		{[]string{"pack", "--budget", "abc"}, `invalid argument "abc" for "--budget" flag: strconv.ParseInt: parsing "abc": invalid syntax`},
		{[]string{"tokens"}, "requires at least 1 arg(s), only received 0"},
		{[]string{"context"}, "accepts 1 arg(s), received 0"},
		{[]string{"evidence", "toggle", "a", "b", "c"}, "accepts between 1 and 2 arg(s), received 3"},
	} {
		t.Run(strings.Join(tc.args, " "), func(t *testing.T) {
			var out, errOut bytes.Buffer
			code := Run(t.Context(), tc.args, &cmdutil.IOStreams{In: strings.NewReader(""), Out: &out, ErrOut: &errOut})
			want := "ctxpack: " + tc.msg + "\nRun 'ctxpack --help' for usage.\n"
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
