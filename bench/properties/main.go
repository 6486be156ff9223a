// Command properties checks the engine's promises on real repositories:
// determinism (a clean build and an incremental build that reach the same
// files give the same state_root and the same digests; GOMAXPROCS=1 and
// GOMAXPROCS=8 agree) and every budget property of DESIGN §3 on every
// assembly it makes.
//
//	go run ./bench/properties -tree DIR [-tree DIR…] [-queries FILE]
//	    [-budgets 500,2000,8000,13000,32000] [-pack-budgets 20000,100000]
//
// For each tree, which it only reads:
//
//  1. Clean vs incremental. A copy of the tree with every 10th file (in
//     sorted path order) removed and every 100th edited (a comment line
//     appended) is indexed into index A; the files are then restored
//     exactly and A is updated. A second, pristine copy is indexed from
//     scratch into index B. The state roots and the digests of retrieval
//     at budget 8000 for every query must be equal.
//  2. GOMAXPROCS. Under GOMAXPROCS=1 the pristine copy is indexed from
//     scratch into index C and every retrieval (each query × budget ×
//     tokenizer × format) and a pack of the whole tree at each pack budget
//     are assembled; under GOMAXPROCS=8 the same, on index B, with the
//     packs walking the files in reverse. Every digest must be equal.
//  3. Budget properties, on every assembly of step 2: (a) total_tokens is
//     the tokenizer's count of the content, the content is what is
//     written and its digest, and it is within the budget; (b) raising
//     the budget never drops a part or lowers its level; (c) every part
//     not shown in full, and every dropped part, has a reason; (d) no key
//     is emitted twice, or both emitted and dropped, and no content id is
//     emitted twice.
//
// Queries are the problem statements of the -queries file (SWE-bench
// JSONL) whose instance_id is the tree's folder name, followed by four
// generic sentences that fit any repository. It prints one line per check
// with its counts and timings, and exits 1 listing the first violations
// when any promise is broken (2 on a usage error).
package main

import (
	"bufio"
	"context"
	"encoding/json"
	"errors"
	"flag"
	"fmt"
	"io"
	"io/fs"
	"os"
	"os/signal"
	"path/filepath"
	"runtime"
	"slices"
	"strconv"
	"strings"
	"time"

	"github.com/ctxpack/ctxpack/internal/app"
	"github.com/ctxpack/ctxpack/internal/pack"
	"github.com/ctxpack/ctxpack/internal/render"
	"github.com/ctxpack/ctxpack/internal/tokenizer"
)

func main() { os.Exit(Main(os.Args[1:], os.Stdout, os.Stderr)) }

// genericQueries fit any repository: they are the queries of a tree that
// the -queries file has no instance for, and come after those that it has.
var genericQueries = []string{
	"the server does not close idle connections after a timeout",
	"parse the configuration file and report errors with line numbers",
	"the cache returns stale results after the underlying file changes",
	"add a command line option to print verbose output when a request fails",
}

// The matrix of retrieval assemblies, and the step-1 comparison point.
var (
	tokenizers = []string{"o200k_base", "cl100k_base"}
	formats    = []string{"text", "xml"}
)

const compareBudget = 8000

// maxShown is how many violations the summary lists.
const maxShown = 10

// options are the command line.
type options struct {
	trees       []string
	queries     string // JSONL file, "" for the generic queries only
	budgets     []int  // retrieval budgets, ascending
	packBudgets []int  // pack budgets, ascending
}

