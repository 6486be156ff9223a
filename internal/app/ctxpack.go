package app

import (
	"context"
	"fmt"
	"io/fs"
	"math"
	"os"
	"path/filepath"
	"runtime"
	"slices"
	"strings"
	"sync"

	"github.com/ctxpack/ctxpack/internal/chunk"
	"github.com/ctxpack/ctxpack/internal/pack"
	"github.com/ctxpack/ctxpack/internal/project"
	"github.com/ctxpack/ctxpack/internal/rank"
	"github.com/ctxpack/ctxpack/internal/refgraph"
	"github.com/ctxpack/ctxpack/internal/render"
	"github.com/ctxpack/ctxpack/internal/retrieve"
	"github.com/ctxpack/ctxpack/internal/tokenizer"
)

// Plan is the record of an assembly: the schema of the json format.
type Plan = render.Plan

// Result is an assembled context.
type Result struct {
	Plan   Plan
	Output []byte // what the requested format prints
}

// Reserves are the tokens kept back from a context window (DESIGN §3).
type Reserves = project.Reserves

// Request says what to assemble and how. Empty fields take the project's
// configuration, then the defaults.
type Request struct {
	// Paths are the files and directories to pack, relative to the project
	// root (slash or OS separators); empty means the whole project.
	Paths []string

	Budget    int       // tokens the output may use
	Window    int       // a context window; the budget is Window − reserves
	Reserves  *Reserves // nil means the configured reserves
	Tokenizer string
	Format    string
	Strategy  string // greedy, interleaved, score
	Overflow  string // degrade, drop, truncate, error, allow
	Depth     string // the highest level: meta, summary, detailed, full

	DedupThreshold  float64 // 0 = configured
	MaxChunksPerDoc int     // 0 = configured
	// ItemCap is the largest share of the budget one part may take
	// before its fuller levels wait for a larger budget; 0 = configured,
	// 1 = no cap.
	ItemCap float64
	// PreferRecent and IncludeMetadata override the configuration when set.
	PreferRecent    *bool
	IncludeMetadata *bool

	// FreeText says that Context's target is free text, never an artifact
	// id or a path: a query a front end read from standard input.
	FreeText bool

	// LinkDepth limits how many links from the task links mode follows;
	// 0 is no limit.
	LinkDepth int

	// ReverseWalk visits files in reverse order: a test knob that proves
	// the output does not depend on walk order (ctxpack verify uses it).
	ReverseWalk bool

	// Query ranks the files of a pack by their relevance to it (through
	// the repository index) instead of by structure.
	Query string
	// Index says where the repository index is, for retrieval and for
	// packs ranked by Query.
	Index IndexOptions
	// Sources are the sources of sources mode (Project.Sources): names
	// from SourceNames, each entry one or several separated by commas.
	Sources []string
	// Task is the task whose linked artifacts the artifacts source brings.
	Task string
	// Limit is how many items each source's search returns; 0 means the
	// configured limit (sources.limit, default 20).
	Limit int

	// NoCache assembles without the assembly cache (.ctxpack/cache/),
	// neither reading nor writing it; the answer is the same either way.
	NoCache bool
}

// DefaultBudget is the budget used when neither the request nor the
// configuration gives one.
const DefaultBudget = 8000

// Project is a project opened for assembly.
type Project struct {
	Root     string // absolute
	Dir      string // absolute: where relative request paths start
	FS       fs.FS  // the files under Root
	Config   project.Config
	Warnings []string // from reading the configuration

	projectState
}

