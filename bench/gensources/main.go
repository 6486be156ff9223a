// Command gensources fills a project's store (.ctxpack/sources.db) with
// generated memories, experiences and values for benchmarks, through the
// store's own API, and prints how many rows of each kind the store then
// holds.
//
//	go run ./bench/gensources -root DIR [-memories 10000] [-experiences 5000] [-values 500] [-seed 1]
//	go run ./bench/gensources -root DIR -counts
//	go run ./bench/gensources -root DIR -profile FILE [-memprofile FILE] [-query TEXT] [-no-update] [-premortem DOMAIN [-strategy S]]
//
// The text is built from a vocabulary of the words of the Go standard
// library's comments ($(go env GOROOT)/src), ranked by how often they
// occur and drawn with a Zipf distribution, with a few hundred words of
// testing and debugging mixed in at random ranks, so that BM25 sees term
// frequencies like those of real notes. The rows depend only on the seed
// and the Go tree the words come from; their Created times are fixed
// (spread over the two years before 2026-01-01), not the clock's.
//
// -counts only prints the counts. -profile assembles in process, once,
// what `ctxpack context QUERY --sources memories,code,experiences,values,commits
// --budget 2000 --no-cache` (or `ctxpack premortem DOMAIN`) does, under a
// CPU profile written to FILE, and prints how long it took and where its
// peak memory went (-memprofile adds the allocations' profile); read them
// with `go tool pprof -top FILE`.
package main

import (
	"cmp"
	"context"
	"flag"
	"fmt"
	"io/fs"
	"math/rand/v2"
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"runtime"
	"runtime/pprof"
	"slices"
	"strings"
	"time"
	"unicode"

	"github.com/ctxpack/ctxpack/internal/app"
	"github.com/ctxpack/ctxpack/internal/store"
)

func main() {
	root := flag.String("root", "", "project root whose .ctxpack/sources.db to fill (required)")
	nMem := flag.Int("memories", 10000, "number of memories to add")
	nExp := flag.Int("experiences", 5000, "number of experiences to add")
	nVal := flag.Int("values", 500, "number of values to add")
	seed := flag.Uint64("seed", 1, "random seed")
	counts := flag.Bool("counts", false, "only print the counts of the store's rows")
	profile := flag.String("profile", "", "write a CPU profile of one in-process assembly to `FILE` instead of adding rows")
	memProfile := flag.String("memprofile", "", "with -profile: also write an allocation profile to `FILE`")
	query := flag.String("query", "fixture teardown order when a test fails", "with -profile: the sources-mode query")
	noUpdate := flag.Bool("no-update", false, "with -profile: do not bring the index and the commits up to date")
	premortem := flag.String("premortem", "", "with -profile: profile `premortem DOMAIN` instead of the query")
	strategy := flag.String("strategy", "", "with -profile -premortem: the strategy")
	flag.Parse()
	if *root == "" {
		fmt.Fprintln(os.Stderr, "gensources: -root DIR is required")
		os.Exit(2)
	}
	ctx := context.Background()
	var err error
	switch {
	case *profile != "":
		err = profileRun(ctx, *root, *profile, *memProfile, *query, *noUpdate, *premortem, *strategy)
	case *counts:
		err = printCounts(ctx, *root)
	default:
		err = generate(ctx, *root, *nMem, *nExp, *nVal, *seed)
	}
	if err != nil {
		fmt.Fprintln(os.Stderr, "gensources:", err)
		os.Exit(1)
	}
}

