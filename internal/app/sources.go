package app

import (
	"context"
	"errors"
	"fmt"
	"path/filepath"
	"slices"
	"strings"

	"github.com/ctxpack/ctxpack/internal/collect/sources"
	"github.com/ctxpack/ctxpack/internal/pack"
	"github.com/ctxpack/ctxpack/internal/project"
	"github.com/ctxpack/ctxpack/internal/render"
	"github.com/ctxpack/ctxpack/internal/retrieve"
	"github.com/ctxpack/ctxpack/internal/store"
)

// openStore opens the project's store of memories, experiences, values
// and commits (StoreSettings: .ctxpack/sources.db, or the team's
// PostgreSQL database). readOnly opens it for reading only: a missing
// store is then empty and nothing is created. A store of an older format
// is migrated in place first, even to read it, so that upgrading ctxpack
// does not stop a read. With StorePool set (a server), PostgreSQL stores
// stay open between requests.
func (p *Project) openStore(readOnly bool) (*store.Store, error) {
	set, err := p.StoreSettings()
	if err != nil {
		return nil, err
	}
	return p.openStoreAt(set, readOnly)
}

// openStoreAt is openStore with the settings read.
func (p *Project) openStoreAt(set StoreSettings, readOnly bool) (*store.Store, error) {
	if !readOnly {
		p.keepStateIgnored()
	}
	open := store.Open
	if p.StorePool != nil {
		open = p.StorePool.Open
	}
	opt := store.Options{ReadOnly: readOnly, Namespace: set.Namespace, Shared: set.Shared, Password: set.Password}
	if store.IsURL(set.Location) {
		// The git history is the checkout's own: its commits stay in the
		// project's SQLite file (docs/team.md).
		opt.LocalCommits = store.DefaultPath(p.Root)
	}
	st, err := open(set.Location, opt)
	if readOnly && errors.Is(err, store.ErrOlderFormat) {
		w := opt
		w.ReadOnly = false
		if st, err = store.Open(set.Location, w); err != nil {
			return nil, err
		}
		if err := st.Close(); err != nil {
			return nil, err
		}
		st, err = open(set.Location, opt)
	}
	return st, err
}

// StorePool keeps the PostgreSQL stores a server's requests open, for
// the server's life (Project.StorePool); the zero StorePool is ready.
type StorePool = store.Pool

// StorePath is where the project's store is, relative to the root.
func StorePath() string { return filepath.ToSlash(filepath.Join(project.DirCtxpack, "sources.db")) }

// Sources assembles the context for a free-text query from the sources
// in req.Sources (sources mode): one search per source, in parallel, the
// results ranked within each source (BM25 over code-aware terms, then
// confidence tier, importance and recency), deduplicated across sources
// (the same experience, a commit of only a file a code item shows, texts
// at least SourcesSettings.Similarity alike: the most relevant copy is
// kept), each item cut to the item cap of its source's share of the budget
// with a note that says where the whole item is, and fitted with the
// budget divided among the sources by weight, the share of a source that
// runs out flowing to the others. Markdown shows one section per source
// that has items, and a footer with the counts. With req.Task (and the
// artifacts source), an empty query is the task's id.
//
// A source whose search fails is left out with a warning; the others are
// still assembled. An unknown source is a *SourceError.
func (p *Project) Sources(ctx context.Context, query string, req Request) (*Result, error) {
	names, err := p.sourcesOf(query, req)
	if err != nil {
		return nil, err
	}
	settings, err := p.SourcesSettings()
	if err != nil {
		return nil, err
	}
	req.Format, req.Overflow = p.sourcesFormat(req.Format), p.sourcesOverflow(req.Overflow)
	o, err := p.options(req)
	if err != nil {
		return nil, err
	}
	if strings.TrimSpace(query) == "" {
		query = req.Task
	}
	limit := settings.Limit
	if req.Limit > 0 {
		limit = req.Limit
	}
	col, err := sources.Collect(ctx, p.sourcesEnv(settings, req.Index), sources.Request{
		Query: query, Sources: names, Task: req.Task, LinkDepth: req.LinkDepth,
		Limit: limit, Level: o.MaxLevel, NoUpdate: req.Index.NoUpdate,
	})
	if err != nil {
		return nil, err
	}
	return p.assembleSources(col, req, o, fmt.Sprintf("no item of the sources %s matches it", strings.Join(names, ", ")))
}

