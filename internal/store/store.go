package store

import (
	"context"
	"database/sql"
	"errors"
	"fmt"
	"path/filepath"
	"strconv"
	"strings"
	"sync"
	"time"

	"github.com/ctxpack/ctxpack/internal/project"
	"github.com/ctxpack/ctxpack/internal/sqlitedb"
)

// FormatVersion is the version of the database layout, stored in meta.
// Bump it, with a line below and a step in migrations, whenever a change
// makes an older store unreadable or its rows mean something else (the
// terms rules included): a store is authored data, so an older one is
// migrated in place, never rebuilt.
//
//	1: meta, memories, experiences, learned_values, commits; FTS5 memory_terms, experience_{full,strategy,surprise,root_cause}, value_terms, commit_terms, contentless, ascii tokenizer
const FormatVersion = 1

// migrations[v-1] moves a store from format v to v+1, inside the
// transaction that then records the new version.
var migrations = [FormatVersion - 1]func(ctx context.Context, tx *sql.Tx) error{}

// storeKind is the meta value that marks a database as a sources store,
// so that another ctxpack database (the index has a meta table too) is
// never taken for one.
const storeKind = "ctxpack sources"

// meta keys.
const (
	metaKind       = "kind"
	metaFormat     = "format_version"
	metaCommitHead = "commit_head" // the HEAD sha the last SyncCommits read
	// metaCommitPrefix is the project root's folder in its repository when
	// the commits were read (history.Tip.Prefix); a store without it read
	// them at the top.
	metaCommitPrefix = "commit_prefix"
)

// DefaultPath returns where a project's store lives: .ctxpack/sources.db
// under its root (an OS path).
func DefaultPath(root string) string {
	return filepath.Join(root, project.DirCtxpack, "sources.db")
}

// Options configure a store. The zero value opens it for reading and
// writing, with the system clock.
type Options struct {
	// ReadOnly opens the database with mode=ro. A missing file is then an
	// empty store: every list and search returns nothing, without error,
	// and nothing is created. Writes fail with ErrReadOnly.
	ReadOnly bool
	// Now is the clock that dates a memory, experience or value added
	// with Created 0; nil means time.Now.
	Now func() time.Time
}

// ErrNotFound is returned, wrapped, when no row has the id or sha asked
// for: "store: memory 12: store: not found".
var ErrNotFound = errors.New("store: not found")

// ErrReadOnly is returned by every write to a store opened with
// Options.ReadOnly.
var ErrReadOnly = errors.New("store: the store was opened read-only")

// Store is an open sources store. Its methods are safe for concurrent
// use, by goroutines and by processes: SQLite serializes the writes
// (each one transaction) and readers see the last committed state.
type Store struct {
	path string // OS path of the database file
	opt  Options
	// db is nil for a read-only store whose file does not exist or holds
	// no tables: it reads as empty.
	db *sql.DB
	// wmu serializes this store's writes, so that its goroutines queue
	// here rather than in SQLite's busy handler, which polls with sleeps
	// of up to 100 ms; other processes still wait there.
	wmu sync.Mutex
	// warnings say what Open repaired (Warnings).
	warnings []string
}

