package cmdutil

import (
	"fmt"

	"github.com/spf13/cobra"
)

// Exit codes. The one place that maps errors to them is cli's exitCode.
const (
	ExitOK      = 0
	ExitFailure = 1 // the work failed, or found what it looks for (verify: differences)
	ExitUsage   = 2 // bad command line
	// ExitEmpty: nothing came out: nothing was found to assemble, or
	// nothing found fits the budget (app.EmptyError).
	ExitEmpty = 3
)

// UsageError marks an error as the user's command line: ctxpack prints it
// with a pointer to --help and exits with ExitUsage.
type UsageError struct{ Err error }

func (e UsageError) Error() string { return e.Err.Error() }
func (e UsageError) Unwrap() error { return e.Err }

// Usagef formats a usage error.
func Usagef(format string, args ...any) error {
	return UsageError{fmt.Errorf(format, args...)}
}

// WrapUsage marks err as a usage error; nil stays nil.
func WrapUsage(err error) error {
	if err == nil {
		return nil
	}
	return UsageError{err}
}

// FlagErrorFunc is the root's flag error function, which cobra uses for
// every command: an unknown flag, a flag without its value or a value that
// does not parse is a usage error, with pflag's message.
func FlagErrorFunc(_ *cobra.Command, err error) error { return UsageError{err} }

// SilentError is a failure whose message the command has already printed;
// Code is the exit code.
type SilentError struct{ Code int }

func (e SilentError) Error() string { return fmt.Sprintf("exit %d", e.Code) }
