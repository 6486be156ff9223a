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

const experienceCols = `ns, id, domain, strategy, goal, hypothesis, action, prediction, outcome, result, surprise, root_cause, lesson, confidence, iterations, created`

func scanExperience(r interface{ Scan(...any) error }) (Experience, error) {
	var e Experience
	err := r.Scan(&e.Namespace, &e.ID, &e.Domain, &e.Strategy, &e.Goal, &e.Hypothesis, &e.Action, &e.Prediction, &e.Outcome, &e.Result,
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
	e.Namespace = ""
	err := s.write(ctx, func(tx conn) (err error) {
		if e.ID, err = s.nextID(ctx, tx, "experience"); err != nil {
			return err
		}
		w := newWriter(tx)
		if err := s.insertExperience(ctx, w, e); err != nil {
			return err
		}
		return w.flush(ctx)
	})
	if err != nil {
		return Experience{}, err
	}
	return e, nil
}

// insertExperience queues in w e, valid, with its defaults and its id, in
// the store's namespace and the axes it belongs to.
func (s *Store) insertExperience(ctx context.Context, w *writer, e Experience) error {
	if err := w.add(ctx, "experiences", "ns, id, domain, strategy, goal, hypothesis, action, prediction, outcome, result, surprise, root_cause, lesson, confidence, iterations, created, cid",
		s.ns, e.ID, e.Domain, e.Strategy, e.Goal, e.Hypothesis, e.Action, e.Prediction, string(e.Outcome), e.Result,
		e.Surprise, e.RootCause, e.Lesson, string(e.Confidence), e.Iterations, e.Created, experienceCID(e)); err != nil {
		return err
	}
	return insertExperienceTerms(ctx, w, s.ns, &e)
}

// insertExperienceTerms queues in w the terms of experience e of
// namespace ns on each axis it is on.
func insertExperienceTerms(ctx context.Context, w *writer, ns string, e *Experience) error {
	for i := range axisDefs {
		if d := &axisDefs[i]; d.on(e) {
			if err := d.table.insert(ctx, w, ns, e.ID, d.texts(e)); err != nil {
				return err
			}
		}
	}
	return nil
}

// Experience returns the experience of the store's namespace with the
// given id, or ErrNotFound (wrapped).
func (s *Store) Experience(ctx context.Context, id int64) (Experience, error) {
	var e Experience
	var err error
	found := false
	err = s.read(ctx, func(tx conn) error {
		e, err = getExperience(ctx, tx, s.ns, id)
		found = err == nil
		return err
	})
	if err == nil && !found {
		err = fmt.Errorf("store: experience %d: %w", id, ErrNotFound)
	}
	if err != nil {
		return Experience{}, err
	}
	e.Namespace = ""
	return e, nil
}

func getExperience(ctx context.Context, q conn, ns string, id int64) (Experience, error) {
	e, err := scanExperience(q.QueryRowContext(ctx, `SELECT `+experienceCols+` FROM experiences WHERE ns = ? AND id = ?`, ns, id))
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

// Experiences returns the experiences f lets through among those the
// store reads, by ID ascending, then namespace.
func (s *Store) Experiences(ctx context.Context, f ExperienceFilter) ([]Experience, error) {
	in, args := s.nsIn("")
	where, fargs := f.sql()
	if where != "" {
		in, args = in+` AND `+where, append(args, fargs...)
	}
	var out []Experience
	err := s.read(ctx, func(tx conn) (err error) {
		out, err = queryRows(ctx, tx, scanExperience, `SELECT `+experienceCols+` FROM experiences WHERE `+in+` ORDER BY id, ns`, args...)
		return err
	})
	if err != nil {
		return nil, fmt.Errorf("store: experiences: %w", err)
	}
	for i := range out {
		out[i].Namespace = s.foreign(out[i].Namespace)
	}
	return out, nil
}

// RemoveExperience deletes the experience with the given id from the
// store and every axis and returns it as it was, or returns ErrNotFound
// (wrapped). Values that name it as their Experience keep naming it: they
// are authored rows, which only RemoveValue changes.
func (s *Store) RemoveExperience(ctx context.Context, id int64) (Experience, error) {
	var e Experience
	err := s.write(ctx, func(tx conn) error {
		var err error
		e, err = scanExperience(tx.QueryRowContext(ctx, `DELETE FROM experiences WHERE ns = ? AND id = ? RETURNING `+experienceCols, s.ns, id))
		if errors.Is(err, sql.ErrNoRows) {
			return fmt.Errorf("store: experience %d: %w", id, ErrNotFound)
		}
		if err != nil {
			return fmt.Errorf("store: remove experience %d: %w", id, err)
		}
		for i := range axisDefs {
			if d := &axisDefs[i]; d.on(&e) {
				if err := d.table.delete(ctx, tx, s.ns, id, d.texts(&e)); err != nil {
					return err
				}
			}
		}
		return nil
	})
	if err != nil {
		return Experience{}, err
	}
	e.Namespace = ""
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
// the fields and weights), then by ID ascending (then namespace), among
// the experiences the store reads.
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
	filter, fargs := ExperienceFilter{q.Domain, q.Strategy, q.Outcome}.sql()
	in, nsArgs := s.nsIn("")
	var out []ExperienceHit
	err := s.read(ctx, func(tx conn) error {
		out = out[:0]
		var keep func([]scored) ([]scored, error)
		if filter != "" {
			keep = func(cands []scored) ([]scored, error) {
				ok, err := queryRows(ctx, tx, scanRowID, `SELECT ns, id FROM experiences WHERE `+in+` AND `+filter, slices.Concat(nsArgs, fargs)...)
				if err != nil {
					return nil, fmt.Errorf("store: search experiences: %w", err)
				}
				allowed := make(map[rowID]bool, len(ok))
				for _, r := range ok {
					allowed[r] = true
				}
				return slices.DeleteFunc(cands, func(c scored) bool { return !allowed[c.rowID] }), nil
			}
		}
		load := func(ids []rowID) (map[rowID]Experience, error) {
			return loadRows(ctx, tx, ids, `SELECT `+experienceCols+` FROM experiences`, scanExperience, func(e Experience) rowID { return rowID{e.Namespace, e.ID} })
		}
		hits, err := search(ctx, tx, d.table, s.nss, terms, q.K, keep, load, func(a, b Experience) int {
			return cmp.Or(cmp.Compare(a.ID, b.ID), strings.Compare(a.Namespace, b.Namespace))
		})
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
		eIn, _ := s.nsIn("e")
		rest := `SELECT ` + experienceCols + ` FROM experiences e WHERE ` + eIn + ` AND ` + filter + ` AND ` + d.where
		restArgs := slices.Concat(nsArgs, fargs)
		if len(terms) > 0 {
			rest += ` AND NOT EXISTS (SELECT 1 FROM terms p WHERE p.tbl = ? AND p.ns = e.ns AND p.id = e.id AND p.term IN (` + params(len(terms)) + `))`
			restArgs = append(restArgs, d.table.tbl)
			for _, t := range terms {
				restArgs = append(restArgs, t)
			}
		}
		rest += ` ORDER BY created DESC, id, ns LIMIT ?`
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
	for i := range out {
		out[i].Namespace = s.foreign(out[i].Namespace)
	}
	return out, nil
}

func scanRowID(r interface{ Scan(...any) error }) (rowID, error) {
	var id rowID
	err := r.Scan(&id.ns, &id.id)
	return id, err
}
