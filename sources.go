package ctxpack

import (
	"context"
	"errors"
	"fmt"
	"path/filepath"
	"slices"
	"strings"
	"sync"

	"github.com/ctxpack/ctxpack/internal/artifact"
	"github.com/ctxpack/ctxpack/internal/chunk"
	"github.com/ctxpack/ctxpack/internal/graph"
	"github.com/ctxpack/ctxpack/internal/history"
	"github.com/ctxpack/ctxpack/internal/pack"
	"github.com/ctxpack/ctxpack/internal/project"
	"github.com/ctxpack/ctxpack/internal/rank"
	"github.com/ctxpack/ctxpack/internal/render"
	"github.com/ctxpack/ctxpack/internal/retrieve"
	"github.com/ctxpack/ctxpack/internal/store"
)

// OpenStore opens the project's store of memories, experiences, values
// and commits (.ctxpack/sources.db). readOnly opens it for reading only:
// a missing store is then empty and nothing is created.
func (p *Project) OpenStore(readOnly bool) (*store.Store, error) {
	return store.Open(store.DefaultPath(p.Root), store.Options{ReadOnly: readOnly})
}

// StorePath is where the project's store is, relative to the root.
func StorePath() string { return filepath.ToSlash(filepath.Join(project.DirCtxpack, "sources.db")) }

// SyncCommits brings the store's commits up to date with the project's
// git history: only the commits since the last one read, or all of them
// again when the history was rewritten. Outside a git repository it
// returns an error that errors.Is history.ErrNotRepository.
func (p *Project) SyncCommits(ctx context.Context, st *store.Store) (store.CommitStats, error) {
	return st.SyncCommits(ctx, p.Root)
}

// srcItem is one item a source found, before it becomes a part.
type srcItem struct {
	source string // source name
	key    string // "memory:42", "commit:1a2b3c4", "src/a.go#3", "SPEC-BILLING-001"
	typ    string // the part's type: memory, experience, value, commit, code, spec…
	label  string
	path   string
	lines  [2]int
	seq    int // rank within its source

	item render.Item // its text, in the seed's format; item.Body is compared for likeness with other items

	relevance  float64            // in [0, 1]
	components map[string]float64 // the relevance's factors
	experience int64              // the experience the item is, or came from
	files      []string           // code: its file; commits: the files changed
	cid        string
	changed    int64
}

// sourceResult is what one source's search gave.
type sourceResult struct {
	items     []*srcItem
	dropped   []render.Dropped // found but not shown, with the reason
	warnings  []string
	stateRoot string // of the inputs searched, when they are not the store's
	err       error
}

