package cli

import (
	"bytes"
	"context"
	"strings"
	"testing"

	"github.com/ctxpack/ctxpack/internal/cli/cmdutil"
)

// TestAssembleFlags checks flags → options, with the run seam capturing
// the options instead of assembling.
func TestAssembleFlags(t *testing.T) {
	for _, tc := range []struct {
		args  []string
		check func(t *testing.T, o *assembleOptions)
		err   string
	}{
		{[]string{"pack", "a", "b", "--budget", "10", "--overflow", "drop", "--depth", "summary"}, func(t *testing.T, o *assembleOptions) {
			req, err := o.request()
			if err != nil {
				t.Fatal(err)
			}
			if strings.Join(req.Paths, ",") != "a,b" || req.Budget != 10 || req.Overflow != "drop" || req.Depth != "summary" {
				t.Errorf("request %+v", req)
			}
			if req.PreferRecent != nil || req.IncludeMetadata != nil {
				t.Error("unset bool flags override the configuration")
			}
		}, ""},
		{[]string{"pack", "--window", "1000", "--reserves", "1, 2,3", "--prefer-recent", "--include-metadata=false"}, func(t *testing.T, o *assembleOptions) {
			req, err := o.request()
			if err != nil {
				t.Fatal(err)
			}
			if req.Window != 1000 || req.Reserves == nil || (req.Reserves.System != 1 || req.Reserves.Query != 2 || req.Reserves.Response != 3) {
				t.Errorf("window %d reserves %+v", req.Window, req.Reserves)
			}
			if req.PreferRecent == nil || !*req.PreferRecent || req.IncludeMetadata == nil || *req.IncludeMetadata {
				t.Error("bool flags not carried")
			}
		}, ""},
		{[]string{"context", "x", "--walk-order", "reverse"}, func(t *testing.T, o *assembleOptions) {
			req, err := o.request()
			if err != nil || !req.ReverseWalk || o.target != "x" {
				t.Errorf("reverse walk: %+v, %v", req, err)
			}
		}, ""},
		{[]string{"pack", "--reserves", "1,x,3"}, func(t *testing.T, o *assembleOptions) {
			if _, err := o.request(); err == nil || !strings.Contains(err.Error(), `"x" is not a non-negative number`) {
				t.Errorf("error %v", err)
			}
		}, ""},
		{[]string{"pack", "--walk-order", "sideways"}, func(t *testing.T, o *assembleOptions) {
			if _, err := o.request(); err == nil {
				t.Error("bad walk order accepted")
			}
		}, ""},
		{[]string{"context"}, nil, "accepts 1 arg"},
	} {
		t.Run(strings.Join(tc.args, " "), func(t *testing.T) {
			g := &globals{}
			var errOut bytes.Buffer
			ios := &IOStreams{Out: &bytes.Buffer{}, ErrOut: &errOut}
			root := newRoot(g, ios)
			var got *assembleOptions
			for _, c := range root.Commands() {
				if c.Name() == "pack" || c.Name() == "context" {
					root.RemoveCommand(c)
				}
			}
			capture := func(o *assembleOptions) error { got = o; return nil }
			root.AddCommand(newCmdPack(g, ios, capture), newCmdContext(g, ios, capture))
			root.SetArgs(tc.args)
			root.SetOut(ios.Out)
			root.SetErr(ios.ErrOut)
			err := root.ExecuteContext(context.Background())
			if tc.err != "" {
				if err == nil || !strings.Contains(err.Error(), tc.err) {
					t.Fatalf("error %v, want %q", err, tc.err)
				}
				if code := exitCode(err, ios); code != cmdutil.ExitUsage {
					t.Errorf("exit code %d, want %d", code, cmdutil.ExitUsage)
				}
				return
			}
			if err != nil {
				t.Fatal(err)
			}
			if got == nil {
				t.Fatal("run seam not called")
			}
			tc.check(t, got)
		})
	}
}
