// Package evidencecmd is 'ctxpack evidence': the commands that manage an
// evidence workspace, a ctx/ folder of hand-picked, ranked role files
// assembled into build/prompt.mdctx and build/ctxplan.json. Each
// subcommand has a file: its Options, its constructor NewCmdX(f, runF)
// and its run function.
package evidencecmd

import (
	"context"
	"errors"
	"fmt"
	"io"
	"strconv"

	"github.com/ctxpack/ctxpack/internal/app"
	"github.com/ctxpack/ctxpack/internal/cli/cmdutil"
	"github.com/spf13/cobra"
	"github.com/spf13/pflag"
)

const evidenceLong = `Manage an evidence workspace: context chosen by hand, kept reviewable.

A workspace is a folder (ctx/, or --ctx DIR, inside the project) of ranked
role files named <rank>_<kind>.<role>.md:

  ctx/000_policy.system.md              system: constraints, policies, output contracts
  ctx/010_request.user.md               user: the request
  ctx/evidence/100_flow_sh.evidence.md  evidence: code, docs, relevant files
  ctx/evidence/200_test.evidence.md.skip   skipped: left out of assembly
  ctx/evidence/300_example.evidence.link   a link: read afresh at each assembly

Ranks are three digits and order assembly within each role: 000-099 for
system and user files, 100-199 critical evidence, 200-299 supporting (tests,
docs), 300-399 peripheral, 400-499 optional. 'evidence add' writes an
evidence file from a selector, path[::range][#tags]:

  core/flow.sh              the whole file
  core/flow.sh::100,200     lines 100 to 200
  core/flow.sh::100         line 100 to the end
  core/flow.sh::100c,500c   bytes 100 to 500
  core/flow.sh::100,200#bug lines 100 to 200, tagged

with a provenance comment (source URI, content id, span, tags) that 'evidence
stale' checks against the file later. 'evidence assemble' writes
build/prompt.mdctx (# System, # User Request, ## Evidence: path sections)
and build/ctxplan.json (every file with its rank, role, content id, bytes,
tokens and status, the totals and ctx_digest) beside the workspace, fitted
to the budget: the highest-ranked evidence gives way first, system and user
files never.`

// NewCmdEvidence is 'ctxpack evidence', the group, with its flag --ctx
// that every subcommand reads.
func NewCmdEvidence(f *cmdutil.Factory) *cobra.Command {
	cmd := &cobra.Command{
		Use:     "evidence",
		Aliases: []string{"ev"},
		Short:   "Curate an evidence workspace (ctx/) and assemble it into prompt.mdctx",
		Long:    evidenceLong,
		Example: `  ctxpack evidence add internal/pack/assemble.go::46,100#fit
  echo "Fix the budget overflow in Assemble" | ctxpack evidence add - --role user
  ctxpack evidence status
  ctxpack evidence toggle off 300-399
  ctxpack evidence rank 110_assemble_go 105
  ctxpack evidence focus "overflow strategies"
  ctxpack evidence ask "what is missing for overflow strategies?"
  ctxpack evidence assemble --budget 8000
  eval "$(ctxpack evidence env)"; grep -n func "$e1"`,
		Args: cmdutil.NoArgs,
		RunE: func(cmd *cobra.Command, args []string) error { return cmd.Help() },
	}
	cmd.PersistentFlags().String("ctx", app.DefaultWorkspace, "the workspace `DIR`, inside the project")
	cmd.AddCommand(
		NewCmdAdd(f, nil), NewCmdStatus(f, nil), NewCmdPlan(f, nil), NewCmdBudget(f, nil),
		NewCmdToggle(f, nil), NewCmdRank(f, nil), NewCmdRebase(f, nil), NewCmdRemove(f, nil),
		NewCmdFocus(f, nil), NewCmdDeps(f, nil), NewCmdStale(f, nil), NewCmdAsk(f, nil), NewCmdEnv(f, nil),
		NewCmdAssemble(f, nil),
	)
	return cmd
}

// WorkspaceOptions are what every evidence command holds: the streams,
// the global flags, the project, and the workspace.
type WorkspaceOptions struct {
	IO      *cmdutil.IOStreams
	Globals *cmdutil.Globals
	Project func() (*app.Project, error) // prints the configuration's warnings

	Dir string // --ctx: the workspace's folder, inside the project
}

func workspaceOptions(f *cmdutil.Factory) WorkspaceOptions {
	return WorkspaceOptions{IO: f.IOStreams, Globals: f.Globals, Project: f.ProjectWarn}
}

// readDir reads --ctx, the flag of the evidence command that cmd is under.
func (o *WorkspaceOptions) readDir(cmd *cobra.Command) {
	o.Dir = app.DefaultWorkspace
	if fl := cmd.Flag("ctx"); fl != nil {
		o.Dir = fl.Value.String()
	}
}

