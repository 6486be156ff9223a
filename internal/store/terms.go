package store

import (
	"cmp"
	"context"
	"database/sql"
	"fmt"
	"maps"
	"math"
	"slices"
	"strconv"
	"strings"

	"github.com/ctxpack/ctxpack/internal/lexical"
	"github.com/ctxpack/ctxpack/internal/rank"
)

// ftsTable is a searched table: the columns (texts) of each of its rows,
// and the weight of one occurrence of a query term in each when ranking.
// Its terms are kept in the terms and term_docs tables under its tbl
// number, which is stored: never change one.
type ftsTable struct {
	tbl     int
	name    string
	columns []string
	weights []float64
}

// The searched tables of memories, values and commits; the experiences'
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
	memoryTerms = ftsTable{1, "memory_terms", []string{"content", "category"}, []float64{1, 0.5}}
	valueTerms  = ftsTable{6, "value_terms", []string{"text", "axis", "tags"}, []float64{1, 0.5, 2}}
	commitTerms = ftsTable{7, "commit_terms", []string{"message", "paths", "author"}, []float64{2, 1, 1}}
)

// termRows is how many terms one DELETE names.
const termRows = 500

// insert queues in w the terms of row id of namespace ns, whose columns
// hold texts: one row of terms for each distinct term (lexical.Terms of
// each text), with its count in each column, "col:count" pairs joined by
// spaces ("0:2 3:1") and the row's length, the number of its terms (kept
// with each term, so that a search reads one table); and one row of
// term_docs with the length, which the table's statistics sum.
func (t ftsTable) insert(ctx context.Context, w *writer, ns string, id int64, texts []string) error {
	type tf struct {
		term   string
		counts []int
	}
	var order []*tf
	byTerm := map[string]*tf{}
	n := 0
	for c, s := range texts {
		for _, term := range lexical.Terms(s) {
			n++
			e := byTerm[term]
			if e == nil {
				e = &tf{term: term, counts: make([]int, len(texts))}
				byTerm[term] = e
				order = append(order, e)
			}
			e.counts[c]++
		}
	}
	if err := w.add(ctx, "term_docs", "tbl, ns, id, len", t.tbl, ns, id, n); err != nil {
		return err
	}
	var b []byte
	for _, e := range order {
		b = b[:0]
		for c, k := range e.counts {
			if k > 0 {
				if len(b) > 0 {
					b = append(b, ' ')
				}
				b = strconv.AppendInt(b, int64(c), 10)
				b = append(b, ':')
				b = strconv.AppendInt(b, int64(k), 10)
			}
		}
		if err := w.add(ctx, "terms", "tbl, ns, term, id, tf, len", t.tbl, ns, e.term, id, string(b), n); err != nil {
			return err
		}
	}
	return nil
}

// delete removes the terms of row id of namespace ns, whose columns hold
// texts (the terms table is keyed by term, so the row's terms are found
// from its texts rather than by a second index).
func (t ftsTable) delete(ctx context.Context, q conn, ns string, id int64, texts []string) error {
	seen := map[string]bool{}
	var terms []any
	for _, s := range texts {
		for _, term := range lexical.Terms(s) {
			if !seen[term] {
				seen[term] = true
				terms = append(terms, term)
			}
		}
	}
	for len(terms) > 0 {
		batch := terms[:min(termRows, len(terms))]
		terms = terms[len(batch):]
		if _, err := q.ExecContext(ctx, `DELETE FROM terms WHERE tbl = ? AND ns = ? AND id = ? AND term IN (`+params(len(batch))+`)`,
			slices.Concat([]any{t.tbl, ns, id}, batch)...); err != nil {
			return fmt.Errorf("store: %s: %w", t.name, err)
		}
	}
	if _, err := q.ExecContext(ctx, `DELETE FROM term_docs WHERE tbl = ? AND ns = ? AND id = ?`, t.tbl, ns, id); err != nil {
		return fmt.Errorf("store: %s: %w", t.name, err)
	}
	return nil
}

