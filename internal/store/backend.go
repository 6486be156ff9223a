package store

import (
	"context"
	"database/sql"
	"strconv"
	"strings"
)

// backend is what differs between the databases a store can live in:
// SQLite, one file a project (sqlite.go), and PostgreSQL, one database a
// team (postgres.go). Everything else — the tables' meaning, every query,
// the ids, the ranking — is the store's own and the same on both, so that
// the same rows give the same answers byte for byte: the queries are
// written once, in the SQL both engines read, with ? for parameters
// (conn rewrites them for PostgreSQL), and ranking is computed in Go from
// the terms and lengths the store keeps in tables of its own (terms.go),
// never by an engine's full-text scoring.
type backend interface {
	// name is "sqlite" or "postgres".
	name() string
	// numbered reports whether parameters are $1, $2… rather than ?.
	numbered() bool
	// joinText is the SQL aggregate that joins the texts of expr over a
	// query's rows with sep between them, in no order that matters:
	// SQLite's group_concat, PostgreSQL's string_agg.
	joinText(expr, sep string) string
	// schema is the statements that create the tables of FormatVersion.
	schema() []string
	// migrations[v-1] moves a store from format v to v+1, inside the
	// transaction that then records the new version.
	migrations() []func(ctx context.Context, s *Store, tx conn) error
	// tables returns how many tables the database holds in the store's
	// schema, and whether meta is among them.
	tables(ctx context.Context, q conn) (n int, meta bool, err error)
	// lock takes, inside a write transaction, the lock that serializes
	// creating and migrating the schema between processes.
	lock(ctx context.Context, tx conn) error
	// beginRead begins a read-only transaction that sees one state.
	beginRead(ctx context.Context, db *sql.DB) (*sql.Tx, error)
	// retry reports whether a read that failed with err may run again on
	// a new connection: the connection was lost (a server restart), not
	// the query refused.
	retry(err error) bool
	// bulk prepares tx for a write of many rows (an import, a
	// migration) and returns what undoes it before the transaction ends.
	bulk(ctx context.Context, tx conn) (undo func() error, err error)
	// analyze brings the planner's statistics up to date after a bulk
	// write (an import), so that the next searches are planned for the
	// rows there now; a failure is no error (another user may own the
	// tables), the statistics catch up on their own.
	analyze(ctx context.Context, db *sql.DB)
	// describe returns err, of the database at where, as an
	// *UnreachableError when the database could not be reached, with what
	// to do added when its error code says, or as it is.
	describe(where string, err error) error
}

// querier is what *sql.DB and *sql.Tx share.
type querier interface {
	ExecContext(ctx context.Context, query string, args ...any) (sql.Result, error)
	QueryContext(ctx context.Context, query string, args ...any) (*sql.Rows, error)
	QueryRowContext(ctx context.Context, query string, args ...any) *sql.Row
	PrepareContext(ctx context.Context, query string) (*sql.Stmt, error)
}

// conn runs the store's queries, written with ? parameters, on a database
// or a transaction of a backend, rewriting the parameters the backend's
// way.
type conn struct {
	q  querier
	be backend
}

func (c conn) bind(query string) string {
	if !c.be.numbered() {
		return query
	}
	return numberParams(query)
}

func (c conn) ExecContext(ctx context.Context, query string, args ...any) (sql.Result, error) {
	return c.q.ExecContext(ctx, c.bind(query), args...)
}

func (c conn) QueryContext(ctx context.Context, query string, args ...any) (*sql.Rows, error) {
	return c.q.QueryContext(ctx, c.bind(query), args...)
}

func (c conn) QueryRowContext(ctx context.Context, query string, args ...any) *sql.Row {
	return c.q.QueryRowContext(ctx, c.bind(query), args...)
}

func (c conn) PrepareContext(ctx context.Context, query string) (*sql.Stmt, error) {
	return c.q.PrepareContext(ctx, c.bind(query))
}

// numberParams rewrites the ? parameters of query as $1, $2…, leaving
// those inside quoted strings and identifiers alone.
func numberParams(query string) string {
	var b strings.Builder
	b.Grow(len(query) + 16)
	n := 0
	var quote byte
	for i := 0; i < len(query); i++ {
		c := query[i]
		switch {
		case quote != 0:
			if c == quote {
				quote = 0
			}
		case c == '\'' || c == '"':
			quote = c
		case c == '?':
			n++
			b.WriteByte('$')
			b.WriteString(strconv.Itoa(n))
			continue
		}
		b.WriteByte(c)
	}
	return b.String()
}

// params returns n parameters, "?, ?, ?", for an IN list.
func params(n int) string {
	if n <= 0 {
		return ""
	}
	return strings.Repeat("?, ", n-1) + "?"
}
