package store

import (
	"context"
	"database/sql"
	"fmt"
	"path/filepath"

	"github.com/ctxpack/ctxpack/internal/sqlitedb"
)

// sqliteBackend keeps a store in one SQLite file (WAL mode), the
// embedded default: .ctxpack/sources.db.
type sqliteBackend struct{}

func (sqliteBackend) name() string   { return "sqlite" }
func (sqliteBackend) numbered() bool { return false }
func (sqliteBackend) joinText(expr, sep string) string {
	return `group_concat(` + expr + `, '` + sep + `')`
}
func (sqliteBackend) retry(error) bool { return false } // a file does not restart
// bulk gives the connection 256 MB of page cache for the write: with the
// usual 2 MB, the terms table's pages are read and written again and
// again (migrating 10,000 memories and 5,000 experiences took 20 s, 4 s
// with it).
func (sqliteBackend) bulk(ctx context.Context, tx conn) (func() error, error) {
	if _, err := tx.ExecContext(ctx, `PRAGMA cache_size(-262144)`); err != nil {
		return nil, err
	}
	return func() error {
		_, err := tx.ExecContext(ctx, `PRAGMA cache_size(-2000)`)
		return err
	}, nil
}

// analyze does nothing: SQLite plans these queries well without
// statistics.
func (sqliteBackend) analyze(context.Context, *sql.DB) {}

func (sqliteBackend) describe(_ string, err error) error {
	return err
}

// openSQLite opens the store in the SQLite file at path (see Open).
func (s *Store) openSQLite(path string) error {
	abs, err := filepath.Abs(path)
	if err != nil {
		return fmt.Errorf("store: %w", err)
	}
	s.where, s.be = abs, sqliteBackend{}
	fi, err := sqlitedb.Stat(abs, s.opt.ReadOnly)
	switch {
	case err != nil:
		return fmt.Errorf("store: %w", err)
	case fi == nil && s.opt.ReadOnly:
		return nil
	case fi == nil: // SQLite creates it
	case fi.IsDir():
		return fmt.Errorf("store: %s is a directory, not a sources store", abs)
	default:
		ok, err := sqlitedb.IsSQLiteFile(abs)
		if err != nil {
			return fmt.Errorf("store: %w", err)
		}
		if !ok {
			return fmt.Errorf("store: %s is not an SQLite database; it was left as it is", abs)
		}
		if !s.opt.ReadOnly {
			stale, err := sqlitedb.SetAsideStaleWAL(context.Background(), abs)
			if err != nil {
				return fmt.Errorf("store: %s: checking its write-ahead log: %w", abs, err)
			}
			if stale != nil {
				s.warnings = append(s.warnings, fmt.Sprintf("store: %s did not belong to %s (read with it, the store is damaged: %s; without it, whole), as when the store is restored from a backup beside the log of the one it replaced: it was moved aside to %s, which may hold changes newer than the store",
					filepath.Base(stale.WAL), abs, stale.Damage, filepath.Base(stale.MovedTo)))
			}
		}
	}
	// 2 MB a connection: searches read few pages, and sources mode runs
	// four at once. Writes take the write lock when they begin, so that
	// two writers wait for each other under busy_timeout instead of one
	// failing when it upgrades a read lock. The journal mode is set once
	// the file is known to be a store, since setting it rewrites the
	// header of a database that is not one.
	opt := sqlitedb.Options{ReadOnly: s.opt.ReadOnly, Pragmas: []string{"cache_size(-2000)"}, MaxOpenConns: 4, MaxIdleConns: 2}
	if !s.opt.ReadOnly {
		opt.Pragmas = append(opt.Pragmas, "synchronous(NORMAL)")
		opt.ImmediateTx = true
	}
	db, err := sqlitedb.Open(abs, opt)
	if err != nil {
		return fmt.Errorf("store: open %s: %w", abs, err)
	}
	s.db = db
	ctx := context.Background()
	empty, err := s.prepare(ctx)
	if err == nil && !empty && !s.opt.ReadOnly {
		if _, err = db.ExecContext(ctx, `PRAGMA journal_mode=WAL`); err != nil {
			err = fmt.Errorf("store: %s: %w", abs, err)
		}
	}
	if err != nil || empty {
		db.Close()
		s.db = nil
	}
	return err
}

