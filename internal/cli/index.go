package cli

import (
	"cmp"
	"context"
	"errors"
	"fmt"
	"io"
	"slices"
	"strings"
	"time"

	"github.com/ctxpack/ctxpack/internal/app"
	"github.com/ctxpack/ctxpack/internal/cli/cmdutil"
	"github.com/spf13/cobra"
)

// openedIndex is a project with its index open.
type openedIndex struct {
	p *app.Project
	*app.OpenedIndex
}

// openIndex opens the project the command runs in and its index.
func (o *IndexOptions) openIndex(readOnly bool) (*openedIndex, error) {
	p, err := o.Project()
	if err != nil {
		return nil, err
	}
	oi, err := p.OpenIndex(o.Index.Options(readOnly), readOnly)
	if err != nil {
		return nil, err
	}
	return &openedIndex{p: p, OpenedIndex: oi}, nil
}

// update brings the index up to date, with a progress line on a terminal.
func (oi *openedIndex) update(ctx context.Context, ios *cmdutil.IOStreams) (*app.IndexStats, error) {
	progress, done := cmdutil.IndexProgress(ios, oi.Shown)
	stats, err := oi.p.UpdateIndex(ctx, oi.OpenedIndex, progress)
	done()
	if err != nil {
		return nil, err
	}
	if r := stats.Rebuilt; r.Replaced() {
		ios.Warn("rebuilt the index: %s", r)
	}
	return stats, nil
}

// IndexOptions are the options of 'ctxpack index'.
type IndexOptions struct {
	IO      *cmdutil.IOStreams
	Globals *cmdutil.Globals
	Project func() (*app.Project, error) // prints the configuration's warnings

	Index     cmdutil.IndexFlags
	Status    bool
	NoCommits bool
}

const indexLong = `Build or update the repository index, .ctxpack/index.db under the project
root, that 'ctxpack search' and retrieval read.

Every file the walk lists is chunked by syntax (functions, methods, types,
classes; Markdown by headings; anything else by blank-line blocks), its
chunks' code-aware terms are indexed for BM25. The walk honours
.gitignore and .ctxpackignore and skips binary files and files larger than
walk.max_file_bytes (1 MiB by default).

Updates are incremental: a file whose size and modification time are
unchanged is not read again (the walk reads its first 8000 bytes to skip
binary files); one whose content is unchanged is not chunked again.
An update is one transaction, so an interrupted one leaves the index as it
was. Two updates of one index never run at once: the second waits (--wait)
and then fails, naming the process that holds the index.

The summary line gives the files, chunks and languages indexed and the time
taken. Then, in a git repository, the commits since the last one read
(all of them the first time, or after a rebase) are read into the store,
.ctxpack/sources.db, for 'ctxpack context --sources commits': hash,
author, time, message and the files changed with their line counts. --status prints what the index holds (files, chunks, languages,
skipped files with the reason, state root, format version) and what is
stale, by size and modification time, without reading any file; with
--format json it prints the same as a JSON document.`

// NewCmdIndex is 'ctxpack index': build or update the repository index,
// and read the git history into the store.
func NewCmdIndex(f *cmdutil.Factory, runF func(*IndexOptions) error) *cobra.Command {
	o := &IndexOptions{IO: f.IOStreams, Globals: f.Globals, Project: f.ProjectWarn}
	cmd := &cobra.Command{
		Use:   "index",
		Short: "Build or update the repository index",
		Long:  indexLong,
		Example: `  ctxpack index
  ctxpack index --status
  ctxpack -C $(go env GOROOT)/src index --index /tmp/goroot.db`,
		Args: cmdutil.NoArgs,
		RunE: func(cmd *cobra.Command, args []string) error {
			if runF != nil {
				return runF(o)
			}
			return indexRun(cmd.Context(), o)
		},
	}
	cmd.Flags().BoolVar(&o.Status, "status", false, "print what the index holds and what is stale, and change nothing")
	cmd.Flags().BoolVar(&o.NoCommits, "no-commits", false, "do not read the git history into the store (.ctxpack/sources.db)")
	o.Index.Add(cmd.Flags())
	cmdutil.SetFormats(cmd, "text", "json")
	return cmd
}