// The labels rows are drawn from.
var (
	domains    = strings.Fields("debugging feature refactor testing performance security docs release")
	strategies = strings.Fields("systematic-elimination binary-search minimal-reproduction hypothesis-testing read-the-source add-logging bisect-history test-first incremental-change rubber-duck")
	categories = strings.Fields("fact preference decision error workflow context event")
	causes     = strings.Fields("wrong-assumption race-condition stale-cache config environment dependency off-by-one missing-validation ordering encoding")
	// Words of the project's trade, mixed into the vocabulary so that
	// queries about tests and their tooling find rows, as they would in a
	// real team's notes.
	tradeWords = strings.Fields(`fixture fixtures teardown setup yield scope session module function class
		conftest plugin plugins hook hooks hookimpl hookspec pluggy marker markers mark parametrize parametrized
		skip skipif xfail xpass collect collection collector node nodeid item items runner runtest report
		reports outcome assertion assertions assert rewrite rewriting rewritten introspection comparison
		compare diff repr verbose traceback tracebacks frame frames excinfo capture captured capsys capfd
		stdout stderr stdin subprocess pipe tty terminal reporter summary junitxml xml cache lastfailed
		failed failing failure failures flaky rerun warnings deprecation deprecated filterwarnings recwarn
		tmp_path tmpdir monkeypatch caplog logging doctest doctests unittest nose config ini pyproject
		toml option options argument cli invocation pythonpath sys path import importlib rootdir
		cacheprovider pytester testdir python pypy windows macos ci tox pip wheel packaging release
		changelog towncrier docs sphinx readthedocs regression bisect commit revert patch fix bug
		issue crash hang timeout deadlock leak memory slow speed performance profile benchmark
		security sandbox permission encoding unicode bytes ascii utf8 locale timezone clock order
		ordering teardowns finalizer finalizers addfinalizer request getfixturevalue autouse
		dependency dependencies version pin upgrade downgrade api internal public private
		refactor refactoring rename cleanup typing mypy annotations lint flake8 black format`)
)

// vocab is the ranked vocabulary and a Zipf sampler over it.
type vocab struct {
	words []string
	zipf  *rand.Zipf
}

// loadVocab ranks the words of the comments of the Go tree under goroot
// by frequency (ties by the word), keeps the n most frequent, and mixes
// tradeWords in at random ranks.
func loadVocab(goroot string, n int, r *rand.Rand) (*vocab, error) {
	freq := map[string]int{}
	err := filepath.WalkDir(filepath.Join(goroot, "src"), func(path string, d fs.DirEntry, err error) error {
		if err != nil {
			return err
		}
		if d.IsDir() {
			if d.Name() == "testdata" || d.Name() == "vendor" {
				return filepath.SkipDir
			}
			return nil
		}
		if !strings.HasSuffix(path, ".go") || strings.HasSuffix(path, "_test.go") {
			return nil
		}
		src, err := os.ReadFile(path)
		if err != nil {
			return err
		}
		if generatedFile.Match(src) {
			return nil // rewrite rules and tables, not prose
		}
		for line := range strings.Lines(string(src)) {
			c, ok := strings.CutPrefix(strings.TrimSpace(line), "//")
			if !ok || strings.HasPrefix(c, "go:") {
				continue
			}
			for _, w := range strings.FieldsFunc(c, func(r rune) bool { return !unicode.IsLetter(r) }) {
				if len(w) >= 2 && len(w) <= 16 && isLowerASCII(w) {
					freq[w]++
				}
			}
		}
		return nil
	})
	if err != nil {
		return nil, err
	}
	words := make([]string, 0, len(freq))
	for w := range freq {
		words = append(words, w)
	}
	slices.SortFunc(words, func(a, b string) int { return cmp.Or(cmp.Compare(freq[b], freq[a]), cmp.Compare(a, b)) })
	if len(words) > n {
		words = words[:n]
	}
	if len(words) < 100 {
		return nil, fmt.Errorf("only %d words in the comments under %s", len(words), goroot)
	}
	for _, w := range tradeWords {
		if slices.Contains(words, w) {
			continue
		}
		at := 50 + r.IntN(1500) // a trade's words are common in its notes, but not function words
		words = slices.Insert(words, at, w)
	}
	return &vocab{words: words, zipf: rand.NewZipf(r, 1.07, 2, uint64(len(words)-1))}, nil
}

// generatedFile matches the line Go's generators mark their files with.
var generatedFile = regexp.MustCompile(`(?m)^// Code generated .* DO NOT EDIT\.$`)

