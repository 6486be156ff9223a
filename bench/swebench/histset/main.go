// Command histset builds a file-localization set from git histories: each
// pair is a fix commit whose message reads like an issue, the commit's
// parent as the base, and the source files the commit changes as the gold
// files, in the JSONL format of bench/swebench (plus "language" and
// "commit").
//
//	go run ./bench/swebench/histset -repos LIST -out PAIRS.jsonl [-trees TREES] [-per-repo 55]
//
// LIST has one repository a line, "owner/name LANGUAGE GITDIR" (language
// python, go, javascript, typescript or rust; GITDIR a bare or mirror
// clone, where $VAR and ${VAR} name environment variables); blank lines
// and lines starting with # are skipped. repos.txt beside this file lists
// the repositories of the set under ${MIRROR}.
//
// For each repository it reads the history from HEAD, keeps the commits
// that qualify (see judge and goldFiles) and takes the first -per-repo of
// them in hash order. The same repositories at the same HEADs give the
// same PAIRS.jsonl byte for byte. Beside it, PAIRS.repos.json records each
// repository's HEAD and how many commits each filter rejected.
//
// With -trees, TREES/ID becomes a checkout of the pair's base commit that
// shares the repository's objects and keeps only HEAD, so git log in it
// sees the history up to the base and nothing after. Existing trees are
// kept, so a second run only adds what is missing.
package main

import (
	"bufio"
	"bytes"
	"encoding/json"
	"flag"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"strings"
)

func main() {
	repos := flag.String("repos", "", "the repository list: lines of owner/name LANGUAGE GITDIR")
	out := flag.String("out", "", "the pairs file to write (JSONL)")
	trees := flag.String("trees", "", "if set, the folder to build one tree per pair in")
	perRepo := flag.Int("per-repo", 55, "pairs to take from each repository")
	maxTreeMB := flag.Int64("max-tree-mb", 150, "skip a repository whose tree at HEAD is larger than this")
	flag.Parse()
	if *repos == "" || *out == "" || flag.NArg() > 0 || *perRepo < 1 {
		fmt.Fprintln(os.Stderr, "usage: histset -repos LIST -out PAIRS.jsonl [-trees TREES] [-per-repo N] [-max-tree-mb MB]")
		os.Exit(2)
	}
	if err := run(*repos, *out, *trees, *perRepo, *maxTreeMB<<20, os.Stderr); err != nil {
		fmt.Fprintln(os.Stderr, "histset:", err)
		os.Exit(1)
	}
}

func run(list, out, trees string, perRepo int, maxTree int64, log io.Writer) error {
	specs, err := readList(list)
	if err != nil {
		return err
	}
	var all []pair
	var reports []repoReport
	for _, s := range specs {
		ps, rep, err := selectPairs(s, perRepo, maxTree)
		if err != nil {
			return fmt.Errorf("%s: %w", s.Name, err)
		}
		if rep.Skipped != "" {
			fmt.Fprintf(log, "histset: %s skipped: %s\n", s.Name, rep.Skipped)
		}
		fmt.Fprintf(log, "%-32s %-10s head %.12s  commits %5d  candidates %4d  selected %3d\n", s.Name, s.Lang, rep.Head, rep.Commits, rep.Candidates, rep.Selected)
		all = append(all, ps...)
		reports = append(reports, rep)
	}
	if err := writePairs(out, all); err != nil {
		return err
	}
	side, err := json.MarshalIndent(reports, "", "  ")
	if err != nil {
		return err
	}
	if err := writeFile(sidecar(out), append(side, '\n')); err != nil {
		return err
	}
	fmt.Fprintf(log, "histset: %d pairs from %d repositories in %s\n", len(all), len(specs), out)
	if trees == "" {
		return nil
	}
	dirs := map[string]string{}
	for _, s := range specs {
		dirs[s.Name] = s.Dir
	}
	built := 0
	for _, p := range all {
		ok, err := buildTree(dirs[p.Repo], filepath.Join(trees, p.ID), p.Base)
		if err != nil {
			return fmt.Errorf("tree %s: %w", p.ID, err)
		}
		if ok {
			built++
		}
	}
	fmt.Fprintf(log, "histset: %d trees built, %d already there, in %s\n", built, len(all)-built, trees)
	return nil
}

// sidecar is the name of the repository report beside the pairs file.
func sidecar(out string) string {
	return strings.TrimSuffix(out, ".jsonl") + ".repos.json"
}

// readList reads the repository list.
func readList(name string) ([]repoSpec, error) {
	f, err := os.Open(name)
	if err != nil {
		return nil, err
	}
	defer f.Close()
	var specs []repoSpec
	seen := map[string]bool{}
	sc := bufio.NewScanner(f)
	for n := 1; sc.Scan(); n++ {
		line := strings.TrimSpace(sc.Text())
		if line == "" || strings.HasPrefix(line, "#") {
			continue
		}
		s, err := parseSpec(line)
		if err != nil {
			return nil, fmt.Errorf("%s:%d: %w", name, n, err)
		}
		if seen[s.Name] {
			return nil, fmt.Errorf("%s:%d: %s is listed twice", name, n, s.Name)
		}
		seen[s.Name] = true
		specs = append(specs, s)
	}
	if err := sc.Err(); err != nil {
		return nil, err
	}
	if len(specs) == 0 {
		return nil, fmt.Errorf("%s: no repositories listed (want lines of owner/name LANGUAGE GITDIR)", name)
	}
	return specs, nil
}

// parseSpec parses one line of the repository list.
func parseSpec(line string) (repoSpec, error) {
	f := strings.Fields(line)
	if len(f) != 3 {
		return repoSpec{}, fmt.Errorf("want owner/name LANGUAGE GITDIR, got %q", line)
	}
	var unset []string
	dir := os.Expand(f[2], func(v string) string {
		val, ok := os.LookupEnv(v)
		if !ok || val == "" {
			unset = append(unset, "$"+v)
		}
		return val
	})
	if len(unset) > 0 {
		return repoSpec{}, fmt.Errorf("GITDIR %s uses %s, which is not set", f[2], strings.Join(unset, ", "))
	}
	s := repoSpec{Name: f[0], Lang: strings.ToLower(f[1]), Dir: dir}
	if o, n, ok := strings.Cut(s.Name, "/"); !ok || o == "" || n == "" || strings.Contains(n, "/") {
		return repoSpec{}, fmt.Errorf("repository %q is not owner/name", s.Name)
	}
	if err := checkLanguage(s.Lang); err != nil {
		return repoSpec{}, err
	}
	return s, nil
}

// writePairs writes the pairs as JSONL, HTML characters unescaped.
func writePairs(name string, ps []pair) error {
	var b bytes.Buffer
	enc := json.NewEncoder(&b)
	enc.SetEscapeHTML(false)
	for _, p := range ps {
		if err := enc.Encode(p); err != nil {
			return err
		}
	}
	return writeFile(name, b.Bytes())
}

// writeFile replaces name with data in one rename.
func writeFile(name string, data []byte) error {
	tmp := name + ".tmp"
	if err := os.WriteFile(tmp, data, 0o644); err != nil {
		return err
	}
	return os.Rename(tmp, name)
}
