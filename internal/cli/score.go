package cli

import (
	"bytes"
	"context"
	"fmt"
	"strings"

	"github.com/ctxpack/ctxpack/internal/app"
	"github.com/ctxpack/ctxpack/internal/cli/cmdutil"
	"github.com/spf13/cobra"
)

// ScoreOptions are the options of 'ctxpack score'.
type ScoreOptions struct {
	IO      *cmdutil.IOStreams
	Globals *cmdutil.Globals
	Project func() (*app.Project, error) // the configuration's warnings come with the score

	File     string
	Task     string
	Index    cmdutil.IndexFlags
	NoUpdate bool
}

const scoreLong = `Score one file against a task as retrieval mode ranks it, factor by factor.

--task is free text, an artifact id (its title and body are the query), or -
to read the task from standard input. FILE is a path of the project.

The relevance of a chunk is the weighted mean of the factors that have data
(the aiwg seed's, weights from retrieval.factors in the config):

  task_alignment    0.4  how well the chunk matches: half its fused rank
                         score (RRF over BM25, semantic and mention
                         rankings) over the best one, half its BM25
                         (and cosine) score over the best
  recency           0.2  0.5^(days older than the newest file / 7), from git
  mention_density   0.2  1 − Π(1 − w) over the paths (1 whole, 0.9 suffix,
                         0.6 file name) and defined identifiers (1 / the
                         number of definitions; half when another chunk of
                         the file defines it) the task names
  dependency_depth  0.1  1 − d/4 for a file d references away from the 3
                         best files (0 beyond 3)
  file_type         0.1  source 1.0, requirements 0.8, config and other 0.2,
                         tests and docs 0.1 (retrieval.file_types)

  relevance = Σ value × weight / Σ weight (over the factors with data)

A file's relevance is its best chunk's. The table shows each factor's value,
its share of the weights (weight / Σ weight) and its contribution (value ×
share); the contributions sum to the relevance, up to rounding to 1e-6.
Then the file's rank among the files retrieved for the task, the tier its
relevance places it in (primary >= 0.7, supporting >= 0.5, reference >= 0.3,
else history), and its best chunk. A file the ranking does not retrieve has
rank 0 and task alignment 0; its other factors are computed as they would be
for its best lexical match (or first chunk).

The index is brought up to date first (--no-update uses it as it is).
--format json prints the same as a JSON document.`

// NewCmdScore is 'ctxpack score FILE --task TASK': a file's relevance to a
// task, factor by factor.
func NewCmdScore(f *cmdutil.Factory, runF func(*ScoreOptions) error) *cobra.Command {
	o := &ScoreOptions{IO: f.IOStreams, Globals: f.Globals, Project: f.Project}
	cmd := &cobra.Command{
		Use:   "score FILE --task TASK",
		Short: "Show a file's relevance to a task, factor by factor",
		Long:  scoreLong,
		Example: `  ctxpack score src/billing/invoice/generator.py --task "invoice totals drift by a cent"
  ctxpack score internal/index/search.go --task TASK-042 --format json
  git log -1 --format=%B | ctxpack score cmd/main.go --task -`,
		Args:        cmdutil.ExactArgs(1),
		Annotations: cmdutil.ArgHelp("FILE", "the file to score"),
		RunE: func(cmd *cobra.Command, args []string) error {
			o.File = args[0]
			if runF != nil {
				return runF(o)
			}
			return scoreRun(cmd.Context(), o)
		},
	}
	fs := cmd.Flags()
	fs.StringVar(&o.Task, "task", "", "the task: free text, an artifact id, or - (standard input); required")
	fs.BoolVar(&o.NoUpdate, "no-update", false, "use the index as it is, without bringing it up to date first")
	o.Index.Add(fs)
	cmdutil.SetFormats(cmd, "text", "json")
	return cmd
}

// scoreDoc is the json format.
type scoreDoc struct {
	Path      string        `json:"path"`
	Task      string        `json:"task"`
	Relevance float64       `json:"relevance"`
	Rank      int           `json:"rank"`
	Files     int           `json:"files"`
	Tier      string        `json:"tier"`
	Factors   []scoreFactor `json:"factors"`
	Best      scoreChunk    `json:"best_chunk"`
}