func (sqliteBackend) tables(ctx context.Context, q conn) (n int, meta bool, err error) {
	var metas int
	err = q.QueryRowContext(ctx, `SELECT count(*), count(*) FILTER (WHERE name = 'meta') FROM sqlite_schema WHERE type = 'table'`).Scan(&n, &metas)
	return n, metas > 0, err
}

// lock does nothing: a write transaction holds SQLite's write lock from
// its start (ImmediateTx).
func (sqliteBackend) lock(context.Context, conn) error { return nil }

func (sqliteBackend) beginRead(ctx context.Context, db *sql.DB) (*sql.Tx, error) {
	return db.BeginTx(ctx, &sql.TxOptions{ReadOnly: true})
}

func (sqliteBackend) schema() []string { return sqliteSchema }

// sqliteSchema creates the tables of FormatVersion 2; postgresSchema
// creates the same tables, column for column. meta comes first (the
// migration from format 1 keeps it and creates the rest).
//
// Every row table is keyed by (ns, id): ids are counted per namespace in
// seq, and never given again after a removal, since people and values
// refer to rows by id. cid is the content id of the row's canonical form
// (canonical.go), for StateRoot. terms and term_docs hold what ranking
// needs (terms.go): a row of terms is one term of one row of a searched
// table (tbl), with its count in each column; a row of term_docs is the
// row's length in terms.
var sqliteSchema = []string{
	`CREATE TABLE meta (key TEXT PRIMARY KEY, value TEXT NOT NULL) WITHOUT ROWID`,
	`CREATE TABLE seq (ns TEXT NOT NULL, kind TEXT NOT NULL, last INTEGER NOT NULL, PRIMARY KEY (ns, kind)) WITHOUT ROWID`,
	`CREATE TABLE memories (
		ns         TEXT NOT NULL,
		id         INTEGER NOT NULL,
		content    TEXT NOT NULL,
		category   TEXT NOT NULL,
		importance REAL NOT NULL,
		created    INTEGER NOT NULL,
		cid        TEXT NOT NULL,
		PRIMARY KEY (ns, id)
	)`,
	`CREATE INDEX memories_category ON memories (ns, category)`,
	`CREATE TABLE experiences (
		ns         TEXT NOT NULL,
		id         INTEGER NOT NULL,
		domain     TEXT NOT NULL,
		strategy   TEXT NOT NULL,
		goal       TEXT NOT NULL,
		hypothesis TEXT NOT NULL,
		action     TEXT NOT NULL,
		prediction TEXT NOT NULL,
		outcome    TEXT NOT NULL,
		result     TEXT NOT NULL,
		surprise   TEXT NOT NULL,
		root_cause TEXT NOT NULL,
		lesson     TEXT NOT NULL,
		confidence TEXT NOT NULL,
		iterations INTEGER NOT NULL,
		created    INTEGER NOT NULL,
		cid        TEXT NOT NULL,
		PRIMARY KEY (ns, id)
	)`,
	`CREATE INDEX experiences_domain ON experiences (ns, domain)`,
	`CREATE INDEX experiences_strategy ON experiences (ns, strategy)`,
	// tags: the sorted words, joined by spaces.
	`CREATE TABLE learned_values (
		ns           TEXT NOT NULL,
		id           INTEGER NOT NULL,
		text         TEXT NOT NULL,
		axis         TEXT NOT NULL,
		cluster      TEXT NOT NULL,
		cluster_size INTEGER NOT NULL,
		similarity   REAL NOT NULL,
		experience   INTEGER NOT NULL,
		tags         TEXT NOT NULL,
		created      INTEGER NOT NULL,
		cid          TEXT NOT NULL,
		PRIMARY KEY (ns, id)
	)`,
	`CREATE INDEX learned_values_axis ON learned_values (ns, axis)`,
	// files: "added TAB deleted TAB path NUL" for each file (see
	// encodeFiles); a path holds no NUL, so any path reads back whole.
	`CREATE TABLE commits (
		ns         TEXT NOT NULL,
		id         INTEGER NOT NULL,
		sha        TEXT NOT NULL,
		author     TEXT NOT NULL,
		email      TEXT NOT NULL,
		time       INTEGER NOT NULL,
		message    TEXT NOT NULL,
		files      BLOB NOT NULL,
		insertions INTEGER NOT NULL,
		deletions  INTEGER NOT NULL,
		cid        TEXT NOT NULL,
		PRIMARY KEY (ns, id),
		UNIQUE (ns, sha)
	)`,
	`CREATE INDEX commits_time ON commits (ns, time DESC, sha)`,
	`CREATE TABLE terms (
		tbl  INTEGER NOT NULL,
		ns   TEXT NOT NULL,
		term TEXT NOT NULL,
		id   INTEGER NOT NULL,
		tf   TEXT NOT NULL,
		len  INTEGER NOT NULL,
		PRIMARY KEY (tbl, ns, term, id)
	) WITHOUT ROWID`,
	`CREATE TABLE term_docs (
		tbl INTEGER NOT NULL,
		ns  TEXT NOT NULL,
		id  INTEGER NOT NULL,
		len INTEGER NOT NULL,
		PRIMARY KEY (tbl, ns, id)
	) WITHOUT ROWID`,
}

