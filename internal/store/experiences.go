package store

import (
	"cmp"
	"context"
	"database/sql"
	"errors"
	"fmt"
	"slices"
	"strings"

	"github.com/ctxpack/ctxpack/internal/lexical"
)

const experienceCols = `id, domain, strategy, goal, hypothesis, action, prediction, outcome, result, surprise, root_cause, lesson, confidence, iterations, created`

func scanExperience(r interface{ Scan(...any) error }) (Experience, error) {
	var e Experience
	err := r.Scan(&e.ID, &e.Domain, &e.Strategy, &e.Goal, &e.Hypothesis, &e.Action, &e.Prediction, &e.Outcome, &e.Result,
		&e.Surprise, &e.RootCause, &e.Lesson, &e.Confidence, &e.Iterations, &e.Created)
	return e, err
}

// AddExperience stores e and returns it as stored: with its ID, and its
// defaults filled in (see Experience). It is put on every axis it belongs
// to (see Axis). It fails with a *ValidationError when e.Validate does.
func (s *Store) AddExperience(ctx context.Context, e Experience) (Experience, error) {
	if err := e.Validate(); err != nil {
		return Experience{}, err
	}
	e = e.withDefaults(s.now())
	err := s.write(ctx, func(tx *sql.Tx) (err error) {
		e.ID, err = insertExperience(ctx, tx, e)
		return err
	})
	if err != nil {
		return Experience{}, err
	}
	return e, nil
}

// insertExperience adds e, valid and with its defaults, to the
// experiences and the axes it belongs to, and returns its id.
func insertExperience(ctx context.Context, tx *sql.Tx, e Experience) (int64, error) {
	res, err := tx.ExecContext(ctx, `INSERT INTO experiences (domain, strategy, goal, hypothesis, action, prediction, outcome, result, surprise, root_cause, lesson, confidence, iterations, created, cid)
		VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)`,
		e.Domain, e.Strategy, e.Goal, e.Hypothesis, e.Action, e.Prediction, string(e.Outcome), e.Result,
		e.Surprise, e.RootCause, e.Lesson, string(e.Confidence), e.Iterations, e.Created, experienceCID(e))
	if err != nil {
		return 0, fmt.Errorf("store: add experience: %w", err)
	}
	id, err := res.LastInsertId()
	if err != nil {
		return 0, fmt.Errorf("store: add experience: %w", err)
	}
	for i := range axisDefs {
		if d := &axisDefs[i]; d.on(&e) {
			if err := d.table.insert(ctx, tx, id, d.texts(&e)); err != nil {
				return 0, err
			}
		}
	}
	return id, nil
}

// Experience returns the experience with the given id, or ErrNotFound
// (wrapped).
func (s *Store) Experience(ctx context.Context, id int64) (Experience, error) {
	if s.db == nil {
		return Experience{}, fmt.Errorf("store: experience %d: %w", id, ErrNotFound)
	}
	return getExperience(ctx, s.db, id)
}

func getExperience(ctx context.Context, q querier, id int64) (Experience, error) {
	e, err := scanExperience(q.QueryRowContext(ctx, `SELECT `+experienceCols+` FROM experiences WHERE id = ?`, id))
	if errors.Is(err, sql.ErrNoRows) {
		return Experience{}, fmt.Errorf("store: experience %d: %w", id, ErrNotFound)
	}
	if err != nil {
		return Experience{}, fmt.Errorf("store: experience %d: %w", id, err)
	}
	return e, nil
}

// ExperienceFilter chooses experiences by exact domain, strategy and
// outcome; an empty field allows any.
type ExperienceFilter struct {
	Domain, Strategy string
	Outcome          Outcome
}

// sql returns the filter as SQL conditions over the experiences table
// joined by AND ("" for none), with their arguments.
func (f ExperienceFilter) sql() (string, []any) {
	var conds []string
	var args []any
	for _, c := range []struct{ col, v string }{{"domain", f.Domain}, {"strategy", f.Strategy}, {"outcome", string(f.Outcome)}} {
		if c.v != "" {
			conds = append(conds, c.col+` = ?`)
			args = append(args, c.v)
		}
	}
	return strings.Join(conds, " AND "), args
}

// Experiences returns the experiences f lets through, by ID ascending.
func (s *Store) Experiences(ctx context.Context, f ExperienceFilter) ([]Experience, error) {
	if s.db == nil {
		return nil, nil
	}
	where, args := f.sql()
	if where == "" {
		where = "1"
	}
	out, err := queryRows(ctx, s.db, scanExperience, `SELECT `+experienceCols+` FROM experiences WHERE `+where+` ORDER BY id`, args...)
	if err != nil {
		return nil, fmt.Errorf("store: experiences: %w", err)
	}
	return out, nil
}