type scoreFactor struct {
	Name         string   `json:"name"`
	Value        *float64 `json:"value"` // null without data
	Weight       float64  `json:"weight"`
	Share        float64  `json:"share"`
	Contribution float64  `json:"contribution"`
}

type scoreChunk struct {
	Path   string `json:"path"`
	Lines  [2]int `json:"lines"`
	Kind   string `json:"kind"`
	Symbol string `json:"symbol"`
}

func scoreRun(ctx context.Context, o *ScoreOptions) error {
	if err := o.Globals.TextOrJSON("score"); err != nil {
		return err
	}
	if o.Task == "-" {
		var err error
		if o.Task, err = o.IO.ReadStdin("score", "task"); err != nil {
			return err
		}
	}
	if strings.TrimSpace(o.Task) == "" {
		return cmdutil.Usagef("score: give the task: --task TEXT, --task ARTIFACT-ID or --task - (standard input)")
	}
	p, err := o.Project()
	if err != nil {
		return err
	}
	idx, done := o.Index.UpdateOptions(o.IO, o.NoUpdate)
	defer done()
	s, err := p.Score(ctx, o.File, o.Task, app.Request{Index: idx})
	if err != nil {
		return err
	}
	tiers, err := p.Tiers()
	if err != nil {
		return err
	}
	tier := app.TierFor(s.Relevance, tiers)
	doc := scoreDoc{
		Path: s.Path, Task: o.Task, Relevance: s.Relevance, Rank: s.Rank, Files: s.Files, Tier: tier.Name,
		Best: scoreChunk{Path: s.Best.Path, Lines: [2]int{s.Best.StartLine, s.Best.EndLine}, Kind: s.Best.Kind, Symbol: s.Best.Symbol},
	}
	for _, f := range s.Factors {
		sf := scoreFactor{Name: f.Name, Weight: f.Weight, Share: f.Share, Contribution: f.Contribution}
		if f.Present {
			v := f.Value
			sf.Value = &v
		}
		doc.Factors = append(doc.Factors, sf)
	}
	var out bytes.Buffer
	if o.Globals.JSON() {
		if err := cmdutil.WriteJSON(&out, doc); err != nil {
			return err
		}
	} else {
		fmt.Fprintf(&out, "%s for %q\n\n", s.Path, oneLine(o.Task, 100))
		table := func(cells ...any) {
			line := fmt.Sprintf("%-16s  %8s  %1s  %8s  %1s  %12s  %s", cells...)
			out.WriteString(strings.TrimRight(line, " ") + "\n")
		}
		table("factor", "value", "", "weight", "", "contribution", "configured")
		for _, f := range doc.Factors {
			if f.Value == nil {
				table(f.Name, "-", "", "-", "", "-", number(f.Weight)+" (no data: left out)")
				continue
			}
			table(f.Name, fmt.Sprintf("%.6f", *f.Value), "×", fmt.Sprintf("%.6f", f.Share), "=", fmt.Sprintf("%.6f", f.Contribution), number(f.Weight))
		}
		table("relevance", "", "", "", "", fmt.Sprintf("%.6f", s.Relevance), "")
		fmt.Fprintln(&out)
		if s.Rank > 0 {
			fmt.Fprintf(&out, "rank: %d of %d files retrieved\n", s.Rank, s.Files)
		} else {
			fmt.Fprintf(&out, "rank: not retrieved (%d files are)\n", s.Files)
		}
		bound := fmt.Sprintf("relevance >= %s", number(tier.Threshold))
		if tier.Name == tiers[len(tiers)-1].Name {
			bound = "below every other tier"
		}
		fmt.Fprintf(&out, "tier: %s (%s)\n", tier.Name, bound)
		sym := s.Best.Symbol
		if sym == "" {
			sym = s.Best.Kind
		}
		fmt.Fprintf(&out, "best chunk: %s:%d-%d %s\n", s.Best.Path, s.Best.StartLine, s.Best.EndLine, sym)
		fmt.Fprintf(&out, "\nweight = configured weight / sum of the configured weights of the factors with data\n")
	}
	o.IO.WarnAll(s.Warnings)
	_, err = o.IO.Out.Write(out.Bytes())
	return err
}
