// Command swebench measures ctxpack's retrieval on SWE-bench-style
// localization instances: for each instance it indexes the repository tree
// at its base commit, ranks the files for the issue text, and at each of
// several budgets assembles ctxpack's context and a naive baseline (the
// chunks of ctxpack's own search ranking, whole, in rank order, as many as
// fit). It prints, per budget, each system's edit recall, gold-file share
// and overhead, then file recall@k per repository, per language (when the
// instances name theirs) and overall. bench/swebench/README.md describes
// the sets, the baseline and the metrics.
//
//	go run ./bench/swebench -data ../shared/bench/swebench/dev.jsonl -trees /tmp/swe/trees
//
// The trees are the repositories at their base commits, one folder per
// instance id (git --git-dir=REPO.git archive BASE | tar -x -C TREES/ID).
// Indexes are kept in -index-dir, so a second run only searches.
package main

import (
	"bufio"
	"bytes"
	"cmp"
	"context"
	"encoding/json"
	"flag"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"slices"
	"strconv"
	"strings"
	"text/tabwriter"
	"time"

	"github.com/ctxpack/ctxpack/internal/app"
	"github.com/ctxpack/ctxpack/internal/collect/retrieval"
	"github.com/ctxpack/ctxpack/internal/retrieve"
)

type instance struct {
	ID        string           `json:"instance_id"`
	Repo      string           `json:"repo"`
	Base      string           `json:"base_commit"`
	Problem   string           `json:"problem_statement"`
	GoldFiles []string         `json:"gold_files"`
	GoldLines map[string][]int `json:"gold_lines"`
	Language  string           `json:"language"` // set by histset; absent in dev.jsonl
}

// searchK is how many chunks of the search ranking the naive baseline
// draws from.
const searchK = 100

// outcome is one instance's measurements.
type outcome struct {
	id, repo string
	language string
	rank     int        // 1-based rank of the best-ranked gold file; 0 if absent
	budgets  []atBudget // one per budget, in the budgets' order
	took     time.Duration
}

// atBudget is what both systems did at one budget.
type atBudget struct {
	budget         int
	ctxpack, naive measures
}

// measures are one context's metrics for one instance.
type measures struct {
	edit      float64 // share of the gold lines inside full, untruncated parts
	seen      float64 // share of the gold lines shown as they are: in full parts or in a window's lines
	goldFull  bool    // some part of a gold file is full and untruncated
	goldShare float64 // tokens of the gold files' parts / total tokens
	overhead  float64 // tokens that are not part bodies / total tokens
	tokens    int     // total tokens
	parts     int
}

// shown is a part of a context as the metrics see it.
type shown struct {
	path   string
	lines  [2]int // 1-based, inclusive; zero when the part has no lines
	full   bool   // at level full and not truncated
	tokens int
	// spans are the file lines a window shows as they are, when the part
	// is shown at its window (the plan's "shown"): seen, not full.
	spans [][2]int
}

// measure computes the metrics of a context of total tokens, overhead of
// them outside the parts' bodies, made of parts.
func measure(in instance, parts []shown, total, overhead int) measures {
	gold := map[string]bool{}
	for _, g := range in.GoldFiles {
		gold[g] = true
	}
	m := measures{tokens: total, parts: len(parts)}
	var lines, inside, seen, goldTokens int
	for g, ls := range in.GoldLines {
		for _, l := range ls {
			lines++
			full, win := false, false
			for _, pt := range parts {
				if pt.path != g {
					continue
				}
				full = full || pt.full && pt.lines[0] > 0 && pt.lines[0] <= l && l <= pt.lines[1]
				for _, s := range pt.spans {
					win = win || s[0] <= l && l <= s[1]
				}
			}
			if full {
				inside++
			}
			if full || win {
				seen++
			}
		}
	}
	for _, pt := range parts {
		if gold[pt.path] {
			goldTokens += pt.tokens
			if pt.full {
				m.goldFull = true
			}
		}
	}
	if lines > 0 {
		m.edit = float64(inside) / float64(lines)
		m.seen = float64(seen) / float64(lines)
	}
	if total > 0 {
		m.goldShare = float64(goldTokens) / float64(total)
		m.overhead = float64(overhead) / float64(total)
	}
	return m
}

// overheadTokens are the plan's tokens that are not its parts' bodies
// (what the format puts around them). When render.Metrics has its
// Overhead field, this becomes: return plan.Metrics.Overhead.
func overheadTokens(plan *app.Plan) int { return plan.Metrics.Overhead }