func isLowerASCII(w string) bool {
	for _, c := range w {
		if c < 'a' || c > 'z' {
			return false
		}
	}
	return true
}

// sentence returns between min and max words, the first capitalized,
// ending with a period.
func (v *vocab) sentence(r *rand.Rand, min, max int) string {
	n := min + r.IntN(max-min+1)
	w := make([]string, n)
	for i := range w {
		w[i] = v.words[v.zipf.Uint64()]
	}
	w[0] = strings.ToUpper(w[0][:1]) + w[0][1:]
	return strings.Join(w, " ") + "."
}

// base is the newest Created of a generated row; rows go back two years.
var base = time.Date(2026, 1, 1, 0, 0, 0, 0, time.UTC).Unix()

func created(r *rand.Rand) int64 { return base - r.Int64N(2*365*24*3600) }

func pick[T any](r *rand.Rand, list []T) T { return list[r.IntN(len(list))] }

func generate(ctx context.Context, root string, nMem, nExp, nVal int, seed uint64) error {
	r := rand.New(rand.NewPCG(seed, 11))
	goroot, err := exec.Command("go", "env", "GOROOT").Output()
	if err != nil {
		return fmt.Errorf("go env GOROOT: %w", err)
	}
	v, err := loadVocab(strings.TrimSpace(string(goroot)), 4000, r)
	if err != nil {
		return err
	}
	st, err := store.Open(store.DefaultPath(root), store.Options{})
	if err != nil {
		return err
	}
	defer st.Close()

	start := time.Now()
	for range nMem {
		m := store.Memory{
			Content:    v.sentence(r, 10, 60),
			Category:   pick(r, categories),
			Importance: float64(r.IntN(101)) / 100,
			Created:    created(r),
		}
		if _, err := st.AddMemory(ctx, m); err != nil {
			return err
		}
	}
	tMem := time.Since(start)

	start = time.Now()
	var withLesson []store.Experience
	for range nExp {
		e := store.Experience{
			Domain:     pick(r, domains),
			Goal:       v.sentence(r, 5, 30),
			Hypothesis: v.sentence(r, 5, 30),
			Action:     v.sentence(r, 5, 30),
			Prediction: v.sentence(r, 5, 30),
			Result:     v.sentence(r, 5, 30),
			Iterations: 1 + r.IntN(5),
			Created:    created(r),
		}
		if r.IntN(10) < 8 {
			e.Strategy = pick(r, strategies)
		}
		switch x := r.IntN(100); {
		case x < 40:
			e.Outcome = store.OutcomeFalsified
		case x < 90:
			e.Outcome = store.OutcomeConfirmed
		default:
			e.Outcome = store.OutcomeAbandoned
		}
		if r.IntN(2) == 0 {
			e.Surprise = v.sentence(r, 5, 30)
		}
		if r.IntN(10) < 4 {
			e.RootCause = pick(r, causes) + ": " + v.sentence(r, 5, 30)
		}
		if r.IntN(10) < 7 {
			e.Lesson = v.sentence(r, 5, 30)
		}
		switch x := r.IntN(100); {
		case e.Outcome == store.OutcomeAbandoned:
			e.Confidence = store.TierAbandoned
		case x < 15:
			e.Confidence = store.TierGold
		case x < 45:
			e.Confidence = store.TierSilver
		default:
			e.Confidence = store.TierBronze
		}
		added, err := st.AddExperience(ctx, e)
		if err != nil {
			return err
		}
		if added.Lesson != "" {
			withLesson = append(withLesson, added)
		}
	}
	tExp := time.Since(start)

	start = time.Now()
	for range nVal {
		val := store.Value{
			Text:    v.sentence(r, 8, 25),
			Axis:    pick(r, store.Axes()),
			Tags:    []string{pick(r, domains)},
			Created: created(r),
		}
		if r.IntN(2) == 0 {
			val.Tags = append(val.Tags, pick(r, strategies))
		}
		// Most values are derived from a cluster: they name the
		// experience whose lesson they came from.
		if r.IntN(10) < 6 && len(withLesson) > 0 {
			e := pick(r, withLesson)
			val.Text = e.Lesson
			val.Experience = e.ID
			val.Tags[0] = e.Domain
			val.Cluster = fmt.Sprintf("%s/%d", val.Axis, 1+r.IntN(200))
			val.ClusterSize = 3 + r.IntN(20)
			val.Similarity = float64(50+r.IntN(51)) / 100
		}
		if _, err := st.AddValue(ctx, val); err != nil {
			return err
		}
	}
	tVal := time.Since(start)
	fmt.Printf("gensources: added %d memories in %.1f s, %d experiences in %.1f s, %d values in %.1f s (%d words of vocabulary)\n",
		nMem, tMem.Seconds(), nExp, tExp.Seconds(), nVal, tVal.Seconds(), len(v.words))
	return countsOf(ctx, st)
}

