package store

import (
	"context"
	"database/sql"
	"database/sql/driver"
	"errors"
	"fmt"
	"io"
	"net"
	"strings"
	"syscall"
	"time"

	"github.com/jackc/pgx/v5"
	"github.com/jackc/pgx/v5/pgconn"
	"github.com/jackc/pgx/v5/stdlib"
)

// IsURL reports whether location names a PostgreSQL database
// (postgres://… or postgresql://…) rather than an SQLite file.
func IsURL(location string) bool {
	return strings.HasPrefix(location, "postgres://") || strings.HasPrefix(location, "postgresql://")
}

// postgresBackend keeps a store in a PostgreSQL database that a team
// shares, each project in its namespace. The connection is pgx's
// database/sql driver; the password comes from Options.Password or the
// driver's own places (PGPASSWORD, PGPASSFILE, ~/.pgpass), never from the
// URL a command line shows.
type postgresBackend struct{}

func (postgresBackend) name() string   { return "postgres" }
func (postgresBackend) numbered() bool { return true }
func (postgresBackend) joinText(expr, sep string) string {
	return `string_agg(` + expr + `, '` + sep + `')`
}

// openPostgres opens the store in the database at rawURL (see Open).
func (s *Store) openPostgres(rawURL string) error {
	s.be = postgresBackend{}
	cfg, err := pgx.ParseConfig(rawURL)
	if err != nil {
		// pgx's message shows the URL with its password masked.
		return fmt.Errorf("store: %w", err)
	}
	if cfg.Password == "" {
		cfg.Password = s.opt.Password
	}
	if cfg.ConnectTimeout == 0 {
		cfg.ConnectTimeout = 10 * time.Second
	}
	s.where = fmt.Sprintf("postgres://%s@%s:%d/%s", cfg.User, cfg.Host, cfg.Port, cfg.Database)
	db := stdlib.OpenDB(*cfg)
	// A server answers many clients at once (ctxpack serve --http);
	// connections idle for a minute are closed, so that a restarted
	// database is met with new ones.
	db.SetMaxOpenConns(16)
	db.SetMaxIdleConns(16)
	db.SetConnMaxIdleTime(time.Minute)
	s.db = db
	empty, err := s.prepare(context.Background())
	if err != nil || empty {
		db.Close()
		s.db = nil
	}
	return err
}

func (postgresBackend) tables(ctx context.Context, q conn) (n int, meta bool, err error) {
	var metas int
	err = q.QueryRowContext(ctx, `SELECT count(*), count(*) FILTER (WHERE table_name = 'meta') FROM information_schema.tables WHERE table_schema = current_schema()`).Scan(&n, &metas)
	return n, metas > 0, err
}

// schemaLock is the key of the advisory lock that serializes creating
// and migrating the schema: "ctxpack" in ASCII.
const schemaLock = 0x6374787061636b

func (postgresBackend) lock(ctx context.Context, tx conn) error {
	_, err := tx.ExecContext(ctx, `SELECT pg_advisory_xact_lock(?)`, int64(schemaLock))
	return err
}

// beginRead begins a read-only transaction at REPEATABLE READ, so that
// its queries (the statistics and the terms of one search) see one
// snapshot.
func (postgresBackend) beginRead(ctx context.Context, db *sql.DB) (*sql.Tx, error) {
	return db.BeginTx(ctx, &sql.TxOptions{ReadOnly: true, Isolation: sql.LevelRepeatableRead})
}

func (postgresBackend) retry(err error) bool { return connLost(err) }

// bulk does nothing: the server's buffers are its own.
func (postgresBackend) bulk(context.Context, conn) (func() error, error) {
	return func() error { return nil }, nil
}

// analyze runs ANALYZE on the tables a search reads: without it, the
// searches right after an import of thousands of rows are planned as if
// the tables were empty, and took a second each (measured on 10,000
// memories), until autovacuum came by.
func (postgresBackend) analyze(ctx context.Context, db *sql.DB) {
	db.ExecContext(ctx, `ANALYZE memories, experiences, learned_values, terms, term_docs`) //nolint:errcheck // see the method's doc
}

// connLost reports whether err says the connection to the server was
// lost or could not be made, rather than that a statement failed.
func connLost(err error) bool {
	if err == nil || errors.Is(err, context.Canceled) || errors.Is(err, context.DeadlineExceeded) {
		return false // the request's own end, not the connection's
	}
	var pe *pgconn.PgError
	if errors.As(err, &pe) {
		// admin_shutdown, crash_shutdown, cannot_connect_now
		return pe.Code == "57P01" || pe.Code == "57P02" || pe.Code == "57P03"
	}
	var ne net.Error
	var ce *pgconn.ConnectError
	return errors.Is(err, driver.ErrBadConn) || errors.Is(err, io.EOF) || errors.Is(err, io.ErrUnexpectedEOF) ||
		errors.Is(err, syscall.ECONNREFUSED) || errors.Is(err, syscall.ECONNRESET) || errors.Is(err, net.ErrClosed) ||
		errors.As(err, &ne) || errors.As(err, &ce) || pgconn.SafeToRetry(err)
}