// sourcesRun is one sources-mode assembly's shared inputs.
type sourcesRun struct {
	p        *Project
	req      Request
	query    string
	settings SourcesSettings
	st       *store.Store
}

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
// that has items, and a footer with the counts.
//
// A source whose search fails is left out with a warning; the others are
// still assembled. An unknown source is a *SourceError.
func (p *Project) Sources(ctx context.Context, query string, req Request) (*Result, error) {
	if strings.TrimSpace(query) == "" && req.Task == "" {
		return nil, fmt.Errorf("ctxpack: the query is empty")
	}
	names, err := ParseSources(req.Sources)
	if err != nil {
		return nil, err
	}
	if slices.Contains(names, SourceArtifacts) && req.Task == "" {
		return nil, &SourceError{Name: SourceArtifacts, needsTask: true}
	}
	if req.Task != "" && !slices.Contains(names, SourceArtifacts) {
		return nil, &SourceError{Name: SourceArtifacts, taskOnly: req.Task}
	}
	if req.Task != "" {
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
	run := &sourcesRun{p: p, req: req, query: query, settings: settings}
	var warnings []string
	if slices.ContainsFunc(names, storeSource) {
		// Written only to bring the commits up to date: a store that is
		// not there is otherwise read as empty, and not created.
		sync := slices.Contains(names, SourceCommits) && !req.Index.NoUpdate
		st, err := p.OpenStore(!sync)
		if err != nil {
			return nil, err
		}
		defer st.Close()
		run.st = st
		if sync {
			if _, err := st.SyncCommits(ctx, p.Root); err != nil {
				warnings = append(warnings, commitsWarning(err))
			}
		}
	}

	results, storeRoot, err := searchAll(ctx, run.st, names, func(i int) sourceResult { return run.collect(ctx, names[i]) })
	if err != nil {
		return nil, err
	}

	var items []*srcItem
	var dropped []render.Dropped
	var roots []string
	if run.st != nil {
		roots = append(roots, "store "+storeRoot)
	}
	for i, r := range results {
		warnings = append(warnings, r.warnings...)
		if r.err != nil {
			warnings = append(warnings, fmt.Sprintf("sources: %s skipped: %s", names[i], strings.TrimPrefix(r.err.Error(), "ctxpack: ")))
			continue
		}
		if r.stateRoot != "" {
			roots = append(roots, names[i]+" "+r.stateRoot)
		}
		items = append(items, r.items...)
		dropped = append(dropped, r.dropped...)
	}
	var table []sourceInfo
	for _, n := range names {
		info, _ := sourceOf(n)
		info.weight = settings.Weights[n]
		table = append(table, info)
	}
	if o.Format.Content() == render.Markdown {
		o.Header = render.ContextHeader
		o.Footer = func(shown []*pack.Part) string {
			heads := map[string]bool{}
			for _, p := range shown {
				heads[p.Heading] = true
			}
			return render.ContextFooter(len(shown), len(heads))
		}
	}
	o.Mode, o.Target = "sources", query
	return run.assemble(o, table, items, dropped, roots, append(warnings, p.Warnings...), true)
}

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

// storeSource reports whether a source lives in the store.
func storeSource(name string) bool {
	switch name {
	case SourceMemories, SourceExperiences, SourceValues, SourceCommits:
		return true
	}
	return false
}

func commitsWarning(err error) string {
	if errors.Is(err, history.ErrNotRepository) {
		return "commits: the project is not a git repository (or git is not installed): no commits"
	}
	return "commits: not brought up to date: " + strings.TrimPrefix(err.Error(), "store: ")
}

// searchAll runs the searches named by labels at once, search(i) the
// i-th, and beside them reads st's state root (it reads every row) when
// st is not nil. A search that panics gets an error in its result, and
// the others go on.
func searchAll(ctx context.Context, st *store.Store, labels []string, search func(i int) sourceResult) ([]sourceResult, string, error) {
	results := make([]sourceResult, len(labels))
	var root string
	var rootErr error
	var wg sync.WaitGroup
	for i, label := range labels {
		wg.Go(func() {
			defer func() {
				if v := recover(); v != nil { // a failing search must not take the others with it
					results[i] = sourceResult{err: fmt.Errorf("ctxpack: %s: internal error: %v", label, v)}
				}
			}()
			results[i] = search(i)
		})
	}
	if st != nil {
		wg.Go(func() { root, rootErr = st.StateRoot(ctx) })
	}
	wg.Wait()
	return results, root, rootErr
}

// collect runs one source's search.
func (r *sourcesRun) collect(ctx context.Context, name string) sourceResult {
	limit := r.settings.Limit
	if r.req.Limit > 0 {
		limit = r.req.Limit
	}
	switch name {
	case SourceMemories:
		return r.memories(ctx, limit)
	case SourceExperiences:
		return r.experiences(ctx, limit)
	case SourceValues:
		return r.values(ctx, limit)
	case SourceCommits:
		return r.commits(ctx, limit)
	case SourceCode:
		return r.code(ctx, limit)
	case SourceArtifacts:
		return r.artifacts()
	}
	return sourceResult{err: &SourceError{Name: name}}
}

func (r *sourcesRun) memories(ctx context.Context, limit int) sourceResult {
	hits, err := r.st.SearchMemories(ctx, r.query, limit)
	if err != nil {
		return sourceResult{err: err}
	}
	top := topScore(len(hits), func(i int) float64 { return hits[i].Score })
	var items []*srcItem
	for i, h := range hits {
		key := ItemKey("memory", h.ID)
		match := h.Score / top
		imp := 0.5 + 0.5*h.Importance
		items = append(items, &srcItem{
			source: SourceMemories, key: key, typ: "memory", seq: i,
			item:       render.Memory{Key: key, Content: h.Content, Category: h.Category, Importance: h.Importance}.Item(),
			relevance:  match * imp,
			components: map[string]float64{"match": rank.Round(match), "importance": rank.Round(imp)},
			changed:    h.Created,
		})
	}
	return sourceResult{items: items}
}

// tierWeight is the confidence weighting of experiences: gold > silver >
// bronze > abandoned.
var tierWeight = map[store.Tier]float64{
	store.TierGold: 1, store.TierSilver: 0.9, store.TierBronze: 0.8, store.TierAbandoned: 0.5,
}

func (r *sourcesRun) experiences(ctx context.Context, limit int) sourceResult {
	hits, err := r.st.SearchExperiences(ctx, r.query, store.ExperienceQuery{Axis: store.AxisFull, K: limit})
	if err != nil {
		return sourceResult{err: err}
	}
	return sourceResult{items: rankExperiences(hits, func(i int, e store.Experience) *srcItem { return experienceItem(e, i) })}
}

// rankExperiences makes an item of each hit with item and sets its
// relevance: the match scaled to the best hit, times the confidence tier
// and the recency (relative to the newest hit).
func rankExperiences(hits []store.ExperienceHit, item func(i int, e store.Experience) *srcItem) []*srcItem {
	top := topScore(len(hits), func(i int) float64 { return hits[i].Score })
	newest := int64(0)
	for _, h := range hits {
		newest = max(newest, h.Created)
	}
	items := make([]*srcItem, len(hits))
	for i, h := range hits {
		it := item(i, h.Experience)
		match := h.Score / top
		tier := tierWeight[h.Confidence]
		rec := recencyWeight(newest, h.Created)
		it.relevance = match * tier * rec
		it.components = map[string]float64{"match": rank.Round(match), "confidence": rank.Round(tier), "recency": rank.Round(rec)}
		items[i] = it
	}
	return items
}

// experienceItem is an experience in the seed's format.
func experienceItem(e store.Experience, seq int) *srcItem {
	return &srcItem{
		source: SourceExperiences, key: ItemKey("experience", e.ID), typ: "experience", seq: seq,
		item: experienceView(e).Item(), experience: e.ID, changed: e.Created,
	}
}

// experienceView is what an item shows of an experience.
func experienceView(e store.Experience) render.Experience {
	return render.Experience{
		Key: ItemKey("experience", e.ID), Domain: e.Domain, Strategy: e.Strategy,
		Goal: e.Goal, Hypothesis: e.Hypothesis, Action: e.Action, Prediction: e.Prediction,
		Outcome: string(e.Outcome), Result: e.Result, Surprise: e.Surprise, RootCause: e.RootCause, Lesson: e.Lesson,
		Confidence: string(e.Confidence), Iterations: e.Iterations,
	}
}

func (r *sourcesRun) values(ctx context.Context, limit int) sourceResult {
	return searchValues(ctx, r.st, r.query, limit, SourceValues)
}

// searchValues is the k values that best match query, as items of the
// section named source, their relevance the match scaled to the best.
func searchValues(ctx context.Context, st *store.Store, query string, k int, source string) sourceResult {
	hits, err := st.SearchValues(ctx, query, k)
	if err != nil {
		return sourceResult{err: err}
	}
	top := topScore(len(hits), func(i int) float64 { return hits[i].Score })
	items := make([]*srcItem, len(hits))
	for i, h := range hits {
		it := valueItem(h.Value, i)
		it.source = source
		match := h.Score / top
		it.relevance = match
		it.components = map[string]float64{"match": rank.Round(match)}
		items[i] = it
	}
	return sourceResult{items: items}
}

// valueItem is a value in the seed's format.
func valueItem(v store.Value, seq int) *srcItem {
	from := ""
	if v.Experience != 0 {
		from = ItemKey("experience", v.Experience)
	}
	key := ItemKey("value", v.ID)
	return &srcItem{
		source: SourceValues, key: key, typ: "value", seq: seq,
		item:       render.Value{Key: key, Axis: string(v.Axis), ClusterSize: v.ClusterSize, Text: v.Text, From: from}.Item(),
		experience: v.Experience, changed: v.Created,
	}
}

func (r *sourcesRun) commits(ctx context.Context, limit int) sourceResult {
	hits, err := r.st.SearchCommits(ctx, r.query, limit)
	if err != nil {
		return sourceResult{err: err}
	}
	top := topScore(len(hits), func(i int) float64 { return hits[i].Score })
	newest := int64(0)
	for _, h := range hits {
		newest = max(newest, h.Time)
	}
	var items []*srcItem
	for i, h := range hits {
		short := h.SHA[:min(7, len(h.SHA))]
		files := make([]string, len(h.Files))
		for i, f := range h.Files {
			files[i] = f.Path
		}
		match := h.Score / top
		rec := recencyWeight(newest, h.Time)
		items = append(items, &srcItem{
			source: SourceCommits, key: "commit:" + short, typ: "commit", seq: i,
			item: render.Commit{
				Short: short, Author: h.Author, Time: h.Time, Message: h.Message,
				Files: files, Insertions: h.Insertions, Deletions: h.Deletions,
			}.Item(),
			relevance:  match * rec,
			components: map[string]float64{"match": rank.Round(match), "recency": rank.Round(rec)},
			files:      files, changed: h.Time,
		})
	}
	return sourceResult{items: items}
}

// code searches the repository index as retrieval mode ranks it: the best
// chunks, each shown whole in a fence.
func (r *sourcesRun) code(ctx context.Context, limit int) sourceResult {
	rk, err := r.p.rank(ctx, r.query, r.req.Index, func(o *retrieve.Options) {
		o.Expand = -1
		o.Fused = max(o.Fused, limit)
	})
	if err != nil {
		return sourceResult{err: err}
	}
	defer rk.oi.Close()
	root, err := rk.oi.StateRoot(ctx)
	if err != nil {
		return sourceResult{err: err}
	}
	res := sourceResult{stateRoot: root, warnings: rk.warnings}
	for _, c := range rk.Chunks {
		if len(res.items) == limit {
			break
		}
		text, err := rk.texts.read(c.Path)
		if err != nil || c.Start > c.End || c.End > len(text) || project.ContentID(text[c.Start:c.End]) != c.CID {
			why := "the file changed since it was indexed"
			if err != nil {
				why = "unreadable: " + project.ErrorText(err)
			}
			key := fmt.Sprintf("%s#%d", c.Path, c.Seq)
			if !slices.ContainsFunc(res.dropped, func(d render.Dropped) bool { return d.Path == c.Path }) {
				res.warnings = append(res.warnings, fmt.Sprintf("code: skipped chunks of %s: %s", c.Path, why))
			}
			res.dropped = append(res.dropped, render.Dropped{Key: key, Path: c.Path, Reason: why})
			continue
		}
		body := strings.TrimRight(text[c.Start:c.End], "\n")
		summary, _ := chunk.Levels(c.Path, []byte(body))
		comps := map[string]float64{"match": rank.Round(c.Relevance)}
		for k, v := range c.Factors {
			comps[k] = v
		}
		res.items = append(res.items, &srcItem{
			source: SourceCode, key: fmt.Sprintf("%s#%d", c.Path, c.Seq), typ: "code", seq: len(res.items),
			label: fmt.Sprintf("%s:%d-%d", c.Path, c.StartLine, c.EndLine), path: c.Path, lines: [2]int{c.StartLine, c.EndLine},
			item: render.Code{
				Kind: c.Kind, Name: c.Symbol, Path: c.Path, Line: c.StartLine,
				Text: body, Lang: chunk.Language(c.Path), Summary: summary,
			}.Item(),
			relevance: c.Relevance, components: comps,
			files: []string{c.Path}, cid: c.CID,
		})
	}
	return res
}

// artifacts are the artifacts the task links to, in the order the links
// reached them, the task first.
func (r *sourcesRun) artifacts() sourceResult {
	set, err := r.p.artifacts()
	if err != nil {
		return sourceResult{err: err}
	}
	c, err := graph.Traverse(set, r.req.Task, graph.Options{MaxDepth: r.req.LinkDepth})
	if err != nil {
		return sourceResult{err: fmt.Errorf("ctxpack: %w", err)}
	}
	inputs := make([]project.Input, 0, len(set.List))
	for _, a := range set.List {
		inputs = append(inputs, project.Input{Path: a.Path, CID: a.CID})
	}
	res := sourceResult{stateRoot: project.StateRoot(inputs), warnings: c.Warnings}
	for i, n := range c.Nodes {
		a := n.A
		order := 1 - float64(i)/float64(len(c.Nodes))
		res.items = append(res.items, &srcItem{
			source: SourceArtifacts, key: a.ID, typ: string(a.Type), seq: i,
			path: a.Path, lines: [2]int{1, max(1, a.Lines)},
			item: render.Artifact{
				Type: string(a.Type), ID: a.ID, Path: a.Path, Via: n.Via,
				Text: strings.TrimRight(a.Text(artifact.Full), "\n"), Summary: a.Text(artifact.Summary),
			}.Item(),
			relevance:  order,
			components: map[string]float64{"link_order": rank.Round(order)}, cid: a.CID,
		})
	}
	return res
}

// assemble turns the items into parts and fits them: each section
// (table, in render order) a bucket with its weight as its share, the
// budget divided among them by what their items need (water-filling),
// each item cut to the item cap of its section's entitlement, and, when
// dedup is set, items alike across sources dropped (edit distance).
func (r *sourcesRun) assemble(o pack.Options, table []sourceInfo, items []*srcItem, dropped []render.Dropped, roots []string, warnings []string, dedup bool) (*Result, error) {
	o.DedupThreshold = -1
	if dedup {
		o.DedupStrategy, o.DedupThreshold = pack.EditDistance, r.settings.Similarity
	}
	o.Sectioned = true
	o.Warnings = warnings
	o.StateRoot = combinedRoot(roots)
	o.Policy = pack.Policy{ItemCap: o.Policy.ItemCap, WaterFill: true, Cut: true}
	for _, s := range table {
		o.Policy.Buckets = append(o.Policy.Buckets, pack.Bucket{Name: s.name, Share: s.weight})
	}
	o.Dropped, o.DroppedByStage = dropped, true
	parts := make([]pack.Part, len(items))
	for i, it := range items {
		parts[i] = r.part(it, o.MaxLevel, table)
	}
	r.p.setMetadata(r.req, &o)
	res, err := pack.Assemble(parts, o)
	if err != nil {
		return nil, err
	}
	return &Result{Plan: res.Plan, Output: res.Output}, nil
}

// shown is the item at the requested depth.
func (r *sourcesRun) shown(it *srcItem, max pack.Level) render.Item {
	switch {
	case max == pack.Meta:
		return it.item.Meta()
	case max < pack.Full:
		return it.item.Summary()
	}
	return it.item
}

// part makes the item's part at the requested depth: its whole text, its
// brief form (summary, detailed) or its head and tail alone (meta).
func (r *sourcesRun) part(it *srcItem, level pack.Level, table []sourceInfo) pack.Part {
	section := slices.IndexFunc(table, func(s sourceInfo) bool { return s.name == it.source })
	info := table[section]
	shown := r.shown(it, level)
	p := pack.Part{
		Key: it.key, Source: info.part, Type: it.typ, Label: firstNonEmpty(it.label, it.key),
		Path: it.path, Lines: it.lines, Doc: it.key, Seq: it.seq,
		Score: it.relevance, Components: it.components, Bucket: it.source,
		Section: section, Heading: info.title, Changed: it.changed,
		Text: map[pack.Level]string{level: shown.Text()}, Item: &shown,
		Dedup: pack.DedupKeys{Text: it.item.Body},
	}
	if it.experience != 0 {
		p.Dedup.Origin = ItemKey("experience", it.experience)
	}
	switch {
	case it.source == SourceCode && len(it.files) == 1:
		p.Dedup.Shows = it.files[0]
	case it.source == SourceCommits:
		p.Dedup.Names = it.files
	}
	if it.cid != "" && level == pack.Full {
		p.CID = it.cid
	}
	return p
}

// combinedRoot is the state root of a sources assembly: a hash over the
// state roots of the sources searched, by name.
func combinedRoot(roots []string) string {
	inputs := make([]project.Input, len(roots))
	for i, r := range roots {
		name, root, _ := strings.Cut(r, " ")
		inputs[i] = project.Input{Path: name, CID: root}
	}
	return project.StateRoot(inputs)
}

// topScore is the best of n scores, for scaling them to [0, 1]; 1 when
// none is above 0 (a filter's rows that matched no term).
func topScore(n int, score func(int) float64) float64 {
	top := 0.0
	for i := range n {
		top = max(top, score(i))
	}
	if top <= 0 {
		return 1
	}
	return top
}

// recencyWeight is the small boost of recent items: from 0.9 for an item
// far older than the newest one searched to 1 for the newest, halving the
// rest every 30 days. Ages are relative to the newest item, never to the
// clock.
func recencyWeight(newest, t int64) float64 {
	if newest == 0 || t == 0 {
		return 0.9
	}
	return 0.9 + float64(0.1*rank.HalfLife(newest-t, 30))
}
