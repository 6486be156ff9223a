package cli

import (
	"fmt"
	"runtime"
	"runtime/debug"

	"github.com/ctxpack/ctxpack/internal/app"
	"github.com/ctxpack/ctxpack/internal/cli/cmdutil"
	"github.com/spf13/cobra"
)

// version is set at link time (-ldflags "-X github.com/ctxpack/ctxpack/internal/cli.version=v1.2.3");
// otherwise the module version from the build info is used.
var version = ""

// moduleVersion is the version of this build: v1.2.3, or devel.
func moduleVersion() string {
	if version != "" {
		return version
	}
	if bi, ok := debug.ReadBuildInfo(); ok && bi.Main.Version != "" && bi.Main.Version != "(devel)" {
		return bi.Main.Version
	}
	return "devel"
}

// versionString is the version line: ctxpack's version, the Go toolchain
// and platform, and the chunker, which plans name and digests cover
// ("ctxpack devel (go1.26.8 linux/amd64; chunker go/parser+tree-sitter v2)").
func versionString() string {
	return fmt.Sprintf("ctxpack %s (%s %s/%s; chunker %s)", moduleVersion(), runtime.Version(), runtime.GOOS, runtime.GOARCH, app.Chunker())
}

// VersionOptions are the options of 'ctxpack version'.
type VersionOptions struct {
	IO *cmdutil.IOStreams
}

// NewCmdVersion is 'ctxpack version'.
func NewCmdVersion(f *cmdutil.Factory, runF func(*VersionOptions) error) *cobra.Command {
	o := &VersionOptions{IO: f.IOStreams}
	return &cobra.Command{
		Use:   "version",
		Short: "Print the version",
		Args:  cmdutil.NoArgs,
		RunE: func(cmd *cobra.Command, args []string) error {
			if runF != nil {
				return runF(o)
			}
			return versionRun(o)
		},
	}
}

func versionRun(o *VersionOptions) error {
	_, err := fmt.Fprintln(o.IO.Out, versionString())
	return err
}
