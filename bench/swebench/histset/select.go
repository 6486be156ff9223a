package main

import (
	"fmt"
	"slices"
	"strings"
)

// repoSpec is one line of the repository list.
type repoSpec struct {
	Name string // owner/name
	Lang string // a key of languages
	Dir  string // the git directory
}

// pair is one instance of the set: a fix commit's message as the issue,
// its parent as the base, the source files it changes as the gold files.
// Fields are in key order, as dev.jsonl writes them.
type pair struct {
	Base      string           `json:"base_commit"`
	Commit    string           `json:"commit"`
	GoldFiles []string         `json:"gold_files"`
	GoldLines map[string][]int `json:"gold_lines"`
	ID        string           `json:"instance_id"`
	Language  string           `json:"language"`
	Problem   string           `json:"problem_statement"`
	Repo      string           `json:"repo"`
}

// repoReport says what the selection did with one repository.
type repoReport struct {
	Repo       string         `json:"repo"`
	Language   string         `json:"language"`
	Head       string         `json:"head"`
	TreeBytes  int64          `json:"head_tree_bytes"`
	Commits    int            `json:"commits"`
	Rejected   map[string]int `json:"rejected"`
	Candidates int            `json:"candidates"`
	Selected   int            `json:"selected"`
	Skipped    string         `json:"skipped,omitempty"`
}

// maxGold is the most gold files a pair may have: the task is
// localization, and a change spread over many files is not one place.
const maxGold = 3

// maxPerGoldSet is the most pairs a repository gives with the same gold
// files: without it a file that many small changes touch (a table of file
// types, a router) fills the set, and a ranking that always puts it first
// would look better than it is.
const maxPerGoldSet = 3

// selectPairs reads a repository's history from its HEAD and returns the
// first perRepo qualifying commits in hash order (an order that spreads
// them over the history and that commits added later rarely disturb).
// A repository whose tree at HEAD holds more than maxTree bytes gives no
// pairs; its report says why.
func selectPairs(spec repoSpec, perRepo int, maxTree int64) ([]pair, repoReport, error) {
	rep := repoReport{Repo: spec.Name, Language: spec.Lang, Rejected: map[string]int{}}
	out, err := git(spec.Dir, "rev-parse", "--verify", "HEAD^{commit}")
	if err != nil {
		return nil, rep, err
	}
	rep.Head = strings.TrimSpace(string(out))
	if rep.TreeBytes, err = treeBytes(spec.Dir, rep.Head); err != nil {
		return nil, rep, err
	}
	if rep.TreeBytes > maxTree {
		rep.Skipped = fmt.Sprintf("tree at HEAD is %d MB, over the %d MB limit", rep.TreeBytes>>20, maxTree>>20)
		return nil, rep, nil
	}
	cs, err := listCommits(spec.Dir, rep.Head)
	if err != nil {
		return nil, rep, err
	}
	rep.Commits = len(cs)
	slices.SortFunc(cs, func(a, b commit) int { return strings.Compare(a.Hash, b.Hash) })
	var pairs []pair
	perSet := map[string]int{}
	for _, c := range cs {
		p, why, err := qualify(spec, c)
		if err != nil {
			return nil, rep, err
		}
		if why != "" {
			rep.Rejected[why]++
			continue
		}
		set := strings.Join(p.GoldFiles, "\x00")
		if perSet[set] >= maxPerGoldSet {
			rep.Rejected["repeated-gold-files"]++
			continue
		}
		perSet[set]++
		rep.Candidates++
		if len(pairs) < perRepo {
			pairs = append(pairs, p)
		}
	}
	rep.Selected = len(pairs)
	return pairs, rep, nil
}

// qualify returns the pair commit c makes, or the reason it makes none.
func qualify(spec repoSpec, c commit) (pair, string, error) {
	switch {
	case len(c.Parents) == 0:
		return pair{}, "root", nil
	case len(c.Parents) > 1:
		return pair{}, "merge", nil
	}
	m := cleanMessage(c.Message)
	if why := judge(m); why != "" {
		return pair{}, why, nil
	}
	parent := c.Parents[0]
	chs, err := changes(spec.Dir, parent, c.Hash)
	if err != nil {
		return pair{}, "", err
	}
	files, why := goldFiles(chs, spec.Lang)
	if why != "" {
		return pair{}, why, nil
	}
	p := pair{
		Base:      parent,
		Commit:    c.Hash,
		GoldLines: map[string][]int{},
		ID:        strings.ReplaceAll(spec.Name, "/", "__") + "-" + c.Hash[:12],
		Language:  spec.Lang,
		Problem:   m.Text,
		Repo:      spec.Name,
	}
	for _, f := range files {
		ls, err := goldLines(spec.Dir, parent, c.Hash, f)
		if err != nil {
			return pair{}, "", err
		}
		if len(ls) == 0 { // a mode change: nothing to edit
			continue
		}
		p.GoldFiles = append(p.GoldFiles, f)
		p.GoldLines[f] = ls
	}
	if len(p.GoldFiles) == 0 {
		return pair{}, "no-source", nil
	}
	return p, "", nil
}

// goldFiles returns the source files a commit modifies, or why the commit
// is no localization task: it changes no source file or too many, it
// adds or deletes a source file (a new module is a feature, and a file
// that does not exist at the base cannot be found there), or it changes
// code in another language.
func goldFiles(chs []change, lang string) ([]string, string) {
	var gold []string
	for _, ch := range chs {
		switch classify(ch.Path, lang) {
		case kindForeign:
			return nil, "foreign-code"
		case kindSource:
			if ch.Status != 'M' {
				return nil, "adds-or-deletes-source"
			}
			gold = append(gold, ch.Path)
		}
	}
	switch {
	case len(gold) == 0:
		return nil, "no-source"
	case len(gold) > maxGold:
		return nil, "too-many-files"
	}
	slices.Sort(gold)
	return gold, ""
}
