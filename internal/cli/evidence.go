package cli

import (
	"context"
	"errors"
	"fmt"
	"io"
	"path/filepath"
	"strconv"
	"strings"
	"text/tabwriter"

	"github.com/ctxpack/ctxpack"
	"github.com/ctxpack/ctxpack/internal/cli/cmdutil"
	"github.com/ctxpack/ctxpack/internal/evidence"
	"github.com/spf13/cobra"
	"github.com/spf13/pflag"
)

// The evidence commands manage a ctx/ workspace (DESIGN §7, the mdctx
// seed): hand-picked, ranked role files assembled into build/prompt.mdctx
// and build/ctxplan.json.

// evidenceOptions are what every evidence command holds.
type evidenceOptions struct {
	g        *cmdutil.Globals
	ios      *cmdutil.IOStreams
	project  func() (*ctxpack.Project, error)
	dir      string // --ctx
	overflow string
	depth    string
	flowID   string
	index    cmdutil.IndexFlags
	noUpdate bool
}

// open opens the project (printing its configuration's warnings) and the
// workspace; exists requires the workspace to be there.
func (o *evidenceOptions) open(exists bool) (*ctxpack.Project, *ctxpack.Workspace, error) {
	p, err := o.project()
	if err != nil {
		return nil, nil, err
	}
	ws, err := p.Workspace(o.dir)
	if err != nil {
		return nil, nil, cmdutil.WrapUsage(err)
	}
	if exists && !ws.Exists() {
		return nil, nil, fmt.Errorf("evidence: %s: no such workspace (ctxpack evidence add SELECTOR creates it; --ctx DIR names another)", ws.Shown)
	}
	return p, ws, nil
}

// evidenceAdvice adds the commands' advice to the errors the workspace
// leaves it to front ends to advise on.
func evidenceAdvice(err error) error {
	var taken *evidence.RankTakenError
	var link *evidence.LinkActiveError
	switch {
	case errors.As(err, &taken):
		return fmt.Errorf("%w (give another --rank, or run ctxpack evidence rebase)", err)
	case errors.As(err, &link):
		return fmt.Errorf("%w (ctxpack evidence remove %s takes it out)", err, link.ID)
	}
	return err
}

// request is the assembly request of the global flags and --overflow.
func (o *evidenceOptions) request() (ctxpack.Request, error) {
	req := ctxpack.Request{Budget: o.g.Budget, Window: o.g.Window, Tokenizer: o.g.Tokenizer, Overflow: o.overflow, Depth: o.depth}
	switch o.depth {
	case "", "meta", "stub", "full":
	default:
		return req, cmdutil.Usagef("--depth must be meta or full: evidence is shown whole or as a stub (got %q)", o.depth)
	}
	return req, o.g.BudgetFlags(&req)
}

func (o *evidenceOptions) addAssembleFlags(fs *pflag.FlagSet) {
	fs.StringVar(&o.overflow, "overflow", "", "what happens to evidence that does not fit: degrade (default: the\nhighest-ranked evidence is shown as a stub, then dropped), drop, truncate,\nerror, allow")
	fs.StringVar(&o.depth, "depth", "", "highest `LEVEL` to show: meta (stubs only) or full (default)")
	fs.StringVar(&o.flowID, "flow-id", "", "the flow's `NAME` in prompt.mdctx's header (default: the workspace's path)")
}

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