// planMeasures are the metrics of ctxpack's context.
func planMeasures(in instance, plan *app.Plan) measures {
	parts := make([]shown, len(plan.Parts))
	for i, pt := range plan.Parts {
		parts[i] = shown{path: pt.Path, full: pt.Level == "full" && !pt.Truncated, tokens: pt.Tokens}
		if pt.Lines != nil {
			parts[i].lines = *pt.Lines
		}
		parts[i].spans = pt.Shown
	}
	return measure(in, parts, plan.TotalTokens, overheadTokens(plan))
}

// naiveChunk is a chunk of the search ranking with its text.
type naiveChunk struct {
	path               string
	startLine, endLine int
	text               string
}

// naiveHeader is the line before each chunk of the naive context.
func naiveHeader(c naiveChunk) string {
	return fmt.Sprintf("=== %s:%d-%d ===\n", c.path, c.startLine, c.endLine)
}

// naiveContext is the naive baseline's context.
type naiveContext struct {
	text   string
	total  int // tokens of text
	parts  []shown
	header int // tokens of the headers, each counted alone
}

// fitNaive builds the naive context within budget tokens: the chunks in
// their order, each whole after its header and ending in a newline,
// taken when header and text together count at most what remains of the
// budget and skipped otherwise. The text is counted once more whole, and
// while it counts over the budget the last chunk taken is dropped.
func fitNaive(chunks []naiveChunk, budget int, count func(string) int) naiveContext {
	type taken struct {
		piece string
		part  shown
		head  int
	}
	var took []taken
	remain := budget
	for _, c := range chunks {
		h, body := naiveHeader(c), c.text
		if !strings.HasSuffix(body, "\n") {
			body += "\n"
		}
		n := count(h + body)
		if n > remain {
			continue
		}
		remain -= n
		took = append(took, taken{h + body, shown{path: c.path, lines: [2]int{c.startLine, c.endLine}, full: true, tokens: n}, count(h)})
	}
	for {
		var nc naiveContext
		var b strings.Builder
		for _, t := range took {
			b.WriteString(t.piece)
			nc.parts = append(nc.parts, t.part)
			nc.header += t.head
		}
		nc.text = b.String()
		nc.total = count(nc.text)
		if nc.total <= budget || len(took) == 0 {
			return nc
		}
		took = took[:len(took)-1]
	}
}

// naiveChunks are the search ranking's chunks with their texts.
func naiveChunks(p *app.Project, ranking []retrieve.Chunk) ([]naiveChunk, error) {
	files := retrieval.NewFiles(p.FS)
	out := make([]naiveChunk, len(ranking))
	for i, c := range ranking {
		text, err := files.Read(c.Path)
		if err == nil {
			text, err = retrieve.ChunkText(c, text)
		}
		if err != nil {
			return nil, fmt.Errorf("chunk %s:%d-%d: %w", c.Path, c.StartLine, c.EndLine, err)
		}
		out[i] = naiveChunk{path: c.Path, startLine: c.StartLine, endLine: c.EndLine, text: text}
	}
	return out, nil
}

func main() {
	data := flag.String("data", "../shared/bench/swebench/dev.jsonl", "instances, one JSON object per line")
	trees := flag.String("trees", "", "folder with one tree per instance id")
	indexDir := flag.String("index-dir", "", "folder for the indexes (default: TREES/../index)")
	budgetList := flag.String("budgets", "2000,4000,8000,16000", "the context budgets in tokens, comma-separated")
	budget := flag.Int("budget", 0, "one context budget in tokens (shorthand for -budgets N)")
	tok := flag.String("tokenizer", "cl100k_base", "the tokenizer the budgets count")
	only := flag.String("only", "", "run only the instances whose id contains this")
	verbose := flag.Bool("v", false, "print each instance's ranking and metrics")
	jsonOut := flag.String("json", "", "also write the per-instance outcomes to this file")
	overflow := flag.String("overflow", "", "the overflow strategy (default: the engine's, degrade)")
	config := flag.String("config", "", "a ctxpack configuration file for every tree (absolute or relative to the current directory), to try retrieval settings")
	components := flag.Bool("components", false, "print the names of the retrieval components retrieval.off can turn off, and exit")
	parallel := flag.Int("parallel", 1, "instances to run at once (results are the same for any value; times are not comparable)")
	flag.Parse()
	if *components {
		fmt.Println(strings.Join(app.RetrievalComponents(), "\n"))
		return
	}
	set := map[string]bool{}
	flag.Visit(func(f *flag.Flag) { set[f.Name] = true })
	if set["budget"] {
		if set["budgets"] {
			usage("give -budget or -budgets, not both")
		}
		*budgetList = strconv.Itoa(*budget)
	}
	budgets, err := parseBudgets(*budgetList)
	if err != nil {
		usage(err.Error())
	}
	if *parallel < 1 {
		usage("-parallel must be at least 1")
	}
	if *trees == "" {
		usage("-trees is required")
	}
	if *indexDir == "" {
		*indexDir = filepath.Join(filepath.Dir(filepath.Clean(*trees)), "index")
	}
	if *config != "" {
		abs, err := filepath.Abs(*config)
		if err != nil {
			fail(err)
		}
		*config = abs
	}
	if err := os.MkdirAll(*indexDir, 0o755); err != nil {
		fail(err)
	}
	insts, err := load(*data)
	if err != nil {
		fail(err)
	}
	var todo []instance
	for _, in := range insts {
		if *only == "" || strings.Contains(in.ID, *only) {
			todo = append(todo, in)
		}
	}
	if len(todo) == 0 {
		fail(fmt.Errorf("no instance of %s matches -only %q", *data, *only))
	}
	outs, err := runAll(todo, *parallel, func(in instance, log io.Writer) (outcome, error) {
		return run(in, *trees, *indexDir, *config, *overflow, budgets, *tok, *verbose, log)
	}, os.Stdout)
	if err != nil {
		fail(err)
	}
	report(os.Stdout, outs, budgets)
	if *jsonOut != "" {
		if err := writeJSON(*jsonOut, outs); err != nil {
			fail(err)
		}
	}
}