// sourcesOf checks a sources-mode request and returns its sources: a
// query or a task; known sources; the artifacts source with a task, and
// a task only with it, one that exists.
func (p *Project) sourcesOf(query string, req Request) ([]string, error) {
	if strings.TrimSpace(query) == "" && req.Task == "" {
		return nil, fmt.Errorf("ctxpack: the query is empty")
	}
	names, err := ParseSources(req.Sources)
	if err != nil {
		return nil, err
	}
	withArtifacts := slices.Contains(names, SourceArtifacts)
	switch {
	case withArtifacts && req.Task == "":
		return nil, &SourceError{Name: SourceArtifacts, needsTask: true}
	case req.Task != "" && !withArtifacts:
		return nil, &SourceError{Name: SourceArtifacts, taskOnly: req.Task}
	case req.Task != "":
		// A task that does not exist is the caller's mistake, not a
		// source that failed: say so rather than assemble without it.
		set, err := p.artifacts()
		if err != nil {
			return nil, err
		}
		if _, ok := set.ByID[req.Task]; !ok {
			return nil, &SourceError{Name: SourceArtifacts, noTask: req.Task}
		}
	}
	return names, nil
}

// sourcesEnv is what the sources collector needs of the project: its
// store, its git history, and code search as retrieval mode ranks it
// (through the index idx names, brought up to date unless idx.NoUpdate).
func (p *Project) sourcesEnv(settings SourcesSettings, idx IndexOptions) sources.Env {
	return sources.Env{
		Root: p.Root, Settings: settings, OpenStore: p.openStore, Artifacts: p.artifacts,
		Code: func(ctx context.Context, query string, limit int) (*sources.CodeHits, error) {
			rk, err := p.rank(ctx, query, idx, func(o *retrieve.Options) {
				o.Expand = -1
				o.Fused = max(o.Fused, limit)
			})
			if err != nil {
				return nil, err
			}
			defer rk.oi.Close()
			root, err := rk.oi.StateRoot(ctx)
			if err != nil {
				return nil, err
			}
			return &sources.CodeHits{Chunks: rk.Chunks, Read: rk.texts.Read, StateRoot: root, Warnings: rk.warnings}, nil
		},
	}
}

// assembleSources fits a sources or premortem collection under o, the
// options of req, with the project's warnings after the collection's;
// searched says where nothing was found, when nothing is.
func (p *Project) assembleSources(col *sources.Collection, req Request, o pack.Options, searched string) (*Result, error) {
	col.Options(&o)
	o.Warnings = append(o.Warnings, p.Warnings...)
	p.setMetadata(req, &o)
	res, err := pack.Assemble(col.Parts, o)
	if err != nil {
		return nil, err
	}
	if err := checkEmpty(&res.Plan, searched); err != nil {
		if len(col.Failed) > 0 {
			// Nothing to show because a search failed (the store could not
			// be reached): that is the answer, not "nothing found".
			return nil, &SearchError{Mode: res.Plan.Mode, Target: res.Plan.Target, Errs: col.Failed}
		}
		return nil, err
	}
	return &Result{Plan: res.Plan, Output: res.Output}, nil
}

// SearchError is an assembly of sources mode or premortem that is empty
// because searches failed: each failed search's error, in the order of
// the sources or sections.
type SearchError struct {
	Mode, Target string
	Errs         []error
}

func (e *SearchError) Error() string {
	msgs := make([]string, len(e.Errs))
	for i, err := range e.Errs {
		msgs[i] = strings.TrimPrefix(err.Error(), "ctxpack: ")
	}
	return fmt.Sprintf("ctxpack: %s %q could not be assembled: %s", e.Mode, e.Target, strings.Join(msgs, "; "))
}

func (e *SearchError) Unwrap() []error { return e.Errs }

// sourcesFormat is the format of sources mode and premortem: the one
// asked for, else the configured one when it is not the default text,
// else markdown, the seed's format.
func (p *Project) sourcesFormat(asked string) string {
	if asked != "" {
		return asked
	}
	if p.Config.Format != "" && p.Config.Format != "text" {
		return p.Config.Format
	}
	return string(render.Markdown)
}

// sourcesOverflow is the overflow strategy of sources mode and premortem:
// the one asked for, else the configured one when it is not the default
// degrade, else drop (items are kept whole or left out). As with the
// format, a configuration that names the default is not told from one
// that names none.
func (p *Project) sourcesOverflow(asked string) string {
	if asked != "" {
		return asked
	}
	if c := p.Config.Pack.Overflow; c != "" && c != project.Defaults().Pack.Overflow {
		return c
	}
	return string(pack.Drop)
}

// keepStateIgnored writes .ctxpack/.gitignore, which keeps ctxpack's
// state out of git, unless it exists (project.WriteStateIgnore): called
// before ctxpack keeps state in .ctxpack/. A failure is left for the
// write of the state itself to report.
func (p *Project) keepStateIgnored() { _, _ = project.WriteStateIgnore(p.Root) }

// WriteStateIgnore writes .ctxpack/.gitignore under dir, an OS path, as
// every command that keeps state there does, unless it exists (a user's
// own is never changed); it reports whether it wrote it. For 'ctxpack
// init'.
func WriteStateIgnore(dir string) (bool, error) { return project.WriteStateIgnore(dir) }

// StateIgnorePath is where WriteStateIgnore writes, relative to the root.
const StateIgnorePath = project.DirCtxpack + "/" + project.StateIgnoreName
