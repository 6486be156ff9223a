package cmdutil

import (
	"fmt"
	"strings"

	"github.com/spf13/cobra"
)

// The validators of a command's positional arguments. Their errors are
// UsageErrors that name the command and the argument missing or too
// many: the arguments are the upper-case words of the command's Use line
// ("context TARGET|-": TARGET), each described by ArgHelp when the
// command gives it ("context: missing TARGET (a task id, a path, or free
// text)"). The pointer to the command's --help is added where errors are
// printed.

// argHelpKey is the annotation that holds an argument's description.
const argHelpKey = "cmdutil.arg:"

// ArgHelp is the Annotations of a command that describe its arguments,
// for the validators' messages: pairs of a name of its Use line and what
// the argument is.
func ArgHelp(pairs ...string) map[string]string {
	m := make(map[string]string, len(pairs)/2)
	for i := 0; i+1 < len(pairs); i += 2 {
		m[argHelpKey+pairs[i]] = pairs[i+1]
	}
	return m
}

// CommandName is cmd's path without the program's name: "pack",
// "memory add"; "" for the root.
func CommandName(cmd *cobra.Command) string {
	if !cmd.HasParent() {
		return ""
	}
	return strings.TrimPrefix(cmd.CommandPath(), cmd.Root().Name()+" ")
}

// argNames are the arguments of cmd's Use line: its upper-case words,
// each as far as its first '|' or "...".
func argNames(cmd *cobra.Command) []string {
	var names []string
	for i, w := range strings.Fields(cmd.Use) {
		if i == 0 {
			continue
		}
		if strings.HasPrefix(w, "-") || w == "|" {
			break
		}
		w, _, _ = strings.Cut(w, "|")
		w = strings.TrimSuffix(w, "...")
		if w != "" && w == strings.ToUpper(w) && strings.ContainsAny(w, "ABCDEFGHIJKLMNOPQRSTUVWXYZ") {
			names = append(names, w)
		}
	}
	return names
}

// argError is the usage error of args, which cmd takes from lo to hi of
// (hi < 0: no limit).
func argError(cmd *cobra.Command, args []string, lo, hi int) error {
	prefix := ""
	if n := CommandName(cmd); n != "" {
		prefix = n + ": "
	}
	names := argNames(cmd)
	if len(args) < lo {
		var missing []string
		for i := len(args); i < lo; i++ {
			name := fmt.Sprintf("argument %d", i+1)
			if i < len(names) {
				name = names[i]
			} else if len(names) > 0 && strings.HasSuffix(cmd.Use, "...") {
				name = names[len(names)-1]
			}
			if h := cmd.Annotations[argHelpKey+name]; h != "" {
				name += " (" + h + ")"
			}
			missing = append(missing, name)
		}
		return Usagef("%smissing %s", prefix, strings.Join(missing, " and "))
	}
	want := "no arguments"
	switch {
	case hi == 1:
		want = "one argument"
	case hi > 1 && lo == hi:
		want = fmt.Sprintf("%d arguments", hi)
	case hi > 1:
		want = fmt.Sprintf("at most %d arguments", hi)
	}
	if hi > 0 && len(names) >= hi {
		want += ", " + strings.Join(names[:hi], " ")
	}
	quoted := make([]string, len(args))
	for i, a := range args {
		quoted[i] = fmt.Sprintf("%q", a)
	}
	return Usagef("%stakes %s, got %d: %s (quote an argument that holds spaces)", prefix, want, len(args), strings.Join(quoted, " "))
}

// NoArgs accepts no arguments. For a group such as 'ctxpack memory' or
// the root itself, the first one is an unknown command, with the nearest
// commands as suggestions.
func NoArgs(cmd *cobra.Command, args []string) error {
	if len(args) > 0 && !cmd.HasSubCommands() {
		return argError(cmd, args, 0, 0)
	}
	if len(args) > 0 {
		msg := fmt.Sprintf("unknown command %q for %q", args[0], cmd.CommandPath())
		if cmd.SuggestionsMinimumDistance <= 0 {
			cmd.SuggestionsMinimumDistance = 2 // cobra's default, which only its own lookup sets
		}
		if s := cmd.SuggestionsFor(args[0]); len(s) > 0 {
			q := make([]string, len(s))
			for i, c := range s {
				q[i] = fmt.Sprintf("%q", c)
			}
			msg += "; did you mean " + strings.Join(q, " or ") + "?"
		}
		return Usagef("%s", msg)
	}
	return nil
}

// ExactArgs accepts exactly n arguments.
func ExactArgs(n int) cobra.PositionalArgs {
	return func(cmd *cobra.Command, args []string) error {
		if len(args) != n {
			return argError(cmd, args, n, n)
		}
		return nil
	}
}

// MinimumArgs accepts n arguments or more.
func MinimumArgs(n int) cobra.PositionalArgs {
	return func(cmd *cobra.Command, args []string) error {
		if len(args) < n {
			return argError(cmd, args, n, -1)
		}
		return nil
	}
}

// RangeArgs accepts from min to max arguments.
func RangeArgs(min, max int) cobra.PositionalArgs {
	return func(cmd *cobra.Command, args []string) error {
		if len(args) < min || len(args) > max {
			return argError(cmd, args, min, max)
		}
		return nil
	}
}
