package store

import (
	"cmp"
	"context"
	"database/sql"
	"errors"
	"fmt"
	"strings"

	"github.com/ctxpack/ctxpack/internal/lexical"
)

const memoryCols = `ns, id, content, category, importance, created`

func scanMemory(r interface{ Scan(...any) error }) (Memory, error) {
	var m Memory
	err := r.Scan(&m.Namespace, &m.ID, &m.Content, &m.Category, &m.Importance, &m.Created)
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
	m.Namespace = ""
	err := s.write(ctx, func(tx conn) (err error) {
		if m.ID, err = s.nextID(ctx, tx, "memory"); err != nil {
			return err
		}
		w := newWriter(tx)
		if err := s.insertMemory(ctx, w, m); err != nil {
			return err
		}
		return w.flush(ctx)
	})
	if err != nil {
		return Memory{}, err
	}
	return m, nil
}

// insertMemory queues in w m, valid, with its defaults and its id, in the
// store's namespace.
func (s *Store) insertMemory(ctx context.Context, w *writer, m Memory) error {
	if err := w.add(ctx, "memories", "ns, id, content, category, importance, created, cid",
		s.ns, m.ID, m.Content, m.Category, m.Importance, m.Created, memoryCID(m)); err != nil {
		return err
	}
	return memoryTerms.insert(ctx, w, s.ns, m.ID, memoryTexts(m))
}

// memoryTexts are the texts of memory_terms' columns.
func memoryTexts(m Memory) []string { return []string{m.Content, m.Category} }

// Memory returns the memory of the store's namespace with the given id,
// or ErrNotFound (wrapped).
func (s *Store) Memory(ctx context.Context, id int64) (Memory, error) {
	m := Memory{ID: -1}
	err := s.read(ctx, func(tx conn) (err error) {
		m, err = scanMemory(tx.QueryRowContext(ctx, `SELECT `+memoryCols+` FROM memories WHERE ns = ? AND id = ?`, s.ns, id))
		return err
	})
	if errors.Is(err, sql.ErrNoRows) || err == nil && m.ID == -1 {
		return Memory{}, fmt.Errorf("store: memory %d: %w", id, ErrNotFound)
	}
	if err != nil {
		return Memory{}, fmt.Errorf("store: memory %d: %w", id, err)
	}
	m.Namespace = ""
	return m, nil
}

// Memories returns the memories of a category ("" for all) that the
// store reads, by ID ascending, then namespace.
func (s *Store) Memories(ctx context.Context, category string) ([]Memory, error) {
	in, args := s.nsIn("")
	q := `SELECT ` + memoryCols + ` FROM memories WHERE ` + in
	if category != "" {
		q, args = q+` AND category = ?`, append(args, category)
	}
	var out []Memory
	err := s.read(ctx, func(tx conn) (err error) {
		out, err = queryRows(ctx, tx, scanMemory, q+` ORDER BY id, ns`, args...)
		return err
	})
	if err != nil {
		return nil, fmt.Errorf("store: memories: %w", err)
	}
	for i := range out {
		out[i].Namespace = s.foreign(out[i].Namespace)
	}
	return out, nil
}

// RemoveMemory deletes the memory with the given id and returns it as it
// was, or returns ErrNotFound (wrapped).
func (s *Store) RemoveMemory(ctx context.Context, id int64) (Memory, error) {
	var m Memory
	err := s.write(ctx, func(tx conn) error {
		var err error
		m, err = scanMemory(tx.QueryRowContext(ctx, `DELETE FROM memories WHERE ns = ? AND id = ? RETURNING `+memoryCols, s.ns, id))
		if errors.Is(err, sql.ErrNoRows) {
			return fmt.Errorf("store: memory %d: %w", id, ErrNotFound)
		}
		if err != nil {
			return fmt.Errorf("store: remove memory %d: %w", id, err)
		}
		return memoryTerms.delete(ctx, tx, s.ns, id, memoryTexts(m))
	})
	if err != nil {
		return Memory{}, err
	}
	m.Namespace = ""
	return m, nil
}

// MemoryHit is a memory that matched a search.
type MemoryHit struct {
	Memory
	Match
}

// Match says how well a row matched a query, and with what.
type Match struct {
	// Score is BM25 as FTS5's bm25() computes it (higher is better) with
	// the table's column weights (terms.go, axes.go), quantized to 1e-6;
	// 0 for a row that matched no term but only a filter
	// (SearchExperiences).
	Score float64
	// Matched are the query terms (lexical.QueryTerms) found in the row, in
	// the query's order.
	Matched []string
}

// SearchMemories returns the k memories that best match query: those that
// hold any of its terms (lexical.QueryTerms), ranked by BM25 over their
// content and category, then by ID ascending (then namespace), among the
// memories the store reads. A query without terms, or k <= 0, gives none.
func (s *Store) SearchMemories(ctx context.Context, query string, k int) ([]MemoryHit, error) {
	terms := lexical.QueryTerms(query)
	var out []MemoryHit
	err := s.read(ctx, func(tx conn) error {
		out = out[:0]
		load := func(ids []rowID) (map[rowID]Memory, error) {
			return loadRows(ctx, tx, ids, `SELECT `+memoryCols+` FROM memories`, scanMemory, func(m Memory) rowID { return rowID{m.Namespace, m.ID} })
		}
		hits, err := search(ctx, tx, memoryTerms, s.nss, terms, k, nil, load, func(a, b Memory) int {
			return cmp.Or(cmp.Compare(a.ID, b.ID), strings.Compare(a.Namespace, b.Namespace))
		})
		for _, h := range hits {
			h.row.Namespace = s.foreign(h.row.Namespace)
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
func queryRows[T any](ctx context.Context, q conn, scan func(interface{ Scan(...any) error }) (T, error), query string, args ...any) ([]T, error) {
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