func newCmdEvidence(f *cmdutil.Factory) *cobra.Command {
	o := &evidenceOptions{g: f.Globals, ios: f.IOStreams, project: f.ProjectWarn}
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
  ctxpack evidence assemble --budget 8000
  eval "$(ctxpack evidence env)"; grep -n func "$e1"`,
		Args: cmdutil.NoArgs,
		RunE: func(cmd *cobra.Command, args []string) error { return cmd.Help() },
	}
	cmd.PersistentFlags().StringVar(&o.dir, "ctx", ctxpack.DefaultWorkspace, "the workspace `DIR`, inside the project")
	cmd.AddCommand(
		newCmdEvidenceAdd(o), newCmdEvidenceStatus(o), newCmdEvidencePlan(o), newCmdEvidenceBudget(o),
		newCmdEvidenceToggle(o), newCmdEvidenceRank(o), newCmdEvidenceRebase(o), newCmdEvidenceRemove(o),
		newCmdEvidenceFocus(o), newCmdEvidenceDeps(o), newCmdEvidenceStale(o), newCmdEvidenceEnv(o),
		newCmdEvidenceAssemble(o),
	)
	return cmd
}

func newCmdEvidenceAdd(o *evidenceOptions) *cobra.Command {
	var ar ctxpack.AddRequest
	cmd := &cobra.Command{
		Use:   "add SELECTOR|-",
		Short: "Add a file, a span of lines or bytes, or text to the workspace",
		Long: `Add what SELECTOR selects to the workspace, as a file with its provenance.

SELECTOR is path[::range][#tags], relative to the project root: a whole
file, lines a,b, line a to the end, bytes ac,bc or ac to the end, with
optional comma-separated tags. Paths that leave the project, folders,
binary files and ranges past the end of the file are errors. "-" reads
text from standard input instead (a request, a policy).

The file is <rank>_<kind>.<role>.md: --rank defaults to ten past the
highest rank of the role's band (000-099 for system and user, 100-999 for
evidence), --kind to the file's name ("flow.sh" gives flow_sh). Evidence
goes into evidence/, system and user files at the top. --link writes a
.link file holding the selector instead: read afresh at each assembly,
always active, never stale.

It prints the file's size and tokens, the whole context's size with every
active file, and its share of the budget.`,
		Example: `  ctxpack evidence add core/flow.sh::100,200#flow,bug
  ctxpack evidence add docs/policy.md --role system --rank 0
  ctxpack evidence add - --role user < request.md
  ctxpack evidence add tests/flow_test.sh --rank 200
  ctxpack evidence add config/example.yaml --link`,
		Args: cmdutil.ExactArgs(1),
		RunE: func(cmd *cobra.Command, args []string) error {
			ar.Selector = args[0]
			rank := -1
			if cmd.Flags().Changed("rank") {
				r, err := evidence.ParseRank(cmd.Flag("rank").Value.String())
				if err != nil {
					return cmdutil.Usagef("--rank: %w", err)
				}
				rank = r
			}
			ar.Rank = rank
			if ar.Role != "" {
				if _, err := evidence.ParseRole(ar.Role); err != nil {
					return cmdutil.Usagef("--role: %w", err)
				}
			}
			if ar.Kind != "" && !evidence.ValidKind(ar.Kind) {
				return cmdutil.Usagef("--kind %q must be 1 to 64 of A-Z a-z 0-9 _ -", ar.Kind)
			}
			if ar.Selector == "-" {
				text, err := o.ios.ReadStdin("evidence add", "text")
				if err != nil {
					return err
				}
				ar.Text = text
			} else if _, err := evidence.ParseSelector(ar.Selector); err != nil {
				return cmdutil.WrapUsage(err)
			}
			return evidenceAddRun(cmd.Context(), o, ar)
		},
	}
	cmd.Flags().String("rank", "", "the file's `RANK`, 0 to 999 (default: the next of its role's band)")
	cmd.Flags().StringVar(&ar.Role, "role", "", "`ROLE`: system, user or evidence (default evidence)")
	cmd.Flags().StringVar(&ar.Kind, "kind", "", "the file's `KIND` (default from the file name)")
	cmd.Flags().BoolVar(&ar.Link, "link", false, "write a .link file that reads the selector afresh at each assembly")
	return cmd
}

func evidenceAddRun(ctx context.Context, o *evidenceOptions, ar ctxpack.AddRequest) error {
	req, err := o.request()
	if err != nil {
		return err
	}
	p, ws, err := o.open(false)
	if err != nil {
		return err
	}
	a, err := p.AddEvidence(ctx, ws, ar, req)
	if err != nil {
		return evidenceAdvice(err)
	}
	o.ios.WarnAll(a.Warnings)
	plan := a.Total.Plan
	if o.g.Format == "json" {
		return cmdutil.WriteJSON(o.ios.Out, map[string]any{
			"added": a.Path, "rank": evidence.RankString(a.Entry.Rank), "kind": a.Entry.Kind, "role": a.Entry.Role,
			"state": a.Entry.State, "bytes": a.Bytes, "tokens": a.Tokens,
			"total_bytes": plan.TotalBytes, "total_tokens": plan.TotalTokens, "budget": plan.Budget,
		})
	}
	what := "evidence"
	if a.Entry.Role != evidence.Evidence {
		what = string(a.Entry.Role) + " file"
	}
	if a.Entry.State == evidence.Linked {
		what = "link"
	}
	fmt.Fprintf(o.ios.Out, "✓ Added %s: %s\n", what, a.Path)
	fmt.Fprintf(o.ios.Out, "  Bytes: %d (%d tokens)\n", a.Bytes, a.Tokens)
	fmt.Fprintf(o.ios.Out, "  Total context: %d bytes (%d tokens)\n", plan.TotalBytes, plan.TotalTokens)
	fmt.Fprintf(o.ios.Out, "  Budget: %s of %d token limit\n", sharePercent(plan.TotalTokens, plan.Budget), plan.Budget)
	if plan.TotalTokens > plan.Budget {
		o.ios.Warn("the active files take %d tokens, over the budget of %d: assemble will degrade or drop the highest-ranked evidence (ctxpack evidence budget shows what)", plan.TotalTokens, plan.Budget)
	}
	return nil
}

// sharePercent is n as a whole percentage of of.
func sharePercent(n, of int) string {
	if of <= 0 {
		return "-"
	}
	return strconv.Itoa((n*100+of/2)/of) + "%"
}

// assembleFor assembles the workspace under the flags.
func (o *evidenceOptions) assembleFor(ctx context.Context) (*ctxpack.Project, *ctxpack.Workspace, *ctxpack.EvidenceResult, error) {
	req, err := o.request()
	if err != nil {
		return nil, nil, nil, err
	}
	p, ws, err := o.open(true)
	if err != nil {
		return nil, nil, nil, err
	}
	res, err := p.AssembleEvidence(ctx, ws, req, o.flowID)
	if err != nil {
		return nil, nil, nil, err
	}
	return p, ws, res, nil
}

func newCmdEvidenceStatus(o *evidenceOptions) *cobra.Command {
	cmd := &cobra.Command{
		Use:   "status",
		Short: "List the workspace's files: rank, role, state, tokens",
		Long: `List the workspace's files in assembly order with their rank, role, state
(active, skipped, linked), tokens and bytes, and the whole context's tokens
against the budget. TOKENS is what the file's section takes in
prompt.mdctx, measured alone; the total is counted on the assembled
prompt. --format json prints the plan (as 'evidence plan').`,
		Args: cmdutil.NoArgs,
		RunE: func(cmd *cobra.Command, args []string) error {
			return o.showPlan(cmd.Context(), "evidence status", writeStatus)
		},
	}
	o.addAssembleFlags(cmd.Flags())
	return cmd
}

// showPlan assembles the workspace and prints the plan under --format
// json, else what text writes.
func (o *evidenceOptions) showPlan(ctx context.Context, command string, text func(io.Writer, *ctxpack.Workspace, *ctxpack.EvidenceResult) error) error {
	if err := o.g.TextOrJSON(command); err != nil {
		return err
	}
	_, ws, res, err := o.assembleFor(ctx)
	if err != nil {
		return err
	}
	if o.g.Format == "json" {
		return writePlan(o.ios, res)
	}
	o.ios.WarnAll(res.Plan.Warnings)
	return text(o.ios.Out, ws, res)
}

func writePlan(ios *cmdutil.IOStreams, res *ctxpack.EvidenceResult) error {
	data, err := res.PlanJSON()
	if err != nil {
		return err
	}
	_, err = ios.Out.Write(data)
	return err
}

func writeStatus(w io.Writer, ws *ctxpack.Workspace, res *ctxpack.EvidenceResult) error {
	plan := res.Plan
	fmt.Fprintf(w, "%s: %d files, budget %d tokens (%s)\n", ws.Shown, len(plan.Parts), plan.Budget, plan.Tokenizer)
	if len(plan.Parts) == 0 {
		fmt.Fprintln(w, "(empty: ctxpack evidence add SELECTOR adds a file)")
		return nil
	}
	tw := tabwriter.NewWriter(w, 0, 0, 2, ' ', 0)
	fmt.Fprintln(tw, "RANK\tROLE\tSTATUS\tTOKENS\tBYTES\tFILE")
	active := 0
	for i, pt := range plan.Parts {
		file := res.Entries[i].Rel
		note := ""
		if pt.Source != "" {
			if sel, ok := evidence.FilePath(pt.Source); ok {
				note = "  " + sel
				if pt.Span != "" && pt.Span != "file" {
					note += " " + pt.Span
				}
			}
		}
		if pt.Reason != "" {
			note += "  (" + pt.Reason + ")"
		}
		if pt.Shown() {
			active++
		}
		fmt.Fprintf(tw, "%s\t%s\t%s\t%d\t%d\t%s%s\n", pt.Rank, pt.Role, pt.Status, pt.FullTokens, pt.Bytes, file, note)
	}
	if err := tw.Flush(); err != nil {
		return err
	}
	fmt.Fprintf(w, "Assembled: %d of %d files, %d bytes, %d tokens (%s of %d)\n", active, len(plan.Parts), plan.TotalBytes, plan.TotalTokens, sharePercent(plan.TotalTokens, plan.Budget), plan.Budget)
	return nil
}

func newCmdEvidencePlan(o *evidenceOptions) *cobra.Command {
	cmd := &cobra.Command{
		Use:   "plan",
		Short: "Print the assembly plan (ctxplan.json) without writing anything",
		Long: `Assemble the workspace as 'evidence assemble' would and print the plan,
ctxplan.json, without writing it: every file with its rank, kind, role,
URI, content id, bytes, tokens in the prompt, tokens whole, status (active,
linked, skipped, degraded, truncated, dropped) and why; the prompt's total
bytes and tokens; ctx_digest, which identifies the context whatever the
rank numbers or the workspace's place; and digest, sha256 of the prompt.`,
		Args: cmdutil.NoArgs,
		RunE: func(cmd *cobra.Command, args []string) error {
			_, _, res, err := o.assembleFor(cmd.Context())
			if err != nil {
				return err
			}
			o.ios.WarnAll(res.Plan.Warnings)
			return writePlan(o.ios, res)
		},
	}
	o.addAssembleFlags(cmd.Flags())
	return cmd
}

