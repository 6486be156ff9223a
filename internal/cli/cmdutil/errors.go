package cmdutil

import (
	"errors"
	"fmt"
	"strings"

	"github.com/ctxpack/ctxpack/internal/app"
	"github.com/spf13/cobra"
	"github.com/spf13/pflag"
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
// with a pointer to the command's --help and exits with ExitUsage.
type UsageError struct {
	Err error
	own bool // the command line's own words (Usagef), not the facade's
}

func (e UsageError) Error() string { return e.Err.Error() }
func (e UsageError) Unwrap() error { return e.Err }

// Usagef formats a usage error.
func Usagef(format string, args ...any) error {
	return UsageError{Err: fmt.Errorf(format, args...), own: true}
}

// WrapUsage marks err as a usage error; nil stays nil.
func WrapUsage(err error) error {
	if err == nil {
		return nil
	}
	return UsageError{Err: err}
}

// IsUsage reports whether err is the command line's fault: a UsageError,
// or a value of a flag the facade does not take (*app.ValueError), or a
// target, path, source list or span of lines it cannot read as one
// (*app.TargetError, *app.PathError, *app.SourceError, *app.SpanError).
func IsUsage(err error) bool {
	var (
		ue UsageError
		ve *app.ValueError
		te *app.TargetError
		pe *app.PathError
		se *app.SourceError
		sp *app.SpanError
	)
	return errors.As(err, &ue) || errors.As(err, &ve) || errors.As(err, &te) || errors.As(err, &pe) || errors.As(err, &se) || errors.As(err, &sp)
}

// Message is err as ctxpack prints it, without the "ctxpack: " the
// program's name adds: the command line's own words for what it found
// wrong (Usagef), a value a flag does not take named by its flag, and
// anything else in the facade's words (app.Message).
func Message(err error) string {
	var ue UsageError
	if errors.As(err, &ue) && ue.own {
		return strings.TrimPrefix(err.Error(), "ctxpack: ")
	}
	var ve *app.ValueError
	if errors.As(err, &ve) {
		msg := fmt.Sprintf("--%s: unknown value %q", ve.Name, ve.Value)
		if s := ve.Suggestion(); s != "" {
			msg += fmt.Sprintf("; did you mean %q?", s)
		}
		return msg + " (valid: " + strings.Join(ve.Valid, ", ") + ")"
	}
	return app.Message(err)
}

// FlagErrorFunc is the root's flag error function, which cobra uses for
// every command: an unknown flag, a flag without its value or a value that
// does not parse is a usage error, with pflag's message; an unknown flag
// gets the command's nearest flag as a suggestion.
func FlagErrorFunc(cmd *cobra.Command, err error) error {
	var ne *pflag.NotExistError
	if errors.As(err, &ne) && ne.GetSpecifiedShortnames() == "" {
		name := ne.GetSpecifiedName()
		var names []string
		cmd.Flags().VisitAll(func(f *pflag.Flag) {
			if !f.Hidden && f.Deprecated == "" {
				names = append(names, f.Name)
			}
		})
		msg := "unknown flag --" + name
		if n := CommandName(cmd); n != "" {
			msg = n + ": " + msg
		}
		if s := app.Suggest(name, names); s != "" {
			msg += fmt.Sprintf("; did you mean --%s?", s)
		}
		return UsageError{Err: errors.New(msg), own: true}
	}
	return UsageError{Err: err, own: true}
}

// SilentError is a failure whose message the command has already printed;
// Code is the exit code.
type SilentError struct{ Code int }

func (e SilentError) Error() string { return fmt.Sprintf("exit %d", e.Code) }