// Open opens the store at path, an OS path (DefaultPath for a project).
// Unless opt.ReadOnly, it creates the directory, the file and the schema
// when they are missing, and migrates a store of an older FormatVersion in
// place. A store of a newer FormatVersion, a file that is not an SQLite
// database, and an SQLite database that holds other tables but not this
// store's are errors naming the path; such files are left as they are.
func Open(path string, opt Options) (*Store, error) {
	abs, err := filepath.Abs(path)
	if err != nil {
		return nil, fmt.Errorf("store: %w", err)
	}
	s := &Store{path: abs, opt: opt}
	fi, err := sqlitedb.Stat(abs, opt.ReadOnly)
	switch {
	case err != nil:
		return nil, fmt.Errorf("store: %w", err)
	case fi == nil && opt.ReadOnly:
		return s, nil
	case fi == nil: // SQLite creates it
	case fi.IsDir():
		return nil, fmt.Errorf("store: %s is a directory, not a sources store", abs)
	default:
		ok, err := sqlitedb.IsSQLiteFile(abs)
		if err != nil {
			return nil, fmt.Errorf("store: %w", err)
		}
		if !ok {
			return nil, fmt.Errorf("store: %s is not an SQLite database; it was left as it is", abs)
		}
		if !opt.ReadOnly {
			stale, err := sqlitedb.SetAsideStaleWAL(context.Background(), abs)
			if err != nil {
				return nil, fmt.Errorf("store: %s: checking its write-ahead log: %w", abs, err)
			}
			if stale != nil {
				s.warnings = append(s.warnings, fmt.Sprintf("store: %s did not belong to %s (read with it, the store is damaged: %s; without it, whole), as when the store is restored from a backup beside the log of the one it replaced: it was moved aside to %s, which may hold changes newer than the store",
					filepath.Base(stale.WAL), abs, stale.Damage, filepath.Base(stale.MovedTo)))
			}
		}
	}
	db, err := sqlitedb.Open(abs, s.connection())
	if err != nil {
		return nil, fmt.Errorf("store: open %s: %w", abs, err)
	}
	s.db = db
	if err := s.prepare(context.Background()); err != nil {
		db.Close()
		return nil, err
	}
	return s, nil
}

// Path returns the OS path of the database file.
func (s *Store) Path() string { return s.path }

// Warnings say what Open found wrong and repaired: a write-ahead log that
// did not belong to the database, moved aside
// (sqlitedb.SetAsideStaleWAL). Only an Open for writing repairs.
func (s *Store) Warnings() []string { return s.warnings }

// Close closes the database. A store is not usable after Close.
func (s *Store) Close() error {
	if s.db == nil {
		return nil
	}
	if err := s.db.Close(); err != nil {
		return fmt.Errorf("store: close %s: %w", s.path, err)
	}
	return nil
}

// connection returns the connection settings. The journal mode is not
// among them: Open sets WAL once it knows the file is a store, since
// setting it rewrites the header of a database that is not one. Writes
// take the write lock when they begin, so that two writers wait for each
// other under busy_timeout instead of one failing when it upgrades a read
// lock.
func (s *Store) connection() sqlitedb.Options {
	// 2 MB a connection: searches read few pages, and sources mode runs four at once.
	opt := sqlitedb.Options{ReadOnly: s.opt.ReadOnly, Pragmas: []string{"cache_size(-2000)"}, MaxOpenConns: 4, MaxIdleConns: 2}
	if !s.opt.ReadOnly {
		opt.Pragmas = append(opt.Pragmas, "synchronous(NORMAL)")
		opt.ImmediateTx = true
	}
	return opt
}

// prepare checks that the database is a store this build reads, creating
// or migrating it when allowed.
func (s *Store) prepare(ctx context.Context) error {
	found, err := s.inspect(ctx, s.db)
	if err != nil {
		return err
	}
	if s.opt.ReadOnly {
		switch {
		case !found.store:
			s.db.Close() // an empty database: an empty store
			s.db = nil
			return nil
		case found.version < FormatVersion:
			return fmt.Errorf("store: %s has format %d, this build reads %d; open it for writing once to migrate it", s.path, found.version, FormatVersion)
		}
		return nil
	}
	if !found.store || found.version < FormatVersion {
		if err := s.write(ctx, func(tx *sql.Tx) error { return s.upgrade(ctx, tx) }); err != nil {
			return err
		}
	}
	if _, err := s.db.ExecContext(ctx, `PRAGMA journal_mode=WAL`); err != nil {
		return fmt.Errorf("store: %s: %w", s.path, err)
	}
	return nil
}

// found is what inspect learned of a database: whether it is a store, and
// its format.
type found struct {
	store   bool
	version int
}