// Main runs the command and returns its exit code: 0 when every promise
// holds, 1 on a violation or a failure, 2 on a usage error.
func Main(args []string, stdout, stderr io.Writer) int {
	opts, err := parseFlags(args, stderr)
	if errors.Is(err, flag.ErrHelp) {
		return 0
	}
	if err != nil {
		fmt.Fprintln(stderr, "properties:", err)
		return 2
	}
	ctx, stop := signal.NotifyContext(context.Background(), os.Interrupt)
	defer stop()
	viols, err := run(ctx, opts, stdout)
	if err != nil {
		fmt.Fprintln(stderr, "properties:", err)
		return 1
	}
	if len(viols) > 0 {
		fmt.Fprintf(stdout, "FAIL: %d violations; the first %d:\n", len(viols), min(len(viols), maxShown))
		for _, v := range viols[:min(len(viols), maxShown)] {
			fmt.Fprintln(stdout, "  "+v)
		}
		return 1
	}
	fmt.Fprintln(stdout, "OK: every promise holds")
	return 0
}

func parseFlags(args []string, stderr io.Writer) (*options, error) {
	fl := flag.NewFlagSet("properties", flag.ContinueOnError)
	fl.SetOutput(stderr)
	var o options
	fl.Func("tree", "a repository tree to check (repeatable; only read)", func(s string) error {
		o.trees = append(o.trees, s)
		return nil
	})
	fl.StringVar(&o.queries, "queries", "", "SWE-bench JSONL: the problem statements of the instances named like a tree are its first queries")
	budgets := fl.String("budgets", "500,2000,8000,13000,32000", "retrieval budgets")
	packBudgets := fl.String("pack-budgets", "20000,100000", "budgets of the packs of the whole tree")
	if err := fl.Parse(args); err != nil {
		return nil, err
	}
	if fl.NArg() > 0 {
		return nil, fmt.Errorf("unexpected argument %q", fl.Arg(0))
	}
	if len(o.trees) == 0 {
		return nil, fmt.Errorf("give at least one -tree DIR")
	}
	var err error
	if o.budgets, err = parseBudgets(*budgets); err != nil {
		return nil, fmt.Errorf("-budgets: %w", err)
	}
	if o.packBudgets, err = parseBudgets(*packBudgets); err != nil {
		return nil, fmt.Errorf("-pack-budgets: %w", err)
	}
	return &o, nil
}

// parseBudgets parses a comma-separated list of positive budgets and
// returns them ascending and distinct.
func parseBudgets(s string) ([]int, error) {
	var out []int
	for f := range strings.SplitSeq(s, ",") {
		n, err := strconv.Atoi(strings.TrimSpace(f))
		if err != nil || n <= 0 {
			return nil, fmt.Errorf("%q is not a positive number of tokens", f)
		}
		out = append(out, n)
	}
	slices.Sort(out)
	return slices.Compact(out), nil
}

// run checks every tree and returns the violations found.
func run(ctx context.Context, o *options, w io.Writer) ([]string, error) {
	tmp, err := os.MkdirTemp("", "ctxpack-properties-")
	if err != nil {
		return nil, err
	}
	if tmp, err = filepath.Abs(tmp); err != nil {
		return nil, err
	}
	defer os.RemoveAll(tmp)
	defer runtime.GOMAXPROCS(runtime.GOMAXPROCS(0))
	var viols []string
	start := time.Now()
	for i, tree := range o.trees {
		qs, source, err := treeQueries(o.queries, tree)
		if err != nil {
			return viols, err
		}
		dir, err := filepath.EvalSymlinks(tree)
		if err != nil {
			return viols, err
		}
		if dir, err = filepath.Abs(dir); err != nil {
			return viols, err
		}
		tr := &treeRun{
			o: o, w: w, tree: dir, name: filepath.Base(filepath.Clean(tree)),
			tmp: filepath.Join(tmp, strconv.Itoa(i)), queries: qs,
		}
		fmt.Fprintf(w, "== %s (queries: %s)\n", tree, source)
		err = tr.check(ctx)
		viols = append(viols, tr.viols...)
		if err != nil {
			return viols, fmt.Errorf("%s: %w", tree, err)
		}
		if err := os.RemoveAll(tr.tmp); err != nil {
			return viols, err
		}
	}
	fmt.Fprintf(w, "total: %d trees in %s\n", len(o.trees), since(start))
	return viols, nil
}