func usage(msg string) {
	fmt.Fprintln(os.Stderr, "swebench:", msg)
	os.Exit(2)
}

func fail(err error) {
	fmt.Fprintln(os.Stderr, "swebench:", err)
	os.Exit(1)
}

// parseBudgets reads -budgets: positive token counts, comma-separated,
// each once.
func parseBudgets(s string) ([]int, error) {
	var out []int
	for f := range strings.SplitSeq(s, ",") {
		b, err := strconv.Atoi(strings.TrimSpace(f))
		if err != nil || b <= 0 {
			return nil, fmt.Errorf("-budgets %q: %q is not a positive number of tokens", s, f)
		}
		if slices.Contains(out, b) {
			return nil, fmt.Errorf("-budgets %q: %d is given twice", s, b)
		}
		out = append(out, b)
	}
	return out, nil
}

func load(name string) ([]instance, error) {
	f, err := os.Open(name)
	if err != nil {
		return nil, err
	}
	defer f.Close()
	var out []instance
	sc := bufio.NewScanner(f)
	sc.Buffer(make([]byte, 1<<20), 64<<20)
	for n := 1; sc.Scan(); n++ {
		var in instance
		if err := json.Unmarshal(sc.Bytes(), &in); err != nil {
			return nil, fmt.Errorf("%s:%d: %w", name, n, err)
		}
		out = append(out, in)
	}
	return out, sc.Err()
}

// runAll runs each instance with up to parallel at once and returns the
// outcomes in the instances' order. What an instance prints goes to w
// whole and in that order too, so the output does not depend on parallel.
// The first error in that order stops the run.
func runAll(insts []instance, parallel int, one func(instance, io.Writer) (outcome, error), w io.Writer) ([]outcome, error) {
	type result struct {
		o   outcome
		log bytes.Buffer
		err error
	}
	results := make([]result, len(insts))
	done := make([]chan struct{}, len(insts))
	for i := range done {
		done[i] = make(chan struct{})
	}
	next := make(chan int)
	stop := make(chan struct{})
	go func() {
		defer close(next)
		for i := range insts {
			select {
			case next <- i:
			case <-stop:
				return
			}
		}
	}()
	for range min(parallel, max(len(insts), 1)) {
		go func() {
			for i := range next {
				r := &results[i]
				r.o, r.err = one(insts[i], &r.log)
				close(done[i])
			}
		}()
	}
	defer close(stop)
	outs := make([]outcome, 0, len(insts))
	for i := range insts {
		<-done[i]
		r := &results[i]
		if _, err := w.Write(r.log.Bytes()); err != nil {
			return nil, err
		}
		if r.err != nil {
			return nil, fmt.Errorf("%s: %w", insts[i].ID, r.err)
		}
		outs = append(outs, r.o)
	}
	return outs, nil
}

