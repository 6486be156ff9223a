package cmdutil

import "github.com/spf13/cobra"

// The validators of a command's positional arguments. Each says what
// cobra's validator of the same name says, word for word (the messages
// are part of the CLI's behaviour), but as a UsageError, so that nothing
// has to recognise cobra's text to know the command line was wrong.

// NoArgs accepts no arguments: the first one is an unknown command, as
// for a group such as 'ctxpack memory' or the root itself.
func NoArgs(cmd *cobra.Command, args []string) error {
	if len(args) > 0 {
		return Usagef("unknown command %q for %q", args[0], cmd.CommandPath())
	}
	return nil
}

// ExactArgs accepts exactly n arguments.
func ExactArgs(n int) cobra.PositionalArgs {
	return func(_ *cobra.Command, args []string) error {
		if len(args) != n {
			return Usagef("accepts %d arg(s), received %d", n, len(args))
		}
		return nil
	}
}

// MinimumArgs accepts n arguments or more.
func MinimumArgs(n int) cobra.PositionalArgs {
	return func(_ *cobra.Command, args []string) error {
		if len(args) < n {
			return Usagef("requires at least %d arg(s), only received %d", n, len(args))
		}
		return nil
	}
}

// RangeArgs accepts from min to max arguments.
func RangeArgs(min, max int) cobra.PositionalArgs {
	return func(_ *cobra.Command, args []string) error {
		if len(args) < min || len(args) > max {
			return Usagef("accepts between %d and %d arg(s), received %d", min, max, len(args))
		}
		return nil
	}
}
