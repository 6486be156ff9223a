package store

import (
	"context"
	"fmt"
	"strings"
)

// maxParams bounds the parameters of one INSERT a writer makes: under
// SQLite's 32,766 and PostgreSQL's 65,535.
const maxParams = 30000

// writer gathers the rows a write transaction inserts — rows, terms and
// lengths — and writes each table's in INSERTs of many rows: an import of
// thousands of rows makes a few hundred statements, not a hundred
// thousand, which on a server is most of the time (one round trip each).
// A write's reads see only what was flushed.
type writer struct {
	tx      conn
	pending map[string]*pendingRows
	order   []string // tables, by first use
}

type pendingRows struct {
	cols string // "(a, b, c)"
	n    int    // columns
	args []any
}

func newWriter(tx conn) *writer { return &writer{tx: tx, pending: map[string]*pendingRows{}} }

// add queues a row of table, whose columns are cols ("a, b, c"), flushing
// the table's queue first when the row would not fit in one statement.
func (w *writer) add(ctx context.Context, table, cols string, vals ...any) error {
	p := w.pending[table]
	if p == nil {
		p = &pendingRows{cols: "(" + cols + ")", n: len(vals)}
		w.pending[table] = p
		w.order = append(w.order, table)
	}
	if len(p.args)+len(vals) > maxParams {
		if err := w.flushTable(ctx, table); err != nil {
			return err
		}
	}
	p.args = append(p.args, vals...)
	return nil
}

// flush writes every queued row.
func (w *writer) flush(ctx context.Context) error {
	for _, t := range w.order {
		if err := w.flushTable(ctx, t); err != nil {
			return err
		}
	}
	return nil
}

func (w *writer) flushTable(ctx context.Context, table string) error {
	p := w.pending[table]
	if len(p.args) == 0 {
		return nil
	}
	rows := len(p.args) / p.n
	one := "(" + params(p.n) + ")"
	var b strings.Builder
	b.Grow(len(table) + len(p.cols) + rows*(len(one)+2) + 32)
	b.WriteString("INSERT INTO ")
	b.WriteString(table)
	b.WriteByte(' ')
	b.WriteString(p.cols)
	b.WriteString(" VALUES ")
	for i := range rows {
		if i > 0 {
			b.WriteString(", ")
		}
		b.WriteString(one)
	}
	if _, err := w.tx.ExecContext(ctx, b.String(), p.args...); err != nil {
		return fmt.Errorf("store: %s: %w", table, err)
	}
	p.args = p.args[:0]
	return nil
}

// reserveIDs takes n ids of kind in the store's namespace, inside tx, and
// returns the first; the others follow it. Ids are never given again.
func (s *Store) reserveIDs(ctx context.Context, tx conn, kind string, n int) (int64, error) {
	var last int64
	err := tx.QueryRowContext(ctx, `INSERT INTO seq (ns, kind, last) VALUES (?, ?, ?)
		ON CONFLICT (ns, kind) DO UPDATE SET last = seq.last + excluded.last RETURNING last`, s.ns, kind, n).Scan(&last)
	if err != nil {
		return 0, fmt.Errorf("store: next %s id: %w", kind, err)
	}
	return last - int64(n) + 1, nil
}