func newCmdEvidenceBudget(o *evidenceOptions) *cobra.Command {
	cmd := &cobra.Command{
		Use:   "budget",
		Short: "Show the tokens by role against the budget, and what would not fit",
		Long: `Show what the workspace's context takes: tokens by role, the total of the
assembled prompt against the budget, what is left, what assembly would
degrade, truncate or drop at this budget (with the budget each dropped file
needs), and what the skipped files would add.`,
		Args: cmdutil.NoArgs,
		RunE: func(cmd *cobra.Command, args []string) error {
			return o.showPlan(cmd.Context(), "evidence budget", writeEvidenceBudget)
		},
	}
	o.addAssembleFlags(cmd.Flags())
	return cmd
}

func writeEvidenceBudget(w io.Writer, _ *ctxpack.Workspace, res *ctxpack.EvidenceResult) error {
	plan := res.Plan
	byRole := map[string]int{}
	files := map[string]int{}
	var skipped, skippedTokens int
	var cut []ctxpack.EvidencePart
	parts := 0
	for _, pt := range plan.Parts {
		switch {
		case pt.Shown():
			byRole[pt.Role] += pt.Tokens
			files[pt.Role]++
			parts += pt.Tokens
		case pt.Status == ctxpack.StatusSkipped:
			skipped++
			skippedTokens += pt.FullTokens
		}
		if pt.Status == ctxpack.StatusDegraded || pt.Status == ctxpack.StatusTruncated || pt.Status == ctxpack.StatusDropped {
			cut = append(cut, pt)
		}
	}
	fmt.Fprintf(w, "Budget: %d tokens (%s)\n", plan.Budget, plan.Tokenizer)
	tw := tabwriter.NewWriter(w, 0, 0, 2, ' ', tabwriter.AlignRight)
	for _, r := range evidence.Roles() {
		fmt.Fprintf(tw, "  %s\t%d\t  (%d files)\t\n", r, byRole[string(r)], files[string(r)])
	}
	fmt.Fprintf(tw, "  header\t%d\t\t\n", plan.TotalTokens-parts) // the mdctx version line: section headings count with their parts
	fmt.Fprintf(tw, "  total\t%d\t  (%s)\t\n", plan.TotalTokens, sharePercent(plan.TotalTokens, plan.Budget))
	fmt.Fprintf(tw, "  left\t%d\t\t\n", max(plan.Budget-plan.TotalTokens, 0))
	if err := tw.Flush(); err != nil {
		return err
	}
	if len(cut) > 0 {
		fmt.Fprintf(w, "Not shown whole at this budget (--overflow %s):\n", plan.Overflow)
		for _, pt := range cut {
			need := ""
			if pt.NeedBudget > 0 {
				need = fmt.Sprintf("; fits from --budget %d", pt.NeedBudget)
			}
			fmt.Fprintf(w, "  %s_%s  %s, %d tokens whole (%s%s)\n", pt.Rank, pt.Kind, pt.Status, pt.FullTokens, pt.Reason, need)
		}
	}
	if skipped > 0 {
		fmt.Fprintf(w, "Skipped: %d files, %d tokens if turned on\n", skipped, skippedTokens)
	}
	if plan.Exceeded {
		fmt.Fprintf(w, "Over the budget by %d tokens.\n", plan.TotalTokens-plan.Budget)
	}
	return nil
}