// inspect reads a database's meta table. An empty database is not a
// store, and not an error; a database with other tables but not a
// store's meta, or whose format is newer than this build's, is an error.
func (s *Store) inspect(ctx context.Context, q querier) (found, error) {
	var tables, metas int
	err := q.QueryRowContext(ctx, `SELECT count(*), count(*) FILTER (WHERE name = 'meta') FROM sqlite_schema WHERE type = 'table'`).Scan(&tables, &metas)
	if err != nil {
		return found{}, fmt.Errorf("store: %s: %w", s.path, err)
	}
	if metas == 0 {
		if tables > 0 {
			return found{}, fmt.Errorf("store: %s is an SQLite database but not a sources store (it has %d tables and no meta table); it was left as it is", s.path, tables)
		}
		return found{}, nil
	}
	meta := map[string]string{}
	rows, err := q.QueryContext(ctx, `SELECT key, value FROM meta WHERE key IN (?, ?)`, metaKind, metaFormat)
	if err == nil {
		for rows.Next() {
			var k, v string
			if err = rows.Scan(&k, &v); err != nil {
				break
			}
			meta[k] = v
		}
		rows.Close()
		if err == nil {
			err = rows.Err()
		}
	}
	if err != nil {
		return found{}, fmt.Errorf("store: %s: reading meta: %w", s.path, err)
	}
	if meta[metaKind] != storeKind {
		return found{}, fmt.Errorf("store: %s is an SQLite database but not a sources store (its meta table has no %s %q); it was left as it is", s.path, metaKind, storeKind)
	}
	v, err := strconv.Atoi(meta[metaFormat])
	switch {
	case err != nil || v < 1:
		return found{}, fmt.Errorf("store: %s: format %q is not a version number", s.path, meta[metaFormat])
	case v > FormatVersion:
		return found{}, fmt.Errorf("store: %s has format %d, newer than the %d this build reads; use a newer ctxpack", s.path, v, FormatVersion)
	}
	return found{store: true, version: v}, nil
}

// upgrade creates the schema in an empty database, or migrates an older
// store, inside tx. It looks again, since another process may have done
// it between Open's look and the write lock.
func (s *Store) upgrade(ctx context.Context, tx *sql.Tx) error {
	f, err := s.inspect(ctx, tx)
	if err != nil {
		return err
	}
	if !f.store {
		for _, stmt := range schema {
			if _, err := tx.ExecContext(ctx, stmt); err != nil {
				return fmt.Errorf("store: %s: creating the schema: %w", s.path, err)
			}
		}
		if _, err := tx.ExecContext(ctx, `INSERT INTO meta (key, value) VALUES (?, ?)`, metaKind, storeKind); err != nil {
			return fmt.Errorf("store: %s: %w", s.path, err)
		}
		return setMeta(ctx, tx, metaFormat, strconv.Itoa(FormatVersion))
	}
	for v := f.version; v < FormatVersion; v++ {
		if err := migrations[v-1](ctx, tx); err != nil {
			return fmt.Errorf("store: %s: migrating format %d to %d: %w", s.path, v, v+1, err)
		}
	}
	return setMeta(ctx, tx, metaFormat, strconv.Itoa(FormatVersion))
}

