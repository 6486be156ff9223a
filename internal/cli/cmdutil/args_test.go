package cmdutil

import (
	"errors"
	"testing"

	"github.com/spf13/cobra"
)

// TestArgs: each validator accepts what cobra's of the same name accepts
// and names the command and the arguments missing or too many, as a
// UsageError.
func TestArgs(t *testing.T) {
	root := &cobra.Command{Use: "ctxpack"}
	show := &cobra.Command{Use: "show ID", Annotations: ArgHelp("ID", "an artifact id")}
	explain := &cobra.Command{Use: "explain TASK-ID ARTIFACT-ID"}
	tokens := &cobra.Command{Use: "tokens PATH..."}
	toggle := &cobra.Command{Use: "toggle ID | toggle on|off ID|RANGE"}
	group := &cobra.Command{Use: "memory"}
	group.AddCommand(&cobra.Command{Use: "add TEXT|-"}, &cobra.Command{Use: "list"})
	list := &cobra.Command{Use: "list"}
	root.AddCommand(show, explain, tokens, toggle, group, list)
	for _, c := range append(root.Commands(), group.Commands()...) {
		if c != group {
			c.Run = func(*cobra.Command, []string) {} // suggestions are of runnable commands
		}
	}
	for _, tc := range []struct {
		v    cobra.PositionalArgs
		cmd  *cobra.Command
		args []string
		want string // "" accepts
	}{
		{ExactArgs(1), show, []string{"a"}, ""},
		{ExactArgs(1), show, nil, "show: missing ID (an artifact id)"},
		{ExactArgs(1), show, []string{"a", "b"}, `show: takes one argument, ID, got 2: "a" "b" (quote an argument that holds spaces)`},
		{ExactArgs(2), explain, nil, "explain: missing TASK-ID and ARTIFACT-ID"},
		{ExactArgs(2), explain, []string{"a"}, "explain: missing ARTIFACT-ID"},
		{ExactArgs(2), explain, []string{"a", "b", "c"}, `explain: takes 2 arguments, TASK-ID ARTIFACT-ID, got 3: "a" "b" "c" (quote an argument that holds spaces)`},
		{MinimumArgs(1), tokens, nil, "tokens: missing PATH"},
		{MinimumArgs(1), tokens, []string{"a", "b", "c"}, ""},
		{RangeArgs(1, 2), toggle, nil, "toggle: missing ID"},
		{RangeArgs(1, 2), toggle, []string{"a", "b"}, ""},
		{RangeArgs(1, 2), toggle, []string{"a", "b", "c"}, `toggle: takes at most 2 arguments, got 3: "a" "b" "c" (quote an argument that holds spaces)`},
		{NoArgs, list, nil, ""},
		{NoArgs, list, []string{"x"}, `list: takes no arguments, got 1: "x" (quote an argument that holds spaces)`},
		{NoArgs, group, []string{"ad"}, `unknown command "ad" for "ctxpack memory"; did you mean "add"?`},
		{NoArgs, group, []string{"frob"}, `unknown command "frob" for "ctxpack memory"`},
		{NoArgs, root, []string{"shwo"}, `unknown command "shwo" for "ctxpack"; did you mean "show"?`},
	} {
		err := tc.v(tc.cmd, tc.args)
		if tc.want == "" {
			if err != nil {
				t.Errorf("%s %q: %v, want no error", tc.cmd.Name(), tc.args, err)
			}
			continue
		}
		if err == nil || err.Error() != tc.want {
			t.Errorf("%s %q: %v, want %q", tc.cmd.Name(), tc.args, err, tc.want)
		}
		if !errors.As(err, new(UsageError)) {
			t.Errorf("%s %q: %T is not a UsageError", tc.cmd.Name(), tc.args, err)
		}
	}
}