func newCmdEvidenceToggle(o *evidenceOptions) *cobra.Command {
	return &cobra.Command{
		Use:   "toggle ID | toggle on|off ID|RANGE",
		Short: "Turn workspace files on or off (.md <-> .md.skip)",
		Long: `Turn files on or off by renaming them: <name>.md is active, <name>.md.skip
is skipped. 'toggle ID' flips one file; 'toggle on ID' and 'toggle off ID'
set it; 'toggle off 300-399' sets every file ranked 300 to 399. ID is a
file name, an id (100_flow_sh) or a rank that one file has. Links are
always active and are left as they are.`,
		Example: `  ctxpack evidence toggle 200_test_flow_sh
  ctxpack evidence toggle off 300-399
  ctxpack evidence toggle on 300_example`,
		Args: cmdutil.RangeArgs(1, 2),
		RunE: func(cmd *cobra.Command, args []string) error {
			var want evidence.State
			id := args[0]
			if len(args) == 2 {
				switch args[0] {
				case "on":
					want = evidence.Active
				case "off":
					want = evidence.Skipped
				default:
					return cmdutil.Usagef("evidence toggle: the first of two arguments is on or off (got %q)", args[0])
				}
				id = args[1]
			}
			_, ws, err := o.open(true)
			if err != nil {
				return err
			}
			entries, warnings, err := ws.List()
			if err != nil {
				return err
			}
			o.ios.WarnAll(warnings)
			done, err := ws.Toggle(entries, id, want)
			changed := 0
			for _, t := range done {
				if t.Note != "" {
					fmt.Fprintf(o.ios.Out, "  %s: %s; left as it is\n", t.From.ID(), t.Note)
					continue
				}
				changed++
				fmt.Fprintf(o.ios.Out, "✓ %s %s (%s)\n", evidence.OnOff(t.To.State), t.To.ID(), ws.ShownPath(t.To))
			}
			if err != nil {
				return evidenceAdvice(err)
			}
			if changed == 0 && len(done) > 1 {
				fmt.Fprintln(o.ios.Out, "nothing changed")
			}
			return nil
		},
	}
}