// deleteAll removes the terms of every row of namespace ns.
func (t ftsTable) deleteAll(ctx context.Context, q conn, ns string) error {
	for _, stmt := range []string{`DELETE FROM terms WHERE tbl = ? AND ns = ?`, `DELETE FROM term_docs WHERE tbl = ? AND ns = ?`} {
		if _, err := q.ExecContext(ctx, stmt, t.tbl, ns); err != nil {
			return fmt.Errorf("store: %s: %w", t.name, err)
		}
	}
	return nil
}

// BM25's parameters, FTS5's. They are variables so that each
// expression is computed at run time in FTS5's order, not folded exactly
// by the compiler (k1 + 1 must round as C's 1.2 + 1.0 does).
var (
	bm25K1 = 1.2
	bm25B  = 0.75
)

// rowID names a row: its namespace and its id.
type rowID struct {
	ns string
	id int64
}

func (a rowID) compare(b rowID) int {
	return cmp.Or(cmp.Compare(a.id, b.id), strings.Compare(a.ns, b.ns))
}

// scored is a row's raw score for a query.
type scored struct {
	rowID
	raw float64
}

// score returns the rows of t in the namespaces nss that hold any of
// terms, with their BM25 scores, computed as SQLite's FTS5 bm25() does
// (so that a store of format 1 ranks as it did) but in Go, from the
// stored counts, so that every backend gives the same scores:
//
//	score = Σ over the terms i: idf(i) · f·(k1+1) / (f + k1·(1 − b + b·D/avgdl))
//
// summed in the order of terms, where f is the row's weighted count of
// term i (Σ over the columns of weight · count), D the row's length,
// avgdl the mean length of the table's rows, and idf(i) = ln((N − n +
// 0.5) / (n + 0.5)), or 1e-6 when that is not above 0, over N rows and
// the n that hold the term: all of the table's rows in nss, whatever a
// caller then filters out. k1 is 1.2, b 0.75. Each product is rounded
// by a conversion, so that no platform fuses it.
func (t ftsTable) score(ctx context.Context, q conn, nss []string, terms []string) ([]scored, error) {
	if len(terms) == 0 {
		return nil, nil
	}
	nsArgs := make([]any, len(nss))
	for i, n := range nss {
		nsArgs[i] = n
	}
	var docs, total int64
	if err := q.QueryRowContext(ctx, `SELECT count(*), coalesce(sum(len), 0) FROM term_docs WHERE tbl = ? AND ns IN (`+params(len(nss))+`)`,
		slices.Concat([]any{t.tbl}, nsArgs)...).Scan(&docs, &total); err != nil {
		return nil, fmt.Errorf("store: search %s: %w", t.name, err)
	}
	if docs == 0 {
		return nil, nil
	}
	// The rows found, in the order found: their ids, lengths, and weighted
	// counts of each term (row j's are freq[j*len(terms):][:len(terms)]).
	index := map[rowID]int{}
	var ids []rowID
	var lengths []int64
	var freq []float64
	hits := make([]int64, len(terms)) // rows that hold each term
	for i, term := range terms {
		err := t.postings(ctx, q, term, nss, func(ns string, id, length int64, tf string) error {
			k := slices.Index(nss, ns)
			if k < 0 {
				return fmt.Errorf("store: search %s: a row of namespace %q, not asked for", t.name, ns)
			}
			r := rowID{nss[k], id}
			f, err := t.weigh(tf)
			if err != nil {
				return fmt.Errorf("store: search %s: row %d of namespace %s: %w; the store is damaged", t.name, r.id, r.ns, err)
			}
			j, ok := index[r]
			if !ok {
				j = len(ids)
				index[r] = j
				ids = append(ids, r)
				lengths = append(lengths, length)
				freq = append(freq, make([]float64, len(terms))...)
			}
			freq[j*len(terms)+i] = f
			hits[i]++
			return nil
		})
		if err != nil {
			return nil, err
		}
	}
	idf := make([]float64, len(terms))
	for i, n := range hits {
		idf[i] = math.Log((float64(docs-n) + 0.5) / (float64(n) + 0.5))
		if idf[i] <= 0 {
			idf[i] = 1e-6
		}
	}
	avgdl := float64(total) / float64(docs)
	k1, b := bm25K1, bm25B
	out := make([]scored, len(ids))
	for j, r := range ids {
		norm := float64(k1 * (1 - b + float64(b*float64(lengths[j]))/avgdl))
		s := 0.0
		for i, f := range freq[j*len(terms) : (j+1)*len(terms)] {
			if f != 0 {
				s += float64(idf[i] * (float64(f*(k1+1)) / (f + norm)))
			}
		}
		out[j] = scored{r, s}
	}
	return out, nil
}

