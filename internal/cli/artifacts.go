package cli

import (
	"fmt"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"text/tabwriter"

	"github.com/ctxpack/ctxpack"
	"github.com/ctxpack/ctxpack/internal/artifact"
	"github.com/ctxpack/ctxpack/internal/cli/cmdutil"
	"github.com/ctxpack/ctxpack/internal/graph"
	"github.com/ctxpack/ctxpack/internal/pack"
	"github.com/ctxpack/ctxpack/internal/render"
	"github.com/spf13/cobra"
)

// artifactSet loads the project's artifacts and prints the problems found
// on the way as warnings.
func artifactSet(g *globals, ios *IOStreams) (*ctxpack.Project, *artifact.Set, error) {
	p, err := g.openProjectWarn(ios)
	if err != nil {
		return nil, nil, err
	}
	set, err := p.Artifacts()
	if err != nil {
		return nil, nil, err
	}
	ios.WarnAll(ctxpack.ArtifactProblems(set))
	return p, set, nil
}

type showOptions struct {
	g     *globals
	ios   *IOStreams
	id    string
	depth string
}

func newCmdShow(g *globals, ios *IOStreams) *cobra.Command {
	o := &showOptions{g: g, ios: ios}
	cmd := &cobra.Command{
		Use:   "show ID",
		Short: "Show one artifact at a level",
		Long: `Show the artifact ID at a level: meta (its frontmatter), summary (and its
first section), detailed (and every heading with its first paragraph) or full
(the default), in the output format (--format).`,
		Example: `  ctxpack show SPEC-BILLING-001 --depth summary
  ctxpack show identity --format json`,
		Args: cmdutil.ExactArgs(1),
		RunE: func(cmd *cobra.Command, args []string) error {
			o.id = args[0]
			return showRun(o)
		},
	}
	cmd.Flags().StringVar(&o.depth, "depth", "full", "`LEVEL`: meta, summary, detailed, full")
	return cmd
}

func showRun(o *showOptions) error {
	if _, err := pack.ParseLevel(o.depth); err != nil {
		return cmdutil.WrapUsage(err)
	}
	if _, err := render.ParseFormat(o.g.format); err != nil {
		return cmdutil.WrapUsage(err)
	}
	p, err := o.g.openProjectWarn(o.ios)
	if err != nil {
		return err
	}
	v, warnings, err := p.Show(o.id, o.depth, o.g.format)
	o.ios.WarnAll(warnings)
	if err != nil {
		return err
	}
	_, err = o.ios.Out.Write(v.Output)
	return err
}

type listOptions struct {
	g           *globals
	ios         *IOStreams
	typ, status string
}

func newCmdList(g *globals, ios *IOStreams) *cobra.Command {
	o := &listOptions{g: g, ios: ios}
	cmd := &cobra.Command{
		Use:   "list",
		Short: "List the project's artifacts",
		Long:  `List the artifacts of .ctxpack/ (or .contextia/): id, type, status and title, sorted by id.`,
		Example: `  ctxpack list --type spec
  ctxpack list --status in_progress --format json`,
		Args: cmdutil.NoArgs,
		RunE: func(cmd *cobra.Command, args []string) error { return listRun(o) },
	}
	cmd.Flags().StringVar(&o.typ, "type", "", "only artifacts of `TYPE`: identity, task, spec, decision, norm")
	cmd.Flags().StringVar(&o.status, "status", "", "only artifacts with `STATUS`")
	return cmd
}

func listRun(o *listOptions) error {
	if o.typ != "" && !slices.Contains(ctxpack.ArtifactTypes, o.typ) {
		return cmdutil.Usagef("--type must be one of %s (got %q)", strings.Join(ctxpack.ArtifactTypes, ", "), o.typ)
	}
	p, err := o.g.openProjectWarn(o.ios)
	if err != nil {
		return err
	}
	list, warnings, err := p.List(o.typ, o.status)
	if err != nil {
		return err
	}
	o.ios.WarnAll(warnings)
	if o.g.format == "json" {
		return writeJSON(o.ios.Out, list)
	}
	w := tabwriter.NewWriter(o.ios.Out, 0, 4, 2, ' ', 0)
	for _, a := range list {
		fmt.Fprintf(w, "%s\t%s\t%s\t%s\n", a.ID, a.Type, orDash(a.Status), a.Title)
	}
	return w.Flush()
}