func newCmdEvidenceRank(o *evidenceOptions) *cobra.Command {
	return &cobra.Command{
		Use:   "rank ID RANK",
		Short: "Give a workspace file another rank",
		Long: `Give the file ID another rank (0 to 999) by renaming it: a lower rank is
assembled earlier and kept longer under a tight budget. The rank must be
free; 'evidence rebase' renumbers every file.`,
		Example: `  ctxpack evidence rank 100_flow_sh 50`,
		Args:    cmdutil.ExactArgs(2),
		RunE: func(cmd *cobra.Command, args []string) error {
			rank, err := evidence.ParseRank(args[1])
			if err != nil {
				return cmdutil.WrapUsage(err)
			}
			_, ws, err := o.open(true)
			if err != nil {
				return err
			}
			entries, warnings, err := ws.List()
			if err != nil {
				return err
			}
			o.ios.WarnAll(warnings)
			e, err := evidence.Find(entries, args[0])
			if err != nil {
				return err
			}
			ne, err := ws.SetRank(entries, e, rank)
			if err != nil {
				return evidenceAdvice(err)
			}
			fmt.Fprintf(o.ios.Out, "✓ %s is now %s (%s)\n", e.ID(), ne.ID(), ws.ShownPath(ne))
			return nil
		},
	}
}

func newCmdEvidenceRebase(o *evidenceOptions) *cobra.Command {
	return &cobra.Command{
		Use:   "rebase",
		Short: "Renumber the files ten apart, keeping their order",
		Long: `Renumber the workspace's files in rank order, keeping that order: 000,
010, 020… for ranks below 100 and 100, 110, 120… from 100 (closer together
when a band holds more files than fit ten apart). Nothing is renamed when
the ranks are so already.`,
		Args: cmdutil.NoArgs,
		RunE: func(cmd *cobra.Command, args []string) error {
			_, ws, err := o.open(true)
			if err != nil {
				return err
			}
			entries, warnings, err := ws.List()
			if err != nil {
				return err
			}
			o.ios.WarnAll(warnings)
			renamed, err := ws.Rebase(entries)
			if err != nil {
				return err
			}
			if len(renamed) == 0 {
				fmt.Fprintf(o.ios.Out, "%s: ranks already in order; nothing renamed\n", ws.Shown)
				return nil
			}
			for _, r := range renamed {
				fmt.Fprintf(o.ios.Out, "  %s -> %s\n", r.From.ID(), r.To.ID())
			}
			fmt.Fprintf(o.ios.Out, "✓ renumbered %d files\n", len(renamed))
			return nil
		},
	}
}