// postings calls fn with each row of t in the namespaces nss that holds
// term: its namespace, id, length and counts (the tf column), in no
// order that matters. The rows come back joined into one text by the
// database ("ns|id|len|tf;…": SQLite's group_concat, PostgreSQL's
// string_agg): a driver row each cost more than the scoring. Measured on
// 10,000 memories, 5,000 experiences and 500 values, three searches of a
// query: SQLite's HTTP p50 of sources mode 80 → 56 ms; PostgreSQL's 28–34
// → 17–19 ms in process.
func (t ftsTable) postings(ctx context.Context, q conn, term string, nss []string, fn func(ns string, id, length int64, tf string) error) error {
	args := []any{t.tbl, term}
	for _, n := range nss {
		args = append(args, n)
	}
	var list sql.NullString
	err := q.QueryRowContext(ctx, `SELECT `+q.be.joinText(`ns || '|' || id || '|' || len || '|' || tf`, `;`)+` FROM terms
		WHERE tbl = ? AND term = ? AND ns IN (`+params(len(nss))+`)`, args...).Scan(&list)
	if err != nil {
		return fmt.Errorf("store: search %s: %w", t.name, err)
	}
	for p := range strings.SplitSeq(list.String, ";") {
		if p == "" {
			continue
		}
		ns, rest, ok1 := strings.Cut(p, "|")
		ids, rest, ok2 := strings.Cut(rest, "|")
		lens, tf, ok3 := strings.Cut(rest, "|")
		id, err1 := strconv.ParseInt(ids, 10, 64)
		length, err2 := strconv.ParseInt(lens, 10, 64)
		if !ok1 || !ok2 || !ok3 || err1 != nil || err2 != nil {
			return fmt.Errorf("store: search %s: term %q: posting %.80q; the store is damaged", t.name, term, p)
		}
		if err := fn(ns, id, length, tf); err != nil {
			return err
		}
	}
	return nil
}

// weigh returns the weighted count of a term in a row from its tf
// column ("0:2 3:1"): Σ weight of column · count.
func (t ftsTable) weigh(tf string) (float64, error) {
	f := 0.0
	for pair := range strings.FieldsSeq(tf) {
		cs, ks, ok := strings.Cut(pair, ":")
		c, err1 := strconv.Atoi(cs)
		k, err2 := strconv.Atoi(ks)
		if !ok || err1 != nil || err2 != nil || c < 0 || c >= len(t.weights) || k <= 0 {
			return 0, fmt.Errorf("term counts %q", tf)
		}
		f += t.weights[c] * float64(k)
	}
	return f, nil
}

// ranked is a row with its quantized score.
type ranked[T any] struct {
	row   T
	score float64
}

