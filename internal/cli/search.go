package cli

import (
	"bytes"
	"context"
	"encoding/json"
	"fmt"
	"io"
	"strings"
	"text/tabwriter"

	"github.com/ctxpack/ctxpack/internal/index"
	"github.com/spf13/cobra"
)

type searchOptions struct {
	g        *globals
	ios      *IOStreams
	flags    indexFlags
	query    string // the argument; "-" reads standard input
	k        int
	files    bool
	explain  bool
	noUpdate bool
}

const searchLong = `Search the repository index for QUERY and print the best chunks, best first:

  internal/billing/invoice.go:12-30  RoundTotal  7.931204  symbol: round, total; body: invoice, total

QUERY is free text or identifiers; "-" reads it from standard input. It is
cut into code-aware terms as the index is (identifiers split on case, digits,
underscores and hyphens, whole identifiers kept, lower case), and chunks
matching any term are ranked by BM25 over three fields: the chunk's symbol
name, its file's path and its text (weights 4, 2, 1). Scores are rounded to
1e-6; ties go to the path, then to the chunk's position, so the order is
always the same.

Before searching, the index is brought up to date as 'ctxpack index' would
(--no-update searches it as it is). --files prints one line per file, its
best chunk. --explain prints each signal's contribution: for now the BM25
score of each field on its own. --format json prints {"results": [{"path",
"lines": [start, end], "symbol", "kind", "score", "why"}]}, with "signals"
under --explain.`

func newCmdSearch(g *globals, ios *IOStreams, runF func(*searchOptions) error) *cobra.Command {
	o := &searchOptions{g: g, ios: ios}
	cmd := &cobra.Command{
		Use:   "search QUERY|-",
		Short: "Search the repository index (BM25 over code-aware terms)",
		Long:  searchLong,
		Example: `  ctxpack search "invoice total rounding"
  ctxpack search HTTPServer --files --k 5
  echo "why does the cache miss after a rename" | ctxpack search - --format json`,
		Args: cobra.ExactArgs(1),
		RunE: func(cmd *cobra.Command, args []string) error {
			o.query = args[0]
			if runF != nil {
				return runF(o)
			}
			return searchRun(cmd.Context(), o)
		},
	}
	f := cmd.Flags()
	f.IntVar(&o.k, "k", 10, "print the best `N` results")
	f.BoolVar(&o.files, "files", false, "one result per file: its best chunk")
	f.BoolVar(&o.explain, "explain", false, "print each signal's contribution to the score")
	f.BoolVar(&o.noUpdate, "no-update", false, "search the index as it is, without bringing it up to date first")
	o.flags.add(f)
	return cmd
}

// validate checks the flags and reads the query.
func (o *searchOptions) validate() error {
	switch o.g.format {
	case "", "text", "json":
	default:
		return usagef("search: --format must be text or json (got %q)", o.g.format)
	}
	if o.k <= 0 {
		return usagef("search: --k must be positive (got %d)", o.k)
	}
	if o.query == "-" {
		data, err := io.ReadAll(o.ios.In)
		if err != nil {
			return fmt.Errorf("search: read the query from standard input: %w", err)
		}
		o.query = string(data)
	}
	if strings.TrimSpace(o.query) == "" {
		return usagef("search: the query is empty")
	}
	return nil
}

// searchResult is one result of the json format.
type searchResult struct {
	Path    string             `json:"path"`
	Lines   [2]int             `json:"lines"`
	Symbol  string             `json:"symbol"`
	Kind    string             `json:"kind"`
	Score   float64            `json:"score"`
	Why     string             `json:"why"`
	Signals map[string]float64 `json:"signals,omitempty"`
}

func searchRun(ctx context.Context, o *searchOptions) error {
	if err := o.validate(); err != nil {
		return err
	}
	oi, err := openIndex(o.g, o.ios, o.flags, o.noUpdate)
	if err != nil {
		return err
	}
	defer oi.ix.Close()
	if !o.noUpdate {
		if _, err := oi.update(ctx, o.ios); err != nil {
			return err
		}
	}
	hits, err := oi.ix.Search(ctx, o.query, o.k, index.SearchOptions{Files: o.files})
	if err != nil {
		return err
	}
	var out bytes.Buffer
	if o.g.format == "json" {
		doc := struct {
			Results []searchResult `json:"results"`
		}{Results: []searchResult{}}
		for _, h := range hits {
			r := searchResult{Path: h.Path, Lines: [2]int{h.StartLine, h.EndLine}, Symbol: h.Symbol, Kind: h.Kind, Score: h.Score, Why: h.Why()}
			if o.explain {
				r.Signals = make(map[string]float64, len(h.Signals))
				for _, s := range h.Signals {
					r.Signals[s.Name] = s.Value
				}
			}
			doc.Results = append(doc.Results, r)
		}
		enc := json.NewEncoder(&out)
		enc.SetEscapeHTML(false)
		enc.SetIndent("", "  ")
		if err := enc.Encode(doc); err != nil {
			return err
		}
	} else {
		tw := tabwriter.NewWriter(&out, 0, 0, 2, ' ', 0)
		for _, h := range hits {
			sym := h.Symbol
			if sym == "" {
				sym = "-"
			}
			fmt.Fprintf(tw, "%s:%d-%d\t%s\t%.6f\t%s\n", h.Path, h.StartLine, h.EndLine, sym, h.Score, h.Why())
			if o.explain {
				var parts []string
				for _, s := range h.Signals {
					parts = append(parts, fmt.Sprintf("%s %.6f", s.Name, s.Value))
				}
				fmt.Fprintf(tw, "    %s\n", strings.Join(parts, ", "))
			}
		}
		tw.Flush()
	}
	if len(hits) == 0 {
		fmt.Fprintln(o.ios.ErrOut, "ctxpack: search: no results")
	}
	_, err = o.ios.Out.Write(out.Bytes())
	return err
}
