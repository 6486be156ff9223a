package cmdutil

import (
	"errors"
	"fmt"
	"testing"

	"github.com/spf13/cobra"
)

// TestArgs: each validator accepts what cobra's accepts and says what
// cobra's says, word for word, as a UsageError.
func TestArgs(t *testing.T) {
	root := &cobra.Command{Use: "ctxpack"}
	group := &cobra.Command{Use: "memory"}
	root.AddCommand(group)
	for _, tc := range []struct {
		name        string
		ours, cobra cobra.PositionalArgs
	}{
		{"NoArgs", NoArgs, cobra.NoArgs},
		{"ExactArgs(1)", ExactArgs(1), cobra.ExactArgs(1)},
		{"ExactArgs(2)", ExactArgs(2), cobra.ExactArgs(2)},
		{"MinimumArgs(1)", MinimumArgs(1), cobra.MinimumNArgs(1)},
		{"RangeArgs(1, 2)", RangeArgs(1, 2), cobra.RangeArgs(1, 2)},
	} {
		for _, cmd := range []*cobra.Command{root, group} {
			for n := range 4 {
				args := []string{"a", "b", "c"}[:n]
				t.Run(fmt.Sprintf("%s/%s/%d", tc.name, cmd.Name(), n), func(t *testing.T) {
					got, want := tc.ours(cmd, args), tc.cobra(cmd, args)
					if (got == nil) != (want == nil) {
						t.Fatalf("error %v, cobra's %v", got, want)
					}
					if got == nil {
						return
					}
					if got.Error() != want.Error() {
						t.Errorf("message %q, cobra's %q", got, want)
					}
					if !errors.As(got, new(UsageError)) {
						t.Errorf("%T is not a UsageError", got)
					}
				})
			}
		}
	}
}
