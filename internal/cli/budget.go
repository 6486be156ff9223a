package cli

import (
	"bytes"
	"context"
	"fmt"
	"io"
	"strings"
	"time"
	"unicode/utf8"

	"github.com/ctxpack/ctxpack/internal/app"
	"github.com/ctxpack/ctxpack/internal/cli/cmdutil"
	"github.com/spf13/cobra"
)

// BudgetOptions are the options of 'ctxpack budget': an assembly's, and
// whether to make it and show where the tokens went.
type BudgetOptions struct {
	AssembleOptions
	ShowAllocation bool
}

const budgetLong = `Print the budget of an assembly of TARGET: how the tokens are divided before
anything is fitted, and with --show-allocation where they went.

TARGET is what 'ctxpack context' takes: an artifact id (links mode), a file
or directory (pack mode), free text (retrieval mode), or - to read the query
from standard input. The assembly flags are those of 'ctxpack context'.

The arithmetic: with --window W the available budget is W less the reserves
(--reserves SYSTEM,QUERY,RESPONSE, default 200,100,500: system prompts, the
query, and output generation); with --budget N it is N. Retrieval mode
divides the available budget into the configured tiers (default primary 50%,
supporting 30%, reference 15%, history 5%): a tier's allocation is
floor(available × share / sum of shares). A retrieved part goes to the first
tier whose threshold its relevance reaches (0.7, 0.5, 0.3, else history).
The engine fills the tiers side by side in proportion to their shares, and a
tier that runs out of parts passes its share on, so a tier can use more than
its allocation. Links and pack mode have one tier, CONTEXT, with all of it.

Without --show-allocation, only the arithmetic is printed; nothing is
assembled. With --show-allocation the assembly is made (from the cache when
it has it), its budget record is appended to .ctxpack/records.jsonl (unless
--no-record), and each tier is shown with its parts (File, Lines, Level,
Tokens, Relevance), its subtotal and the share of its allocation it used,
then a summary:

  Total Used    tokens of the whole output, headers included
  Utilization   Total Used / available budget
  Efficiency    tokens of parts with relevance >= 0.3 (the aiwg seed's
                include_minimum) / tokens of all parts; in links mode every
                part was reached by a link and counts, as does a part with no
                score
  Overflow      the overflow strategy, when it had to act, and each part it
                lowered to a smaller level, truncated or dropped

--format json prints {"task", "mode", "tokenizer", "allocation"} and, with
--show-allocation, "record": the budget record ('ctxpack report' reads them).`

// NewCmdBudget is 'ctxpack budget TARGET|-': how an assembly's budget is
// divided, and with --show-allocation where it went.
func NewCmdBudget(f *cmdutil.Factory, runF func(*BudgetOptions) error) *cobra.Command {
	o := &BudgetOptions{AssembleOptions: assembleOptions(f)}
	cmd := &cobra.Command{
		Use:   "budget TARGET|-",
		Short: "Show how the budget of an assembly is allocated, and where it went",
		Long:  budgetLong,
		Example: `  ctxpack budget TASK-042 --window 128000
  ctxpack budget "invoice rounding drifts" --budget 8000 --show-allocation
  ctxpack budget src/ --budget 4000 --show-allocation --format json
  echo "why does the cache miss" | ctxpack budget - --show-allocation`,
		Args:        cmdutil.ExactArgs(1),
		Annotations: cmdutil.ArgHelp("TARGET", "a task id, a path, or free text; - reads it from standard input"),
		RunE: func(cmd *cobra.Command, args []string) error {
			o.Target = args[0]
			if runF != nil {
				return runF(o)
			}
			return budgetRun(cmd.Context(), o)
		},
	}
	fs := cmd.Flags()
	fs.BoolVar(&o.ShowAllocation, "show-allocation", false, "assemble, and show each tier's parts, the subtotals and a summary")
	o.addFlags(fs)
	o.addVerboseFlag(fs)
	o.addLinkFlags(fs)
	o.addRetrieveFlags(fs)
	o.addRecordFlags(fs, true)
	cmdutil.SetFormats(cmd, "text", "json")
	return cmd
}

// budgetDoc is the json format.
type budgetDoc struct {
	Task       string            `json:"task"`
	Mode       string            `json:"mode"`
	Tokenizer  string            `json:"tokenizer"`
	Allocation *app.Allocation   `json:"allocation"`
	Record     *app.BudgetRecord `json:"record,omitempty"`
}

