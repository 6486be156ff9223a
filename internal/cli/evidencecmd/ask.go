package evidencecmd

import (
	"context"
	"fmt"
	"io"
	"slices"
	"strings"

	"github.com/ctxpack/ctxpack/internal/app"
	"github.com/ctxpack/ctxpack/internal/cli/cmdutil"
	"github.com/spf13/cobra"
)

// AskOptions are the options of 'ctxpack evidence ask'.
type AskOptions struct {
	WorkspaceOptions
	Question string   // the arguments, joined by spaces
	Sections []string // --sections
	Top      int
	Index    cmdutil.IndexFlags
	NoUpdate bool
}

// NewCmdAsk is 'ctxpack evidence ask QUESTION'.
func NewCmdAsk(f *cmdutil.Factory, runF func(*AskOptions) error) *cobra.Command {
	o := &AskOptions{WorkspaceOptions: workspaceOptions(f)}
	cmd := &cobra.Command{
		Use:   "ask QUESTION",
		Short: "Ask what evidence covers a subject, what is missing for it, what is redundant",
		Long: `Answer a question about the workspace from its files, the repository index
(brought up to date first unless --no-update) and the engine's plan under the
budget, without a model; the same question gives the same answer.

  coverage    the evidence that answers the question's subject: one of the
              index's --top hits for it overlaps the file's span, or the file
              holds half of the subject's terms. Each with its span, the hits
              and the line of each term, and its status and tokens in the plan.
  gaps        the --top hits that no workspace file's span holds whole: each
              with the selector 'evidence add' takes, the tokens its section
              would take (counted with --tokenizer on what add would write)
              and prompt.mdctx's total with it against the budget.
  redundancy  the assembled evidence whose content another file covers: the
              same text, the same or a wider span of the same file, its text
              whole in the other's, or texts 90% alike by edit distance; with
              the tokens turning it off saves. Also the files whose spans
              share lines.

The question's words choose the sections: "cover", "answer", "relevant"
ask for coverage; "missing", "lack", "gap", "need" for gaps; "redundant",
"duplicate", "overlap", "repeat" for redundancy (not after "for", "about",
"to", "in"…, which start the subject); a bare subject ("error handling")
for coverage and gaps. --sections names them instead. The rest of the
question, without such words and English stop words, is its subject: what
the index is searched for. Nothing is written.`,
		Example: `  ctxpack evidence ask "what evidence covers error handling?"
  ctxpack evidence ask "what is missing for authentication?" --budget 8000
  ctxpack evidence ask "what evidence is redundant?"
  ctxpack evidence ask "retry backoff" --sections gaps --top 20 --format json`,
		Args: cmdutil.MinimumArgs(1),
		RunE: func(cmd *cobra.Command, args []string) error {
			o.readDir(cmd)
			o.Question = strings.Join(args, " ")
			if runF != nil {
				return runF(o)
			}
			return askRun(cmd.Context(), o)
		},
	}
	cmd.Flags().StringSliceVar(&o.Sections, "sections", nil, "answer the sections in `LIST` (coverage, gaps, redundancy), not those\nthe question's words choose")
	cmd.Flags().IntVar(&o.Top, "top", app.DefaultAskTop, "how many of the index's best hits for the subject are weighed (`N`)")
	o.Index.Add(cmd.Flags())
	cmd.Flags().BoolVar(&o.NoUpdate, "no-update", false, "use the index as it is, without bringing it up to date first")
	cmdutil.SetFormats(cmd, "text", "json")
	return cmd
}

func askRun(ctx context.Context, o *AskOptions) error {
	if err := o.Globals.TextOrJSON("evidence ask"); err != nil {
		return err
	}
	if o.Top <= 0 {
		return cmdutil.Usagef("--top must be positive (got %d)", o.Top)
	}
	for _, s := range o.Sections {
		if !slices.Contains(app.AskSections(), s) {
			return cmdutil.Usagef("--sections: %q is not one of %s", s, strings.Join(app.AskSections(), ", "))
		}
	}
	req, err := request(o.Globals, "", "", false)
	if err != nil {
		return err
	}
	p, ws, err := o.open(true)
	if err != nil {
		return err
	}
	idx, done := o.Index.UpdateOptions(o.IO, o.NoUpdate)
	defer done()
	req.Index = idx
	rep, err := p.AskEvidence(ctx, ws, app.AskRequest{Question: o.Question, Sections: o.Sections, Top: o.Top}, req)
	done()
	if err != nil {
		return err
	}
	o.IO.WarnAll(rep.Warnings)
	if o.Globals.JSON() {
		return cmdutil.WriteJSON(o.IO.Out, rep)
	}
	writeAsk(o.IO.Out, rep)
	return nil
}

// writeAsk prints evidence ask's answer as text: each section asked for,
// every answer with its reason.
func writeAsk(w io.Writer, r *app.AskReport) {
	fmt.Fprintf(w, "ask: %s\n", r.Question)
	if r.Subject != "" {
		fmt.Fprintf(w, "  subject %q (terms: %s)\n", r.Subject, strings.Join(r.Terms, ", "))
	}
	fmt.Fprintf(w, "  answering %s: %s\n", strings.Join(r.Sections, ", "), r.Chosen)
	for _, s := range r.Sections {
		switch s {
		case app.AskCoverage:
			fmt.Fprintf(w, "coverage: %d evidence %s\n", len(r.Coverage), plural(len(r.Coverage), "file answers", "files answer"))
			for _, c := range r.Coverage {
				where := c.Path
				if c.Source != "" {
					where = c.Source
				}
				fmt.Fprintf(w, "  %s  %s:%d-%d  %s, %d tokens\n", c.ID, where, c.Lines[0], c.Lines[1], c.Status, c.Tokens)
				fmt.Fprintf(w, "    %s\n", c.Why)
			}
		case app.AskGaps:
			fmt.Fprintf(w, "gaps: %d of the index's %d best hits %s in no workspace file\n", len(r.Gaps), r.Hits, plural(len(r.Gaps), "is", "are"))
			for _, g := range r.Gaps {
				fit := "does not fit"
				if g.Fits {
					fit = "fits"
				}
				fmt.Fprintf(w, "  %s  +%d tokens, %s (%d with it)\n", g.Selector, g.Tokens, fit, g.TotalTokens)
				fmt.Fprintf(w, "    %s\n", g.Why)
			}
		case app.AskRedundancy:
			fmt.Fprintf(w, "redundancy: %d evidence %s another covers\n", len(r.Redundant), plural(len(r.Redundant), "file", "files"))
			for _, d := range r.Redundant {
				fmt.Fprintf(w, "  %s  covered by %s (%s), saves %d tokens\n", d.ID, d.By, d.How, d.Saves)
				fmt.Fprintf(w, "    %s\n", d.Why)
			}
			for _, ov := range r.Overlaps {
				fmt.Fprintf(w, "  %s  overlaps %s: %s\n", ov.Entry, ov.Other, ov.Why)
			}
		}
	}
	budget := "no budget"
	if r.Budget > 0 {
		budget = fmt.Sprintf("of the budget of %d", r.Budget)
	}
	fmt.Fprintf(w, "prompt.mdctx: %d tokens %s, every active file shown (%s)\n", r.TotalTokens, budget, r.Tokenizer)
}

func plural(n int, one, many string) string {
	if n == 1 {
		return one
	}
	return many
}
