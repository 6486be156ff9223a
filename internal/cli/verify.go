package cli

import (
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"runtime"
	"strconv"
	"strings"

	"github.com/ctxpack/ctxpack/internal/app"
	"github.com/ctxpack/ctxpack/internal/cli/cmdutil"
	"github.com/spf13/cobra"
)

// NewCmdVerify is 'ctxpack verify TARGET': the assembly of 'ctxpack
// context TARGET' made twice, in two processes, and compared.
func NewCmdVerify(f *cmdutil.Factory, runF func(*AssembleOptions) error) *cobra.Command {
	o := new(assembleOptions(f))
	cmd := &cobra.Command{
		Use:   "verify TARGET",
		Short: "Prove an assembly is deterministic: run it twice, compare digests",
		Long: `Assemble TARGET twice, each time in a separate ctxpack process, and compare
the digests of the output. The first run uses GOMAXPROCS=1 and walks files in
sorted order; the second uses more threads and walks them in reverse. Any
difference means something that varies between runs reached the output: verify
exits 1 and names the first part where the runs differ.

TARGET and the flags are those of 'ctxpack context'.`,
		Example: `  ctxpack verify TASK-042 --budget 4000
  ctxpack verify . --budget 8000
  ctxpack verify internal/ --tokenizer cl100k_base --overflow truncate`,
		Args:        cmdutil.ExactArgs(1),
		Annotations: cmdutil.ArgHelp("TARGET", "a task id, a path, or free text"),
		RunE: func(cmd *cobra.Command, args []string) error {
			o.Target = args[0]
			if runF != nil {
				return runF(o)
			}
			return verifyRun(cmd.Context(), o)
		},
	}
	o.addFlags(cmd.Flags())
	o.addLinkFlags(cmd.Flags())
	return cmd
}

// childArgs rebuilds the command line of one assembly run.
func (o *AssembleOptions) childArgs(base string, reverse bool) []string {
	g := o.Globals
	args := []string{"-C", base, "--format", "json"}
	add := func(flag, v string) {
		if v != "" {
			args = append(args, flag, v)
		}
	}
	add("--tokenizer", g.Tokenizer)
	add("--reserves", g.Reserves)
	add("--config", g.Config)
	if g.Budget > 0 {
		add("--budget", strconv.Itoa(g.Budget))
	}
	if g.Window > 0 {
		add("--window", strconv.Itoa(g.Window))
	}
	add("--strategy", o.Strategy)
	add("--overflow", o.Overflow)
	add("--depth", o.Depth)
	if o.DedupThreshold != 0 {
		add("--dedup-threshold", strconv.FormatFloat(o.DedupThreshold, 'g', -1, 64))
	}
	if o.MaxChunksPerDoc != 0 {
		add("--max-chunks-per-doc", strconv.Itoa(o.MaxChunksPerDoc))
	}
	if o.ItemCap != 0 {
		add("--item-cap", strconv.FormatFloat(o.ItemCap, 'g', -1, 64))
	}
	if o.PreferRecent != nil {
		args = append(args, "--prefer-recent="+strconv.FormatBool(*o.PreferRecent))
	}
	if o.IncludeMetadata != nil {
		args = append(args, "--include-metadata="+strconv.FormatBool(*o.IncludeMetadata))
	}
	if o.LinkDepth > 0 {
		add("--link-depth", strconv.Itoa(o.LinkDepth))
	}
	for _, f := range []struct {
		name string
		on   bool
	}{{"--line-numbers", o.LineNumbers}, {"--remove-comments", o.RemoveComments}, {"--remove-empty-lines", o.RemoveEmpty}} {
		if f.on {
			args = append(args, f.name)
		}
	}
	if reverse {
		add("--walk-order", "reverse")
	}
	// Each run assembles afresh and leaves no record.
	return append(args, "--no-cache", "--no-record", "context", "--", o.Target)
}

// self finds the running ctxpack binary to start again.
func self() (string, error) {
	a := os.Args[0]
	if strings.ContainsRune(a, filepath.Separator) {
		return filepath.Abs(a)
	}
	if p, err := exec.LookPath(a); err == nil {
		return p, nil
	}
	return os.Executable()
}

type verifyRunResult struct {
	label string
	plan  app.Plan
}

