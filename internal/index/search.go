package index

import (
	"cmp"
	"context"
	"fmt"
	"math"
	"slices"
	"strconv"
	"strings"

	"github.com/ctxpack/ctxpack/internal/lexical"
	"github.com/ctxpack/ctxpack/internal/rank"
)

// Weights are the BM25 column weights: how much one occurrence of a query
// term counts in a chunk's symbol name, in its file's path, and in its
// text. FTS5's bm25() adds the weighted occurrences of each term before
// saturating them, as BM25F does.
type Weights struct {
	Symbol, Path, Body float64
}

// DefaultWeights are the weights Search uses when SearchOptions.Weights is
// zero; testdata/rank_stats.txt records their effect on the ranking
// fixture.
func DefaultWeights() Weights { return Weights{Symbol: 4, Path: 2, Body: 1} }

// columns are the columns of chunk_terms, in order.
var columns = [3]string{"symbol", "path", "body"}

func (w Weights) list() [3]float64 { return [3]float64{w.Symbol, w.Path, w.Body} }

// SearchOptions change how Search ranks and groups.
type SearchOptions struct {
	// Files returns one hit per file, its best chunk, instead of one hit
	// per chunk.
	Files bool
	// Weights are the column weights; the zero value means
	// DefaultWeights().
	Weights Weights
	// Paths, when not empty, limits the search to the chunks of these
	// files.
	Paths []string
	// Stem matches each query term by its stem as a prefix
	// (lexical.StemMatchExpr): raises finds raise and raising.
	Stem bool
	// Rerank, when set, is given the k hits, in order, before the terms
	// each matched are found, and returns the hits Search returns: a
	// caller that reorders and keeps fewer pays for the terms of those it
	// keeps only.
	Rerank func([]Hit) []Hit
	// Terms, when not nil, are the terms to search for instead of the
	// query's own (lexical.QueryTerms): SelectTerms's choice among a long
	// query's terms, say.
	Terms []string
}

// Hit is one search result: a chunk, with its score and why it matched.
type Hit struct {
	Path               string
	Seq                int
	Start, End         int // byte offsets into the file's text
	StartLine, EndLine int // 1-based, inclusive
	Kind, Symbol       string
	CID                string // content id of the chunk's text

	// Score is the BM25 score (higher is better), quantized to 1e-6.
	Score float64
	// Signals are the contributions to the score, by name: for now
	// "bm25.symbol", "bm25.path" and "bm25.body", each the score the chunk
	// would get if only that column counted (with its weight). BM25
	// saturates term frequencies across columns, so they do not add up to
	// Score exactly.
	Signals []Signal
	// Matched lists, per column, the query terms found there.
	Matched []ColumnTerms

	id int64 // the chunk's row id, while searching
}

// Signal is one named contribution to a score.
type Signal struct {
	Name  string
	Value float64 // quantized to 1e-6
}

// ColumnTerms are the query terms found in one column of a chunk.
type ColumnTerms struct {
	Column string // symbol, path or body
	Terms  []string
}

// Why says in one line why a hit matched: "symbol: serve, http; body: http".
func (h Hit) Why() string {
	var parts []string
	for _, c := range h.Matched {
		parts = append(parts, c.Column+": "+strings.Join(c.Terms, ", "))
	}
	return strings.Join(parts, "; ")
}

// Search returns the k best chunks for query (or, with opt.Files, the best
// chunk of each of the k best files), ranked by BM25 over the chunks'
// code-aware terms (QueryTerms of the query, any of which may match).
//
// The order is total and deterministic: score descending after quantizing
// to 1e-6, then path ascending, then chunk sequence ascending. A query
// with no terms (only punctuation, say) has no hits. Search fails with
// *NotCurrentError when the index must be rebuilt first.
func (ix *Index) Search(ctx context.Context, query string, k int, opt SearchOptions) (_ []Hit, err error) {
	defer func() { err = ix.damaged(err) }()
	ix.mu.RLock()
	defer ix.mu.RUnlock()
	if err := ix.ready(); err != nil {
		return nil, err
	}
	if k <= 0 {
		return nil, nil
	}
	terms := opt.Terms
	if terms == nil {
		terms = lexical.QueryTerms(query)
	}
	if len(terms) == 0 {
		return nil, nil
	}
	w := opt.Weights
	if w == (Weights{}) {
		w = DefaultWeights()
	}
	match := lexical.MatchExpr(terms)
	if opt.Stem {
		match = lexical.StemMatchExpr(terms)
	}
	weights := w.list()
	var filter []any
	if len(opt.Paths) > 0 {
		filter = make([]any, len(opt.Paths))
		for i, p := range opt.Paths {
			filter[i] = p
		}
	}
	fetch := func(limit int) ([]Hit, error) { return ix.candidates(ctx, match, weights, limit, filter) }
	hits, err := lexical.TopK(k, fetch, func(h Hit) float64 { return h.Score }, func(rows []Hit) ([]Hit, error) {
		if err := ix.fillChunks(ctx, rows); err != nil {
			return nil, err
		}
		slices.SortFunc(rows, CompareHits)
		if opt.Files {
			rows = bestPerFile(rows)
		}
		return rows, nil
	})
	if err != nil {
		return nil, err
	}
	if opt.Rerank != nil {
		hits = opt.Rerank(hits)
	}
	if err := ix.matched(ctx, hits, terms, opt.Stem); err != nil {
		return nil, err
	}
	for i := range hits {
		hits[i].id = 0
	}
	return hits, nil
}