// run measures one instance: the file ranking's recall, and at each
// budget ctxpack's context and the naive baseline. config is absolute or
// empty.
func run(in instance, trees, indexDir, config, overflow string, budgets []int, tok string, verbose bool, log io.Writer) (outcome, error) {
	o := outcome{id: in.ID, repo: in.Repo, language: in.Language}
	start := time.Now()
	p, err := app.Open(filepath.Join(trees, in.ID), config)
	if err != nil {
		return o, err
	}
	t, err := p.Tokenizer(tok)
	if err != nil {
		return o, err
	}
	ctx := context.Background()
	ixo := app.IndexOptions{File: filepath.Join(indexDir, in.ID+".db")}
	ranked, _, err := p.RankFiles(ctx, in.Problem, ixo)
	if err != nil {
		return o, err
	}
	files := make([]string, len(ranked))
	for i, f := range ranked {
		files[i] = f.Path
	}
	for i, f := range files {
		if slices.Contains(in.GoldFiles, f) {
			o.rank = i + 1
			break
		}
	}
	ranking, _, _, err := p.Search(ctx, in.Problem, searchK, false, ixo)
	if err != nil {
		return o, fmt.Errorf("search: %w", err)
	}
	chunks, err := naiveChunks(p, ranking)
	if err != nil {
		return o, fmt.Errorf("naive baseline: %w", err)
	}
	for _, b := range budgets {
		res, err := p.Context(ctx, in.Problem, app.Request{Budget: b, Tokenizer: tok, Format: "json", Overflow: overflow, Index: ixo, NoCache: true}) // measured, not read back from a run of another configuration
		if err != nil {
			return o, fmt.Errorf("context at %d: %w", b, err)
		}
		nc := fitNaive(chunks, b, t.Count)
		if nc.total > b {
			return o, fmt.Errorf("naive baseline at %d: %d tokens", b, nc.total)
		}
		o.budgets = append(o.budgets, atBudget{
			budget:  b,
			ctxpack: planMeasures(in, &res.Plan),
			naive:   measure(in, nc.parts, nc.total, nc.header),
		})
	}
	o.took = time.Since(start)
	if verbose {
		fmt.Fprintf(log, "%s  gold %v  rank %d\n", in.ID, in.GoldFiles, o.rank)
		for _, ab := range o.budgets {
			fmt.Fprintf(log, "    @%d  ctxpack edit %.2f goldfull %v parts %d tokens %d  naive edit %.2f goldfull %v parts %d tokens %d\n",
				ab.budget, ab.ctxpack.edit, ab.ctxpack.goldFull, ab.ctxpack.parts, ab.ctxpack.tokens,
				ab.naive.edit, ab.naive.goldFull, ab.naive.parts, ab.naive.tokens)
		}
		for i, f := range files[:min(5, len(files))] {
			fmt.Fprintf(log, "    %d. %s\n", i+1, f)
		}
	}
	return o, nil
}