func newCmdEvidenceRemove(o *evidenceOptions) *cobra.Command {
	return &cobra.Command{
		Use:     "remove ID...",
		Aliases: []string{"rm"},
		Short:   "Delete workspace files",
		Args:    cmdutil.MinimumArgs(1),
		RunE: func(cmd *cobra.Command, args []string) error {
			_, ws, err := o.open(true)
			if err != nil {
				return err
			}
			entries, warnings, err := ws.List()
			if err != nil {
				return err
			}
			o.ios.WarnAll(warnings)
			removed, err := ws.Remove(entries, args)
			for _, e := range removed {
				fmt.Fprintf(o.ios.Out, "✓ removed %s\n", ws.ShownPath(e))
			}
			return err
		},
	}
}

func newCmdEvidenceFocus(o *evidenceOptions) *cobra.Command {
	var top int
	cmd := &cobra.Command{
		Use:   "focus QUERY | focus off",
		Short: "Turn off the evidence not relevant to QUERY; focus off turns it back on",
		Long: `Turn off the evidence files that are not relevant to QUERY, using the
repository index (brought up to date first unless --no-update): a file is
relevant when one of the query's --top hits overlaps the span it was made
from; a file with no project source when it holds half of the query's
terms. System and user files and links stay on. The files turned off are
recorded in the workspace (.focus); 'focus off' turns exactly those back
on. A new focus replaces the previous one: what that turned off is
weighed again. When nothing is relevant, nothing changes.`,
		Example: `  ctxpack evidence focus "error handling"
  ctxpack evidence focus off`,
		Args: cmdutil.MinimumArgs(1),
		RunE: func(cmd *cobra.Command, args []string) error {
			query := strings.Join(args, " ")
			if top <= 0 {
				return cmdutil.Usagef("--top must be positive (got %d)", top)
			}
			p, ws, err := o.open(true)
			if err != nil {
				return err
			}
			if query == "off" {
				on, warnings, err := p.FocusOff(ws)
				o.ios.WarnAll(warnings)
				if err != nil {
					return err
				}
				if len(on) == 0 && len(warnings) == 0 {
					fmt.Fprintln(o.ios.Out, "no focus is on")
					return nil
				}
				for _, f := range on {
					fmt.Fprintf(o.ios.Out, "✓ on %s\n", f)
				}
				return nil
			}
			idx, done := o.index.UpdateOptions(o.ios, o.noUpdate)
			defer done()
			rep, err := p.FocusEvidence(cmd.Context(), ws, query, top, idx)
			done()
			if err != nil {
				return err
			}
			o.ios.WarnAll(rep.Warnings)
			if len(rep.Restored) > 0 {
				fmt.Fprintf(o.ios.Out, "undid the previous focus: %d files back on\n", len(rep.Restored))
			}
			kept := 0
			for _, f := range rep.Files {
				mark := "off "
				if f.Kept {
					mark = "keep"
					kept++
				}
				fmt.Fprintf(o.ios.Out, "  %s %s: %s\n", mark, f.ID, f.Why)
			}
			fmt.Fprintf(o.ios.Out, "✓ focus on %q: %d evidence files kept, %d turned off (ctxpack evidence focus off restores them)\n", query, kept, len(rep.Files)-kept)
			return nil
		},
	}
	cmd.Flags().IntVar(&top, "top", 20, "how many of the query's best hits count (`N`)")
	o.index.Add(cmd.Flags())
	cmd.Flags().BoolVar(&o.noUpdate, "no-update", false, "use the index as it is, without bringing it up to date first")
	return cmd
}