// treeQueries returns the tree's queries and says where they come from.
func treeQueries(file, tree string) ([]string, string, error) {
	id := filepath.Base(filepath.Clean(tree))
	var own []string
	if file != "" {
		f, err := os.Open(file)
		if err != nil {
			return nil, "", err
		}
		defer f.Close()
		sc := bufio.NewScanner(f)
		sc.Buffer(nil, 64<<20)
		for line := 1; sc.Scan(); line++ {
			if strings.TrimSpace(sc.Text()) == "" {
				continue
			}
			var in struct {
				ID      string `json:"instance_id"`
				Problem string `json:"problem_statement"`
			}
			if err := json.Unmarshal(sc.Bytes(), &in); err != nil {
				return nil, "", fmt.Errorf("%s:%d: %w", file, line, err)
			}
			if in.ID == id && strings.TrimSpace(in.Problem) != "" {
				own = append(own, in.Problem)
			}
		}
		if err := sc.Err(); err != nil {
			return nil, "", fmt.Errorf("%s: %w", file, err)
		}
	}
	source := fmt.Sprintf("%d generic", len(genericQueries))
	if len(own) > 0 {
		source = fmt.Sprintf("%d problem statement(s) of %s + %s", len(own), id, source)
	}
	return append(own, genericQueries...), source, nil
}

// treeRun is the check of one tree.
type treeRun struct {
	o       *options
	w       io.Writer
	tree    string // absolute, symbolic links resolved
	name    string // its folder name as given: the copies' folder name too
	tmp     string // scratch folder: copies and indexes
	queries []string
	files   []string // regular files, slash paths, sorted

	viols []string
	st    stats
}

// stats are the counts of the budget checks, by kind of assembly.
type stats struct {
	retrieval, pack propCounts
}

// propCounts counts what the budget properties looked at and broke.
type propCounts struct {
	assemblies, exactViol     int
	maxUtil                   float64
	steps, followed, monViol  int // budget steps, parts followed across them
	reduced, dropped, rsnViol int
	parts, repViol            int
}

func (r *treeRun) violate(format string, args ...any) {
	r.viols = append(r.viols, r.name+": "+fmt.Sprintf(format, args...))
}

func (r *treeRun) check(ctx context.Context) error {
	t0 := time.Now()
	if err := r.listFiles(); err != nil {
		return err
	}
	dirA, dirB := filepath.Join(r.tmp, "a", r.name), filepath.Join(r.tmp, "b", r.name)
	for _, d := range []string{dirA, dirB} {
		if err := copyTree(r.tree, d); err != nil {
			return err
		}
	}
	fmt.Fprintf(r.w, "copied %d files twice in %s\n", len(r.files), since(t0))
	for i, q := range r.queries {
		fmt.Fprintf(r.w, "  q%d: %s\n", i+1, abbrev(q, 70))
	}
	runtime.GOMAXPROCS(8)
	if err := r.cleanVsIncremental(ctx, dirA, dirB); err != nil {
		return err
	}
	return r.procs(ctx, dirB)
}

// listFiles lists the tree's regular files in bytewise path order.
func (r *treeRun) listFiles() error {
	return filepath.WalkDir(r.tree, func(p string, d fs.DirEntry, err error) error {
		if err != nil {
			return err
		}
		if d.Type().IsRegular() {
			rel, err := filepath.Rel(r.tree, p)
			if err != nil {
				return err
			}
			r.files = append(r.files, filepath.ToSlash(rel))
		}
		if p == r.tree && !d.IsDir() {
			return fmt.Errorf("%s is not a directory", p)
		}
		return nil
	})
}

// open opens a copy as a project and makes sure the copy is its root.
func open(dir string) (*app.Project, error) {
	p, err := app.Open(dir, "")
	if err != nil {
		return nil, err
	}
	if p.Root != dir {
		return nil, fmt.Errorf("the project root of %s is %s (a .git or .ctxpack above it?)", dir, p.Root)
	}
	return p, nil
}