func orDash(s string) string {
	if s == "" {
		return "-"
	}
	return s
}

func newCmdExplain(g *globals, ios *IOStreams) *cobra.Command {
	o := &assembleOptions{g: g, ios: ios}
	cmd := &cobra.Command{
		Use:   "explain TASK-ID ARTIFACT-ID",
		Short: "Say why an artifact is or is not in a task's context",
		Long: `Say why ARTIFACT-ID is in the context of TASK-ID, with the link chain that
reached it and its level, or why it is not. The reason is one of: no link
reaches it, the link depth, its status (deprecated or superseded), or the
budget, with how many more tokens would have kept it. Takes the flags of
'ctxpack context', so it explains exactly that assembly.`,
		Example: `  ctxpack explain TASK-042 DEC-BILLING-003 --budget 600
  ctxpack explain TASK-042 NORM-ASYNC-001 --link-depth 1 --format json`,
		Args: cmdutil.ExactArgs(2),
		RunE: func(cmd *cobra.Command, args []string) error {
			req, err := o.request()
			if err != nil {
				return err
			}
			if o.g.format == "json" {
				req.Format = "text"
			}
			p, err := g.openProjectWarn(ios)
			if err != nil {
				return err
			}
			e, err := p.Explain(cmd.Context(), args[0], args[1], req)
			if err != nil {
				return err
			}
			if o.g.format == "json" {
				return writeJSON(ios.Out, e)
			}
			_, err = fmt.Fprintf(ios.Out, "%s: %s\n", e.Artifact, e.Reason)
			return err
		},
	}
	o.addFlags(cmd.Flags())
	o.addLinkFlags(cmd.Flags())
	return cmd
}

func newCmdGraph(g *globals, ios *IOStreams) *cobra.Command {
	var depth int
	cmd := &cobra.Command{
		Use:   "graph ID",
		Short: "Draw the link closure of an artifact (mermaid or dot)",
		Long: `Draw what ID's links reach, as 'ctxpack context ID' follows them: a Mermaid
flowchart (--format mermaid, the default; paste it into a Markdown file) or
Graphviz dot (--format dot; render with 'dot -Tsvg'). Artifacts left out for
their status or for being missing are drawn dashed.`,
		Example: `  ctxpack graph TASK-042 > docs/task-042.mmd
  ctxpack graph TASK-042 --format dot | dot -Tsvg > task-042.svg`,
		Args: cmdutil.ExactArgs(1),
		RunE: func(cmd *cobra.Command, args []string) error {
			var draw func(*graph.Closure) string
			switch g.format {
			case "", "mermaid":
				draw = graph.Mermaid
			case "dot":
				draw = graph.Dot
			default:
				return cmdutil.Usagef("graph draws --format mermaid or dot (got %q)", g.format)
			}
			if depth < 0 {
				return cmdutil.Usagef("--link-depth must not be negative (got %d)", depth)
			}
			_, set, err := artifactSet(g, ios)
			if err != nil {
				return err
			}
			c, err := graph.Traverse(set, args[0], graph.Options{MaxDepth: depth})
			if err != nil {
				return err
			}
			_, err = fmt.Fprint(ios.Out, draw(c))
			return err
		},
	}
	cmd.Flags().IntVar(&depth, "link-depth", 0, "follow at most `N` links (default no limit)")
	return cmd
}