// CompareHits is the total order of DESIGN §2 that Search and Nearest
// return hits in: score descending, then path, then chunk sequence.
func CompareHits(a, b Hit) int {
	return cmp.Or(cmp.Compare(b.Score, a.Score), strings.Compare(a.Path, b.Path), cmp.Compare(a.Seq, b.Seq))
}

// bestPerFile keeps the first hit of each path; hits are in ranked order.
func bestPerFile(hits []Hit) []Hit {
	seen := make(map[string]bool)
	return slices.DeleteFunc(hits, func(h Hit) bool {
		if seen[h.Path] {
			return true
		}
		seen[h.Path] = true
		return false
	})
}

func fnum(f float64) string { return strconv.FormatFloat(f, 'g', -1, 64) }

// candidates returns up to limit chunks matching match, best first by raw
// score, with their ids, scores and signals only (see fillChunks).
//
// The full-text table is queried alone: joining the chunks table in the
// same query makes SQLite fetch a chunk row for every match before
// sorting. Each column's score on its own is computed in the same pass,
// since FTS5 computes a term's IDF once per query.
func (ix *Index) candidates(ctx context.Context, match string, weights [3]float64, limit int, paths []any) ([]Hit, error) {
	cols := make([]string, 4)
	cols[0] = "-bm25(chunk_terms, " + fnum(weights[0]) + ", " + fnum(weights[1]) + ", " + fnum(weights[2]) + ") AS score"
	for c := range 3 {
		w := [3]string{"0", "0", "0"}
		w[c] = fnum(weights[c])
		cols[c+1] = "-bm25(chunk_terms, " + strings.Join(w[:], ", ") + ")"
	}
	where := `chunk_terms MATCH ?`
	args := []any{match}
	if len(paths) > 0 {
		where += ` AND rowid IN (SELECT id FROM chunks WHERE path IN (?` + strings.Repeat(", ?", len(paths)-1) + `))`
		args = append(args, paths...)
	}
	q := `SELECT rowid, ` + strings.Join(cols, ", ") + ` FROM chunk_terms WHERE ` + where + ` ORDER BY score DESC LIMIT ?`
	rows, err := ix.db.QueryContext(ctx, q, append(args, limit)...)
	if err != nil {
		return nil, fmt.Errorf("index: search: %w", err)
	}
	defer rows.Close()
	var out []Hit
	for rows.Next() {
		var h Hit
		var v [3]float64
		if err := rows.Scan(&h.id, &h.Score, &v[0], &v[1], &v[2]); err != nil {
			return nil, fmt.Errorf("index: search: %w", err)
		}
		for c := range 3 {
			h.Signals = append(h.Signals, Signal{Name: "bm25." + columns[c], Value: rank.Round(v[c])})
		}
		out = append(out, h)
	}
	if err := rows.Err(); err != nil {
		return nil, fmt.Errorf("index: search: %w", err)
	}
	return out, nil
}

// fillChunks fills the hits' chunk fields from their ids and quantizes
// their scores.
func (ix *Index) fillChunks(ctx context.Context, hits []Hit) error {
	if len(hits) == 0 {
		return nil
	}
	pos := make(map[int64]int, len(hits))
	for i := range hits {
		pos[hits[i].id] = i
		hits[i].Score = rank.Round(hits[i].Score)
	}
	rows, err := ix.chunkRows(ctx, `WHERE id IN (`+idList(hits)+`)`)
	if err != nil {
		return err
	}
	n := 0
	for _, c := range rows {
		h := &hits[pos[c.id]]
		h.Path, h.Seq, h.Start, h.End, h.StartLine, h.EndLine, h.Kind, h.Symbol, h.CID = c.Path, c.Seq, c.Start, c.End, c.StartLine, c.EndLine, c.Kind, c.Symbol, c.CID
		n++
	}
	if n != len(hits) {
		return fmt.Errorf("index: search: %d of %d matching chunks are missing from the chunks table; run 'ctxpack index'", len(hits)-n, len(hits))
	}
	return nil
}

// idList is the hits' ids as an SQL list.
func idList(hits []Hit) string {
	ids := make([]string, len(hits))
	for i, h := range hits {
		ids[i] = strconv.FormatInt(h.id, 10)
	}
	return strings.Join(ids, ",")
}