// indexStats is what an update reports.
type indexStats struct {
	files, added, changed, removed int
	root                           string
	took                           time.Duration
}

// update brings the index in file up to date with the project's files.
func update(ctx context.Context, p *app.Project, file string) (indexStats, error) {
	t0 := time.Now()
	oi, err := p.OpenIndex(app.IndexOptions{File: file}, false)
	if err != nil {
		return indexStats{}, err
	}
	defer oi.Close()
	s, err := p.UpdateIndex(ctx, oi, nil)
	if err != nil {
		return indexStats{}, err
	}
	return indexStats{files: s.Files, added: s.Added, changed: s.Changed, removed: s.Removed, root: s.StateRoot, took: time.Since(t0)}, nil
}

// cleanVsIncremental is step 1.
func (r *treeRun) cleanVsIncremental(ctx context.Context, dirA, dirB string) error {
	var removed, edited []string
	for i, f := range r.files {
		switch {
		case i%10 == 9:
			removed = append(removed, f)
		case i%100 == 4:
			edited = append(edited, f)
		}
	}
	for _, f := range removed {
		if err := os.Remove(filepath.Join(dirA, filepath.FromSlash(f))); err != nil {
			return err
		}
	}
	for _, f := range edited {
		if err := appendComment(filepath.Join(dirA, filepath.FromSlash(f))); err != nil {
			return err
		}
	}
	pa, err := open(dirA)
	if err != nil {
		return err
	}
	fileA := filepath.Join(r.tmp, "a.db")
	partial, err := update(ctx, pa, fileA)
	if err != nil {
		return err
	}
	for _, f := range slices.Concat(removed, edited) {
		if err := copyFile(filepath.Join(r.tree, filepath.FromSlash(f)), filepath.Join(dirA, filepath.FromSlash(f))); err != nil {
			return err
		}
	}
	incr, err := update(ctx, pa, fileA)
	if err != nil {
		return err
	}
	pb, err := open(dirB)
	if err != nil {
		return err
	}
	clean, err := update(ctx, pb, filepath.Join(r.tmp, "b.db"))
	if err != nil {
		return err
	}
	fmt.Fprintf(r.w, "index A of the copy with %d files removed and %d edited: %d files in %s; restored and updated in %s (+%d added, %d changed, %d removed); index B clean: %d files in %s (GOMAXPROCS=8)\n",
		len(removed), len(edited), partial.files, round(partial.took), round(incr.took), incr.added, incr.changed, incr.removed, clean.files, round(clean.took))

	t0 := time.Now()
	before := len(r.viols)
	if incr.root != clean.root {
		r.violate("clean vs incremental: index state roots differ: incremental %s, clean %s", incr.root, clean.root)
	}
	equal := 0
	for i, q := range r.queries {
		req := app.Request{Budget: compareBudget, Tokenizer: "o200k_base", Format: "text"}
		req.Index = app.IndexOptions{File: fileA, NoUpdate: true}
		ra, err := pa.Retrieve(ctx, q, req)
		if err != nil {
			return fmt.Errorf("retrieve q%d on index A: %w", i+1, err)
		}
		req.Index.File = filepath.Join(r.tmp, "b.db")
		rb, err := pb.Retrieve(ctx, q, req)
		if err != nil {
			return fmt.Errorf("retrieve q%d on index B: %w", i+1, err)
		}
		if ra.Plan.StateRoot != rb.Plan.StateRoot {
			r.violate("clean vs incremental: q%d: plan state roots differ: incremental %s, clean %s", i+1, ra.Plan.StateRoot, rb.Plan.StateRoot)
		}
		if ra.Plan.Digest == rb.Plan.Digest {
			equal++
		} else {
			r.violate("clean vs incremental: q%d at %d: digests differ: %s", i+1, compareBudget, planDiff(&ra.Plan, &rb.Plan, "incremental", "clean"))
		}
	}
	fmt.Fprintf(r.w, "clean vs incremental: state roots %s (%s); %d queries at budget %d: %d/%d digests equal; %d violations (%s)\n",
		sameWord(incr.root == clean.root), short(clean.root), len(r.queries), compareBudget, equal, len(r.queries), len(r.viols)-before, since(t0))
	return nil
}