func newCmdInit(g *globals, ios *IOStreams) *cobra.Command {
	cmd := &cobra.Command{
		Use:   "init",
		Short: "Create the .ctxpack/ layout with a config and one example of each artifact",
		Long: `Create .ctxpack/ in the current directory (or -C DIR): a commented
config.yaml, the project identity, and one task, spec, decision and norm
linked to each other, which 'ctxpack check' passes. Nothing is overwritten:
if .ctxpack/ or .contextia/ exists, init stops.`,
		Example: `  ctxpack init && ctxpack context TASK-001`,
		Args:    cmdutil.NoArgs,
		RunE: func(cmd *cobra.Command, args []string) error {
			base, err := g.base()
			if err != nil {
				return err
			}
			for _, d := range []string{".ctxpack", ".contextia"} {
				if _, err := os.Stat(filepath.Join(base, d)); err == nil {
					return fmt.Errorf("init: %s already exists in %s; nothing was written", d, base)
				}
			}
			name := filepath.Base(base)
			var written []string
			for _, f := range initFiles(name) {
				p := filepath.Join(base, ".ctxpack", filepath.FromSlash(f.path))
				if err := os.MkdirAll(filepath.Dir(p), 0o755); err != nil {
					return fmt.Errorf("init: %w", err)
				}
				if err := os.WriteFile(p, []byte(f.text), 0o644); err != nil {
					return fmt.Errorf("init: %w", err)
				}
				written = append(written, ".ctxpack/"+f.path)
			}
			for _, w := range written {
				fmt.Fprintf(ios.Out, "created %s\n", w)
			}
			fmt.Fprintln(ios.Out, "next: edit the examples, then 'ctxpack check' and 'ctxpack context TASK-001'")
			return nil
		},
	}
	return cmd
}

type initFile struct{ path, text string }

func initFiles(project string) []initFile {
	return []initFile{
		{"config.yaml", `# ctxpack configuration. Every key is optional; the values shown are the
# defaults. Command-line flags override them.

# Tokenizer that budgets are counted with: o200k_base, cl100k_base, approx.
# tokenizer: o200k_base

# Output format: text, markdown, doc, xml, json.
# format: text

# Tokens the output may use, or a context window less the reserves.
# budget: 8000
# window: 0
# reserves: {system: 200, query: 100, response: 500}

pack:
  # greedy, interleaved or score.
  strategy: greedy
  # degrade, drop, truncate, error or allow.
  overflow: degrade
  # Word-shingle overlap above which a part duplicates an earlier one.
  dedup_threshold: 0.8

# Severities of 'ctxpack check' rules (error, warning, off), e.g.:
# check:
#   rules:
#     orphan-spec: error
`},
		{"system/identity.md", fmt.Sprintf(`---
project: %s
languages: [go]
frameworks: []
---
# %s

One paragraph an agent reads first: what this project is, who uses it, and
what matters most when changing it.
`, project, project)},
		{"work/tasks/TASK-001.md", `---
id: TASK-001
title: Example task
status: in_progress
links:
  specs: [SPEC-001]
  decisions: [DEC-001]
---
# Example task

What to do, and how to know it is done. 'ctxpack context TASK-001' assembles
this task with the spec, decision and norm its links reach.
`},
		{"system/specs/SPEC-001.md", `---
id: SPEC-001
title: Example spec
status: current
links:
  decisions: [DEC-001]
  norms: [NORM-001]
# The code this spec governs, as globs relative to the project root, for
# example ["src/billing/**"]; mark that code with an '@spec SPEC-001' comment.
paths: []
---
# Example spec

What the system must do, and the code it governs (see paths above).

## Behaviour

One paragraph per behaviour.
`},
		{"system/rationale/DEC-001.md", `---
id: DEC-001
title: Example decision
status: current
links:
  norms: [NORM-001]
---
# Example decision

What was decided, the options that were weighed, and why this one.
`},
		{"system/norms/NORM-001.md", `---
id: NORM-001
title: Example norm
status: current
---
# Example norm

A convention every change follows, for example how errors are reported.
`},
	}
}
