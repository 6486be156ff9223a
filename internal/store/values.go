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

const valueCols = `id, text, axis, cluster, cluster_size, similarity, experience, tags, created`

func scanValue(r interface{ Scan(...any) error }) (Value, error) {
	var v Value
	var tags string
	err := r.Scan(&v.ID, &v.Text, &v.Axis, &v.Cluster, &v.ClusterSize, &v.Similarity, &v.Experience, &tags, &v.Created)
	if tags != "" {
		v.Tags = strings.Split(tags, " ")
	}
	return v, err
}

// AddValue stores v and returns it as stored: with its ID, its tags
// sorted without repeats, and Created filled in. It fails with a
// *ValidationError when v.Validate does, and with ErrNotFound (wrapped)
// when v.Experience names an experience the store does not hold.
func (s *Store) AddValue(ctx context.Context, v Value) (Value, error) {
	if err := v.Validate(); err != nil {
		return Value{}, err
	}
	v = v.withDefaults(s.now())
	err := s.write(ctx, func(tx *sql.Tx) (err error) {
		if v.Experience != 0 {
			var n int
			if err := tx.QueryRowContext(ctx, `SELECT count(*) FROM experiences WHERE id = ?`, v.Experience).Scan(&n); err != nil {
				return fmt.Errorf("store: add value: %w", err)
			}
			if n == 0 {
				return fmt.Errorf("store: add value: experience %d: %w", v.Experience, ErrNotFound)
			}
		}
		v.ID, err = insertValue(ctx, tx, v)
		return err
	})
	if err != nil {
		return Value{}, err
	}
	return v, nil
}

// insertValue adds v, valid and with its defaults, and returns its id.
func insertValue(ctx context.Context, tx *sql.Tx, v Value) (int64, error) {
	res, err := tx.ExecContext(ctx, `INSERT INTO learned_values (text, axis, cluster, cluster_size, similarity, experience, tags, created, cid) VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?)`,
		v.Text, string(v.Axis), v.Cluster, v.ClusterSize, v.Similarity, v.Experience, strings.Join(v.Tags, " "), v.Created, valueCID(v))
	if err != nil {
		return 0, fmt.Errorf("store: add value: %w", err)
	}
	id, err := res.LastInsertId()
	if err != nil {
		return 0, fmt.Errorf("store: add value: %w", err)
	}
	return id, valueTerms.insert(ctx, tx, id, valueTexts(v))
}

// valueTexts are the texts of value_terms' columns.
func valueTexts(v Value) []string {
	return []string{v.Text, string(v.Axis), strings.Join(v.Tags, " ")}
}

// Value returns the value with the given id, or ErrNotFound (wrapped).
func (s *Store) Value(ctx context.Context, id int64) (Value, error) {
	if s.db == nil {
		return Value{}, fmt.Errorf("store: value %d: %w", id, ErrNotFound)
	}
	v, err := scanValue(s.db.QueryRowContext(ctx, `SELECT `+valueCols+` FROM learned_values WHERE id = ?`, id))
	if errors.Is(err, sql.ErrNoRows) {
		return Value{}, fmt.Errorf("store: value %d: %w", id, ErrNotFound)
	}
	if err != nil {
		return Value{}, fmt.Errorf("store: value %d: %w", id, err)
	}
	return v, nil
}

// Values returns the values of an axis ("" for all), by ID ascending.
func (s *Store) Values(ctx context.Context, axis Axis) ([]Value, error) {
	if s.db == nil {
		return nil, nil
	}
	q, args := `SELECT `+valueCols+` FROM learned_values ORDER BY id`, []any(nil)
	if axis != "" {
		q, args = `SELECT `+valueCols+` FROM learned_values WHERE axis = ? ORDER BY id`, []any{string(axis)}
	}
	out, err := queryRows(ctx, s.db, scanValue, q, args...)
	if err != nil {
		return nil, fmt.Errorf("store: values: %w", err)
	}
	return out, nil
}

// RemoveValue deletes the value with the given id and returns it as it
// was, or returns ErrNotFound (wrapped).
func (s *Store) RemoveValue(ctx context.Context, id int64) (Value, error) {
	var v Value
	err := s.write(ctx, func(tx *sql.Tx) error {
		var err error
		v, err = scanValue(tx.QueryRowContext(ctx, `DELETE FROM learned_values WHERE id = ? RETURNING `+valueCols, id))
		if errors.Is(err, sql.ErrNoRows) {
			return fmt.Errorf("store: value %d: %w", id, ErrNotFound)
		}
		if err != nil {
			return fmt.Errorf("store: remove value %d: %w", id, err)
		}
		return valueTerms.delete(ctx, tx, id)
	})
	if err != nil {
		return Value{}, err
	}
	return v, nil
}

// ValueHit is a value that matched a search.
type ValueHit struct {
	Value
	Match
}

// SearchValues returns the k values that best match query: those that
// hold any of its terms (lexical.QueryTerms) in their text, axis or tags,
// ranked by BM25 over them (weights in fts.go), then by ID ascending. A
// query without terms, or k <= 0, gives none.
func (s *Store) SearchValues(ctx context.Context, query string, k int) ([]ValueHit, error) {
	terms := lexical.QueryTerms(query)
	var out []ValueHit
	err := s.read(ctx, func(tx *sql.Tx) error {
		load := func(ids []int64) (map[int64]Value, error) {
			return loadByID(ctx, tx, ids, `SELECT `+valueCols+` FROM learned_values`, scanValue, func(v Value) int64 { return v.ID })
		}
		hits, err := search(ctx, tx, valueTerms, terms, "", nil, k, load, func(a, b Value) int { return cmp.Compare(a.ID, b.ID) })
		for _, h := range hits {
			out = append(out, ValueHit{h.row, Match{h.score, matched(terms, valueTexts(h.row)...)}})
		}
		return err
	})
	if err != nil {
		return nil, err
	}
	return out, nil
}
