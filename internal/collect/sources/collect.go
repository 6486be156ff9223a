package sources

import (
	"context"
	"errors"
	"fmt"
	"slices"
	"strconv"
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

// Env is what a collection needs of the project. The code and artifacts
// sources need Code and Artifacts; the others need OpenStore and Root.
type Env struct {
	// Root is the project's root: the commits are read from its git
	// history.
	Root string
	// OpenStore opens the project's store of memories, experiences,
	// values and commits; readOnly opens it for reading only, a missing
	// store then being empty and nothing created.
	OpenStore func(readOnly bool) (*store.Store, error)
	// Code searches the repository index for the code source.
	Code CodeSearch
	// Artifacts returns the project's artifacts, for the artifacts source.
	Artifacts func() (*artifact.Set, error)
	Settings  Settings
}

// CodeSearch ranks the repository index's chunks for query as retrieval
// mode does, without expansion, taking at least limit after fusion.
type CodeSearch func(ctx context.Context, query string, limit int) (*CodeHits, error)

// CodeHits are a code search's result.
type CodeHits struct {
	Chunks    []retrieve.Chunk                  // best first
	Read      func(path string) (string, error) // a project file's text, as the index read it
	StateRoot string                            // of the index searched
	Warnings  []string
}

// Request is what to collect in sources mode. Its defaults are the
// caller's to resolve.
type Request struct {
	Query     string   // what to search every source for
	Sources   []string // source names, as Parse returns them
	Task      string   // the task whose artifacts the artifacts source brings
	LinkDepth int      // how many links from the task to follow; 0 is no limit
	Limit     int      // items each source's search returns, above 0
	Level     pack.Level
	// NoUpdate reads the commits as the store has them, without bringing
	// them up to date with the git history first.
	NoUpdate bool
}

// Collection is what a sources-mode or premortem collection found: the
// parts, and what the engine must know of them (Options).
type Collection struct {
	Parts []pack.Part
	// Dropped are items found but not shown (a code chunk whose file
	// changed since it was indexed), with the reason.
	Dropped   []render.Dropped
	Warnings  []string
	StateRoot string // over the state roots of the inputs searched
	// Failed are the searches that failed (a source, or a premortem
	// section), each left out with a warning: what explains an empty
	// result better than "nothing found".
	Failed []error

	mode, target string
	sections     []section // the buckets, in render order, with their weights
	dedup        float64   // the similarity that makes items duplicates; 0: no dedup
	header       string    // markdown only
	footer       func(shown []*pack.Part) string
}

// Options sets on o what the collection decides of its assembly: the mode
// and target; each section a bucket whose share is its weight, under
// water-filling and a cutting item cap (o's ItemCap); the sections as the
// render order; sources mode's deduplication by edit distance, premortem
// none; the collector's drops first, then dedup's and the cap's, then the
// budget's; the warnings before o's; the state root; and in markdown the
// header and footer.
func (c *Collection) Options(o *pack.Options) {
	o.Mode, o.Target = c.mode, c.target
	o.Policy = pack.Policy{ItemCap: o.Policy.ItemCap, WaterFill: true, Cut: true}
	for _, s := range c.sections {
		o.Policy.Buckets = append(o.Policy.Buckets, pack.Bucket{Name: s.name, Share: s.weight})
	}
	o.Sectioned = true
	o.DedupStrategy, o.DedupThreshold = pack.EditDistance, c.dedup
	if c.dedup == 0 {
		o.DedupThreshold = -1
	}
	o.Dropped, o.DroppedByStage = c.Dropped, true
	o.Warnings = append(slices.Clone(c.Warnings), o.Warnings...)
	o.StateRoot = c.StateRoot
	if o.Format.Content() == render.Markdown {
		o.Header, o.Footer = c.header, c.footer
	}
}

// item is one item a source found, before it becomes a part.
type item struct {
	source string // the section's name
	key    string // "memory:42", "commit:1a2b3c4", "src/a.go#3", "SPEC-BILLING-001"
	typ    string // the part's type: memory, experience, value, commit, code, spec…
	label  string
	path   string
	lines  [2]int
	seq    int // rank within its source

	item render.Item // its text, in the seed's format

	relevance  float64            // in [0, 1]
	components map[string]float64 // the relevance's factors
	experience string             // the key of the experience the item is, or came from; "" for none
	shows      string             // code: the file it shows
	names      []string           // commits: the files changed
	cid        string
	changed    int64
}

// result is what one search gave.
type result struct {
	items     []*item
	dropped   []render.Dropped // found but not shown, with the reason
	warnings  []string
	stateRoot string // of the inputs searched, when they are not the store's
	err       error
}

// Collect runs one search per source of req, in parallel, and makes the
// parts of what they found, ranked within each source: BM25 over
// code-aware terms scaled to the source's best hit (match), times the
// confidence tier of experiences, the importance of memories and the
// recency of experiences and commits; code as retrieval mode ranks it;
// artifacts in the order the task's links reach them.
//
// A search that fails is left out with a warning, and the others are
// still collected. The store is opened for reading only, unless the
// commits are brought up to date (req.NoUpdate unset).
func Collect(ctx context.Context, env Env, req Request) (*Collection, error) {
	run := &collector{env: env, req: req}
	var warnings []string
	if slices.ContainsFunc(req.Sources, inStore) {
		// Written only to bring the commits up to date: a store that is
		// not there is otherwise read as empty, and not created.
		sync := slices.Contains(req.Sources, Commits) && !req.NoUpdate
		st, err := env.OpenStore(!sync)
		if err != nil {
			return nil, err
		}
		defer st.Close()
		run.st = st
		warnings = append(warnings, st.Warnings()...)
		if sync {
			if _, err := st.SyncCommits(ctx, env.Root); err != nil {
				warnings = append(warnings, commitsWarning(err))
			}
		}
	}
	results, storeRoot, err := searchAll(ctx, run.st, req.Sources, func(i int) result { return run.search(ctx, req.Sources[i]) })
	if err != nil {
		return nil, err
	}
	c := &Collection{mode: "sources", target: req.Query, dedup: env.Settings.Similarity, header: render.ContextHeader}
	c.footer = func(shown []*pack.Part) string {
		heads := map[string]bool{}
		for _, p := range shown {
			heads[p.Heading] = true
		}
		return render.ContextFooter(len(shown), len(heads))
	}
	var roots []string
	if run.st != nil {
		roots = append(roots, "store "+storeRoot)
	}
	var items []*item
	for i, r := range results {
		warnings = append(warnings, r.warnings...)
		if r.err != nil {
			warnings = append(warnings, fmt.Sprintf("sources: %s skipped: %s", req.Sources[i], strings.TrimPrefix(r.err.Error(), "ctxpack: ")))
			c.Failed = append(c.Failed, fmt.Errorf("the %s source: %w", req.Sources[i], r.err))
			continue
		}
		if r.stateRoot != "" {
			roots = append(roots, req.Sources[i]+" "+r.stateRoot)
		}
		items = append(items, r.items...)
		c.Dropped = append(c.Dropped, r.dropped...)
	}
	for _, name := range req.Sources {
		s, _ := lookup(name)
		s.weight = env.Settings.Weights[name]
		c.sections = append(c.sections, s)
	}
	c.finish(items, roots, warnings, req.Level)
	return c, nil
}

// finish makes the collection's parts of items at the level, and its
// state root of the roots ("NAME ROOT").
func (c *Collection) finish(items []*item, roots, warnings []string, level pack.Level) {
	c.Warnings = warnings
	inputs := make([]project.Input, len(roots))
	for i, r := range roots {
		name, root, _ := strings.Cut(r, " ")
		inputs[i] = project.Input{Path: name, CID: root}
	}
	c.StateRoot = project.StateRoot(inputs)
	c.Parts = make([]pack.Part, len(items))
	for i, it := range items {
		c.Parts[i] = c.part(it, level)
	}
}

// part makes the item's part at the level: its whole text (full), its
// brief form (summary, detailed) or its heading and metadata line alone
// (meta).
func (c *Collection) part(it *item, level pack.Level) pack.Part {
	sec := slices.IndexFunc(c.sections, func(s section) bool { return s.name == it.source })
	info := c.sections[sec]
	shown := it.item
	switch {
	case level == pack.Meta:
		shown = shown.Meta()
	case level < pack.Full:
		shown = shown.Summary()
	}
	p := pack.Part{
		Key: it.key, Source: info.part, Type: it.typ, Label: it.label,
		Path: it.path, Lines: it.lines, Doc: it.key, Seq: it.seq,
		Score: it.relevance, Components: it.components, Bucket: it.source,
		Section: sec, Heading: info.title, Changed: it.changed,
		Text: map[pack.Level]string{level: shown.Text()}, Item: &shown,
		Dedup: pack.DedupKeys{Text: it.item.Body, Shows: it.shows, Names: it.names},
	}
	if p.Label == "" {
		p.Label = it.key
	}
	if it.experience != "" {
		p.Dedup.Origin = it.experience
	}
	if it.cid != "" && level == pack.Full {
		p.CID = it.cid
	}
	return p
}

// collector is one sources-mode collection's shared inputs.
type collector struct {
	env Env
	req Request
	st  *store.Store // open when a source lives in it
}

// inStore reports whether a source lives in the store.
func inStore(name string) bool {
	switch name {
	case Memories, Experiences, Values, Commits:
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
func searchAll(ctx context.Context, st *store.Store, labels []string, search func(i int) result) ([]result, string, error) {
	results := make([]result, len(labels))
	var root string
	var rootErr error
	var wg sync.WaitGroup
	for i, label := range labels {
		wg.Go(func() {
			defer func() {
				if v := recover(); v != nil { // a failing search must not take the others with it
					results[i] = result{err: fmt.Errorf("%s: internal error: %v", label, v)}
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

// search runs one source's search.
func (r *collector) search(ctx context.Context, name string) result {
	switch name {
	case Memories:
		return r.memories(ctx)
	case Experiences:
		return r.experiences(ctx)
	case Values:
		return searchValues(ctx, r.st, r.req.Query, r.req.Limit, Values)
	case Commits:
		return r.commits(ctx)
	case Code:
		return r.code(ctx)
	case Artifacts:
		return r.artifacts()
	}
	return result{err: errors.New(Unknown(name))}
}

// key is a stored row's key: "memory:42", or "value:3@team" for a row of
// the shared namespace ns (store.RowKey).
func key(kind string, id int64, ns string) string {
	return store.RowKey(kind, strconv.FormatInt(id, 10), ns)
}

func (r *collector) memories(ctx context.Context) result {
	hits, err := r.st.SearchMemories(ctx, r.req.Query, r.req.Limit)
	if err != nil {
		return result{err: err}
	}
	top := topScore(len(hits), func(i int) float64 { return hits[i].Score })
	var items []*item
	for i, h := range hits {
		k := key("memory", h.ID, h.Namespace)
		match := h.Score / top
		imp := 0.5 + 0.5*h.Importance
		items = append(items, &item{
			source: Memories, key: k, typ: "memory", seq: i,
			item:       render.Memory{Key: k, Content: h.Content, Category: h.Category, Importance: h.Importance}.Item(),
			relevance:  match * imp,
			components: map[string]float64{"match": rank.Round(match), "importance": rank.Round(imp)},
			changed:    h.Created,
		})
	}
	return result{items: items}
}

// tierWeight is the confidence weighting of experiences: gold > silver >
// bronze > abandoned.
var tierWeight = map[store.Tier]float64{
	store.TierGold: 1, store.TierSilver: 0.9, store.TierBronze: 0.8, store.TierAbandoned: 0.5,
}

func (r *collector) experiences(ctx context.Context) result {
	hits, err := r.st.SearchExperiences(ctx, r.req.Query, store.ExperienceQuery{Axis: store.AxisFull, K: r.req.Limit})
	if err != nil {
		return result{err: err}
	}
	return result{items: rankExperiences(hits, func(i int, e store.Experience) *item {
		return &item{
			source: Experiences, key: key("experience", e.ID, e.Namespace), typ: "experience", seq: i,
			item: experienceView(e).Item(), experience: key("experience", e.ID, e.Namespace), changed: e.Created,
		}
	})}
}

// rankExperiences makes an item of each hit with makeItem and sets its
// relevance: the match scaled to the best hit, times the confidence tier
// and the recency (relative to the newest hit).
func rankExperiences(hits []store.ExperienceHit, makeItem func(i int, e store.Experience) *item) []*item {
	top := topScore(len(hits), func(i int) float64 { return hits[i].Score })
	newest := int64(0)
	for _, h := range hits {
		newest = max(newest, h.Created)
	}
	items := make([]*item, len(hits))
	for i, h := range hits {
		it := makeItem(i, h.Experience)
		match := h.Score / top
		tier := tierWeight[h.Confidence]
		rec := recency(newest, h.Created)
		it.relevance = match * tier * rec
		it.components = map[string]float64{"match": rank.Round(match), "confidence": rank.Round(tier), "recency": rank.Round(rec)}
		items[i] = it
	}
	return items
}

// experienceView is what an item shows of an experience.
func experienceView(e store.Experience) render.Experience {
	return render.Experience{
		Key: key("experience", e.ID, e.Namespace), Domain: e.Domain, Strategy: e.Strategy,
		Goal: e.Goal, Hypothesis: e.Hypothesis, Action: e.Action, Prediction: e.Prediction,
		Outcome: string(e.Outcome), Result: e.Result, Surprise: e.Surprise, RootCause: e.RootCause, Lesson: e.Lesson,
		Confidence: string(e.Confidence), Iterations: e.Iterations,
	}
}

// searchValues is the k values that best match query, as items of the
// section named source, their relevance the match scaled to the best.
func searchValues(ctx context.Context, st *store.Store, query string, k int, source string) result {
	hits, err := st.SearchValues(ctx, query, k)
	if err != nil {
		return result{err: err}
	}
	top := topScore(len(hits), func(i int) float64 { return hits[i].Score })
	items := make([]*item, len(hits))
	for i, h := range hits {
		from := ""
		if h.Experience != 0 { // in the value's namespace
			from = key("experience", h.Experience, h.Namespace)
		}
		k := key("value", h.ID, h.Namespace)
		match := h.Score / top
		items[i] = &item{
			source: source, key: k, typ: "value", seq: i,
			item:       render.Value{Key: k, Axis: string(h.Axis), ClusterSize: h.ClusterSize, Text: h.Text, From: from}.Item(),
			relevance:  match,
			components: map[string]float64{"match": rank.Round(match)},
			experience: from, changed: h.Created,
		}
	}
	return result{items: items}
}

func (r *collector) commits(ctx context.Context) result {
	hits, err := r.st.SearchCommits(ctx, r.req.Query, r.req.Limit)
	if err != nil {
		return result{err: err}
	}
	top := topScore(len(hits), func(i int) float64 { return hits[i].Score })
	newest := int64(0)
	for _, h := range hits {
		newest = max(newest, h.Time)
	}
	var items []*item
	for i, h := range hits {
		short := h.SHA[:min(7, len(h.SHA))]
		files := make([]string, len(h.Files))
		for i, f := range h.Files {
			files[i] = f.Path
		}
		match := h.Score / top
		rec := recency(newest, h.Time)
		items = append(items, &item{
			source: Commits, key: "commit:" + short, typ: "commit", seq: i,
			item: render.Commit{
				Short: short, Author: h.Author, Time: h.Time, Message: h.Message,
				Files: files, Insertions: h.Insertions, Deletions: h.Deletions,
			}.Item(),
			relevance:  match * rec,
			components: map[string]float64{"match": rank.Round(match), "recency": rank.Round(rec)},
			names:      files, changed: h.Time,
		})
	}
	return result{items: items}
}

// code searches the repository index as retrieval mode ranks it: the best
// chunks, each shown whole in a fence. A chunk whose file changed since it
// was indexed is left out, with a warning for its file.
func (r *collector) code(ctx context.Context) result {
	if r.env.Code == nil {
		return result{err: errors.New("no code search")}
	}
	hits, err := r.env.Code(ctx, r.req.Query, r.req.Limit)
	if err != nil {
		return result{err: err}
	}
	res := result{stateRoot: hits.StateRoot, warnings: hits.Warnings}
	for _, c := range hits.Chunks {
		if len(res.items) == r.req.Limit {
			break
		}
		text, err := hits.Read(c.Path)
		var body string
		if err == nil {
			body, err = retrieve.ChunkText(c, text)
		}
		if err != nil {
			why := err.Error()
			if !errors.Is(err, retrieve.ErrChunkChanged) {
				why = "unreadable: " + project.ErrorText(err)
			}
			k := fmt.Sprintf("%s#%d", c.Path, c.Seq)
			if !slices.ContainsFunc(res.dropped, func(d render.Dropped) bool { return d.Path == c.Path }) {
				res.warnings = append(res.warnings, fmt.Sprintf("code: skipped chunks of %s: %s", c.Path, why))
			}
			res.dropped = append(res.dropped, render.Dropped{Key: k, Path: c.Path, Reason: why})
			continue
		}
		body = strings.TrimRight(body, "\n")
		summary, _ := chunk.Levels(c.Path, []byte(body))
		comps := map[string]float64{"match": rank.Round(c.Relevance)}
		for k, v := range c.Factors {
			comps[k] = v
		}
		res.items = append(res.items, &item{
			source: Code, key: fmt.Sprintf("%s#%d", c.Path, c.Seq), typ: "code", seq: len(res.items),
			label: fmt.Sprintf("%s:%d-%d", c.Path, c.StartLine, c.EndLine), path: c.Path, lines: [2]int{c.StartLine, c.EndLine},
			item: render.Code{
				Kind: c.Kind, Name: c.Symbol, Path: c.Path, Line: c.StartLine,
				Text: body, Lang: chunk.Language(c.Path), Summary: summary,
			}.Item(),
			relevance: c.Relevance, components: comps,
			shows: c.Path, cid: c.CID,
		})
	}
	return res
}

// artifacts are the artifacts the task links to, in the order the links
// reached them, the task first.
func (r *collector) artifacts() result {
	if r.env.Artifacts == nil {
		return result{err: errors.New("no artifacts")}
	}
	set, err := r.env.Artifacts()
	if err != nil {
		return result{err: err}
	}
	c, err := graph.Traverse(set, r.req.Task, graph.Options{MaxDepth: r.req.LinkDepth})
	if err != nil {
		return result{err: err}
	}
	inputs := make([]project.Input, 0, len(set.List))
	for _, a := range set.List {
		inputs = append(inputs, project.Input{Path: a.Path, CID: a.CID})
	}
	res := result{stateRoot: project.StateRoot(inputs), warnings: c.Warnings}
	for i, n := range c.Nodes {
		a := n.A
		order := 1 - float64(i)/float64(len(c.Nodes))
		res.items = append(res.items, &item{
			source: Artifacts, key: a.ID, typ: string(a.Type), seq: i,
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

// recency is the small boost of recent items: from 0.9 for an item far
// older than the newest one searched to 1 for the newest, halving the
// rest every 30 days. Ages are relative to the newest item, never to the
// clock.
func recency(newest, t int64) float64 {
	if newest == 0 || t == 0 {
		return 0.9
	}
	return 0.9 + float64(0.1*rank.HalfLife(newest-t, 30))
}