func budgetRun(ctx context.Context, o *BudgetOptions) error {
	format := o.Globals.Format
	if err := o.Globals.TextOrJSON("budget"); err != nil {
		return err
	}
	// The assembly is made in the configured format, as 'context' makes
	// it: --format says how to print the budget, not the context.
	g := *o.Globals
	g.Format = ""
	ao := o.AssembleOptions
	ao.Globals = &g
	task := o.Target
	if o.Target == "-" {
		if err := ao.readQuery("budget"); err != nil {
			return err
		}
		task = strings.TrimSpace(ao.stdinQuery) // the assembly retrieves for ao.stdinQuery
	}
	req, err := ao.request()
	if err != nil {
		return err
	}
	doc := budgetDoc{Task: task}
	var rec *app.BudgetRecord
	if o.ShowAllocation {
		res, p, err := ao.assemble(ctx, req, io.Discard) // budget never asks for a pack: it has a target
		if err != nil {
			return err
		}
		a, err := p.Allocation(req, res.Plan.Mode)
		if err != nil {
			return err
		}
		r := a.Record(&res.Plan, time.Now()) // the clock reaches the record only, never the output
		if !o.NoRecord {
			if err := p.AppendRecord(r); err != nil {
				o.IO.Warn("not recorded: %v", strings.TrimPrefix(err.Error(), "ctxpack: "))
			}
		}
		o.IO.WarnSkipped(res.Plan.Warnings, res.Plan.Skipped, o.Verbose)
		rec, doc.Allocation, doc.Mode, doc.Tokenizer = &r, a, res.Plan.Mode, res.Plan.Tokenizer
	} else {
		p, err := o.Project()
		if err != nil {
			return err
		}
		o.IO.WarnAll(p.Warnings) // nothing is assembled to bring them
		if doc.Mode, err = p.TargetMode(o.Target); err != nil {
			return err // a *app.TargetError is a usage error (cmdutil.IsUsage)
		}
		if doc.Allocation, err = p.Allocation(req, doc.Mode); err != nil {
			return err
		}
		tok, err := p.Tokenizer(req.Tokenizer)
		if err != nil {
			return err
		}
		doc.Tokenizer = tok.Name()
	}
	var out bytes.Buffer
	if format == "json" {
		doc.Record = rec
		if err := cmdutil.WriteJSON(&out, doc); err != nil {
			return err
		}
	} else {
		writeBudget(&out, doc, rec)
	}
	_, err = o.IO.Out.Write(out.Bytes())
	return err
}

const rule = "================================================================================"