// describe says what to do about the errors a user can act on: a
// database that cannot be reached (refused, reset, shutting down,
// starting up) is an *UnreachableError; a refused password, a missing
// database or a missing privilege says what to do.
func (postgresBackend) describe(where string, err error) error {
	var u *UnreachableError
	if err == nil || errors.As(err, &u) {
		return err
	}
	if connLost(err) {
		return &UnreachableError{Where: where, Err: err}
	}
	var pe *pgconn.PgError
	if errors.As(err, &pe) {
		switch pe.Code {
		case "28P01", "28000":
			return fmt.Errorf("%w (give the password in PGPASSWORD, a ~/.pgpass line, or the file CTXPACK_STORE_PASSWORD_FILE names; never in a URL on a command line or in the configuration)", err)
		case "3D000":
			return fmt.Errorf("%w (create it first: createdb, or CREATE DATABASE)", err)
		case "42501":
			return fmt.Errorf("%w (the user needs CREATE on the schema the first time, and SELECT, INSERT, UPDATE and DELETE on the store's tables)", err)
		}
	}
	return err
}

// rootCause is what an error comes down to: a PostgreSQL error's message,
// or the innermost error of the chain ("connection refused").
func rootCause(err error) string {
	var pe *pgconn.PgError
	if errors.As(err, &pe) {
		return pe.Message
	}
	for {
		next := errors.Unwrap(err)
		if next == nil {
			return err.Error()
		}
		err = next
	}
}

func (postgresBackend) schema() []string { return postgresSchema }

// Format 2 is PostgreSQL's first.
func (postgresBackend) migrations() []func(ctx context.Context, s *Store, tx conn) error { return nil }

// postgresSchema creates the tables of FormatVersion 2, as sqliteSchema
// does, column for column: INTEGER is BIGINT, REAL DOUBLE PRECISION,
// BLOB BYTEA. The text columns that keys and orders read compare bytes
// (COLLATE "C"), as SQLite's do, so that no locale orders rows.
var postgresSchema = []string{
	`CREATE TABLE meta (key TEXT COLLATE "C" PRIMARY KEY, value TEXT NOT NULL)`,
	`CREATE TABLE seq (ns TEXT COLLATE "C" NOT NULL, kind TEXT COLLATE "C" NOT NULL, last BIGINT NOT NULL, PRIMARY KEY (ns, kind))`,
	`CREATE TABLE memories (
		ns         TEXT COLLATE "C" NOT NULL,
		id         BIGINT NOT NULL,
		content    TEXT NOT NULL,
		category   TEXT COLLATE "C" NOT NULL,
		importance DOUBLE PRECISION NOT NULL,
		created    BIGINT NOT NULL,
		cid        TEXT NOT NULL,
		PRIMARY KEY (ns, id)
	)`,
	`CREATE INDEX memories_category ON memories (ns, category)`,
	`CREATE TABLE experiences (
		ns         TEXT COLLATE "C" NOT NULL,
		id         BIGINT NOT NULL,
		domain     TEXT COLLATE "C" NOT NULL,
		strategy   TEXT COLLATE "C" NOT NULL,
		goal       TEXT NOT NULL,
		hypothesis TEXT NOT NULL,
		action     TEXT NOT NULL,
		prediction TEXT NOT NULL,
		outcome    TEXT COLLATE "C" NOT NULL,
		result     TEXT NOT NULL,
		surprise   TEXT NOT NULL,
		root_cause TEXT NOT NULL,
		lesson     TEXT NOT NULL,
		confidence TEXT COLLATE "C" NOT NULL,
		iterations BIGINT NOT NULL,
		created    BIGINT NOT NULL,
		cid        TEXT NOT NULL,
		PRIMARY KEY (ns, id)
	)`,
	`CREATE INDEX experiences_domain ON experiences (ns, domain)`,
	`CREATE INDEX experiences_strategy ON experiences (ns, strategy)`,
	`CREATE TABLE learned_values (
		ns           TEXT COLLATE "C" NOT NULL,
		id           BIGINT NOT NULL,
		text         TEXT NOT NULL,
		axis         TEXT COLLATE "C" NOT NULL,
		cluster      TEXT COLLATE "C" NOT NULL,
		cluster_size BIGINT NOT NULL,
		similarity   DOUBLE PRECISION NOT NULL,
		experience   BIGINT NOT NULL,
		tags         TEXT NOT NULL,
		created      BIGINT NOT NULL,
		cid          TEXT NOT NULL,
		PRIMARY KEY (ns, id)
	)`,
	`CREATE INDEX learned_values_axis ON learned_values (ns, axis)`,
	`CREATE TABLE commits (
		ns         TEXT COLLATE "C" NOT NULL,
		id         BIGINT NOT NULL,
		sha        TEXT COLLATE "C" NOT NULL,
		author     TEXT NOT NULL,
		email      TEXT NOT NULL,
		time       BIGINT NOT NULL,
		message    TEXT NOT NULL,
		files      BYTEA NOT NULL,
		insertions BIGINT NOT NULL,
		deletions  BIGINT NOT NULL,
		cid        TEXT NOT NULL,
		PRIMARY KEY (ns, id),
		UNIQUE (ns, sha)
	)`,
	`CREATE INDEX commits_time ON commits (ns, time DESC, sha)`,
	`CREATE TABLE terms (
		tbl  SMALLINT NOT NULL,
		ns   TEXT COLLATE "C" NOT NULL,
		term TEXT COLLATE "C" NOT NULL,
		id   BIGINT NOT NULL,
		tf   TEXT NOT NULL,
		len  BIGINT NOT NULL,
		PRIMARY KEY (tbl, ns, term, id)
	)`,
	`CREATE TABLE term_docs (
		tbl SMALLINT NOT NULL,
		ns  TEXT COLLATE "C" NOT NULL,
		id  BIGINT NOT NULL,
		len BIGINT NOT NULL,
		PRIMARY KEY (tbl, ns, id)
	)`,
}