// schema creates the tables of FormatVersion 1. Every full-text table is
// contentless (only the inverted index is stored, the text is in the row
// tables), keyed by the rowid of its row, with the ascii tokenizer over
// lexical.Terms joined by spaces, as internal/index stores chunks.
var schema = []string{
	`CREATE TABLE meta (key TEXT PRIMARY KEY, value TEXT NOT NULL) WITHOUT ROWID`,
	// AUTOINCREMENT: an id is never given again after its row is removed,
	// since people and values refer to rows by id. cid is the content id
	// of the row's canonical form (canonical.go), for StateRoot.
	`CREATE TABLE memories (
		id         INTEGER PRIMARY KEY AUTOINCREMENT,
		content    TEXT NOT NULL,
		category   TEXT NOT NULL,
		importance REAL NOT NULL,
		created    INTEGER NOT NULL,
		cid        TEXT NOT NULL
	)`,
	`CREATE INDEX memories_category ON memories (category)`,
	`CREATE VIRTUAL TABLE memory_terms USING fts5(content, category, content='', contentless_delete=1, tokenize='ascii')`,
	`CREATE TABLE experiences (
		id         INTEGER PRIMARY KEY AUTOINCREMENT,
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
		cid        TEXT NOT NULL
	)`,
	`CREATE INDEX experiences_domain ON experiences (domain)`,
	`CREATE INDEX experiences_strategy ON experiences (strategy)`,
	// One full-text table per axis (axes.go), so that IDF is per axis.
	`CREATE VIRTUAL TABLE experience_full USING fts5(domain, strategy, goal, hypothesis, action, prediction, outcome, surprise, root_cause, lesson, content='', contentless_delete=1, tokenize='ascii')`,
	`CREATE VIRTUAL TABLE experience_strategy USING fts5(strategy, goal, action, outcome, lesson, content='', contentless_delete=1, tokenize='ascii')`,
	`CREATE VIRTUAL TABLE experience_surprise USING fts5(surprise, prediction, result, content='', contentless_delete=1, tokenize='ascii')`,
	`CREATE VIRTUAL TABLE experience_root_cause USING fts5(root_cause, hypothesis, result, content='', contentless_delete=1, tokenize='ascii')`,
	// tags: the sorted words, joined by spaces.
	`CREATE TABLE learned_values (
		id           INTEGER PRIMARY KEY AUTOINCREMENT,
		text         TEXT NOT NULL,
		axis         TEXT NOT NULL,
		cluster      TEXT NOT NULL,
		cluster_size INTEGER NOT NULL,
		similarity   REAL NOT NULL,
		experience   INTEGER NOT NULL,
		tags         TEXT NOT NULL,
		created      INTEGER NOT NULL,
		cid          TEXT NOT NULL
	)`,
	`CREATE INDEX learned_values_axis ON learned_values (axis)`,
	`CREATE VIRTUAL TABLE value_terms USING fts5(text, axis, tags, content='', contentless_delete=1, tokenize='ascii')`,
	// files: "added TAB deleted TAB path NUL" for each file (see
	// encodeFiles); a path holds no NUL, so any path reads back whole.
	`CREATE TABLE commits (
		id         INTEGER PRIMARY KEY,
		sha        TEXT NOT NULL UNIQUE,
		author     TEXT NOT NULL,
		email      TEXT NOT NULL,
		time       INTEGER NOT NULL,
		message    TEXT NOT NULL,
		files      BLOB NOT NULL,
		insertions INTEGER NOT NULL,
		deletions  INTEGER NOT NULL,
		cid        TEXT NOT NULL
	)`,
	`CREATE INDEX commits_time ON commits (time DESC, sha)`,
	`CREATE VIRTUAL TABLE commit_terms USING fts5(message, paths, author, content='', contentless_delete=1, tokenize='ascii')`,
}

// querier is what *sql.DB and *sql.Tx share.
type querier = sqlitedb.Querier

func setMeta(ctx context.Context, q querier, key, value string) error {
	if _, err := q.ExecContext(ctx, `INSERT INTO meta (key, value) VALUES (?, ?) ON CONFLICT (key) DO UPDATE SET value = excluded.value`, key, value); err != nil {
		return fmt.Errorf("store: meta %s: %w", key, err)
	}
	return nil
}

func getMeta(ctx context.Context, q querier, key string) (string, error) {
	var v string
	err := q.QueryRowContext(ctx, `SELECT value FROM meta WHERE key = ?`, key).Scan(&v)
	if errors.Is(err, sql.ErrNoRows) {
		return "", nil
	}
	if err != nil {
		return "", fmt.Errorf("store: meta %s: %w", key, err)
	}
	return v, nil
}