// Open finds the project root from dir (walking up like git) and reads
// its configuration; configPath, when not empty, names another config file
// (relative to dir or absolute).
func Open(dir, configPath string) (*Project, error) {
	root, err := project.FindRoot(dir)
	if err != nil {
		return nil, err
	}
	abs, err := filepath.Abs(dir)
	if err != nil {
		return nil, fmt.Errorf("ctxpack: %w", err)
	}
	p := &Project{Root: root, Dir: abs, FS: os.DirFS(root)}
	cfsys, cpath := p.FS, ""
	switch {
	case configPath != "":
		abs := configPath
		if !filepath.IsAbs(abs) {
			abs = filepath.Join(dir, abs)
		}
		if _, err := os.Stat(abs); err != nil {
			return nil, fmt.Errorf("ctxpack: config file: %w", err)
		}
		cfsys, cpath = os.DirFS(filepath.Dir(abs)), filepath.Base(abs)
	default:
		if d := project.ArtifactDir(p.FS); d != "" {
			cpath = d + "/config.yaml"
		}
	}
	p.Config = project.Defaults()
	if cpath != "" {
		cfg, warns, err := project.LoadConfig(cfsys, cpath)
		if err != nil {
			return nil, err
		}
		p.Config = cfg
		for _, w := range warns {
			p.Warnings = append(p.Warnings, w.String())
		}
	}
	return p, nil
}

// Tokenizer returns the tokenizer a request names, or the configured one.
func (p *Project) Tokenizer(name string) (tokenizer.Tokenizer, error) {
	if name == "" {
		name = p.Config.Tokenizer
	}
	return tokenizer.Get(name)
}

// options turns a request into engine options, the configuration filling
// what the request leaves empty.
func (p *Project) options(req Request) (pack.Options, error) {
	c := p.Config
	var o pack.Options
	var err error
	if o.Tokenizer, err = p.Tokenizer(req.Tokenizer); err != nil {
		return o, err
	}
	if o.Format, err = render.ParseFormat(firstNonEmpty(req.Format, c.Format)); err != nil {
		return o, err
	}
	if o.Strategy, err = pack.ParseStrategy(firstNonEmpty(req.Strategy, c.Pack.Strategy)); err != nil {
		return o, err
	}
	if o.Overflow, err = pack.ParseOverflow(firstNonEmpty(req.Overflow, c.Pack.Overflow)); err != nil {
		return o, err
	}
	o.MaxLevel = pack.Full
	if req.Depth != "" {
		if o.MaxLevel, err = pack.ParseLevel(req.Depth); err != nil {
			return o, err
		}
	}
	if o.Budget, err = p.budget(req); err != nil {
		return o, err
	}
	o.DedupThreshold = c.Pack.DedupThreshold
	if req.DedupThreshold != 0 {
		o.DedupThreshold = req.DedupThreshold
	}
	o.MaxChunksPerDoc = c.Pack.MaxChunksPerDoc
	if req.MaxChunksPerDoc != 0 {
		o.MaxChunksPerDoc = req.MaxChunksPerDoc
	}
	o.Policy.ItemCap = c.Pack.ItemCap
	if req.ItemCap != 0 {
		if req.ItemCap < 0 || req.ItemCap > 1 {
			return o, fmt.Errorf("ctxpack: item cap must be in (0, 1] (got %g)", req.ItemCap)
		}
		o.Policy.ItemCap = req.ItemCap
	}
	if o.Policy.ItemCap >= 1 {
		o.Policy.ItemCap = 0 // a cap of the whole budget is no cap
	}
	o.PreferRecent = c.Pack.PreferRecent
	if req.PreferRecent != nil {
		o.PreferRecent = *req.PreferRecent
	}
	return o, nil
}

// budget resolves --budget and --window with reserves.
func (p *Project) budget(req Request) (int, error) {
	if req.Budget < 0 || req.Window < 0 {
		return 0, fmt.Errorf("ctxpack: budget and window must not be negative")
	}
	if req.Budget > 0 && req.Window > 0 {
		return 0, fmt.Errorf("ctxpack: give a budget or a window, not both")
	}
	if req.Budget > 0 {
		return req.Budget, nil
	}
	window, res := p.window(req)
	if window == 0 && p.Config.Budget > 0 {
		return p.Config.Budget, nil
	}
	if window > 0 {
		n := window - res.System - res.Query - res.Response
		if n <= 0 {
			return 0, fmt.Errorf("ctxpack: window %d leaves no budget after reserves (system %d, query %d, response %d)", window, res.System, res.Query, res.Response)
		}
		return n, nil
	}
	return DefaultBudget, nil
}

