package cli

import (
	"bytes"
	"context"
	"fmt"
	"strings"
	"text/tabwriter"

	"github.com/ctxpack/ctxpack/internal/app"
	"github.com/ctxpack/ctxpack/internal/cli/cmdutil"
	"github.com/spf13/cobra"
)

// SearchOptions are the options of 'ctxpack search'.
type SearchOptions struct {
	IO      *cmdutil.IOStreams
	Globals *cmdutil.Globals
	Project func() (*app.Project, error) // prints the configuration's warnings

	Index    cmdutil.IndexFlags
	Query    string // the argument; "-" reads standard input
	K        int
	Files    bool
	Explain  bool
	NoUpdate bool
}

const searchLong = `Search the repository index for QUERY and print the best chunks, best first:

  internal/billing/invoice.go:12-30  RoundTotal  0.912345  symbol: round, total; body: invoice, total

QUERY is free text, identifiers, a stack trace or a whole bug report; "-"
reads it from standard input. Three rankings are fused by reciprocal rank
(RRF, k = 60):

  lexical   BM25 over code-aware terms (identifiers split on case, digits,
            underscores and hyphens, whole identifiers kept) in three
            fields: the chunk's symbol, its file's path, its text (4, 2, 1);
            English stop words (how, are, the…) are left out of the query
            unless it has nothing else
  semantic  cosine to the query's embedding, when an embedder is
            configured (embed: in .ctxpack/config.yaml)
  mentions  chunks that define an identifier the query names (snake_case,
            camelCase, name( or in backquotes), and files whose path or
            module the query names (a traceback's "File .../pkg/mod.py")

The score is the relevance of retrieval mode, in [0, 1]: the weighted mean
of the factors task_alignment (0.4; the fused rank and the best similarity),
mention_density (0.2), recency (0.2; git history), dependency_depth (0.1) and
file_type (0.1; source 1.0, requirements 0.8, config 0.2, tests and docs
0.1), leaving out factors with no data. Recency counts only for the chunks
whose relevance without it is within 0.1 of the best chunk's, and is 0 for
the others: it reorders what matches about as well, and never lifts what
changed lately above what matches better. retrieval: in the configuration
changes the weights. Scores are rounded to 1e-6; ties go to the path, then
to the chunk's position, so the order is always the same.

Before searching, the index is brought up to date as 'ctxpack index' would
(--no-update searches it as it is). --files prints one line per file, its
best chunk. --explain prints each factor's value × its share (its weight
over the sum of the weights of the factors with data) = its contribution;
the contributions sum to the score, up to rounding. Then the chunk's rank in
each ranking. --format json prints {"results": [{"path", "lines": [start,
end], "symbol", "kind", "score", "why"}]}, with "factors" ({"name",
"present", "value", "weight", "share", "contribution"}), "ranks" and
"signals" under --explain.`

// NewCmdSearch is 'ctxpack search QUERY|-': the best chunks of the
// repository index for a query.
func NewCmdSearch(f *cmdutil.Factory, runF func(*SearchOptions) error) *cobra.Command {
	o := &SearchOptions{IO: f.IOStreams, Globals: f.Globals, Project: f.ProjectWarn}
	cmd := &cobra.Command{
		Use:   "search QUERY|-",
		Short: "Search the repository index (BM25, embeddings and mentions, fused)",
		Long:  searchLong,
		Example: `  ctxpack search "invoice total rounding"
  ctxpack search HTTPServer --files --k 5
  echo "why does the cache miss after a rename" | ctxpack search - --format json`,
		Args:        cmdutil.ExactArgs(1),
		Annotations: cmdutil.ArgHelp("QUERY", "the text to search for; - reads it from standard input"),
		RunE: func(cmd *cobra.Command, args []string) error {
			o.Query = args[0]
			if runF != nil {
				return runF(o)
			}
			return searchRun(cmd.Context(), o)
		},
	}
	fs := cmd.Flags()
	fs.IntVar(&o.K, "k", 10, "print the best `N` results")
	fs.BoolVar(&o.Files, "files", false, "one result per file: its best chunk")
	fs.BoolVar(&o.Explain, "explain", false, "print each signal's contribution to the score")
	fs.BoolVar(&o.NoUpdate, "no-update", false, "search the index as it is, without bringing it up to date first")
	o.Index.Add(fs)
	cmdutil.SetFormats(cmd, "text", "json")
	return cmd
}

// validate checks the flags and reads the query.
func (o *SearchOptions) validate() error {
	if err := o.Globals.TextOrJSON("search"); err != nil {
		return err
	}
	if o.K <= 0 {
		return cmdutil.Usagef("search: --k must be positive (got %d)", o.K)
	}
	if o.Query == "-" {
		var err error
		if o.Query, err = o.IO.ReadStdin("search", "query"); err != nil {
			return err
		}
	}
	if strings.TrimSpace(o.Query) == "" {
		return cmdutil.Usagef("search: the query is empty")
	}
	return nil
}

func searchRun(ctx context.Context, o *SearchOptions) error {
	if err := o.validate(); err != nil {
		return err
	}
	p, err := o.Project()
	if err != nil {
		return err
	}
	ixo, done := o.Index.UpdateOptions(o.IO, o.NoUpdate)
	defer done()
	hits, opt, warnings, err := p.Search(ctx, o.Query, o.K, o.Files, ixo)
	if err != nil {
		return err
	}
	o.IO.WarnAll(warnings)
	var out bytes.Buffer
	if o.Globals.JSON() {
		doc := struct {
			Results []app.SearchHit `json:"results"`
		}{Results: app.SearchHits(hits, opt, o.Explain)}
		if err := cmdutil.WriteJSON(&out, doc); err != nil {
			return err
		}
	} else {
		tw := tabwriter.NewWriter(&out, 0, 0, 2, ' ', 0)
		for _, h := range hits {
			sym := h.Symbol
			if sym == "" {
				sym = "-"
			}
			fmt.Fprintf(tw, "%s:%d-%d\t%s\t%.6f\t%s\n", h.Path, h.StartLine, h.EndLine, sym, h.Relevance, h.Why())
			if o.Explain {
				var parts []string
				for _, f := range app.FactorRows(h, opt.Factors) {
					if f.Weight == 0 {
						parts = append(parts, fmt.Sprintf("%s %.6f", f.Name, f.Value))
						continue
					}
					parts = append(parts, fmt.Sprintf("%s %.6f × %g = %.6f", f.Name, f.Value, f.Share, f.Contribution))
				}
				fmt.Fprintf(tw, "    %s\n", strings.Join(parts, "; "))
				var ranks []string
				for _, l := range app.RankingNames() {
					if r, ok := h.Ranks[l]; ok {
						ranks = append(ranks, fmt.Sprintf("%s #%d", l, r))
					}
				}
				for _, s := range h.Signals {
					ranks = append(ranks, fmt.Sprintf("%s %.6f", s.Name, s.Value))
				}
				if len(ranks) > 0 {
					fmt.Fprintf(tw, "    %s\n", strings.Join(ranks, ", "))
				}
			}
		}
		tw.Flush()
	}
	if len(hits) == 0 {
		fmt.Fprintln(o.IO.ErrOut, "ctxpack: search: no results")
	}
	_, err = o.IO.Out.Write(out.Bytes())
	return err
}