// matched fills the hits' Matched terms: for each term and column, which
// hits hold it there. These queries compute no score, so they only seek
// the term's entries for the hits' ids.
func (ix *Index) matched(ctx context.Context, hits []Hit, terms []string, stem bool) error {
	if len(hits) == 0 {
		return nil
	}
	pos := make(map[int64]int, len(hits))
	for i, h := range hits {
		pos[h.id] = i
	}
	stmt, err := ix.db.PrepareContext(ctx, `SELECT rowid FROM chunk_terms WHERE chunk_terms MATCH ? AND rowid IN (`+idList(hits)+`)`)
	if err != nil {
		return fmt.Errorf("index: search: %w", err)
	}
	defer stmt.Close()
	found := make([][3][]string, len(hits))
	for _, t := range terms {
		phrase := lexical.Phrase(t, stem)
		for c, col := range columns {
			rows, err := stmt.QueryContext(ctx, "{"+col+"} : "+phrase)
			if err != nil {
				return fmt.Errorf("index: search: %w", err)
			}
			for rows.Next() {
				var id int64
				if err := rows.Scan(&id); err != nil {
					rows.Close()
					return fmt.Errorf("index: search: %w", err)
				}
				found[pos[id]][c] = append(found[pos[id]][c], t)
			}
			rows.Close()
			if err := rows.Err(); err != nil {
				return fmt.Errorf("index: search: %w", err)
			}
		}
	}
	for i := range hits {
		for c := range 3 {
			if len(found[i][c]) > 0 {
				hits[i].Matched = append(hits[i].Matched, ColumnTerms{Column: columns[c], Terms: found[i][c]})
			}
		}
	}
	return nil
}

// TermSelection is the terms SelectTerms keeps of a query's search terms.
type TermSelection struct {
	// Terms are the terms kept, in the query's order.
	Terms []string
	// Total is the number of the query's distinct search terms
	// (lexical.QueryTerms).
	Total int
	// Absent is the number of dropped terms no chunk holds.
	Absent int
}

// Dropped is the number of the query's terms left out.
func (s TermSelection) Dropped() int { return s.Total - len(s.Terms) }

// SelectTerms chooses the terms to search for when a query has more than
// limit distinct search terms, as a pasted bug report does: the limit
// that weigh most, each weighing the number of times the query uses it
// times its inverse document frequency among the chunks (BM25's, as FTS5
// computes it), ties in query order; a term no chunk holds weighs nothing
// and is left out. With stem, a term's document frequency is the sum over
// the indexed terms its stem begins (an upper bound of the chunks its
// prefix query matches).
//
// A query with at most limit terms keeps them all without reading the
// index. Each search term costs a pass over its postings in every
// search of the ranking: on Go's tree a 550-term report took 18.7 s to
// assemble a context for whole and 4.2 s for its 96 terms that weigh
// most (bench/index-goroot.sh, LONG_QUERY); the terms left out are the
// common words BM25 weighs least and the words of no file.
func (ix *Index) SelectTerms(ctx context.Context, query string, limit int, stem bool) (_ TermSelection, err error) {
	terms := lexical.QueryTerms(query)
	sel := TermSelection{Terms: terms, Total: len(terms)}
	if limit <= 0 || len(terms) <= limit {
		return sel, nil
	}
	defer func() { err = ix.damaged(err) }()
	ix.mu.RLock()
	defer ix.mu.RUnlock()
	if err := ix.ready(); err != nil {
		return TermSelection{}, err
	}
	conn, err := ix.db.Conn(ctx)
	if err != nil {
		return TermSelection{}, fmt.Errorf("index: search: %w", err)
	}
	defer conn.Close()
	if _, err := conn.ExecContext(ctx, `CREATE VIRTUAL TABLE IF NOT EXISTS temp.chunk_vocab USING fts5vocab(main, chunk_terms, 'row')`); err != nil {
		return TermSelection{}, fmt.Errorf("index: search: %w", err)
	}
	var n float64
	if err := conn.QueryRowContext(ctx, `SELECT count(*) FROM chunks`).Scan(&n); err != nil {
		return TermSelection{}, fmt.Errorf("index: search: %w", err)
	}
	uses := map[string]float64{}
	for _, t := range lexical.Terms(query) {
		uses[t]++
	}
	type weighed struct {
		i int
		w float64
	}
	var keep []weighed
	for i, t := range terms {
		lo, hi := t, t
		if s := lexical.Stem(t); stem && s != "" {
			lo, hi = s, s+"\xff" // terms are ASCII letters and digits
		}
		var df float64
		if err := conn.QueryRowContext(ctx, `SELECT coalesce(sum(doc), 0) FROM temp.chunk_vocab WHERE term >= ? AND term <= ?`, lo, hi).Scan(&df); err != nil {
			return TermSelection{}, fmt.Errorf("index: search: %w", err)
		}
		if df == 0 {
			sel.Absent++
			continue
		}
		idf := max(math.Log((n-df+0.5)/(df+0.5)), 1e-6)
		keep = append(keep, weighed{i, max(uses[t], 1) * idf})
	}
	slices.SortStableFunc(keep, func(a, b weighed) int { return cmp.Compare(b.w, a.w) })
	keep = keep[:min(len(keep), limit)]
	slices.SortFunc(keep, func(a, b weighed) int { return cmp.Compare(a.i, b.i) })
	sel.Terms = make([]string, len(keep))
	for j, k := range keep {
		sel.Terms[j] = terms[k.i]
	}
	return sel, nil
}