// window is the context window a request's budget comes from, with the
// reserves kept back from it: the request's, else the configuration's
// when it gives no budget; 0 when the budget is given directly.
func (p *Project) window(req Request) (int, Reserves) {
	res := p.Config.Reserves
	if req.Reserves != nil {
		res = *req.Reserves
	}
	switch {
	case req.Budget > 0:
		return 0, res
	case req.Window > 0:
		return req.Window, res
	case p.Config.Budget == 0:
		return p.Config.Window, res
	}
	return 0, res
}

// Pack assembles every file under req.Paths, degraded by level to fit.
// Under a budget, files are ranked by structure (rankParts): how central
// they are in the graph of references between files, how recently they
// changed, and their kind; with req.Query, by their relevance to it
// instead of their centrality. With no budget in the request or the
// configuration, every file is packed whole with exact counts (the allow
// strategy, no limit), ranked by kind of file (source, tests, docs,
// config) and path unless req.Query asks for a ranking.
func (p *Project) Pack(ctx context.Context, req Request) (*Result, error) {
	unbudgeted := p.unbudgeted(req)
	if unbudgeted && req.Overflow == "" {
		req.Overflow = string(pack.Allow)
	}
	o, err := p.options(req)
	if err != nil {
		return nil, err
	}
	if unbudgeted {
		if o.Overflow != pack.Allow {
			return nil, fmt.Errorf("ctxpack: --overflow %s needs a budget: give --budget N or --window W", o.Overflow)
		}
		o.Budget = 0
	}
	roots, err := p.roots(req.Paths)
	if err != nil {
		return nil, err
	}
	files, skipped, err := project.Walk(p.FS, roots, project.WalkOptions{
		MaxFileBytes:  p.Config.Walk.MaxFileBytes,
		IncludeHidden: p.Config.Walk.IncludeHidden,
		Reverse:       req.ReverseWalk,
	})
	if err != nil {
		return nil, err
	}
	parts, inputs, warns, err := p.fileParts(ctx, files, !unbudgeted)
	if err != nil {
		return nil, err
	}
	warnings := slices.Clone(p.Warnings)
	for _, s := range skipped {
		warnings = append(warnings, fmt.Sprintf("skipped %s: %s", s.Path, s.Reason))
	}
	warnings = append(warnings, warns...)
	switch {
	case !unbudgeted || req.Query != "":
		warns, err := p.rankParts(ctx, parts, req.Query, req.Index)
		if err != nil {
			return nil, err
		}
		warnings = append(warnings, warns...)
		o.PreferRecent = false // recency is one of the factors already
	case o.PreferRecent:
		changed, err := p.lastChanged(ctx, parts)
		if err != nil {
			return nil, err
		}
		for i := range parts {
			parts[i].Changed = changed[parts[i].Path]
		}
	}
	slices.Sort(warnings)
	o.Mode, o.Target = "pack", strings.Join(roots, " ")
	o.StateRoot = project.StateRoot(inputs)
	o.Warnings = warnings
	p.setMetadata(req, &o)
	res, err := pack.Assemble(parts, o)
	if err != nil {
		return nil, err
	}
	return &Result{Plan: res.Plan, Output: res.Output}, nil
}

// The weights of the factors that rank the files of a pack under a budget:
// a file's score is the weighted mean of its factors, each in [0, 1]. The
// main factor is the file's centrality in the graph of references between
// the files (internal/refgraph). Recency is left out, and the other
// weights renormalized, when git knows none of the files.
const (
	weightMain     = 0.6 // centrality
	weightRecency  = 0.3 // 0.5^(days older than the newest file / 7)
	weightFileType = 0.1 // classify: the aiwg seed's priority of the file's kind
)

