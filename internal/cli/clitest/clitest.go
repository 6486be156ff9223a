// Package clitest runs ctxpack's commands in tests of their flag parsing:
// a command made with a run seam, under a root that has the global flags
// and parses as ctxpack's root does.
package clitest

import (
	"context"
	"errors"
	"go/token"
	"strings"
	"testing"

	"github.com/ctxpack/ctxpack/internal/app"
	"github.com/ctxpack/ctxpack/internal/cli/cmdutil"
	"github.com/google/go-cmp/cmp"
	"github.com/google/go-cmp/cmp/cmpopts"
	"github.com/spf13/cobra"
)

// Factory returns a factory whose standard input is stdin and whose
// output goes to buffers.
func Factory(stdin string) *cmdutil.Factory {
	ios, _, _ := cmdutil.Test(stdin)
	return cmdutil.NewFactory(ios)
}

// Run runs args, the command line after "ctxpack", with cmd as the one
// command of a root that has the global flags.
func Run(f *cmdutil.Factory, cmd *cobra.Command, args ...string) error {
	root := &cobra.Command{Use: "ctxpack", Args: cmdutil.NoArgs}
	f.SetupRoot(root)
	root.AddCommand(cmd)
	root.SetArgs(args)
	return root.ExecuteContext(context.Background())
}

// Replace puts cmd in place of parent's subcommand of the same name, and
// returns parent.
func Replace(parent, cmd *cobra.Command) *cobra.Command {
	for _, c := range parent.Commands() {
		if c.Name() == cmd.Name() {
			parent.RemoveCommand(c)
		}
	}
	parent.AddCommand(cmd)
	return parent
}

// IgnoreDeps leaves out of a comparison of Options what the factory
// gives them (the streams, the global flags, the function that opens the
// project) and their unexported state; no arguments are none, nil or
// empty.
var IgnoreDeps = cmp.Options{
	cmpopts.IgnoreTypes(&cmdutil.IOStreams{}, &cmdutil.Globals{}, (func() (*app.Project, error))(nil)),
	cmpopts.EquateEmpty(), // cobra gives no arguments as an empty slice
	cmp.FilterPath(func(p cmp.Path) bool {
		sf, ok := p.Last().(cmp.StructField)
		return ok && !token.IsExported(sf.Name())
	}, cmp.Ignore()),
}

// Case is one row of a table test of a command's flag parsing: the
// command line and the Options and global flags it gives, or the usage
// error it is.
type Case[O any] struct {
	Name    string
	Args    string // after "ctxpack", split at spaces; '…' quotes
	Stdin   string
	Want    O
	Globals cmdutil.Globals
	WantErr string // the message of the usage error Args is
}

// NewCmd is a command's constructor.
type NewCmd[O any] func(f *cmdutil.Factory, runF func(*O) error) *cobra.Command

// RunCases runs each case with the command newCmd makes, placed by place
// (under its group; nil places it under the root), its run seam recording
// the Options, and compares them with the case's (see IgnoreDeps).
func RunCases[O any](t *testing.T, cases []Case[O], newCmd NewCmd[O], place func(*cmdutil.Factory, *cobra.Command) *cobra.Command) {
	t.Helper()
	for _, tc := range cases {
		t.Run(tc.Name, func(t *testing.T) {
			t.Helper()
			got, f, err := Parse(newCmd, place, tc.Stdin, tc.Args)
			if tc.WantErr != "" {
				if err == nil || err.Error() != tc.WantErr || !errors.As(err, new(cmdutil.UsageError)) {
					t.Fatalf("error %v (%T), want the usage error %q", err, err, tc.WantErr)
				}
				if got != nil {
					t.Error("the command ran")
				}
				return
			}
			if err != nil {
				t.Fatal(err)
			}
			if d := cmp.Diff(tc.Want, *got, IgnoreDeps); d != "" {
				t.Errorf("options (-want +got):\n%s", d)
			}
			if d := cmp.Diff(tc.Globals, *f.Globals); d != "" {
				t.Errorf("global flags (-want +got):\n%s", d)
			}
		})
	}
}

// Parse runs the command line args (see Case.Args) with the command
// newCmd makes, placed by place, and returns the Options its run seam was
// given (nil when it was not reached), the factory, and the error.
func Parse[O any](newCmd NewCmd[O], place func(*cmdutil.Factory, *cobra.Command) *cobra.Command, stdin, args string) (*O, *cmdutil.Factory, error) {
	f := Factory(stdin)
	var got *O
	cmd := newCmd(f, func(o *O) error { got = o; return nil })
	if place != nil {
		cmd = place(f, cmd)
	}
	err := Run(f, cmd, split(args)...)
	return got, f, err
}

// split splits s at spaces; '…' quotes a word with spaces, or none.
func split(s string) []string {
	var args []string
	for i, part := range strings.Split(s, "'") {
		if i%2 == 1 {
			args = append(args, part)
			continue
		}
		args = append(args, strings.Fields(part)...)
	}
	return args
}