func (sqliteBackend) migrations() []func(ctx context.Context, s *Store, tx conn) error {
	return []func(ctx context.Context, s *Store, tx conn) error{migrateSQLite1}
}

// migrateSQLite1 moves a store of format 1 to format 2: its rows go to
// DefaultNamespace with their ids, seq takes the last id of each kind
// (AUTOINCREMENT's, so that removed ids stay given), the terms are
// computed again from the rows (the FTS5 tables held no text to read
// back), the FTS5 tables are dropped and the commit meta is keyed by the
// namespace.
func migrateSQLite1(ctx context.Context, s *Store, tx conn) error {
	old := map[string]string{ // table → its columns in format 1 and 2 alike
		"memories":       "id, content, category, importance, created, cid",
		"experiences":    "id, domain, strategy, goal, hypothesis, action, prediction, outcome, result, surprise, root_cause, lesson, confidence, iterations, created, cid",
		"learned_values": "id, text, axis, cluster, cluster_size, similarity, experience, tags, created, cid",
		"commits":        "id, sha, author, email, time, message, files, insertions, deletions, cid",
	}
	tables := []string{"memories", "experiences", "learned_values", "commits"}
	kinds := map[string]string{"memories": "memory", "experiences": "experience", "learned_values": "value", "commits": "commit"}
	var stmts []string
	for _, ix := range []string{"memories_category", "experiences_domain", "experiences_strategy", "learned_values_axis", "commits_time"} {
		stmts = append(stmts, `DROP INDEX IF EXISTS `+ix)
	}
	for _, t := range tables {
		stmts = append(stmts, `ALTER TABLE `+t+` RENAME TO `+t+`_v1`)
	}
	stmts = append(stmts, sqliteSchema[1:]...)
	for _, t := range tables {
		stmts = append(stmts, `INSERT INTO `+t+` (ns, `+old[t]+`) SELECT '`+DefaultNamespace+`', `+old[t]+` FROM `+t+`_v1`)
	}
	// seq: AUTOINCREMENT's last ids (which outlive removed rows; its
	// sqlite_sequence rows follow a table renamed), and the commits'
	// largest.
	for _, t := range tables[:3] {
		stmts = append(stmts, `INSERT INTO seq (ns, kind, last) SELECT '`+DefaultNamespace+`', '`+kinds[t]+`', seq FROM sqlite_sequence WHERE name = '`+t+`_v1' AND seq > 0`)
	}
	stmts = append(stmts, `INSERT INTO seq (ns, kind, last) SELECT '`+DefaultNamespace+`', 'commit', max(id) FROM commits HAVING count(*) > 0`)
	for _, t := range tables {
		stmts = append(stmts, `DROP TABLE `+t+`_v1`)
	}
	for _, t := range []string{"memory_terms", "experience_full", "experience_strategy", "experience_surprise", "experience_root_cause", "value_terms", "commit_terms"} {
		stmts = append(stmts, `DROP TABLE IF EXISTS `+t)
	}
	for _, k := range []string{metaCommitHead, metaCommitPrefix} {
		stmts = append(stmts, `UPDATE meta SET key = '`+k+`/`+DefaultNamespace+`' WHERE key = '`+k+`'`)
	}
	for _, stmt := range stmts {
		if _, err := tx.ExecContext(ctx, stmt); err != nil {
			return fmt.Errorf("%.60s…: %w", stmt, err)
		}
	}
	undo, err := s.be.bulk(ctx, tx)
	if err != nil {
		return err
	}
	err = s.indexTerms(ctx, tx, DefaultNamespace)
	if uerr := undo(); err == nil {
		err = uerr
	}
	return err
}