// open opens the project (printing its configuration's warnings) and the
// workspace; exists requires the workspace to be there.
func (o *WorkspaceOptions) open(exists bool) (*app.Project, *app.Workspace, error) {
	p, err := o.Project()
	if err != nil {
		return nil, nil, err
	}
	ws, err := p.Workspace(o.Dir)
	if err != nil {
		return nil, nil, cmdutil.WrapUsage(err)
	}
	if exists && !ws.Exists() {
		return nil, nil, fmt.Errorf("evidence: %s: no such workspace (ctxpack evidence add SELECTOR creates it; --ctx DIR names another)", ws.Shown)
	}
	return p, ws, nil
}

// advice adds the commands' advice to the errors the workspace leaves it
// to front ends to advise on.
func advice(err error) error {
	var taken *app.RankTakenError
	var link *app.LinkActiveError
	switch {
	case errors.As(err, &taken):
		return fmt.Errorf("%w (give another --rank, or run ctxpack evidence rebase)", err)
	case errors.As(err, &link):
		return fmt.Errorf("%w (ctxpack evidence remove %s takes it out)", err, link.ID)
	}
	return err
}

// PlanOptions are the options of the commands that assemble the
// workspace: status, plan, budget, and within AssembleOptions assemble.
type PlanOptions struct {
	WorkspaceOptions
	Overflow string
	Depth    string
	FlowID   string // --flow-id: the flow's name in prompt.mdctx's header
	NoRedact bool   // --no-redact: secrets left in the output
}

func (o *PlanOptions) addFlags(fs *pflag.FlagSet) {
	fs.StringVar(&o.Overflow, "overflow", "", "what happens to evidence that does not fit: degrade (default: the\nhighest-ranked evidence is shown as a stub, then dropped), drop, truncate,\nerror, allow")
	fs.StringVar(&o.Depth, "depth", "", "highest `LEVEL` to show: meta (stubs only) or full (default)")
	fs.StringVar(&o.FlowID, "flow-id", "", "the flow's `NAME` in prompt.mdctx's header (default: the workspace's path)")
	fs.BoolVar(&o.NoRedact, "no-redact", false, cmdutil.NoRedactUsage)
}

// planCommand completes cmd, which has its name and help, as a command
// over PlanOptions: it takes no arguments, has the assembly flags, and
// runs run unless runF is given.
func planCommand(f *cmdutil.Factory, cmd *cobra.Command, runF func(*PlanOptions) error, run func(context.Context, *PlanOptions) error) *cobra.Command {
	o := &PlanOptions{WorkspaceOptions: workspaceOptions(f)}
	cmd.Args = cmdutil.NoArgs
	cmd.RunE = func(cmd *cobra.Command, args []string) error {
		o.readDir(cmd)
		if runF != nil {
			return runF(o)
		}
		return run(cmd.Context(), o)
	}
	o.addFlags(cmd.Flags())
	cmdutil.SetFormats(cmd, "text", "json")
	return cmd
}

// request is the assembly request of the global flags, overflow and
// depth.
func request(g *cmdutil.Globals, overflow, depth string, noRedact bool) (app.Request, error) {
	req := app.Request{Budget: g.Budget, Window: g.Window, Tokenizer: g.Tokenizer, Overflow: overflow, Depth: depth, NoRedact: noRedact}
	switch depth {
	case "", "meta", "stub", "full":
	default:
		return req, cmdutil.Usagef("--depth must be meta or full: evidence is shown whole or as a stub (got %q)", depth)
	}
	return req, g.BudgetFlags(&req)
}

// assemble assembles the workspace under the flags.
func (o *PlanOptions) assemble(ctx context.Context) (*app.Project, *app.Workspace, *app.EvidenceResult, error) {
	req, err := request(o.Globals, o.Overflow, o.Depth, o.NoRedact)
	if err != nil {
		return nil, nil, nil, err
	}
	p, ws, err := o.open(true)
	if err != nil {
		return nil, nil, nil, err
	}
	res, err := p.AssembleEvidence(ctx, ws, req, o.FlowID)
	if err != nil {
		return nil, nil, nil, err
	}
	return p, ws, res, nil
}

// show assembles the workspace and prints the plan under --format json,
// else what text writes.
func (o *PlanOptions) show(ctx context.Context, command string, text func(io.Writer, *app.Workspace, *app.EvidenceResult) error) error {
	if err := o.Globals.TextOrJSON(command); err != nil {
		return err
	}
	_, ws, res, err := o.assemble(ctx)
	if err != nil {
		return err
	}
	if o.Globals.JSON() {
		return writePlan(o.IO, res)
	}
	o.IO.WarnAll(res.Plan.Warnings)
	return text(o.IO.Out, ws, res)
}

// writePlan prints the plan, ctxplan.json.
func writePlan(ios *cmdutil.IOStreams, res *app.EvidenceResult) error {
	data, err := res.PlanJSON()
	if err != nil {
		return err
	}
	_, err = ios.Out.Write(data)
	return err
}

// sharePercent is n as a whole percentage of of.
func sharePercent(n, of int) string {
	if of <= 0 {
		return "-"
	}
	return strconv.Itoa((n*100+of/2)/of) + "%"
}