// appendComment appends a comment line to a file, in the file's syntax
// when it is known.
func appendComment(path string) error {
	b, err := os.ReadFile(path)
	if err != nil {
		return err
	}
	mark := "#"
	switch strings.ToLower(filepath.Ext(path)) {
	case ".go", ".c", ".h", ".cc", ".cpp", ".js", ".ts", ".java", ".rs", ".s", ".swift", ".kt", ".scala", ".cs", ".php", ".proto":
		mark = "//"
	case ".sql", ".lua":
		mark = "--"
	}
	if len(b) > 0 && b[len(b)-1] != '\n' {
		b = append(b, '\n')
	}
	b = append(b, mark+" edited by bench/properties\n"...)
	return os.WriteFile(path, b, 0o644)
}

// assembly is what the checks keep of one assembly.
type assembly struct {
	label   string
	digest  string
	root    string
	parts   []render.PlanPart
	dropped []render.Dropped
	plan    *render.Plan // for diffs; content cleared
}

// series is the assemblies of one query, tokenizer and format (or of the
// packs), in ascending budget order.
type series struct {
	label   string
	budgets []int
	asm     []*assembly
}

// procs is steps 2 and 3: everything at GOMAXPROCS=1 on a fresh index C,
// then at 8 on index B, compared.
func (r *treeRun) procs(ctx context.Context, dirB string) error {
	p, err := open(dirB)
	if err != nil {
		return err
	}
	type setting struct {
		procs   int
		index   string
		reverse bool
		ret     []*series
		packs   *series
		rootIdx string
		tIdx    time.Duration
		tRet    time.Duration
		tPack   time.Duration
	}
	settings := []*setting{
		{procs: 1, index: filepath.Join(r.tmp, "c.db")},
		{procs: 8, index: filepath.Join(r.tmp, "b.db"), reverse: true},
	}
	for _, s := range settings {
		runtime.GOMAXPROCS(s.procs)
		st, err := update(ctx, p, s.index)
		if err != nil {
			return err
		}
		s.rootIdx, s.tIdx = st.root, st.took
		t0 := time.Now()
		tag := fmt.Sprintf("GOMAXPROCS=%d: ", s.procs)
		if s.ret, err = r.retrievals(ctx, p, s.index, tag); err != nil {
			return err
		}
		s.tRet = time.Since(t0)
		t0 = time.Now()
		if s.packs, err = r.packs(ctx, p, s.reverse, tag); err != nil {
			return err
		}
		s.tPack = time.Since(t0)
	}
	runtime.GOMAXPROCS(8)

	before := len(r.viols)
	one, eight := settings[0], settings[1]
	if one.rootIdx != eight.rootIdx {
		r.violate("GOMAXPROCS: index state roots differ: 1: %s, 8: %s", one.rootIdx, eight.rootIdx)
	}
	retEq, retN := 0, 0
	for i := range one.ret {
		for j := range one.ret[i].asm {
			a, b := one.ret[i].asm[j], eight.ret[i].asm[j]
			retN++
			if a.digest == b.digest && a.root == b.root {
				retEq++
				continue
			}
			r.violate("GOMAXPROCS: %s: 1 and 8 differ: %s", strings.TrimPrefix(a.label, "GOMAXPROCS=1: "), planDiff(a.plan, b.plan, "GOMAXPROCS=1", "GOMAXPROCS=8"))
		}
	}
	packEq := 0
	for j := range one.packs.asm {
		a, b := one.packs.asm[j], eight.packs.asm[j]
		if a.digest == b.digest && a.root == b.root {
			packEq++
			continue
		}
		r.violate("GOMAXPROCS: %s: 1 (sorted walk) and 8 (reverse walk) differ: %s", strings.TrimPrefix(a.label, "GOMAXPROCS=1: "), planDiff(a.plan, b.plan, "GOMAXPROCS=1", "GOMAXPROCS=8 reverse"))
	}
	fmt.Fprintf(r.w, "GOMAXPROCS 1 vs 8: index C at 1 built in %s, state roots %s; retrieval %d/%d digests equal; pack %d/%d digests equal (8 walks in reverse); %d violations\n",
		round(one.tIdx), sameWord(one.rootIdx == eight.rootIdx), retEq, retN, packEq, len(one.packs.asm), len(r.viols)-before)

	before = len(r.viols)
	for _, s := range settings {
		for _, se := range s.ret {
			r.budgetProps(se, &r.st.retrieval)
		}
	}
	c := r.st.retrieval
	fmt.Fprintf(r.w, "retrieval budgets: %d queries × %d budgets × %d tokenizers × %d formats = %d assemblies, × 2 GOMAXPROCS = %d checked, %d violations (retrieval at 1: %s, at 8: %s)\n",
		len(r.queries), len(r.o.budgets), len(tokenizers), len(formats), c.assemblies/2, c.assemblies, len(r.viols)-before, round(one.tRet), round(eight.tRet))
	r.printProps(c)

	before = len(r.viols)
	for _, s := range settings {
		r.budgetProps(s.packs, &r.st.pack)
	}
	c = r.st.pack
	fmt.Fprintf(r.w, "pack budgets: whole tree × %d budgets (o200k_base, text) × 2 GOMAXPROCS = %d packs, %d violations (packs at 1: %s, at 8: %s)\n",
		len(r.o.packBudgets), c.assemblies, len(r.viols)-before, round(one.tPack), round(eight.tPack))
	r.printProps(c)
	return nil
}

