package cli

import (
	"fmt"
	"os"
	"path/filepath"
	"strings"

	"github.com/ctxpack/ctxpack/internal/app"
	"github.com/ctxpack/ctxpack/internal/cli/cmdutil"
	"github.com/spf13/cobra"
)

// InitOptions are the options of 'ctxpack init'.
type InitOptions struct {
	IO      *cmdutil.IOStreams
	Globals *cmdutil.Globals
}

// NewCmdInit is 'ctxpack init': a .ctxpack/ layout to start from.
func NewCmdInit(f *cmdutil.Factory, runF func(*InitOptions) error) *cobra.Command {
	o := &InitOptions{IO: f.IOStreams, Globals: f.Globals}
	return &cobra.Command{
		Use:   "init",
		Short: "Create the .ctxpack/ layout with a config and one example of each artifact",
		Long: `Create .ctxpack/ in the current directory (or -C DIR): a commented
config.yaml, the project identity, and one task, spec, decision and norm
linked to each other, which 'ctxpack check' passes, and the .gitignore
that keeps ctxpack's state (the index, the store, the records, the caches)
out of git, as every command that first keeps state in .ctxpack/ writes it.
Nothing is overwritten: if .ctxpack/ or .contextia/ already has a
config.yaml, a system/ or a work/ folder, init stops; state that another
command left in .ctxpack/ stays, and init says so.`,
		Example: `  ctxpack init && ctxpack context TASK-001`,
		Args:    cmdutil.NoArgs,
		RunE: func(cmd *cobra.Command, args []string) error {
			if runF != nil {
				return runF(o)
			}
			return initRun(o)
		},
	}
}

func initRun(o *InitOptions) error {
	base, err := o.Globals.Base()
	if err != nil {
		return err
	}
	// Only a configuration or artifacts stop init; the state another
	// command left in .ctxpack/ (the index, the records) stays beside the
	// new layout.
	for _, d := range []string{".ctxpack", ".contextia"} {
		for _, m := range []string{"config.yaml", "system", "work"} {
			if _, err := os.Lstat(filepath.Join(base, d, m)); err == nil {
				return fmt.Errorf("init: %s/%s already exists in %s; nothing was written (init makes a new layout only where there is no configuration or artifact yet)", d, m, base)
			}
		}
	}
	var kept []string
	if entries, err := os.ReadDir(filepath.Join(base, ".ctxpack")); err == nil {
		for _, e := range entries {
			kept = append(kept, e.Name())
		}
	}
	name := filepath.Base(base)
	var written []string
	for _, f := range initFiles(name) {
		p := filepath.Join(base, ".ctxpack", filepath.FromSlash(f.path))
		if err := os.MkdirAll(filepath.Dir(p), 0o755); err != nil {
			return fmt.Errorf("init: %w", err)
		}
		fh, err := os.OpenFile(p, os.O_WRONLY|os.O_CREATE|os.O_EXCL, 0o644)
		if err != nil {
			return fmt.Errorf("init: %w", err)
		}
		_, err = fh.WriteString(f.text)
		if cerr := fh.Close(); err == nil {
			err = cerr
		}
		if err != nil {
			return fmt.Errorf("init: %w", err)
		}
		written = append(written, ".ctxpack/"+f.path)
	}
	created, err := app.WriteStateIgnore(base)
	if err != nil {
		return fmt.Errorf("init: %w", err)
	}
	if created {
		written = append(written, app.StateIgnorePath)
	}
	for _, w := range written {
		fmt.Fprintf(o.IO.Out, "created %s\n", w)
	}
	if len(kept) > 0 {
		fmt.Fprintf(o.IO.Out, "kept what .ctxpack/ already held: %s\n", strings.Join(kept, ", "))
	}
	fmt.Fprintln(o.IO.Out, "next: edit the examples, then 'ctxpack check' and 'ctxpack context TASK-001'")
	return nil
}

type initFile struct{ path, text string }

func initFiles(project string) []initFile {
	return []initFile{
		{"config.yaml", `# ctxpack configuration. Every key is optional; the values shown are the
# defaults. Command-line flags override them.

# Tokenizer that budgets are counted with: o200k_base, cl100k_base, qwen3,
# deepseek_v3, llama3, gemma3, approx.
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