func newCmdEvidenceDeps(o *evidenceOptions) *cobra.Command {
	cmd := &cobra.Command{
		Use:   "deps ID",
		Short: "Show what references what between a workspace file and the others",
		Long: `Show the references around the file ID, from the repository index
(brought up to date first unless --no-update): the names its span defines
and the lines of other workspace files that use them; the names it uses
that other workspace files define; and the names it uses that the project
defines where no workspace file reaches (evidence that may be missing).
Names defined in more than three places are not followed.`,
		Example: `  ctxpack evidence deps 100_flow_sh`,
		Args:    cmdutil.ExactArgs(1),
		RunE: func(cmd *cobra.Command, args []string) error {
			if err := o.g.TextOrJSON("evidence deps"); err != nil {
				return err
			}
			p, ws, err := o.open(true)
			if err != nil {
				return err
			}
			idx, done := o.index.UpdateOptions(o.ios, o.noUpdate)
			defer done()
			d, err := p.EvidenceDeps(cmd.Context(), ws, args[0], idx)
			done()
			if err != nil {
				return err
			}
			o.ios.WarnAll(d.Warnings)
			if o.g.Format == "json" {
				return cmdutil.WriteJSON(o.ios.Out, d)
			}
			w := o.ios.Out
			src := ""
			if d.Source != "" {
				src = " (" + d.Source + ")"
			}
			fmt.Fprintf(w, "%s%s\n", d.Entry, src)
			fmt.Fprintf(w, "  defines: %s\n", listOrNone(d.Defines))
			for _, r := range d.UsedBy {
				fmt.Fprintf(w, "  referenced by %s:%d (%s)\n", r.Entry, r.Line, r.Name)
			}
			for _, u := range d.Uses {
				fmt.Fprintf(w, "  uses %s in %s (%s:%d-%d)\n", u.Name, u.Entry, u.Path, u.Lines[0], u.Lines[1])
			}
			for _, u := range d.Outside {
				fmt.Fprintf(w, "  uses %s, defined at %s:%d-%d, in no workspace file\n", u.Name, u.Path, u.Lines[0], u.Lines[1])
			}
			if len(d.UsedBy)+len(d.Uses)+len(d.Outside) == 0 {
				fmt.Fprintln(w, "  no references found")
			}
			return nil
		},
	}
	o.index.Add(cmd.Flags())
	cmd.Flags().BoolVar(&o.noUpdate, "no-update", false, "use the index as it is, without bringing it up to date first")
	return cmd
}

func listOrNone(s []string) string {
	if len(s) == 0 {
		return "(nothing the index knows)"
	}
	return strings.Join(s, ", ")
}

func newCmdEvidenceStale(o *evidenceOptions) *cobra.Command {
	return &cobra.Command{
		Use:   "stale",
		Short: "List evidence whose source changed since it was added (exit 1 if any)",
		Long: `Compare every workspace file made from a project file with that file now,
by the content id of the span it selected, and list the ones that differ:
changed (the span's text is not what was added), or missing (the file is
gone, or the span now ends past it). It exits 1 when any is stale, so it can
guard a script. Files written by hand or from text have no source to
compare; links read their file afresh and are never stale.`,
		Args: cmdutil.NoArgs,
		RunE: func(cmd *cobra.Command, args []string) error {
			if err := o.g.TextOrJSON("evidence stale"); err != nil {
				return err
			}
			p, ws, err := o.open(true)
			if err != nil {
				return err
			}
			rep, err := p.StaleEvidence(ws)
			if err != nil {
				return err
			}
			o.ios.WarnAll(rep.Warnings)
			if o.g.Format == "json" {
				if err := cmdutil.WriteJSON(o.ios.Out, rep); err != nil {
					return err
				}
			} else {
				for _, s := range rep.Stale {
					detail := ""
					if s.Detail != "" {
						detail = ": " + s.Detail
					}
					fmt.Fprintf(o.ios.Out, "%s: %s %s%s\n", s.Path, s.Reason, s.Selector, detail)
				}
				fmt.Fprintf(o.ios.Out, "%d stale of %d checked (%d without a source, %d links)\n", len(rep.Stale), rep.Checked, rep.Untracked, rep.Links)
			}
			if len(rep.Stale) > 0 {
				return cmdutil.SilentError{Code: cmdutil.ExitFailure}
			}
			return nil
		},
	}
}

func newCmdEvidenceEnv(o *evidenceOptions) *cobra.Command {
	var absolute bool
	cmd := &cobra.Command{
		Use:   "env",
		Short: "Print shell exports of the evidence files, for eval",
		Long: `Print "export" lines for a POSIX shell: EVIDENCE_COUNT, the number of
active and linked evidence files, and e1, e2… each one's path in assembly
order, relative to the current directory (--absolute for absolute paths);
FLOW_DIR, the folder that holds the workspace and build/.`,
		Example: `  eval "$(ctxpack evidence env)"
  grep -n "func" "$e1"; diff "$e1" "$e3"`,
		Args: cmdutil.NoArgs,
		RunE: func(cmd *cobra.Command, args []string) error {
			_, ws, err := o.open(true)
			if err != nil {
				return err
			}
			entries, warnings, err := ws.List()
			if err != nil {
				return err
			}
			o.ios.WarnAll(warnings)
			base, err := o.g.Base()
			if err != nil {
				return err
			}
			shown := func(abs string) string {
				if absolute {
					return abs
				}
				if rel, err := filepath.Rel(base, abs); err == nil {
					return rel
				}
				return abs
			}
			var lines []string
			n := 0
			for _, e := range entries {
				if e.Role != evidence.Evidence || e.State == evidence.Skipped {
					continue
				}
				n++
				lines = append(lines, fmt.Sprintf("export e%d=%s", n, shellQuote(shown(filepath.Join(ws.Dir, filepath.FromSlash(e.Rel))))))
			}
			fmt.Fprintf(o.ios.Out, "export FLOW_DIR=%s\n", shellQuote(shown(filepath.Dir(ws.Dir))))
			fmt.Fprintf(o.ios.Out, "export EVIDENCE_COUNT=%d\n", n)
			for _, l := range lines {
				fmt.Fprintln(o.ios.Out, l)
			}
			return nil
		},
	}
	cmd.Flags().BoolVar(&absolute, "absolute", false, "print absolute paths")
	return cmd
}