// RemoveExperience deletes the experience with the given id from the
// store and every axis and returns it as it was, or returns ErrNotFound
// (wrapped). Values that name it as their Experience keep naming it: they
// are authored rows, which only RemoveValue changes.
func (s *Store) RemoveExperience(ctx context.Context, id int64) (Experience, error) {
	var e Experience
	err := s.write(ctx, func(tx *sql.Tx) error {
		var err error
		e, err = scanExperience(tx.QueryRowContext(ctx, `DELETE FROM experiences WHERE id = ? RETURNING `+experienceCols, id))
		if errors.Is(err, sql.ErrNoRows) {
			return fmt.Errorf("store: experience %d: %w", id, ErrNotFound)
		}
		if err != nil {
			return fmt.Errorf("store: remove experience %d: %w", id, err)
		}
		for i := range axisDefs {
			if d := &axisDefs[i]; d.on(&e) {
				if err := d.table.delete(ctx, tx, id); err != nil {
					return err
				}
			}
		}
		return nil
	})
	if err != nil {
		return Experience{}, err
	}
	return e, nil
}

// ExperienceHit is an experience that matched a search.
type ExperienceHit struct {
	Experience
	Match
}

// ExperienceQuery says where and what SearchExperiences looks for.
type ExperienceQuery struct {
	Axis     Axis    // "" means AxisFull
	Domain   string  // exact; "" for any
	Strategy string  // exact; "" for any
	Outcome  Outcome // exact; "" for any
	K        int     // how many at most; <= 0 gives none
}

// SearchExperiences returns the q.K experiences on axis q.Axis that best
// match query, among those the filter (q.Domain, q.Strategy, q.Outcome)
// lets through: those that hold any of its terms (lexical.QueryTerms) in
// the axis's fields, ranked by BM25 over them (see Axis and axes.go for
// the fields and weights), then by ID ascending.
//
// When a filter is set, the experiences on the axis that pass it but hold
// none of the terms follow the matching ones (while fewer than q.K were
// found), with Score 0 and no Matched terms, newest first (Created
// descending, then ID ascending): asking for the falsified experiences of
// a domain gives all of them, the best matches first. Without a filter
// only matching rows are returned: none for a query without terms.
func (s *Store) SearchExperiences(ctx context.Context, query string, q ExperienceQuery) ([]ExperienceHit, error) {
	axis := cmp.Or(q.Axis, AxisFull)
	if _, err := ParseAxis(string(axis)); err != nil {
		return nil, err
	}
	if q.Outcome != "" {
		if _, err := ParseOutcome(string(q.Outcome)); err != nil {
			return nil, err
		}
	}
	if q.K <= 0 {
		return nil, nil
	}
	d := defOf(axis)
	terms := lexical.QueryTerms(query)
	filter, args := ExperienceFilter{q.Domain, q.Strategy, q.Outcome}.sql()
	var out []ExperienceHit
	err := s.read(ctx, func(tx *sql.Tx) error {
		where := ""
		if filter != "" {
			// "+rowid", not "rowid": FTS5 would otherwise look every
			// filtered id up in its index (100 times slower on 5,000
			// experiences) instead of filtering its matches.
			where = `+rowid IN (SELECT id FROM experiences WHERE ` + filter + `)`
		}
		load := func(ids []int64) (map[int64]Experience, error) {
			return loadByID(ctx, tx, ids, `SELECT `+experienceCols+` FROM experiences`, scanExperience, func(e Experience) int64 { return e.ID })
		}
		hits, err := search(ctx, tx, d.table, terms, where, args, q.K, load, func(a, b Experience) int { return cmp.Compare(a.ID, b.ID) })
		if err != nil {
			return err
		}
		for _, h := range hits {
			out = append(out, ExperienceHit{h.row, Match{h.score, matched(terms, d.texts(&h.row)...)}})
		}
		if filter == "" || len(out) >= q.K {
			return nil
		}
		// The rows on the axis that pass the filter and match no term.
		rest := `SELECT ` + experienceCols + ` FROM experiences WHERE ` + filter + ` AND ` + d.where
		restArgs := slices.Clone(args)
		if len(terms) > 0 {
			rest += ` AND id NOT IN (SELECT rowid FROM ` + d.table.name + ` WHERE ` + d.table.name + ` MATCH ?)`
			restArgs = append(restArgs, matchExpr(terms))
		}
		rest += ` ORDER BY created DESC, id LIMIT ?`
		others, err := queryRows(ctx, tx, scanExperience, rest, append(restArgs, q.K-len(out))...)
		if err != nil {
			return fmt.Errorf("store: search experiences: %w", err)
		}
		for _, e := range others {
			out = append(out, ExperienceHit{Experience: e})
		}
		return nil
	})
	if err != nil {
		return nil, err
	}
	return out, nil
}