// report prints the metrics of both systems per budget and their mean
// over the budgets, file recall@k per repository, per language when the
// instances name one, and overall, and edit recall per repository at
// each budget.
func report(w io.Writer, outs []outcome, budgets []int) {
	if len(outs) == 0 {
		return
	}
	n := float64(len(outs))
	tw := tabwriter.NewWriter(w, 0, 0, 2, ' ', tabwriter.AlignRight)
	fmt.Fprintf(tw, "budget\tctxpack-edit\tnaive-edit\tctxpack-goldfull\tnaive-goldfull\tctxpack-goldshare\tnaive-goldshare\tctxpack-overhead\tnaive-overhead\tctxpack-seen\t\n")
	var mean [9]float64
	for i, b := range budgets {
		var row [9]float64
		for _, o := range outs {
			ab := o.budgets[i]
			for j, m := range []measures{ab.ctxpack, ab.naive} {
				row[0+j] += m.edit
				row[2+j] += b2f(m.goldFull)
				row[4+j] += m.goldShare
				row[6+j] += m.overhead
			}
			row[8] += ab.ctxpack.seen
		}
		fmt.Fprintf(tw, "%d", b)
		for j := range row {
			row[j] /= n
			mean[j] += row[j] / float64(len(budgets))
			fmt.Fprintf(tw, "\t%.3f", row[j])
		}
		fmt.Fprintf(tw, "\t\n")
	}
	fmt.Fprintf(tw, "mean")
	for _, v := range mean {
		fmt.Fprintf(tw, "\t%.3f", v)
	}
	fmt.Fprintf(tw, "\t\n")
	tw.Flush()

	groups := groupBy(outs, func(o outcome) string { return o.repo })
	if langs := groupBy(outs, func(o outcome) string { return o.language }); len(langs) > 1 || len(langs) == 1 && langs[0].name != "" {
		for _, g := range langs {
			groups = append(groups, group{"language " + cmp.Or(g.name, "unknown"), g.outs})
		}
	}
	groups = append(groups, group{"overall", outs})

	fmt.Fprintln(w)
	tw = tabwriter.NewWriter(w, 0, 0, 2, ' ', tabwriter.AlignRight)
	fmt.Fprintf(tw, "repository\tn\trecall@1\trecall@3\trecall@5\trecall@10\tmean time\t\n")
	for _, g := range groups {
		var r1, r3, r5, r10 float64
		var took time.Duration
		for _, o := range g.outs {
			r1 += b2f(o.rank == 1)
			r3 += b2f(o.rank >= 1 && o.rank <= 3)
			r5 += b2f(o.rank >= 1 && o.rank <= 5)
			r10 += b2f(o.rank >= 1 && o.rank <= 10)
			took += o.took
		}
		k := float64(len(g.outs))
		fmt.Fprintf(tw, "%s\t%d\t%.2f\t%.2f\t%.2f\t%.2f\t%.2fs\t\n", g.name, len(g.outs), r1/k, r3/k, r5/k, r10/k, took.Seconds()/k)
	}
	tw.Flush()

	fmt.Fprintln(w)
	tw = tabwriter.NewWriter(w, 0, 0, 2, ' ', tabwriter.AlignRight)
	fmt.Fprintf(tw, "edit\tn")
	for _, b := range budgets {
		fmt.Fprintf(tw, "\tctxpack@%d\tnaive@%d", b, b)
	}
	fmt.Fprintf(tw, "\t\n")
	for _, g := range groups {
		fmt.Fprintf(tw, "%s\t%d", g.name, len(g.outs))
		k := float64(len(g.outs))
		for i := range budgets {
			var c, nv float64
			for _, o := range g.outs {
				c += o.budgets[i].ctxpack.edit
				nv += o.budgets[i].naive.edit
			}
			fmt.Fprintf(tw, "\t%.3f\t%.3f", c/k, nv/k)
		}
		fmt.Fprintf(tw, "\t\n")
	}
	tw.Flush()
}

func b2f(b bool) float64 {
	if b {
		return 1
	}
	return 0
}

// group is the outcomes that share a repository or a language.
type group struct {
	name string
	outs []outcome
}

// groupBy groups the outcomes by key, largest group first, then by name.
func groupBy(outs []outcome, key func(outcome) string) []group {
	m := map[string][]outcome{}
	for _, o := range outs {
		m[key(o)] = append(m[key(o)], o)
	}
	gs := make([]group, 0, len(m))
	for n, os := range m {
		gs = append(gs, group{n, os})
	}
	slices.SortFunc(gs, func(a, b group) int {
		return cmp.Or(cmp.Compare(len(b.outs), len(a.outs)), strings.Compare(a.name, b.name))
	})
	return gs
}

// jsonMeasures are one system's metrics at one budget in the -json file.
type jsonMeasures struct {
	Edit      float64 `json:"edit_recall"`
	Seen      float64 `json:"seen_recall"`
	GoldFull  bool    `json:"gold_file_full"`
	GoldShare float64 `json:"gold_token_share"`
	Overhead  float64 `json:"overhead_share"`
	Tokens    int     `json:"tokens"`
	Parts     int     `json:"parts"`
}

// jsonBudget is both systems' metrics at one budget in the -json file.
type jsonBudget struct {
	Budget  int          `json:"budget"`
	Ctxpack jsonMeasures `json:"ctxpack"`
	Naive   jsonMeasures `json:"naive"`
}

// jsonRow is one instance in the -json file.
type jsonRow struct {
	ID       string       `json:"instance_id"`
	Repo     string       `json:"repo"`
	Language string       `json:"language,omitempty"`
	Rank     int          `json:"rank"`
	Budgets  []jsonBudget `json:"budgets"`
}

func toJSON(m measures) jsonMeasures {
	return jsonMeasures{m.edit, m.seen, m.goldFull, m.goldShare, m.overhead, m.tokens, m.parts}
}

func writeJSON(name string, outs []outcome) error {
	rows := []jsonRow{}
	for _, o := range outs {
		r := jsonRow{ID: o.id, Repo: o.repo, Language: o.language, Rank: o.rank, Budgets: []jsonBudget{}}
		for _, ab := range o.budgets {
			r.Budgets = append(r.Budgets, jsonBudget{ab.budget, toJSON(ab.ctxpack), toJSON(ab.naive)})
		}
		rows = append(rows, r)
	}
	b, err := json.MarshalIndent(rows, "", "  ")
	if err != nil {
		return err
	}
	return os.WriteFile(name, append(b, '\n'), 0o644)
}