// search returns up to k rows of t in the namespaces nss that hold any of
// terms, best first: quantized score (rank.Round) descending, then by
// tie. keep, if not nil, returns which of the scored rows may be
// returned (a filter). load reads the rows of ids (every one of them: a
// row of t without its row is an error).
func search[T any](ctx context.Context, q conn, t ftsTable, nss []string, terms []string, k int,
	keep func([]scored) ([]scored, error), load func(ids []rowID) (map[rowID]T, error), tie func(a, b T) int) ([]ranked[T], error) {
	if k <= 0 || len(terms) == 0 {
		return nil, nil
	}
	cands, err := t.score(ctx, q, nss, terms)
	if err != nil || len(cands) == 0 {
		return nil, err
	}
	if keep != nil {
		if cands, err = keep(cands); err != nil || len(cands) == 0 {
			return nil, err
		}
	}
	for i := range cands {
		cands[i].raw = rank.Round(cands[i].raw)
	}
	slices.SortFunc(cands, func(a, b scored) int { return cmp.Or(cmp.Compare(b.raw, a.raw), a.compare(b.rowID)) })
	if len(cands) > k {
		// The k best are among those that score at least the kth: the
		// ties at the edge are ordered by their rows.
		edge := cands[k-1].raw
		n := k
		for n < len(cands) && cands[n].raw == edge {
			n++
		}
		cands = cands[:n]
	}
	ids := make([]rowID, len(cands))
	for i, c := range cands {
		ids[i] = c.rowID
	}
	byID, err := load(ids)
	if err != nil {
		return nil, err
	}
	out := make([]ranked[T], 0, len(cands))
	for _, c := range cands {
		row, ok := byID[c.rowID]
		if !ok {
			return nil, fmt.Errorf("store: search %s: row %d of namespace %s has terms but no row; the store is damaged", t.name, c.id, c.ns)
		}
		out = append(out, ranked[T]{row: row, score: c.raw})
	}
	slices.SortStableFunc(out, func(a, b ranked[T]) int { return cmp.Or(cmp.Compare(b.score, a.score), tie(a.row, b.row)) })
	return out[:min(k, len(out))], nil
}

// matched returns the terms (in their order) that are among the terms of
// texts: the query terms a row holds.
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

// loadRows reads the rows of ids with selectFrom ("SELECT cols FROM
// table", whose first column is ns), namespace by namespace.
func loadRows[T any](ctx context.Context, q conn, ids []rowID, selectFrom string, scan func(interface{ Scan(...any) error }) (T, error), key func(T) rowID) (map[rowID]T, error) {
	out := make(map[rowID]T, len(ids))
	byNS := map[string][]int64{}
	for _, r := range ids {
		byNS[r.ns] = append(byNS[r.ns], r.id)
	}
	for _, ns := range slices.Sorted(maps.Keys(byNS)) {
		rows, err := queryRows(ctx, q, scan, selectFrom+` WHERE ns = ? AND id IN (`+idList(byNS[ns])+`)`, ns)
		if err != nil {
			return nil, fmt.Errorf("store: search: %w", err)
		}
		for _, r := range rows {
			out[key(r)] = r
		}
	}
	return out, nil
}

// indexTerms computes the terms of every row of namespace ns again, from
// the rows (a migration's step: the terms of format 1 were in FTS5
// tables, which hold no text to read back). The namespace must hold no
// terms yet.
func (s *Store) indexTerms(ctx context.Context, tx conn, ns string) error {
	w := newWriter(tx)
	mems, err := queryRows(ctx, tx, scanMemory, `SELECT `+memoryCols+` FROM memories WHERE ns = ? ORDER BY id`, ns)
	if err != nil {
		return fmt.Errorf("store: reading memories: %w", err)
	}
	for _, m := range mems {
		if err := memoryTerms.insert(ctx, w, ns, m.ID, memoryTexts(m)); err != nil {
			return err
		}
	}
	exps, err := queryRows(ctx, tx, scanExperience, `SELECT `+experienceCols+` FROM experiences WHERE ns = ? ORDER BY id`, ns)
	if err != nil {
		return fmt.Errorf("store: reading experiences: %w", err)
	}
	for i := range exps {
		if err := insertExperienceTerms(ctx, w, ns, &exps[i]); err != nil {
			return err
		}
	}
	vals, err := queryRows(ctx, tx, scanValue, `SELECT `+valueCols+` FROM learned_values WHERE ns = ? ORDER BY id`, ns)
	if err != nil {
		return fmt.Errorf("store: reading values: %w", err)
	}
	for _, v := range vals {
		if err := valueTerms.insert(ctx, w, ns, v.ID, valueTexts(v)); err != nil {
			return err
		}
	}
	commits, err := queryRows(ctx, tx, scanCommit, `SELECT `+commitCols+` FROM commits WHERE ns = ? ORDER BY id`, ns)
	if err != nil {
		return fmt.Errorf("store: reading commits: %w", err)
	}
	for i := range commits {
		if err := commitTerms.insert(ctx, w, ns, commits[i].id, commitTexts(&commits[i].Commit)); err != nil {
			return err
		}
	}
	return w.flush(ctx)
}