func printCounts(ctx context.Context, root string) error {
	st, err := store.Open(store.DefaultPath(root), store.Options{ReadOnly: true})
	if err != nil {
		return err
	}
	defer st.Close()
	return countsOf(ctx, st)
}

func countsOf(ctx context.Context, st *store.Store) error {
	c, err := st.Counts(ctx)
	if err != nil {
		return err
	}
	fi, err := os.Stat(st.Path())
	if err != nil {
		return err
	}
	root, err := st.StateRoot(ctx)
	if err != nil {
		return err
	}
	fmt.Printf("store: %d memories, %d experiences, %d values, %d commits (sources.db %.1f MiB, state root %.19s…)\n",
		c.Memories, c.Experiences, c.Values, c.Commits, float64(fi.Size())/(1<<20), root)
	return nil
}

// profileRun assembles once under a CPU profile written to file, and
// prints how long it took and where its memory went: the peak RSS, what
// the Go runtime got from the OS, and the rest (code pages, SQLite's C
// heap). With memFile it also writes the allocations' profile there.
func profileRun(ctx context.Context, root, file, memFile, query string, noUpdate bool, premortem, strategy string) error {
	if memFile != "" {
		runtime.MemProfileRate = 64 << 10
	}
	f, err := os.Create(file)
	if err != nil {
		return err
	}
	defer f.Close()
	if err := pprof.StartCPUProfile(f); err != nil {
		return err
	}
	start := time.Now()
	p, err := app.Open(root, "")
	if err == nil {
		if premortem != "" {
			_, err = p.Premortem(ctx, premortem, strategy, app.Request{NoCache: true})
		} else {
			_, err = p.Sources(ctx, query, app.Request{
				Sources: []string{"memories,code,experiences,values,commits"},
				Budget:  2000,
				NoCache: true,
				Index:   app.IndexOptions{NoUpdate: noUpdate},
			})
		}
	}
	took := time.Since(start)
	pprof.StopCPUProfile()
	if err != nil {
		return err
	}
	var ms runtime.MemStats
	runtime.ReadMemStats(&ms)
	status, _ := os.ReadFile("/proc/self/status")
	hwm := "?"
	for line := range strings.Lines(string(status)) {
		if v, ok := strings.CutPrefix(line, "VmHWM:"); ok {
			hwm = strings.TrimSpace(v)
		}
	}
	fmt.Printf("profile: %.3f s, in %s; peak RSS %s, Go runtime's memory from the OS %.1f MiB (heap %.1f MiB), %.1f MiB allocated\n",
		took.Seconds(), file, hwm, float64(ms.Sys)/(1<<20), float64(ms.HeapSys)/(1<<20), float64(ms.TotalAlloc)/(1<<20))
	if memFile != "" {
		mf, err := os.Create(memFile)
		if err != nil {
			return err
		}
		defer mf.Close()
		if err := pprof.Lookup("allocs").WriteTo(mf, 0); err != nil {
			return err
		}
		if err := mf.Close(); err != nil {
			return err
		}
	}
	return f.Close()
}