// rankParts scores the parts of a pack under a budget or with a query and
// puts each factor, in millionths, in their Components. With a query a
// file's score is its retrieval relevance ("relevance"; 0 for files the
// query does not match), which already weighs file type, recency and the
// rest. Otherwise it is the weighted mean of "centrality", "recency"
// (when the tree has git history; 0 for files git does not know) and
// "file_type".
func (p *Project) rankParts(ctx context.Context, parts []pack.Part, query string, idx IndexOptions) ([]string, error) {
	if query != "" {
		texts := make(map[string]string, len(parts))
		for _, pt := range parts {
			texts[pt.Path] = pt.Text[pack.Full]
		}
		files, warnings, err := p.rankFiles(ctx, query, idx, texts)
		if err != nil {
			return nil, err
		}
		rel := make(map[string]float64, len(files))
		for _, f := range files {
			rel[f.Path] = f.Relevance
		}
		for i := range parts {
			r := unitScore(rel[parts[i].Path])
			parts[i].Components = map[string]float64{"relevance": r}
			parts[i].Score = r
		}
		return warnings, nil
	}
	files := make([]refgraph.File, len(parts))
	for i := range parts {
		files[i] = refgraph.File{Path: parts[i].Path, Text: parts[i].Text[pack.Full]}
	}
	mainName, main := "centrality", refgraph.Build(files).Centrality()
	changed, err := p.lastChanged(ctx, parts)
	if err != nil {
		return nil, err
	}
	var newest int64
	for _, t := range changed {
		newest = max(newest, t)
	}
	for i := range parts {
		pt := &parts[i]
		fileType := pt.Components["file_type"]
		m := unitScore(main[pt.Path])
		pt.Components = map[string]float64{"file_type": fileType, mainName: m}
		// float64() rounds each product: no platform may fuse them into
		// a multiply-add, so the score is the same on every machine.
		sum, weights := float64(weightMain*m)+float64(weightFileType*fileType), weightMain+weightFileType
		if newest > 0 {
			r := 0.0
			if t := changed[pt.Path]; t > 0 {
				r = unitScore(math.Pow(0.5, float64(newest-t)/86400/7))
			}
			pt.Components["recency"] = r
			sum, weights = sum+float64(weightRecency*r), weights+weightRecency
		}
		pt.Score = sum / weights
	}
	return nil, nil
}

// unitScore clamps a factor to [0, 1] (NaN is 0) and rounds it to
// millionths, so that the components reported are the ones scored.
func unitScore(x float64) float64 {
	if !(x > 0) {
		return 0
	}
	return rank.Round(min(x, 1))
}

// lastChanged is git's last commit time of each part's file.
func (p *Project) lastChanged(ctx context.Context, parts []pack.Part) (map[string]int64, error) {
	want := make(map[string]bool, len(parts))
	for _, pt := range parts {
		want[pt.Path] = true
	}
	return project.LastChanged(ctx, p.Root, want)
}

func (p *Project) includeMetadata(req Request) bool {
	if req.IncludeMetadata != nil {
		return *req.IncludeMetadata
	}
	return p.Config.Pack.IncludeMetadata
}

// setMetadata sets the metadata line of an assembly, when req or the
// configuration asks for one: the mode, the target unless it is free text
// (retrieval's query, which can be long and span lines), the tokenizer,
// the budget and the state root, all set in o before.
func (p *Project) setMetadata(req Request, o *pack.Options) {
	if !p.includeMetadata(req) {
		return
	}
	target := " target=" + o.Target
	if o.Mode == "retrieval" {
		target = ""
	}
	o.Metadata = fmt.Sprintf("mode=%s%s tokenizer=%s budget=%d state_root=%s", o.Mode, target, o.Tokenizer.Name(), o.Budget, o.StateRoot)
}

// roots resolves request paths to slash paths under the root.
func (p *Project) roots(paths []string) ([]string, error) {
	if len(paths) == 0 {
		return []string{"."}, nil
	}
	var out []string
	for _, a := range paths {
		r, err := project.Resolve(p.Root, p.Dir, a)
		if err != nil {
			return nil, err
		}
		out = append(out, r)
	}
	slices.Sort(out)
	return slices.Compact(out), nil
}