func indexRun(ctx context.Context, o *IndexOptions) error {
	if err := o.Globals.TextOrJSON("index"); err != nil {
		return err
	}
	if o.Globals.JSON() && !o.Status {
		return cmdutil.Usagef("index: --format json goes with --status")
	}
	oi, err := o.openIndex(o.Status)
	if err != nil {
		return err
	}
	defer oi.Close()
	if o.Status {
		return indexStatus(ctx, o, oi)
	}
	start := time.Now()
	st, err := oi.update(ctx, o.IO)
	if err != nil {
		return err
	}
	if _, err := fmt.Fprintln(o.IO.Out, summaryLine(st, time.Since(start))); err != nil {
		return err
	}
	progress, done := cmdutil.IndexProgress(o.IO, oi.Shown)
	start = time.Now()
	es, err := oi.p.EmbedIndex(ctx, oi.OpenedIndex, progress)
	done()
	if err != nil {
		return err
	}
	if es != nil {
		if _, err := fmt.Fprintln(o.IO.Out, embedLine(es, time.Since(start))); err != nil {
			return err
		}
		if es.Stale > 0 {
			o.IO.Warn("%d chunks were not embedded: their files changed after the index was updated; run 'ctxpack index' again", es.Stale)
		}
	}
	if o.NoCommits {
		return nil
	}
	return syncCommits(ctx, o.IO, oi.p)
}

// embedLine is the line index prints after embedding: the chunks given a
// vector this run, the vectors computed for them (one per distinct text)
// and deleted, and how many of the chunks have one now.
func embedLine(es *app.EmbedStats, took time.Duration) string {
	return fmt.Sprintf("embedded %d of %d chunks with %s in %s (%d new vectors, %d stale vectors deleted); %d of %d chunks have vectors",
		es.Covered, es.Chunks, es.Embedder, took.Round(10*time.Millisecond), es.Embedded, es.Deleted, es.Chunks-es.Missing, es.Chunks)
}

// syncCommits reads the git history since the last commit read into the
// store, and prints what it did; outside a git repository it does
// nothing.
func syncCommits(ctx context.Context, ios *cmdutil.IOStreams, p *app.Project) error {
	start := time.Now()
	st, err := p.Store(true)
	if err != nil {
		return err
	}
	defer st.Close()
	ios.WarnAll(st.Warnings())
	cs, err := st.SyncCommits(ctx)
	if errors.Is(err, app.ErrNotRepository) {
		return nil
	}
	if err != nil {
		return err
	}
	line := fmt.Sprintf("read %d new commits into %s in %s; %d in all", cs.Added, app.StorePath(), time.Since(start).Round(10*time.Millisecond), cs.Total)
	if cs.Added == 0 {
		line = fmt.Sprintf("commits up to date (%d in %s)", cs.Total, app.StorePath())
	}
	if cs.Rescanned {
		line += "; the history was rewritten, or the project moved in its repository, so all of it was read again"
	}
	_, err = fmt.Fprintln(ios.Out, line)
	return err
}

// summaryLine is the line index prints after an update.
func summaryLine(st *app.IndexStats, took time.Duration) string {
	var b strings.Builder
	fmt.Fprintf(&b, "indexed %d files, %d chunks", st.Files, st.Chunks)
	if langs := languageList(st.Languages, 6); langs != "" {
		fmt.Fprintf(&b, " (%s)", langs)
	}
	fmt.Fprintf(&b, " in %s", took.Round(10*time.Millisecond))
	if !st.Wrote {
		b.WriteString("; up to date")
	} else {
		fmt.Fprintf(&b, "; %d added, %d changed, %d removed", st.Added, st.Changed, st.Removed)
		if st.Touched > 0 {
			fmt.Fprintf(&b, ", %d touched", st.Touched)
		}
	}
	if st.Skipped > 0 {
		fmt.Fprintf(&b, "; %d skipped (index --status lists them)", st.Skipped)
	}
	return b.String()
}

// languageList prints languages by file count, most first, at most max.
func languageList(langs []app.LanguageCount, max int) string {
	ls := slices.Clone(langs)
	slices.SortStableFunc(ls, func(a, b app.LanguageCount) int { return b.Files - a.Files })
	var parts []string
	for i, l := range ls {
		if i == max {
			parts = append(parts, fmt.Sprintf("%d more", len(ls)-max))
			break
		}
		parts = append(parts, fmt.Sprintf("%s %d", langName(l.Lang), l.Files))
	}
	return strings.Join(parts, ", ")
}

func langName(l string) string { return cmp.Or(l, "text") }

