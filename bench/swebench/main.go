// Command swebench measures ctxpack's retrieval on SWE-bench-style
// localization instances: for each instance it indexes the repository tree
// at its base commit, ranks the files for the issue text, assembles the
// context within a budget, and prints file recall@k and, at the budget,
// file recall and edit recall, per repository, per language (when the
// instances name theirs) and overall. bench/swebench/README.md describes
// the sets and the metrics.
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
	"strings"
	"text/tabwriter"
	"time"

	"github.com/ctxpack/ctxpack/internal/app"
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

// outcome is one instance's measurements.
type outcome struct {
	id, repo  string
	language  string
	rank      int     // 1-based rank of the best-ranked gold file; 0 if absent
	inBudget  bool    // some part of a gold file is in the assembled context
	editShare float64 // share of gold lines inside full parts of the context
	tokens    int
	took      time.Duration
}

func main() {
	data := flag.String("data", "../shared/bench/swebench/dev.jsonl", "instances, one JSON object per line")
	trees := flag.String("trees", "", "folder with one tree per instance id")
	indexDir := flag.String("index-dir", "", "folder for the indexes (default: TREES/../index)")
	budget := flag.Int("budget", 13000, "the context budget in tokens")
	tok := flag.String("tokenizer", "cl100k_base", "the tokenizer the budget counts")
	only := flag.String("only", "", "run only the instances whose id contains this")
	verbose := flag.Bool("v", false, "print each instance's ranking")
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
	if *parallel < 1 {
		fmt.Fprintln(os.Stderr, "swebench: -parallel must be at least 1")
		os.Exit(2)
	}
	if *trees == "" {
		fmt.Fprintln(os.Stderr, "swebench: -trees is required")
		os.Exit(2)
	}
	if *indexDir == "" {
		*indexDir = filepath.Join(filepath.Dir(filepath.Clean(*trees)), "index")
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
	outs, err := runAll(todo, *parallel, func(in instance, log io.Writer) (outcome, error) {
		return run(in, *trees, *indexDir, *config, *overflow, *budget, *tok, *verbose, log)
	}, os.Stdout)
	if err != nil {
		fail(err)
	}
	report(os.Stdout, outs, *budget)
	if *jsonOut != "" {
		if err := writeJSON(*jsonOut, outs); err != nil {
			fail(err)
		}
	}
}

func fail(err error) {
	fmt.Fprintln(os.Stderr, "swebench:", err)
	os.Exit(1)
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

func run(in instance, trees, indexDir, config, overflow string, budget int, tok string, verbose bool, log io.Writer) (outcome, error) {
	o := outcome{id: in.ID, repo: in.Repo, language: in.Language}
	start := time.Now()
	if config != "" {
		abs, err := filepath.Abs(config)
		if err != nil {
			return o, err
		}
		config = abs
	}
	p, err := app.Open(filepath.Join(trees, in.ID), config)
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
	gold := map[string]bool{}
	for _, g := range in.GoldFiles {
		gold[g] = true
	}
	for i, f := range files {
		if gold[f] {
			o.rank = i + 1
			break
		}
	}
	res, err := p.Context(ctx, in.Problem, app.Request{Budget: budget, Tokenizer: tok, Format: "json", Overflow: overflow, Index: ixo})
	if err != nil {
		return o, err
	}
	o.tokens = res.Plan.TotalTokens
	var lines, inside int
	for g, ls := range in.GoldLines {
		for _, l := range ls {
			lines++
			for _, pt := range res.Plan.Parts {
				if pt.Path != g || pt.Lines == nil {
					continue
				}
				if pt.Level == "full" && !pt.Truncated && pt.Lines[0] <= l && l <= pt.Lines[1] {
					inside++
					break
				}
			}
		}
	}
	for _, pt := range res.Plan.Parts {
		if gold[pt.Path] {
			o.inBudget = true
		}
	}
	if lines > 0 {
		o.editShare = float64(inside) / float64(lines)
	}
	o.took = time.Since(start)
	if verbose {
		fmt.Fprintf(log, "%s  gold %v  rank %d  in-budget %v  edit %.2f  parts %d\n", in.ID, in.GoldFiles, o.rank, o.inBudget, o.editShare, len(res.Plan.Parts))
		for i, f := range files[:min(5, len(files))] {
			fmt.Fprintf(log, "    %d. %s\n", i+1, f)
		}
	}
	return o, nil
}

// report prints the metrics per repository, per language when the
// instances name one, and overall.
func report(w io.Writer, outs []outcome, budget int) {
	tw := tabwriter.NewWriter(w, 0, 0, 2, ' ', tabwriter.AlignRight)
	fmt.Fprintf(tw, "repository\tn\trecall@1\trecall@3\trecall@5\trecall@10\tfile@%d\tedit@%d\tmean tokens\tmean time\t\n", budget, budget)
	line := func(name string, os []outcome) {
		var r1, r3, r5, r10, fb, ed, tk float64
		var took time.Duration
		for _, o := range os {
			if o.rank == 1 {
				r1++
			}
			if o.rank >= 1 && o.rank <= 3 {
				r3++
			}
			if o.rank >= 1 && o.rank <= 5 {
				r5++
			}
			if o.rank >= 1 && o.rank <= 10 {
				r10++
			}
			if o.inBudget {
				fb++
			}
			ed += o.editShare
			tk += float64(o.tokens)
			took += o.took
		}
		n := float64(len(os))
		fmt.Fprintf(tw, "%s\t%d\t%.2f\t%.2f\t%.2f\t%.2f\t%.2f\t%.2f\t%.0f\t%.2fs\t\n", name, len(os), r1/n, r3/n, r5/n, r10/n, fb/n, ed/n, tk/n, took.Seconds()/n)
	}
	for _, g := range groupBy(outs, func(o outcome) string { return o.repo }) {
		line(g.name, g.outs)
	}
	if langs := groupBy(outs, func(o outcome) string { return o.language }); len(langs) > 1 || len(langs) == 1 && langs[0].name != "" {
		for _, g := range langs {
			line("language "+cmp.Or(g.name, "unknown"), g.outs)
		}
	}
	line("overall", outs)
	tw.Flush()
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

func writeJSON(name string, outs []outcome) error {
	type row struct {
		ID       string  `json:"instance_id"`
		Repo     string  `json:"repo"`
		Language string  `json:"language,omitempty"`
		Rank     int     `json:"rank"`
		InBudget bool    `json:"in_budget"`
		Edit     float64 `json:"edit_recall"`
		Tokens   int     `json:"tokens"`
	}
	var rows []row
	for _, o := range outs {
		rows = append(rows, row{o.id, o.repo, o.language, o.rank, o.inBudget, o.editShare, o.tokens})
	}
	b, err := json.MarshalIndent(rows, "", "  ")
	if err != nil {
		return err
	}
	return os.WriteFile(name, append(b, '\n'), 0o644)
}