// write runs fn in one write transaction, committed when fn returns nil.
func (s *Store) write(ctx context.Context, fn func(tx *sql.Tx) error) error {
	if s.opt.ReadOnly {
		return ErrReadOnly
	}
	s.wmu.Lock()
	defer s.wmu.Unlock()
	tx, err := s.db.BeginTx(ctx, nil)
	if err != nil {
		return fmt.Errorf("store: %w", err)
	}
	defer tx.Rollback()
	if err := fn(tx); err != nil {
		return err
	}
	if err := tx.Commit(); err != nil {
		return fmt.Errorf("store: %w", err)
	}
	return nil
}

// read runs fn in one read transaction, so that its queries see one
// state. It does not call fn on an empty read-only store.
func (s *Store) read(ctx context.Context, fn func(tx *sql.Tx) error) error {
	if s.db == nil {
		return nil
	}
	tx, err := s.db.BeginTx(ctx, &sql.TxOptions{ReadOnly: true})
	if err != nil {
		return fmt.Errorf("store: %w", err)
	}
	defer tx.Rollback()
	return fn(tx)
}

// now returns the time in Unix seconds by Options.Now.
func (s *Store) now() int64 {
	if s.opt.Now != nil {
		return s.opt.Now().Unix()
	}
	return time.Now().Unix()
}

// Counts are the numbers of rows of each kind.
type Counts struct{ Memories, Experiences, Values, Commits int }

// Counts returns how many memories, experiences, values and commits the
// store holds.
func (s *Store) Counts(ctx context.Context) (Counts, error) {
	var c Counts
	if s.db == nil {
		return c, nil
	}
	err := s.db.QueryRowContext(ctx, `SELECT
		(SELECT count(*) FROM memories), (SELECT count(*) FROM experiences),
		(SELECT count(*) FROM learned_values), (SELECT count(*) FROM commits)`).Scan(&c.Memories, &c.Experiences, &c.Values, &c.Commits)
	if err != nil {
		return Counts{}, fmt.Errorf("store: counts: %w", err)
	}
	return c, nil
}

// StateRoot returns the state root of the store's rows: project.StateRoot
// (a Merkle root, "sha256:" and hex) over one input per row, keyed
// "memory:<id>", "experience:<id>", "value:<id>" or "commit:<sha>", with
// the content id of the row's canonical form (canonical.go). The same rows
// give the same root, whatever order they were added in (for memories,
// experiences and values the ids are part of the rows). An empty store's
// root is that of no inputs.
func (s *Store) StateRoot(ctx context.Context) (string, error) {
	var inputs []project.Input
	err := s.read(ctx, func(tx *sql.Tx) error {
		var n int
		if err := tx.QueryRowContext(ctx, `SELECT (SELECT count(*) FROM memories) + (SELECT count(*) FROM experiences) + (SELECT count(*) FROM learned_values) + (SELECT count(*) FROM commits)`).Scan(&n); err != nil {
			return err
		}
		inputs = make([]project.Input, 0, n)
		// One column a row, "key cid", cut in Go: half the values to scan.
		rows, err := tx.QueryContext(ctx, `
			SELECT 'memory:' || id || ' ' || cid FROM memories
			UNION ALL SELECT 'experience:' || id || ' ' || cid FROM experiences
			UNION ALL SELECT 'value:' || id || ' ' || cid FROM learned_values
			UNION ALL SELECT 'commit:' || sha || ' ' || cid FROM commits`)
		if err != nil {
			return err
		}
		defer rows.Close()
		for rows.Next() {
			var line string
			if err := rows.Scan(&line); err != nil {
				return err
			}
			key, cid, _ := strings.Cut(line, " ")
			inputs = append(inputs, project.Input{Path: key, CID: cid})
		}
		return rows.Err()
	})
	if err != nil {
		return "", fmt.Errorf("store: state root: %w", err)
	}
	return project.StateRoot(inputs), nil
}
