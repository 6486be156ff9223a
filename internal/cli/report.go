package cli

import (
	"bytes"
	"fmt"
	"strings"
	"text/tabwriter"

	"github.com/ctxpack/ctxpack/internal/app"
	"github.com/ctxpack/ctxpack/internal/cli/cmdutil"
	"github.com/spf13/cobra"
)

// ReportOptions are the options of 'ctxpack report'.
type ReportOptions struct {
	IO      *cmdutil.IOStreams
	Globals *cmdutil.Globals
	Project func() (*app.Project, error) // prints the configuration's warnings

	Last int
}

const reportLong = `Print the budget records of the project's assemblies, oldest first, newest
last.

Every assembly made by 'ctxpack context', 'ctxpack pack' and 'ctxpack budget
--show-allocation' appends one record, the aiwg seed's context budget
record, to .ctxpack/records.jsonl under the project root: its time, mode,
target (free text cut to 200 characters), tokenizer, budget, each tier's
allocation and parts (path, lines, tokens, level, relevance), overflow
(whether the overflow strategy had to act, and which parts it lowered,
truncated or dropped), metrics, state root and digest; a record lists at
most 500 parts per tier and per kind of overflow, and counts the others.
Report reads the last 1000 records. The file is cut back to the newest
records when it passes 1250 of them or 10 MiB, and never holds more than
10 MiB. --no-record on those commands, or records: false in
.ctxpack/config.yaml, stops recording.

Each record is printed as a block: the time, mode and target; the budget,
tokens used, utilization (tokens used / budget) and efficiency (tokens of
parts with relevance >= 0.3 / tokens of all parts; every part in links
mode); the overflow; then each tier with its allocation and its parts:
tokens, level and relevance. Lines of the file that are not records are
skipped with a warning naming the line.

--format json prints {"records": [...]}, each record as stored.`

// NewCmdReport is 'ctxpack report': the budget records of past
// assemblies.
func NewCmdReport(f *cmdutil.Factory, runF func(*ReportOptions) error) *cobra.Command {
	o := &ReportOptions{IO: f.IOStreams, Globals: f.Globals, Project: f.ProjectWarn}
	cmd := &cobra.Command{
		Use:   "report",
		Short: "Show the budget records of past assemblies",
		Long:  reportLong,
		Example: `  ctxpack report
  ctxpack report --last 1 --format json
  ctxpack context "invoice rounding" --budget 4000 > ctx.txt && ctxpack report --last 1`,
		Args: cmdutil.NoArgs,
		RunE: func(cmd *cobra.Command, args []string) error {
			if runF != nil {
				return runF(o)
			}
			return reportRun(o)
		},
	}
	cmd.Flags().IntVar(&o.Last, "last", 10, "print the last `N` records (0: all)")
	cmdutil.SetFormats(cmd, "text", "json")
	return cmd
}

func reportRun(o *ReportOptions) error {
	if err := o.Globals.TextOrJSON("report"); err != nil {
		return err
	}
	if o.Last < 0 {
		return cmdutil.Usagef("report: --last must not be negative (got %d)", o.Last)
	}
	p, err := o.Project()
	if err != nil {
		return err
	}
	recs, bad, err := p.Records()
	if err != nil {
		return err
	}
	for _, b := range bad {
		o.IO.Warn("%s", strings.TrimPrefix(b.Error(), "record: "))
	}
	if o.Last > 0 && len(recs) > o.Last {
		recs = recs[len(recs)-o.Last:]
	}
	var out bytes.Buffer
	if o.Globals.JSON() {
		doc := struct {
			Records []app.BudgetRecord `json:"records"`
		}{Records: recs}
		if doc.Records == nil {
			doc.Records = []app.BudgetRecord{}
		}
		if err := cmdutil.WriteJSON(&out, doc); err != nil {
			return err
		}
	} else {
		for i, r := range recs {
			if i > 0 {
				out.WriteByte('\n')
			}
			writeRecord(&out, r)
		}
	}
	if len(recs) == 0 {
		fmt.Fprintf(o.IO.ErrOut, "ctxpack: report: no budget records in %s ('ctxpack context', 'pack' and 'budget --show-allocation' write them)\n", app.RecordsPath)
	}
	_, err = o.IO.Out.Write(out.Bytes())
	return err
}

// writeRecord prints one record as a block.
func writeRecord(w *bytes.Buffer, r app.BudgetRecord) {
	fmt.Fprintf(w, "%s  %s  %q\n", r.Timestamp, r.Mode, oneLine(r.Target, 200))
	budget := "no budget"
	if r.TotalBudget > 0 {
		budget = "budget " + thousands(r.TotalBudget)
		if r.Window > 0 && r.Reserves != nil {
			budget += fmt.Sprintf(" (window %s less reserves %s)", thousands(r.Window), thousands(r.Reserves.Total()))
		}
	}
	util := "-"
	if r.TotalBudget > 0 {
		util = percent(r.Metrics.Utilization)
	}
	fmt.Fprintf(w, "  %s, %s tokens used (%s), utilization %s, efficiency %s\n",
		budget, thousands(r.TotalTokens), r.Tokenizer, util, percent(r.Metrics.Efficiency))
	ov := overflowLines(r)
	fmt.Fprintf(w, "  overflow: %s\n", ov[0])
	for _, l := range ov[1:] {
		fmt.Fprintf(w, "    %s\n", l)
	}
	for _, t := range r.Allocation {
		parts := "parts"
		if len(t.Files) == 1 {
			parts = "part"
		}
		fmt.Fprintf(w, "  %s (%s%% = %s): %s tokens in %d %s\n", t.Name, number(t.Share), thousands(t.Allocated), thousands(t.TotalTokens), len(t.Files), parts)
		if len(t.Files) == 0 {
			continue
		}
		tw := tabwriter.NewWriter(w, 0, 0, 2, ' ', 0)
		for _, f := range t.Files {
			rel := "-"
			if f.Relevance != nil {
				rel = number(*f.Relevance)
			}
			fmt.Fprintf(tw, "    %s\t%s\t%s\t%s\n", f.Label(), thousands(f.Tokens), f.Level, rel)
		}
		tw.Flush()
		if t.FilesOmitted > 0 {
			fmt.Fprintf(w, "    … and %s more parts, not listed in the record\n", thousands(t.FilesOmitted))
		}
	}
	fmt.Fprintf(w, "  state root %s\n  digest %s\n", r.StateRoot, r.Digest)
}