// writeBudget prints the allocation in the aiwg seed's format, with the
// parts of each tier when there is a record.
func writeBudget(w *bytes.Buffer, d budgetDoc, rec *app.BudgetRecord) {
	a := d.Allocation
	title := "CONTEXT BUDGET"
	if rec != nil {
		title = "CONTEXT BUDGET ALLOCATION"
	}
	fmt.Fprintf(w, "%s\n%s\n%s\n", rule, title, rule)
	fmt.Fprintf(w, "Task: %q\n", oneLine(d.Task, 200))
	fmt.Fprintf(w, "Mode: %s\n", d.Mode)
	fmt.Fprintf(w, "Tokenizer: %s\n", d.Tokenizer)
	switch {
	case a.Budget == 0:
		fmt.Fprintf(w, "Total Budget: none (--overflow allow with no budget: everything at the requested depth)\n")
	case a.Window > 0:
		fmt.Fprintf(w, "Total Budget: %s tokens (the window)\n", thousands(a.Window))
	default:
		fmt.Fprintf(w, "Total Budget: %s tokens\n", thousands(a.Budget))
	}
	fmt.Fprintf(w, "\nALLOCATION:\n")
	if a.Reserves != nil {
		fmt.Fprintf(w, "Reserved:\n- Output generation: %s tokens\n- System prompts: %s tokens\n- Query: %s tokens\n",
			thousands(a.Reserves.Response), thousands(a.Reserves.System), thousands(a.Reserves.Query))
	} else {
		fmt.Fprintf(w, "Reserved: none (--window W keeps reserves back from a window)\n")
	}
	if a.Budget == 0 {
		fmt.Fprintf(w, "- Available: unlimited\n")
	} else {
		fmt.Fprintf(w, "- Available: %s tokens\n", thousands(a.Budget))
	}
	for i, t := range a.Tiers {
		bound := ""
		if d.Mode == "retrieval" {
			bound = ", the rest"
			if i < len(a.Tiers)-1 {
				bound = ", relevance >= " + number(t.Threshold)
			}
		}
		head := fmt.Sprintf("%s (%s%% = %s tokens%s)", tierTitle(t.Name), number(t.Share), thousands(t.Tokens), bound)
		if a.Budget == 0 {
			head = fmt.Sprintf("%s (%s%%, no limit%s)", tierTitle(t.Name), number(t.Share), bound)
		}
		if rec == nil {
			if i == 0 {
				w.WriteString("\n")
			}
			fmt.Fprintf(w, "%s\n", head)
			continue
		}
		fmt.Fprintf(w, "\n%s:\n", head)
		var tier app.BudgetTier
		for _, rt := range rec.Allocation {
			if rt.Name == t.Name {
				tier = rt
			}
		}
		writeTierTable(w, tier)
		if tier.FilesOmitted > 0 {
			fmt.Fprintf(w, "… and %s more parts, not listed\n", thousands(tier.FilesOmitted))
		}
		used := "-"
		if t.Tokens > 0 {
			used = fmt.Sprintf("%.0f%%", float64(tier.TotalTokens)/float64(t.Tokens)*100)
		}
		fmt.Fprintf(w, "Subtotal: %s tokens (%s of allocation)\n", thousands(tier.TotalTokens), used)
	}
	if rec == nil {
		return
	}
	fmt.Fprintf(w, "\nSUMMARY:\nTotal Used: %s tokens\n", thousands(rec.TotalTokens))
	if a.Budget > 0 {
		fmt.Fprintf(w, "Total Available: %s tokens\n", thousands(a.Budget))
		fmt.Fprintf(w, "Utilization: %s\n", percent(rec.Metrics.Utilization))
	} else {
		fmt.Fprintf(w, "Total Available: unlimited\nUtilization: -\n")
	}
	fmt.Fprintf(w, "Efficiency: %s (tokens of parts with relevance >= %s / tokens of all parts)\n", percent(rec.Metrics.Efficiency), number(app.RelevanceMinimum))
	ov := overflowLines(*rec)
	fmt.Fprintf(w, "Overflow: %s\n", ov[0])
	for _, l := range ov[1:] {
		fmt.Fprintf(w, "%s\n", l)
	}
	switch {
	case a.Budget > 0 && rec.TotalTokens > a.Budget:
		fmt.Fprintf(w, "Status: over budget (overflow %s lets the output exceed it)\n", rec.Overflow.StrategyApplied)
	case rec.Overflow.Occurred:
		fmt.Fprintf(w, "Status: within budget, after overflow handling\n")
	default:
		fmt.Fprintf(w, "Status: within budget, no overflow handling needed\n")
	}
}

// writeTierTable draws a tier's parts as a box table.
func writeTierTable(w *bytes.Buffer, t app.BudgetTier) {
	if len(t.Files) == 0 {
		fmt.Fprintf(w, "(no parts)\n")
		return
	}
	rows := [][]string{{"File", "Lines", "Level", "Tokens", "Relevance"}}
	for _, f := range t.Files {
		lines, rel := "-", "-"
		if f.Lines != nil {
			lines = fmt.Sprintf("%d-%d", f.Lines[0], f.Lines[1])
		}
		if f.Relevance != nil {
			rel = fmt.Sprintf("%.6f", *f.Relevance) // exact: scores are quantized to 1e-6
		}
		rows = append(rows, []string{f.Path, lines, f.Level, thousands(f.Tokens), rel})
	}
	width := make([]int, len(rows[0]))
	for _, r := range rows {
		for i, c := range r {
			width[i] = max(width[i], utf8.RuneCountInString(c))
		}
	}
	line := func(l, m, r string) {
		w.WriteString(l)
		for i, n := range width {
			if i > 0 {
				w.WriteString(m)
			}
			w.WriteString(strings.Repeat("─", n+2))
		}
		w.WriteString(r + "\n")
	}
	right := []bool{false, false, false, true, true}
	row := func(r []string) {
		for i, c := range r {
			pad := strings.Repeat(" ", width[i]-utf8.RuneCountInString(c))
			if right[i] {
				c = pad + c
			} else {
				c += pad
			}
			w.WriteString("│ " + c + " ")
		}
		w.WriteString("│\n")
	}
	line("┌", "┬", "┐")
	row(rows[0])
	line("├", "┼", "┤")
	for _, r := range rows[1:] {
		row(r)
	}
	line("└", "┴", "┘")
}

// tierTitle is the heading of a tier: "PRIMARY CONTEXT", and "CONTEXT" for
// the single tier of links and pack mode.
func tierTitle(name string) string {
	if name == "context" {
		return "CONTEXT"
	}
	return strings.ToUpper(name) + " CONTEXT"
}
