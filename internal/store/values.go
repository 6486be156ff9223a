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

const valueCols = `ns, id, text, axis, cluster, cluster_size, similarity, experience, tags, created`

func scanValue(r interface{ Scan(...any) error }) (Value, error) {
	var v Value
	var tags string
	err := r.Scan(&v.Namespace, &v.ID, &v.Text, &v.Axis, &v.Cluster, &v.ClusterSize, &v.Similarity, &v.Experience, &tags, &v.Created)
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
	v.Namespace = ""
	err := s.write(ctx, func(tx conn) (err error) {
		if v.Experience != 0 {
			var n int
			if err := tx.QueryRowContext(ctx, `SELECT count(*) FROM experiences WHERE ns = ? AND id = ?`, s.ns, v.Experience).Scan(&n); err != nil {
				return fmt.Errorf("store: add value: %w", err)
			}
			if n == 0 {
				return fmt.Errorf("store: add value: experience %d: %w", v.Experience, ErrNotFound)
			}
		}
		if v.ID, err = s.nextID(ctx, tx, "value"); err != nil {
			return err
		}
		w := newWriter(tx)
		if err := s.insertValue(ctx, w, v); err != nil {
			return err
		}
		return w.flush(ctx)
	})
	if err != nil {
		return Value{}, err
	}
	return v, nil
}

// insertValue queues in w v, valid, with its defaults and its id, in the
// store's namespace.
func (s *Store) insertValue(ctx context.Context, w *writer, v Value) error {
	if err := w.add(ctx, "learned_values", "ns, id, text, axis, cluster, cluster_size, similarity, experience, tags, created, cid",
		s.ns, v.ID, v.Text, string(v.Axis), v.Cluster, v.ClusterSize, v.Similarity, v.Experience, strings.Join(v.Tags, " "), v.Created, valueCID(v)); err != nil {
		return err
	}
	return valueTerms.insert(ctx, w, s.ns, v.ID, valueTexts(v))
}

// valueTexts are the texts of value_terms' columns.
func valueTexts(v Value) []string {
	return []string{v.Text, string(v.Axis), strings.Join(v.Tags, " ")}
}

// Value returns the value of the store's namespace with the given id, or
// ErrNotFound (wrapped).
func (s *Store) Value(ctx context.Context, id int64) (Value, error) {
	v := Value{ID: -1}
	err := s.read(ctx, func(tx conn) (err error) {
		v, err = scanValue(tx.QueryRowContext(ctx, `SELECT `+valueCols+` FROM learned_values WHERE ns = ? AND id = ?`, s.ns, id))
		return err
	})
	if errors.Is(err, sql.ErrNoRows) || err == nil && v.ID == -1 {
		return Value{}, fmt.Errorf("store: value %d: %w", id, ErrNotFound)
	}
	if err != nil {
		return Value{}, fmt.Errorf("store: value %d: %w", id, err)
	}
	v.Namespace = ""
	return v, nil
}

// Values returns the values of an axis ("" for all) that the store
// reads, by ID ascending, then namespace.
func (s *Store) Values(ctx context.Context, axis Axis) ([]Value, error) {
	in, args := s.nsIn("")
	q := `SELECT ` + valueCols + ` FROM learned_values WHERE ` + in
	if axis != "" {
		q, args = q+` AND axis = ?`, append(args, string(axis))
	}
	var out []Value
	err := s.read(ctx, func(tx conn) (err error) {
		out, err = queryRows(ctx, tx, scanValue, q+` ORDER BY id, ns`, args...)
		return err
	})
	if err != nil {
		return nil, fmt.Errorf("store: values: %w", err)
	}
	for i := range out {
		out[i].Namespace = s.foreign(out[i].Namespace)
	}
	return out, nil
}

// RemoveValue deletes the value with the given id and returns it as it
// was, or returns ErrNotFound (wrapped).
func (s *Store) RemoveValue(ctx context.Context, id int64) (Value, error) {
	var v Value
	err := s.write(ctx, func(tx conn) error {
		var err error
		v, err = scanValue(tx.QueryRowContext(ctx, `DELETE FROM learned_values WHERE ns = ? AND id = ? RETURNING `+valueCols, s.ns, id))
		if errors.Is(err, sql.ErrNoRows) {
			return fmt.Errorf("store: value %d: %w", id, ErrNotFound)
		}
		if err != nil {
			return fmt.Errorf("store: remove value %d: %w", id, err)
		}
		return valueTerms.delete(ctx, tx, s.ns, id, valueTexts(v))
	})
	if err != nil {
		return Value{}, err
	}
	v.Namespace = ""
	return v, nil
}

// ValueHit is a value that matched a search.
type ValueHit struct {
	Value
	Match
}

// SearchValues returns the k values that best match query: those that
// hold any of its terms (lexical.QueryTerms) in their text, axis or tags,
// ranked by BM25 over them (weights in terms.go), then by ID ascending
// (then namespace), among the values the store reads. A query without
// terms, or k <= 0, gives none.
func (s *Store) SearchValues(ctx context.Context, query string, k int) ([]ValueHit, error) {
	terms := lexical.QueryTerms(query)
	var out []ValueHit
	err := s.read(ctx, func(tx conn) error {
		out = out[:0]
		load := func(ids []rowID) (map[rowID]Value, error) {
			return loadRows(ctx, tx, ids, `SELECT `+valueCols+` FROM learned_values`, scanValue, func(v Value) rowID { return rowID{v.Namespace, v.ID} })
		}
		hits, err := search(ctx, tx, valueTerms, s.nss, terms, k, nil, load, func(a, b Value) int {
			return cmp.Or(cmp.Compare(a.ID, b.ID), strings.Compare(a.Namespace, b.Namespace))
		})
		for _, h := range hits {
			h.row.Namespace = s.foreign(h.row.Namespace)
			out = append(out, ValueHit{h.row, Match{h.score, matched(terms, valueTexts(h.row)...)}})
		}
		return err
	})
	if err != nil {
		return nil, err
	}
	return out, nil
}