// statusJSON is index --status --format json.
type statusJSON struct {
	Index         string         `json:"index"`
	State         string         `json:"state"`
	Detail        string         `json:"detail,omitempty"`
	FormatVersion int            `json:"format_version"`
	StateRoot     string         `json:"state_root"`
	Walk          string         `json:"walk"`
	Files         int            `json:"files"`
	Chunks        int            `json:"chunks"`
	Languages     []languageJSON `json:"languages"`
	Skipped       []skippedJSON  `json:"skipped"`
	Stale         *staleJSON     `json:"stale,omitempty"`
}

type staleJSON struct {
	Changed []string `json:"changed"`
	Added   []string `json:"added"`
	Removed []string `json:"removed"`
}

type languageJSON struct {
	Lang   string `json:"lang"`
	Files  int    `json:"files"`
	Chunks int    `json:"chunks"`
}

type skippedJSON struct {
	Path   string `json:"path"`
	Reason string `json:"reason"`
}

func indexStatus(ctx context.Context, o *IndexOptions, oi *openedIndex) error {
	st, err := oi.Status(ctx, oi.p.FS)
	if err != nil {
		return err
	}
	if o.Globals.JSON() {
		doc := statusJSON{
			Index: oi.Shown, State: st.State.Reason.String(), Detail: st.State.Detail,
			FormatVersion: st.FormatVersion, StateRoot: st.StateRoot, Walk: st.Walk,
			Files: st.Files, Chunks: st.Chunks,
			Languages: []languageJSON{}, Skipped: []skippedJSON{},
		}
		for _, l := range st.Languages {
			doc.Languages = append(doc.Languages, languageJSON{Lang: langName(l.Lang), Files: l.Files, Chunks: l.Chunks})
		}
		for _, s := range st.Skipped {
			doc.Skipped = append(doc.Skipped, skippedJSON{Path: s.Path, Reason: s.Reason})
		}
		if s := st.Stale; s != nil {
			nonNil := func(p []string) []string {
				if p == nil {
					return []string{}
				}
				return p
			}
			doc.Stale = &staleJSON{Changed: nonNil(s.Changed), Added: nonNil(s.Added), Removed: nonNil(s.Removed)}
		}
		return cmdutil.WriteJSON(o.IO.Out, doc)
	}
	var b strings.Builder
	w := func(label, format string, args ...any) {
		fmt.Fprintf(&b, "%-11s %s\n", label+":", fmt.Sprintf(format, args...))
	}
	switch st.State.Reason {
	case app.IndexCurrent:
		w("index", "%s (format %d, current)", oi.Shown, st.FormatVersion)
	case app.IndexMissing:
		w("index", "%s (missing); run 'ctxpack index'", oi.Shown)
		_, err := io.WriteString(o.IO.Out, b.String())
		return err
	default:
		w("index", "%s (%s); 'ctxpack index' will rebuild it", oi.Shown, st.State)
	}
	if st.StateRoot != "" {
		w("state root", "%s", st.StateRoot)
	}
	if st.State.Reason != app.IndexCurrent {
		_, err := io.WriteString(o.IO.Out, b.String())
		return err
	}
	w("files", "%d indexed, %d skipped", st.Files, len(st.Skipped))
	w("chunks", "%d", st.Chunks)
	var langs []string
	for _, l := range st.Languages {
		langs = append(langs, fmt.Sprintf("%s %d/%d", langName(l.Lang), l.Files, l.Chunks))
	}
	if len(langs) > 0 {
		w("languages", "%s (files/chunks)", strings.Join(langs, ", "))
	}
	w("walk", "%s", st.Walk)
	for i, s := range st.Skipped {
		label := ""
		if i == 0 {
			label = "skipped"
		}
		if label == "" {
			fmt.Fprintf(&b, "%-11s %s: %s\n", "", app.ShowPath(s.Path), s.Reason)
		} else {
			w(label, "%s: %s", app.ShowPath(s.Path), s.Reason)
		}
	}
	if s := st.Stale; s != nil {
		if s.Empty() {
			w("stale", "nothing (by size and modification time)")
		} else {
			w("stale", "%d changed, %d added, %d removed (by size and modification time); run 'ctxpack index'", len(s.Changed), len(s.Added), len(s.Removed))
			for _, l := range []struct {
				name  string
				paths []string
			}{{"changed", s.Changed}, {"added", s.Added}, {"removed", s.Removed}} {
				for i, p := range l.paths {
					if i == 20 {
						fmt.Fprintf(&b, "  %-9s … and %d more\n", "", len(l.paths)-20)
						break
					}
					fmt.Fprintf(&b, "  %-9s %s\n", l.name, app.ShowPath(p))
				}
			}
		}
	}
	_, err = io.WriteString(o.IO.Out, b.String())
	return err
}