func verifyRun(ctx context.Context, o *AssembleOptions) error {
	if _, err := o.request(); err != nil {
		return err
	}
	base, err := o.Globals.Base()
	if err != nil {
		return err
	}
	if o.Target == "-" {
		if err := o.readQuery("verify"); err != nil {
			return err
		}
	}
	bin, err := self()
	if err != nil {
		return fmt.Errorf("verify: cannot find the ctxpack binary: %w", err)
	}
	procs := max(runtime.NumCPU(), 4)
	runs := []struct {
		procs   int
		reverse bool
	}{{1, false}, {procs, true}}
	var results []verifyRunResult
	for _, r := range runs {
		cmd := exec.CommandContext(ctx, bin, o.childArgs(base, r.reverse)...)
		cmd.Env = append(os.Environ(), "GOMAXPROCS="+strconv.Itoa(r.procs))
		cmd.Stdin = strings.NewReader(o.stdinQuery) // each run reads the target - from it
		var stdout, stderr bytes.Buffer
		cmd.Stdout, cmd.Stderr = &stdout, &stderr
		label := fmt.Sprintf("GOMAXPROCS=%d, %s walk", r.procs, map[bool]string{false: "sorted", true: "reversed"}[r.reverse])
		if err := cmd.Run(); err != nil {
			// Its message without the pointer to --help, which this run's
			// error gets again.
			msg := strings.TrimSpace(stderr.String())
			if i := strings.LastIndex(msg, "\nRun '"); i >= 0 && strings.HasSuffix(msg, "' for usage.") {
				msg = msg[:i]
			}
			msg = strings.TrimPrefix(msg, "ctxpack: ")
			var ee *exec.ExitError
			if errors.As(err, &ee) && ee.ExitCode() == cmdutil.ExitUsage {
				return cmdutil.WrapUsage(errors.New(msg))
			}
			return fmt.Errorf("verify: run with %s failed (%v): %s", label, err, msg)
		}
		var p app.Plan
		if err := json.Unmarshal(stdout.Bytes(), &p); err != nil {
			return fmt.Errorf("verify: run with %s printed no plan: %w", label, err)
		}
		results = append(results, verifyRunResult{label, p})
	}
	a, b := results[0], results[1]
	if a.plan.Digest == b.plan.Digest && a.plan.StateRoot == b.plan.StateRoot {
		fmt.Fprintf(o.IO.Out, "verify: OK %s\n  %s\n  identical in 2 runs: %s; %s\n", a.plan.Digest, describe(a.plan), a.label, b.label)
		return nil
	}
	fmt.Fprintf(o.IO.Out, "verify: FAILED: the runs differ\n  %s: %s\n  %s: %s\n  %s\n", a.label, a.plan.Digest, b.label, b.plan.Digest, firstDifference(a.plan, b.plan))
	return cmdutil.SilentError{Code: cmdutil.ExitFailure}
}

// firstDifference names the first part where two plans differ.
func firstDifference(a, b app.Plan) string {
	if a.StateRoot != b.StateRoot {
		return fmt.Sprintf("the inputs differ: state_root %s vs %s", a.StateRoot, b.StateRoot)
	}
	n := min(len(a.Parts), len(b.Parts))
	for i := range n {
		x, y := a.Parts[i], b.Parts[i]
		if x.Key != y.Key || x.Level != y.Level || x.CID != y.CID || x.Tokens != y.Tokens || x.Truncated != y.Truncated {
			return fmt.Sprintf("first differing part: #%d %s (%s, %d tokens, %s) vs %s (%s, %d tokens, %s)",
				i+1, x.Key, x.Level, x.Tokens, x.CID, y.Key, y.Level, y.Tokens, y.CID)
		}
	}
	if len(a.Parts) != len(b.Parts) {
		longer := a.Parts
		if len(b.Parts) > n {
			longer = b.Parts
		}
		return fmt.Sprintf("first differing part: #%d %s is in one run only", n+1, longer[n].Key)
	}
	for i := 0; i < min(len(a.Content), len(b.Content)); i++ {
		if a.Content[i] != b.Content[i] {
			return fmt.Sprintf("the parts agree but the content differs at byte %d", i)
		}
	}
	return "the parts agree but the content differs in length"
}

// describe is a one-line summary of a plan for people.
func describe(p app.Plan) string {
	return fmt.Sprintf("%d parts, %d of %d tokens (%s), %d dropped", len(p.Parts), p.TotalTokens, p.Budget, p.Tokenizer, len(p.Dropped))
}
