package store

import (
	"cmp"
	"context"
	"database/sql"
	"errors"
	"fmt"

	"github.com/ctxpack/ctxpack/internal/lexical"
)

const memoryCols = `id, content, category, importance, created`

func scanMemory(r interface{ Scan(...any) error }) (Memory, error) {
	var m Memory
	err := r.Scan(&m.ID, &m.Content, &m.Category, &m.Importance, &m.Created)
	return m, err
}

// AddMemory stores m and returns it as stored: with its ID, and its
// defaults filled in (see Memory). It fails with a *ValidationError when
// m.Validate does.
func (s *Store) AddMemory(ctx context.Context, m Memory) (Memory, error) {
	if err := m.Validate(); err != nil {
		return Memory{}, err
	}
	m = m.withDefaults(s.now())
	err := s.write(ctx, func(tx *sql.Tx) (err error) {
		m.ID, err = insertMemory(ctx, tx, m)
		return err
	})
	if err != nil {
		return Memory{}, err
	}
	return m, nil
}

// insertMemory adds m, valid and with its defaults, and returns its id.
func insertMemory(ctx context.Context, tx *sql.Tx, m Memory) (int64, error) {
	res, err := tx.ExecContext(ctx, `INSERT INTO memories (content, category, importance, created, cid) VALUES (?, ?, ?, ?, ?)`,
		m.Content, m.Category, m.Importance, m.Created, memoryCID(m))
	if err != nil {
		return 0, fmt.Errorf("store: add memory: %w", err)
	}
	id, err := res.LastInsertId()
	if err != nil {
		return 0, fmt.Errorf("store: add memory: %w", err)
	}
	return id, memoryTerms.insert(ctx, tx, id, memoryTexts(m))
}

// memoryTexts are the texts of memory_terms' columns.
func memoryTexts(m Memory) []string { return []string{m.Content, m.Category} }

// Memory returns the memory with the given id, or ErrNotFound (wrapped).
func (s *Store) Memory(ctx context.Context, id int64) (Memory, error) {
	if s.db == nil {
		return Memory{}, fmt.Errorf("store: memory %d: %w", id, ErrNotFound)
	}
	m, err := scanMemory(s.db.QueryRowContext(ctx, `SELECT `+memoryCols+` FROM memories WHERE id = ?`, id))
	if errors.Is(err, sql.ErrNoRows) {
		return Memory{}, fmt.Errorf("store: memory %d: %w", id, ErrNotFound)
	}
	if err != nil {
		return Memory{}, fmt.Errorf("store: memory %d: %w", id, err)
	}
	return m, nil
}

// Memories returns the memories of a category ("" for all), by ID
// ascending.
func (s *Store) Memories(ctx context.Context, category string) ([]Memory, error) {
	if s.db == nil {
		return nil, nil
	}
	q, args := `SELECT `+memoryCols+` FROM memories ORDER BY id`, []any(nil)
	if category != "" {
		q, args = `SELECT `+memoryCols+` FROM memories WHERE category = ? ORDER BY id`, []any{category}
	}
	out, err := queryRows(ctx, s.db, scanMemory, q, args...)
	if err != nil {
		return nil, fmt.Errorf("store: memories: %w", err)
	}
	return out, nil
}

// RemoveMemory deletes the memory with the given id and returns it as it
// was, or returns ErrNotFound (wrapped).
func (s *Store) RemoveMemory(ctx context.Context, id int64) (Memory, error) {
	var m Memory
	err := s.write(ctx, func(tx *sql.Tx) error {
		var err error
		m, err = scanMemory(tx.QueryRowContext(ctx, `DELETE FROM memories WHERE id = ? RETURNING `+memoryCols, id))
		if errors.Is(err, sql.ErrNoRows) {
			return fmt.Errorf("store: memory %d: %w", id, ErrNotFound)
		}
		if err != nil {
			return fmt.Errorf("store: remove memory %d: %w", id, err)
		}
		return memoryTerms.delete(ctx, tx, id)
	})
	if err != nil {
		return Memory{}, err
	}
	return m, nil
}

// MemoryHit is a memory that matched a search.
type MemoryHit struct {
	Memory
	Match
}

// Match says how well a row matched a query, and with what.
type Match struct {
	// Score is minus FTS5's bm25() (higher is better) with the table's
	// column weights (fts.go, axes.go), quantized to 1e-6; 0 for a row
	// that matched no term but only a filter (SearchExperiences).
	Score float64
	// Matched are the query terms (lexical.QueryTerms) found in the row, in
	// the query's order.
	Matched []string
}

// SearchMemories returns the k memories that best match query: those that
// hold any of its terms (lexical.QueryTerms), ranked by BM25 over their
// content and category, then by ID ascending. A query without terms, or k
// <= 0, gives none.
func (s *Store) SearchMemories(ctx context.Context, query string, k int) ([]MemoryHit, error) {
	terms := lexical.QueryTerms(query)
	var out []MemoryHit
	err := s.read(ctx, func(tx *sql.Tx) error {
		load := func(ids []int64) (map[int64]Memory, error) {
			return loadByID(ctx, tx, ids, `SELECT `+memoryCols+` FROM memories`, scanMemory, func(m Memory) int64 { return m.ID })
		}
		hits, err := search(ctx, tx, memoryTerms, terms, "", nil, k, load, func(a, b Memory) int { return cmp.Compare(a.ID, b.ID) })
		for _, h := range hits {
			out = append(out, MemoryHit{h.row, Match{h.score, matched(terms, memoryTexts(h.row)...)}})
		}
		return err
	})
	if err != nil {
		return nil, err
	}
	return out, nil
}

// queryRows runs q and scans every row with scan.
func queryRows[T any](ctx context.Context, q querier, scan func(interface{ Scan(...any) error }) (T, error), query string, args ...any) ([]T, error) {
	rows, err := q.QueryContext(ctx, query, args...)
	if err != nil {
		return nil, err
	}
	defer rows.Close()
	var out []T
	for rows.Next() {
		v, err := scan(rows)
		if err != nil {
			return nil, err
		}
		out = append(out, v)
	}
	return out, rows.Err()
}

// loadByID reads the rows of ids with selectFrom ("SELECT cols FROM
// table"), by id.
func loadByID[T any](ctx context.Context, q querier, ids []int64, selectFrom string, scan func(interface{ Scan(...any) error }) (T, error), id func(T) int64) (map[int64]T, error) {
	out := make(map[int64]T, len(ids))
	if len(ids) == 0 {
		return out, nil
	}
	rows, err := queryRows(ctx, q, scan, selectFrom+` WHERE id IN (`+idList(ids)+`)`)
	if err != nil {
		return nil, fmt.Errorf("store: search: %w", err)
	}
	for _, r := range rows {
		out[id(r)] = r
	}
	return out, nil
}