func (r *treeRun) printProps(c propCounts) {
	fmt.Fprintf(r.w, "  (a) exact count, within budget: %d assemblies (highest utilization %.4f), %d violations\n", c.assemblies, c.maxUtil, c.exactViol)
	fmt.Fprintf(r.w, "  (b) monotone: %d budget steps, %d parts followed, %d violations\n", c.steps, c.followed, c.monViol)
	fmt.Fprintf(r.w, "  (c) reasons: %d parts below full, %d dropped, %d violations\n", c.reduced, c.dropped, c.rsnViol)
	fmt.Fprintf(r.w, "  (d) no repeats: %d parts, %d violations\n", c.parts, c.repViol)
}

// retrievals assembles every query at every budget, tokenizer and format
// on the index in file, which must be current.
func (r *treeRun) retrievals(ctx context.Context, p *app.Project, file, tag string) ([]*series, error) {
	var out []*series
	for qi, q := range r.queries {
		for _, tok := range tokenizers {
			for _, format := range formats {
				se := &series{label: fmt.Sprintf("%sretrieval q%d %s %s", tag, qi+1, tok, format), budgets: r.o.budgets}
				for _, b := range r.o.budgets {
					req := app.Request{Budget: b, Tokenizer: tok, Format: format, Index: app.IndexOptions{File: file, NoUpdate: true}}
					res, err := p.Retrieve(ctx, q, req)
					label := fmt.Sprintf("%s at %d", se.label, b)
					if err != nil {
						return nil, fmt.Errorf("%s: %w", label, err)
					}
					se.asm = append(se.asm, r.keep(label, res, format))
				}
				out = append(out, se)
			}
		}
	}
	return out, nil
}

// packs packs the whole tree at every pack budget.
func (r *treeRun) packs(ctx context.Context, p *app.Project, reverse bool, tag string) (*series, error) {
	se := &series{label: tag + "pack", budgets: r.o.packBudgets}
	for _, b := range r.o.packBudgets {
		res, err := p.Pack(ctx, app.Request{Budget: b, Tokenizer: "o200k_base", Format: "text", ReverseWalk: reverse})
		label := fmt.Sprintf("%s at %d", se.label, b)
		if err != nil {
			return nil, fmt.Errorf("%s: %w", label, err)
		}
		se.asm = append(se.asm, r.keep(label, res, "text"))
	}
	return se, nil
}

