// Package cli is ctxpack's command line, laid out as cli/cli lays out gh:
// each command is an Options struct (its flags, and what it needs, such as
// the streams and a function that opens the project), a constructor
// NewCmdX(f, runF) that parses the command line into the Options, and a
// run function; runF, when given, runs in its place, so that tests see the
// Options the command line gave. The top-level commands have a file each
// here; the groups are a package each, with a file per subcommand:
// evidencecmd (evidence) and storecmd (memory, experience, value).
// Package cmdutil holds what they share. All output goes through
// cmdutil.IOStreams; Run returns the exit code, which exitCode alone
// decides.
package cli

import (
	"context"
	"errors"
	"fmt"
	"os"
	"os/signal"

	"github.com/ctxpack/ctxpack/internal/app"
	"github.com/ctxpack/ctxpack/internal/cli/cmdutil"
	"github.com/spf13/cobra"
)

// Main runs ctxpack with the process's arguments and streams.
func Main() int {
	ctx, stop := signal.NotifyContext(context.Background(), os.Interrupt)
	defer stop()
	return Run(ctx, os.Args[1:], cmdutil.System())
}

// Run runs ctxpack with args and returns the exit code.
func Run(ctx context.Context, args []string, ios *cmdutil.IOStreams) int {
	root := newRoot(cmdutil.NewFactory(ios))
	root.SetArgs(args)
	cmd, err := root.ExecuteContextC(ctx)
	return exitCode(cmd, err, ios)
}

// exitCode is the one place that decides which error gets which code:
// none is ExitOK; a SilentError has its own; a usage error (cmdutil.IsUsage:
// a flag cobra could not parse, the wrong number of arguments, a value a
// flag does not take) is ExitUsage, with a pointer to the --help of cmd,
// the command that ran; an *app.EmptyError (nothing found, or nothing
// fits) is ExitEmpty, after its warnings; anything else is ExitFailure.
// The message is cmdutil.Message's, in the facade's words.
func exitCode(cmd *cobra.Command, err error, ios *cmdutil.IOStreams) int {
	if err == nil {
		return cmdutil.ExitOK
	}
	var se cmdutil.SilentError
	if errors.As(err, &se) {
		return se.Code
	}
	var ee *app.EmptyError
	if errors.As(err, &ee) {
		ios.WarnAll(ee.Warnings) // what explains the empty result: files skipped
	}
	fmt.Fprintf(ios.ErrOut, "ctxpack: %s\n", cmdutil.Message(err))
	if cmdutil.IsUsage(err) {
		help := "ctxpack --help"
		if cmd != nil && cmd.HasParent() {
			help = cmd.CommandPath() + " --help"
		}
		fmt.Fprintf(ios.ErrOut, "Run '%s' for usage.\n", help)
		return cmdutil.ExitUsage
	}
	if ee != nil {
		return cmdutil.ExitEmpty
	}
	return cmdutil.ExitFailure
}
