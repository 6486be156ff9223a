package store

import (
	"cmp"
	"context"
	"fmt"
	"slices"
	"strconv"
	"strings"

	"github.com/ctxpack/ctxpack/internal/lexical"
	"github.com/ctxpack/ctxpack/internal/rank"
)

// ftsTable is a full-text table: its columns, and the weight of one
// occurrence of a query term in each when ranking (FTS5's bm25() adds the
// weighted occurrences of a term over the columns before saturating
// them, as BM25F does).
type ftsTable struct {
	name    string
	columns []string
	weights []float64
}

// The full-text tables of memories, values and commits; the experiences'
// are in axes.go. The weights, by table:
//
//   - memories: content 1, category 0.5. The category says what kind of
//     memory it is, seldom what it is about, so a query word that is a
//     category name ("decision") nudges, not floods.
//   - values: text 1, tags 2, axis 0.5. Tags are the domains and
//     strategies a value applies to: a query that names one wants those
//     values first, as a query naming a file wants its chunks (the
//     index's path weight is 2).
//   - commits: message 2, paths 1, author 1. The message is what was
//     written to say what the change is; the paths of a large commit are
//     many and say little each.
var (
	memoryTerms = ftsTable{"memory_terms", []string{"content", "category"}, []float64{1, 0.5}}
	valueTerms  = ftsTable{"value_terms", []string{"text", "axis", "tags"}, []float64{1, 0.5, 2}}
	commitTerms = ftsTable{"commit_terms", []string{"message", "paths", "author"}, []float64{2, 1, 1}}
)

// insert adds the terms of texts, one per column, as row id.
func (t ftsTable) insert(ctx context.Context, q querier, id int64, texts []string) error {
	args := make([]any, 0, 1+len(texts))
	args = append(args, id)
	for _, s := range texts {
		args = append(args, lexical.TermsText(s))
	}
	stmt := `INSERT INTO ` + t.name + ` (rowid, ` + strings.Join(t.columns, ", ") + `) VALUES (?` + strings.Repeat(", ?", len(texts)) + `)`
	if _, err := q.ExecContext(ctx, stmt, args...); err != nil {
		return fmt.Errorf("store: %s: %w", t.name, err)
	}
	return nil
}

// delete removes row id, which the caller knows is in the table.
func (t ftsTable) delete(ctx context.Context, q querier, id int64) error {
	if _, err := q.ExecContext(ctx, `DELETE FROM `+t.name+` WHERE rowid = ?`, id); err != nil {
		return fmt.Errorf("store: %s: %w", t.name, err)
	}
	return nil
}

// score is the SQL of a row's score: minus FTS5's bm25(), so that higher
// is better.
func (t ftsTable) score() string {
	w := make([]string, len(t.weights))
	for i, f := range t.weights {
		w[i] = strconv.FormatFloat(f, 'g', -1, 64)
	}
	return `-bm25(` + t.name + `, ` + strings.Join(w, ", ") + `)`
}

// matchExpr is the FTS5 query for terms: any of them.
func matchExpr(terms []string) string { return lexical.MatchExpr(terms) }

// ranked is a row with its quantized score.
type ranked[T any] struct {
	row   T
	score float64
}

// search returns up to k rows of t that match any of terms, best first:
// quantized score descending, then by tie. where, if not "", is an SQL
// condition on rowid that rows must also meet, with its args. load reads
// the rows of ids (every one of them: a row of t without its row is an
// error).
//
// The full-text table is queried alone, fetching ids and scores only, best
// first by raw score, as lexical.TopK widens it.
func search[T any](ctx context.Context, q querier, t ftsTable, terms []string, where string, args []any, k int,
	load func(ids []int64) (map[int64]T, error), tie func(a, b T) int) ([]ranked[T], error) {
	if k <= 0 || len(terms) == 0 {
		return nil, nil
	}
	cond := t.name + ` MATCH ?`
	if where != "" {
		cond += ` AND ` + where
	}
	stmt := `SELECT rowid, ` + t.score() + ` AS score FROM ` + t.name + ` WHERE ` + cond + ` ORDER BY score DESC LIMIT ?`
	type cand struct {
		id  int64
		raw float64
	}
	fetch := func(limit int) ([]cand, error) {
		rows, err := q.QueryContext(ctx, stmt, append(append([]any{matchExpr(terms)}, args...), limit)...)
		if err != nil {
			return nil, fmt.Errorf("store: search %s: %w", t.name, err)
		}
		defer rows.Close()
		var cands []cand
		for rows.Next() {
			var c cand
			if err := rows.Scan(&c.id, &c.raw); err != nil {
				return nil, fmt.Errorf("store: search %s: %w", t.name, err)
			}
			cands = append(cands, c)
		}
		if err := rows.Err(); err != nil {
			return nil, fmt.Errorf("store: search %s: %w", t.name, err)
		}
		return cands, nil
	}
	return lexical.TopK(k, fetch, func(c cand) float64 { return c.raw }, func(cands []cand) ([]ranked[T], error) {
		ids := make([]int64, len(cands))
		for i, c := range cands {
			ids[i] = c.id
		}
		byID, err := load(ids)
		if err != nil {
			return nil, err
		}
		out := make([]ranked[T], 0, len(cands))
		for _, c := range cands {
			row, ok := byID[c.id]
			if !ok {
				return nil, fmt.Errorf("store: search %s: row %d of the full-text table has no row; the store is damaged", t.name, c.id)
			}
			out = append(out, ranked[T]{row: row, score: rank.Round(c.raw)})
		}
		slices.SortFunc(out, func(a, b ranked[T]) int { return cmp.Or(cmp.Compare(b.score, a.score), tie(a.row, b.row)) })
		return out, nil
	})
}

// matched returns the terms (in their order) that are among the terms of
// texts: the query terms a row holds, found the way the full-text table
// found them.
func matched(terms []string, texts ...string) []string {
	have := make(map[string]bool)
	for _, s := range texts {
		for _, t := range lexical.Terms(s) {
			have[t] = true
		}
	}
	var out []string
	for _, t := range terms {
		if have[t] {
			out = append(out, t)
		}
	}
	return out
}

// idList is ids as an SQL list.
func idList(ids []int64) string {
	s := make([]string, len(ids))
	for i, id := range ids {
		s[i] = strconv.FormatInt(id, 10)
	}
	return strings.Join(s, ",")
}