// keep checks what needs the content (property a) and keeps the rest.
func (r *treeRun) keep(label string, res *app.Result, format string) *assembly {
	pl := res.Plan
	content := pl.Content
	var bad []string
	if format != "json" && string(res.Output) != content {
		bad = append(bad, "the output is not the plan's content")
	}
	if d := pack.Digest(pl.Chunker, content); d != pl.Digest {
		bad = append(bad, fmt.Sprintf("digest %s is not the content's %s (chunker %s)", pl.Digest, d, pl.Chunker))
	}
	tok, err := tokenizer.Get(pl.Tokenizer)
	if err != nil {
		bad = append(bad, err.Error())
	} else if n := tok.Count(content); n != pl.TotalTokens {
		bad = append(bad, fmt.Sprintf("total_tokens %d but %s counts %d", pl.TotalTokens, pl.Tokenizer, n))
	}
	if pl.TotalTokens > pl.Budget || pl.Exceeded {
		bad = append(bad, fmt.Sprintf("%d tokens over the budget of %d (exceeded %v)", pl.TotalTokens, pl.Budget, pl.Exceeded))
	}
	kind := &r.st.retrieval
	if pl.Mode == "pack" {
		kind = &r.st.pack
	}
	kind.assemblies++
	kind.maxUtil = max(kind.maxUtil, pl.Metrics.Utilization)
	for _, b := range bad {
		kind.exactViol++
		r.violate("(a) %s: %s", label, b)
	}
	pl.Content = ""
	return &assembly{label: label, digest: pl.Digest, root: pl.StateRoot, parts: pl.Parts, dropped: pl.Dropped, plan: &pl}
}

// levels orders the levels of DESIGN §3.
var levels = map[string]int{"meta": 1, "summary": 2, "detailed": 3, "full": 4}

// budgetProps checks properties (b), (c) and (d) over a series.
func (r *treeRun) budgetProps(se *series, c *propCounts) {
	for _, a := range se.asm {
		c.parts += len(a.parts)
		seen := make(map[string]bool, len(a.parts))
		cids := make(map[string]string, len(a.parts))
		for _, pp := range a.parts {
			if _, ok := levels[pp.Level]; !ok {
				c.rsnViol++
				r.violate("(c) %s: part %s has level %q", a.label, pp.Key, pp.Level)
			}
			if pp.Level != "full" {
				c.reduced++
				if pp.Reason == "" {
					c.rsnViol++
					r.violate("(c) %s: part %s at %s has no reason", a.label, pp.Key, pp.Level)
				}
			}
			if seen[pp.Key] {
				c.repViol++
				r.violate("(d) %s: part %s is emitted twice", a.label, pp.Key)
			}
			seen[pp.Key] = true
			if k, ok := cids[pp.CID]; ok && pp.CID != "" {
				c.repViol++
				r.violate("(d) %s: parts %s and %s have the same content id %s", a.label, k, pp.Key, short(pp.CID))
			}
			cids[pp.CID] = pp.Key
		}
		c.dropped += len(a.dropped)
		for _, d := range a.dropped {
			if d.Reason == "" {
				c.rsnViol++
				r.violate("(c) %s: dropped part %s has no reason", a.label, d.Key)
			}
			if seen[d.Key] {
				c.repViol++
				r.violate("(d) %s: part %s is both emitted and dropped (%s)", a.label, d.Key, d.Reason)
			}
		}
	}
	for i := 1; i < len(se.asm); i++ {
		lo, hi := se.asm[i-1], se.asm[i]
		c.steps++
		at := make(map[string]render.PlanPart, len(hi.parts))
		for _, pp := range hi.parts {
			at[pp.Key] = pp
		}
		why := make(map[string]string, len(hi.dropped))
		for _, d := range hi.dropped {
			why[d.Key] = d.Reason
		}
		for _, pp := range lo.parts {
			c.followed++
			q, ok := at[pp.Key]
			switch {
			case !ok:
				c.monViol++
				r.violate("(b) %s: part %s at %s with budget %d is not emitted with budget %d (dropped: %q)", se.label, pp.Key, pp.Level, se.budgets[i-1], se.budgets[i], why[pp.Key])
			case levels[q.Level] < levels[pp.Level]:
				c.monViol++
				r.violate("(b) %s: part %s is at %s with budget %d but at %s with budget %d (reason: %q)", se.label, pp.Key, pp.Level, se.budgets[i-1], q.Level, se.budgets[i], q.Reason)
			}
		}
	}
}