// fileParts reads files in parallel and makes one part per file, in the
// order given; the parallelism never reaches the output. With levels, each
// part can also give its extractive summary and detailed levels (what
// fitting to a budget lowers files to), through Part.More: the engine asks
// for them only for the files it raises above their meta line.
func (p *Project) fileParts(ctx context.Context, files []project.File, levels bool) ([]pack.Part, []project.Input, []string, error) {
	type read struct {
		text, cid string
		repaired  bool
		err       error
	}
	out := make([]read, len(files))
	var wg sync.WaitGroup
	next := make(chan int)
	for range runtime.GOMAXPROCS(0) {
		wg.Go(func() {
			for i := range next {
				t, rep, err := project.ReadText(p.FS, files[i].Path)
				out[i] = read{text: t, repaired: rep, err: err}
				if err == nil {
					out[i].cid = project.ContentID(t)
				}
			}
		})
	}
	for i := range files {
		if ctx.Err() != nil {
			break
		}
		next <- i
	}
	close(next)
	wg.Wait()
	if err := ctx.Err(); err != nil {
		return nil, nil, nil, err
	}
	parts := make([]pack.Part, 0, len(files))
	inputs := make([]project.Input, 0, len(files))
	var warnings []string
	for i, f := range files {
		r := out[i]
		if r.err != nil {
			warnings = append(warnings, fmt.Sprintf("skipped %s: %v", f.Path, r.err))
			continue
		}
		if r.repaired {
			warnings = append(warnings, fmt.Sprintf("%s: invalid UTF-8 replaced with U+FFFD", f.Path))
		}
		part := filePart(f.Path, r.text)
		part.CID = r.cid
		if levels {
			part.More = codeLevels(f.Path, r.text)
		}
		parts = append(parts, part)
		inputs = append(inputs, project.Input{Path: f.Path, CID: part.CID})
	}
	return parts, inputs, warnings, nil
}

// codeLevels returns a Part.More that gives the file's extractive summary
// and detailed levels (chunk.Levels); it is called at most once.
func codeLevels(path, text string) func() map[pack.Level]string {
	return func() map[pack.Level]string {
		summary, detailed := chunk.Levels(path, []byte(text))
		m := make(map[pack.Level]string, 2)
		if summary != "" {
			m[pack.Summary] = summary
		}
		if detailed != "" {
			m[pack.Detailed] = detailed
		}
		return m
	}
}

// filePart is a whole file as a part: full text, and a meta line.
func filePart(p, text string) pack.Part {
	lines := project.CountLines(text)
	lang, kind, score := classify(p)
	meta := fmt.Sprintf("%s, %d lines, %d bytes\n", firstNonEmpty(lang, "text"), lines, len(text))
	part := pack.Part{
		Key: p, Source: "file", Type: kind, Path: p, Lang: lang, Score: score,
		Text:       map[pack.Level]string{pack.Meta: meta, pack.Full: text},
		Components: map[string]float64{"file_type": score},
	}
	if lines > 0 {
		part.Lines = [2]int{1, lines}
	}
	return part
}

// classify returns a file's language (chunk.Language), the section word
// of its kind (retrieve.FileKind, the classifier retrieval's file-type
// factor uses) and the aiwg seed's priority of that kind: source 1.0,
// tests 0.9, requirements 0.8, docs 0.7, config 0.6, other 0.5.
func classify(p string) (lang, kind string, score float64) {
	k := retrieve.FileKind(p)
	return chunk.Language(p), filePartType[k], retrieve.SeedFileTypes().Of(k)
}

// filePartType is the section word of a packed file, by kind of file
// (retrieve.FileKind); partType is that of a retrieved chunk.
var filePartType = map[string]string{
	"source": "source", "test": "test", "documentation": "doc", "requirements": "doc", "config": "config", "other": "file",
}

func firstNonEmpty(s ...string) string {
	for _, v := range s {
		if v != "" {
			return v
		}
	}
	return ""
}