// shellQuote quotes s for a POSIX shell.
func shellQuote(s string) string {
	if s != "" && strings.Trim(s, "abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789_./-") == "" {
		return s
	}
	return "'" + strings.ReplaceAll(s, "'", `'\''`) + "'"
}

func newCmdEvidenceAssemble(o *evidenceOptions) *cobra.Command {
	var out string
	var dryRun bool
	cmd := &cobra.Command{
		Use:   "assemble",
		Short: "Write build/prompt.mdctx and build/ctxplan.json from the workspace",
		Long: `Assemble the workspace's active and linked files, fitted to the budget,
and write build/prompt.mdctx and build/ctxplan.json beside the workspace
(--out DIR for another folder in the project).

prompt.mdctx starts with <!-- mdctx:version=1.0; flow_id=…; assembly=role,rank -->,
then # System (the system files in rank order), # User Request (the user
files), and one ## Evidence: path section per evidence file, with a comment
naming the workspace file and its content id. Under a budget the engine's
overflow strategies apply (--overflow; default degrade): the highest-ranked
evidence is shown as a stub, then dropped, first; system and user files are
never dropped (if they alone exceed the budget, it fails and says so).
ctxplan.json lists every file with its status and why (see 'evidence plan').
The same workspace gives the same bytes, wherever it is.`,
		Example: `  ctxpack evidence assemble --budget 8000
  ctxpack evidence assemble --overflow truncate --flow-id fix-parser
  ctxpack evidence assemble --dry-run | less`,
		Args: cmdutil.NoArgs,
		RunE: func(cmd *cobra.Command, args []string) error {
			p, ws, res, err := o.assembleFor(cmd.Context())
			if err != nil {
				return err
			}
			o.ios.WarnAll(res.Plan.Warnings)
			if dryRun {
				_, err := o.ios.Out.Write(res.Prompt)
				return err
			}
			prompt, plan, err := p.WriteEvidence(ws, res, out)
			if err != nil {
				return err
			}
			shown := 0
			for _, pt := range res.Plan.Parts {
				if pt.Shown() {
					shown++
				}
			}
			fmt.Fprintf(o.ios.Out, "✓ wrote %s (%d bytes, %d tokens, %s of %d) and %s\n", prompt, res.Plan.TotalBytes, res.Plan.TotalTokens, sharePercent(res.Plan.TotalTokens, res.Plan.Budget), res.Plan.Budget, plan)
			fmt.Fprintf(o.ios.Out, "  %d of %d files assembled; ctx_digest %s\n", shown, len(res.Plan.Parts), res.Plan.CtxDigest)
			return nil
		},
	}
	o.addAssembleFlags(cmd.Flags())
	cmd.Flags().StringVar(&out, "out", "", "write into `DIR` (in the project) instead of build/ beside the workspace")
	cmd.Flags().BoolVar(&dryRun, "dry-run", false, "print prompt.mdctx instead of writing the files")
	return cmd
}

// exportEvidence writes an assembly into a new workspace (context
// --to-evidence DIR).
func exportEvidence(ios *cmdutil.IOStreams, p *ctxpack.Project, dir string, plan *ctxpack.Plan) error {
	ws, err := p.Workspace(dir)
	if err != nil {
		return cmdutil.WrapUsage(err)
	}
	rep, err := p.ExportEvidence(ws, plan)
	if err != nil {
		return err
	}
	ios.WarnAll(rep.Warnings)
	for _, s := range rep.Skipped {
		ios.Warn("not exported: %s", s)
	}
	for _, w := range rep.Written {
		fmt.Fprintf(ios.Out, "  %s\n", w)
	}
	reduced := ""
	if rep.Reduced > 0 {
		reduced = fmt.Sprintf("; %d parts the assembly showed below full are whole here", rep.Reduced)
	}
	fmt.Fprintf(ios.Out, "✓ exported %d files into %s%s (ctxpack evidence status --ctx %s)\n", len(rep.Written), rep.Workspace, reduced, rep.Workspace)
	return nil
}