// planDiff names the first difference between two plans whose digests
// differ.
func planDiff(a, b *render.Plan, an, bn string) string {
	if a.StateRoot != b.StateRoot {
		return fmt.Sprintf("state roots: %s %s, %s %s", an, a.StateRoot, bn, b.StateRoot)
	}
	for i := range min(len(a.Parts), len(b.Parts)) {
		x, y := a.Parts[i], b.Parts[i]
		if x.Key != y.Key || x.Level != y.Level || x.CID != y.CID || x.Tokens != y.Tokens {
			return fmt.Sprintf("part %d: %s %s at %s (%d tokens, %s), %s %s at %s (%d tokens, %s)",
				i+1, an, x.Key, x.Level, x.Tokens, short(x.CID), bn, y.Key, y.Level, y.Tokens, short(y.CID))
		}
	}
	if len(a.Parts) != len(b.Parts) {
		return fmt.Sprintf("%s has %d parts, %s %d", an, len(a.Parts), bn, len(b.Parts))
	}
	return fmt.Sprintf("same parts; digests %s %s, %s %s", an, short(a.Digest), bn, short(b.Digest))
}

// copyTree copies the regular files, folders and symbolic links of src to
// dst, which must not exist.
func copyTree(src, dst string) error {
	return filepath.WalkDir(src, func(p string, d fs.DirEntry, err error) error {
		if err != nil {
			return err
		}
		rel, err := filepath.Rel(src, p)
		if err != nil {
			return err
		}
		target := filepath.Join(dst, rel)
		switch {
		case d.IsDir():
			return os.MkdirAll(target, 0o755)
		case d.Type()&fs.ModeSymlink != 0:
			link, err := os.Readlink(p)
			if err != nil {
				return err
			}
			return os.Symlink(link, target)
		case d.Type().IsRegular():
			return copyFile(p, target)
		}
		return nil
	})
}

// copyFile writes src's bytes and permissions to dst, replacing it.
func copyFile(src, dst string) error {
	in, err := os.Open(src)
	if err != nil {
		return err
	}
	defer in.Close()
	info, err := in.Stat()
	if err != nil {
		return err
	}
	out, err := os.OpenFile(dst, os.O_WRONLY|os.O_CREATE|os.O_TRUNC, info.Mode().Perm()|0o200)
	if err != nil {
		return err
	}
	if _, err := io.Copy(out, in); err != nil {
		out.Close()
		return err
	}
	return out.Close()
}

func sameWord(same bool) string {
	if same {
		return "equal"
	}
	return "DIFFER"
}

// short abbreviates a sha256: digest for display.
func short(d string) string {
	if len(d) > len("sha256:")+12 {
		return d[:len("sha256:")+12] + "…"
	}
	return d
}

// abbrev is the first line of s, at most n runes.
func abbrev(s string, n int) string {
	s, _, cut := strings.Cut(strings.TrimSpace(s), "\n")
	if r := []rune(strings.TrimSpace(s)); len(r) > n || cut {
		return string(r[:min(n, len(r))]) + "…"
	}
	return s
}

func round(d time.Duration) time.Duration { return d.Round(10 * time.Millisecond) }

func since(t time.Time) time.Duration { return round(time.Since(t)) }
