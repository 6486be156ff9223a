package store

import (
	"cmp"
	"context"
	"database/sql"
	"errors"
	"fmt"
	"path/filepath"
	"slices"
	"strconv"
	"strings"
	"sync"
	"time"

	"github.com/ctxpack/ctxpack/internal/project"
)

// FormatVersion is the version of the database layout, stored in meta.
// Bump it, with a line below and a step in each backend's migrations,
// whenever a change makes an older store unreadable or its rows mean
// something else (the terms rules included): a store is authored data,
// so an older one is migrated in place, never rebuilt.
//
//	1: meta, memories, experiences, learned_values, commits; FTS5 memory_terms, experience_{full,strategy,surprise,root_cause}, value_terms, commit_terms, contentless, ascii tokenizer (SQLite only)
//	2: namespaces: every row has ns, and ids are counted per namespace in seq; the FTS5 tables are replaced by terms and term_docs, and ranking is computed in Go (terms.go), the same on SQLite and PostgreSQL
const FormatVersion = 2

// storeKind is the meta value that marks a database as a sources store,
// so that another ctxpack database (the index has a meta table too) is
// never taken for one.
const storeKind = "ctxpack sources"

// meta keys.
const (
	metaKind   = "kind"
	metaFormat = "format_version"
	// metaCommitHead, then "/" and a namespace, is the HEAD sha the last
	// SyncCommits of the namespace read.
	metaCommitHead = "commit_head"
	// metaCommitPrefix, then "/" and a namespace, is the project root's
	// folder in its repository when the commits were read
	// (history.Tip.Prefix); a namespace without it read them at the top.
	metaCommitPrefix = "commit_prefix"
)

// DefaultPath returns where a project's store lives: .ctxpack/sources.db
// under its root (an OS path).
func DefaultPath(root string) string {
	return filepath.Join(root, project.DirCtxpack, "sources.db")
}

// DefaultNamespace is the namespace of a store opened without one, and
// the one a store of format 1 moves its rows to.
const DefaultNamespace = "default"

// Options configure a store. The zero value opens it for reading and
// writing, in DefaultNamespace, with the system clock.
type Options struct {
	// ReadOnly opens the database for reading only. A missing SQLite file,
	// or a PostgreSQL database without the store's tables, is then an
	// empty store: every list and search returns nothing, without error,
	// and nothing is created. Writes fail with ErrReadOnly.
	ReadOnly bool
	// Now is the clock that dates a memory, experience or value added
	// with Created 0; nil means time.Now.
	Now func() time.Time
	// Namespace is the namespace the store reads and writes (see
	// ValidNamespace); "" means DefaultNamespace. Several projects share
	// one database, each in its own namespace.
	Namespace string
	// Shared are other namespaces whose memories, experiences and values
	// are read too (a team's values, say), never written. Their rows say
	// which namespace they are from (Memory.Namespace…).
	Shared []string
	// Password is the PostgreSQL password, when the URL has none; "" lets
	// the driver find one (PGPASSWORD, PGPASSFILE, ~/.pgpass). SQLite
	// ignores it.
	Password string
	// LocalCommits, for a PostgreSQL store, is the OS path of an SQLite
	// store (DefaultPath) that keeps the commits instead: the git history
	// is each checkout's own, and checkouts on different branches would
	// otherwise read it again and again over each other's. "" keeps them
	// in the store's own database, in its namespace.
	LocalCommits string
}

// ValidNamespace reports whether ns can name a namespace: a lower-case
// letter or digit, then at most 62 more of letters, digits, '.', '_' and
// '-'.
func ValidNamespace(ns string) bool {
	if len(ns) == 0 || len(ns) > 63 {
		return false
	}
	for i := 0; i < len(ns); i++ {
		c := ns[i]
		switch {
		case 'a' <= c && c <= 'z', '0' <= c && c <= '9':
		case i > 0 && (c == '.' || c == '_' || c == '-'):
		default:
			return false
		}
	}
	return true
}

// ErrNotFound is returned, wrapped, when no row has the id or sha asked
// for: "store: memory 12: store: not found".
var ErrNotFound = errors.New("store: not found")

// ErrOlderFormat is returned, wrapped, when a store opened read-only has
// an older format: open it for writing once to migrate it.
var ErrOlderFormat = errors.New("open it for writing once to migrate it")

// ErrReadOnly is returned by every write to a store opened with
// Options.ReadOnly.
var ErrReadOnly = errors.New("store: the store was opened read-only")

// Store is an open sources store. Its methods are safe for concurrent
// use, by goroutines and by processes: the database serializes the
// writes (each one transaction) and readers see the last committed state.
type Store struct {
	where string // the database, for messages: an OS path, or a URL without its password
	opt   Options
	be    backend
	ns    string   // the namespace read and written
	nss   []string // the namespaces read: ns, then the shared ones, sorted
	// db is nil for a read-only store whose database does not exist or
	// holds no tables: it reads as empty.
	db *sql.DB
	// wmu serializes this store's writes, so that its goroutines queue
	// here rather than in the database's locks (SQLite's busy handler
	// polls with sleeps of up to 100 ms); other processes still wait there.
	wmu sync.Mutex
	// warnings say what Open repaired or migrated (Warnings).
	warnings []string
	// pooled: a Pool keeps the store, and Close leaves it open.
	pooled bool
	// local keeps the commits when Options.LocalCommits is set; nil when
	// the store's own database does.
	local *Store
}

// Open opens the store at location: an OS path of an SQLite file
// (DefaultPath for a project), or a PostgreSQL URL (postgres://… or
// postgresql://…, see IsURL). Unless opt.ReadOnly, it creates what is
// missing (the directory, the file, the schema) and migrates a store of
// an older FormatVersion in place. A store of a newer FormatVersion, a
// file that is not an SQLite database, and a database that holds other
// tables but not this store's are errors naming the database; such
// databases are left as they are.
func Open(location string, opt Options) (*Store, error) {
	ns := cmp.Or(opt.Namespace, DefaultNamespace)
	if !ValidNamespace(ns) {
		return nil, fmt.Errorf("store: namespace %q: a namespace is a lower-case letter or digit, then up to 62 letters, digits, '.', '_' or '-'", opt.Namespace)
	}
	nss := []string{ns}
	for _, sh := range opt.Shared {
		if !ValidNamespace(sh) {
			return nil, fmt.Errorf("store: shared namespace %q: a namespace is a lower-case letter or digit, then up to 62 letters, digits, '.', '_' or '-'", sh)
		}
		if !slices.Contains(nss, sh) {
			nss = append(nss, sh)
		}
	}
	slices.Sort(nss[1:])
	s := &Store{opt: opt, ns: ns, nss: nss}
	open := s.openSQLite
	if IsURL(location) {
		open = s.openPostgres
	}
	if err := open(location); err != nil {
		return nil, err
	}
	if opt.LocalCommits != "" && IsURL(location) {
		local, err := Open(opt.LocalCommits, Options{ReadOnly: opt.ReadOnly, Now: opt.Now})
		if err != nil {
			s.Close()
			return nil, err
		}
		s.local = local
		s.warnings = append(s.warnings, local.warnings...)
	}
	return s, nil
}

// Path returns where the database is: the OS path of an SQLite file, or
// the PostgreSQL URL without its password.
func (s *Store) Path() string { return s.where }

// Backend is "sqlite" or "postgres".
func (s *Store) Backend() string { return s.be.name() }

// Namespace is the namespace the store reads and writes.
func (s *Store) Namespace() string { return s.ns }

// Warnings say what Open found wrong and repaired, or changed: a
// write-ahead log that did not belong to the database, moved aside
// (sqlitedb.SetAsideStaleWAL); a store of an older format, migrated.
// Only an Open for writing repairs or migrates.
func (s *Store) Warnings() []string { return s.warnings }

// Close closes the database. A store is not usable after Close. The
// Close of a store a Pool keeps does nothing.
func (s *Store) Close() error {
	if s.pooled {
		return nil
	}
	var errs []error
	if s.local != nil {
		errs = append(errs, s.local.Close())
	}
	if s.db != nil {
		if err := s.db.Close(); err != nil {
			errs = append(errs, fmt.Errorf("store: close %s: %w", s.where, err))
		}
	}
	return errors.Join(errs...)
}

// conn returns q as a conn of the store's backend.
func (s *Store) conn(q querier) conn { return conn{q: q, be: s.be} }

// prepare checks that the database is a store this build reads, creating
// or migrating it when allowed. It reports whether the store is empty
// and read-only (no schema to read).
func (s *Store) prepare(ctx context.Context) (empty bool, err error) {
	found, err := s.inspect(ctx, s.conn(s.db))
	if err != nil {
		return false, err
	}
	if s.opt.ReadOnly {
		switch {
		case !found.store:
			return true, nil
		case found.version < FormatVersion:
			return false, fmt.Errorf("store: %s has format %d, this build reads %d: %w", s.where, found.version, FormatVersion, ErrOlderFormat)
		}
		return false, nil
	}
	if !found.store || found.version < FormatVersion {
		if err := s.write(ctx, func(tx conn) error { return s.upgrade(ctx, tx) }); err != nil {
			return false, err
		}
	}
	return false, nil
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
func (s *Store) inspect(ctx context.Context, q conn) (found, error) {
	tables, meta, err := s.be.tables(ctx, q)
	if err != nil {
		return found{}, s.describe(err)
	}
	if !meta {
		if tables > 0 {
			return found{}, fmt.Errorf("store: %s is a database but not a sources store (it has %d tables and no meta table); it was left as it is", s.where, tables)
		}
		return found{}, nil
	}
	m := map[string]string{}
	rows, err := q.QueryContext(ctx, `SELECT key, value FROM meta WHERE key IN (?, ?)`, metaKind, metaFormat)
	if err == nil {
		for rows.Next() {
			var k, v string
			if err = rows.Scan(&k, &v); err != nil {
				break
			}
			m[k] = v
		}
		rows.Close()
		if err == nil {
			err = rows.Err()
		}
	}
	if err != nil {
		return found{}, s.describe(fmt.Errorf("reading meta: %w", err))
	}
	if m[metaKind] != storeKind {
		return found{}, fmt.Errorf("store: %s is a database but not a sources store (its meta table has no %s %q); it was left as it is", s.where, metaKind, storeKind)
	}
	v, err := strconv.Atoi(m[metaFormat])
	switch {
	case err != nil || v < 1:
		return found{}, fmt.Errorf("store: %s: format %q is not a version number", s.where, m[metaFormat])
	case v > FormatVersion:
		return found{}, fmt.Errorf("store: %s has format %d, newer than the %d this build reads; use a newer ctxpack", s.where, v, FormatVersion)
	}
	return found{store: true, version: v}, nil
}

// upgrade creates the schema in an empty database, or migrates an older
// store, inside tx. It takes the backend's schema lock and looks again,
// since another process may have done it between Open's look and now.
func (s *Store) upgrade(ctx context.Context, tx conn) error {
	if err := s.be.lock(ctx, tx); err != nil {
		return s.describe(err)
	}
	f, err := s.inspect(ctx, tx)
	if err != nil {
		return err
	}
	if !f.store {
		for _, stmt := range s.be.schema() {
			if _, err := tx.ExecContext(ctx, stmt); err != nil {
				return s.describe(fmt.Errorf("creating the schema: %w", err))
			}
		}
		if _, err := tx.ExecContext(ctx, `INSERT INTO meta (key, value) VALUES (?, ?)`, metaKind, storeKind); err != nil {
			return fmt.Errorf("store: %s: %w", s.where, err)
		}
		return setMeta(ctx, tx, metaFormat, strconv.Itoa(FormatVersion))
	}
	steps := s.be.migrations()
	// The file's name, not its path: warnings reach outputs, which hold
	// no absolute path.
	name := s.where
	if s.be.name() == "sqlite" {
		name = filepath.Base(s.where)
	}
	s.warnings = append(s.warnings, fmt.Sprintf("store: %s was migrated from format %d to %d, in place", name, f.version, FormatVersion))
	for v := f.version; v < FormatVersion; v++ {
		if v-1 >= len(steps) {
			return fmt.Errorf("store: %s: format %d is not one a %s store had; it was left as it is", s.where, v, s.be.name())
		}
		if err := steps[v-1](ctx, s, tx); err != nil {
			return fmt.Errorf("store: %s: migrating format %d to %d: %w", s.where, v, v+1, err)
		}
	}
	return setMeta(ctx, tx, metaFormat, strconv.Itoa(FormatVersion))
}

func setMeta(ctx context.Context, q conn, key, value string) error {
	if _, err := q.ExecContext(ctx, `INSERT INTO meta (key, value) VALUES (?, ?) ON CONFLICT (key) DO UPDATE SET value = excluded.value`, key, value); err != nil {
		return fmt.Errorf("store: meta %s: %w", key, err)
	}
	return nil
}

func getMeta(ctx context.Context, q conn, key string) (string, error) {
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
// A write is never run again by the store: when the connection is lost
// at its commit, only the database knows whether it was applied.
func (s *Store) write(ctx context.Context, fn func(tx conn) error) error {
	if s.opt.ReadOnly {
		return ErrReadOnly
	}
	s.wmu.Lock()
	defer s.wmu.Unlock()
	tx, err := s.db.BeginTx(ctx, nil)
	if err != nil {
		return s.describe(err)
	}
	defer tx.Rollback()
	if err := fn(s.conn(tx)); err != nil {
		return s.describe(err)
	}
	if err := tx.Commit(); err != nil {
		return s.describe(err)
	}
	return nil
}

// read runs fn in one read transaction, so that its queries see one
// state. It does not call fn on an empty read-only store. A read that
// fails because its connection was lost (the server restarted) runs once
// more, on a new connection.
func (s *Store) read(ctx context.Context, fn func(tx conn) error) error {
	if s.db == nil {
		return nil
	}
	err := s.readOnce(ctx, fn)
	if err != nil && s.be.retry(err) && ctx.Err() == nil {
		err = s.readOnce(ctx, fn)
	}
	return s.describe(err)
}

func (s *Store) readOnce(ctx context.Context, fn func(tx conn) error) error {
	tx, err := s.be.beginRead(ctx, s.db)
	if err != nil {
		return err // read names it (describe)
	}
	defer tx.Rollback()
	return fn(s.conn(tx))
}

// describe returns err as the backend says it: an *UnreachableError
// when the database could not be reached, else err named with the
// database ("store: PATH: …") unless it is already.
func (s *Store) describe(err error) error {
	if err == nil {
		return nil
	}
	if err = s.be.describe(s.where, err); strings.HasPrefix(err.Error(), "store: ") {
		return err
	}
	return fmt.Errorf("store: %s: %w", s.where, err)
}

// UnreachableError is a store's operation that failed because its
// database could not be reached: the server is down, restarting or
// elsewhere. Its message says so, and what to do, without the steps that
// led there; Err is the driver's error.
type UnreachableError struct {
	Where string // the database: its URL without the password
	Err   error
}

func (e *UnreachableError) Error() string {
	return fmt.Sprintf("store: the database %s cannot be reached (%s): is the server running, and are host and port right? ctxpack connects again on the next request", e.Where, rootCause(e.Err))
}

func (e *UnreachableError) Unwrap() error { return e.Err }

// wrap prefixes err with what failed ("store: state root: …"), unless
// it is an *UnreachableError, whose message says all there is.
func wrap(what string, err error) error {
	var u *UnreachableError
	if err == nil || errors.As(err, &u) {
		return err
	}
	return fmt.Errorf("store: %s: %w", what, err)
}

// now returns the time in Unix seconds by Options.Now.
func (s *Store) now() int64 {
	if s.opt.Now != nil {
		return s.opt.Now().Unix()
	}
	return time.Now().Unix()
}

// nsIn is the condition that a row's ns is one the store reads, with its
// arguments, for a table qualified by alias ("" for none).
func (s *Store) nsIn(alias string) (string, []any) {
	col := "ns"
	if alias != "" {
		col = alias + ".ns"
	}
	args := make([]any, len(s.nss))
	for i, n := range s.nss {
		args[i] = n
	}
	if len(args) == 1 {
		return col + ` = ?`, args
	}
	return col + ` IN (` + params(len(args)) + `)`, args
}

// foreign returns ns when it is not the store's own namespace, else "":
// the Namespace of a row read.
func (s *Store) foreign(ns string) string {
	if ns == s.ns {
		return ""
	}
	return ns
}

// nextID returns the next id of kind ("memory", "experience", "value",
// "commit") in the store's namespace, inside tx. Ids are never given
// again: seq keeps the last one, even after its row is removed. On
// PostgreSQL the row lock this takes orders the namespace's writers.
func (s *Store) nextID(ctx context.Context, tx conn, kind string) (int64, error) {
	var id int64
	err := tx.QueryRowContext(ctx, `INSERT INTO seq (ns, kind, last) VALUES (?, ?, 1)
		ON CONFLICT (ns, kind) DO UPDATE SET last = seq.last + 1 RETURNING last`, s.ns, kind).Scan(&id)
	if err != nil {
		return 0, fmt.Errorf("store: next %s id: %w", kind, err)
	}
	return id, nil
}

// seenID records that id of kind is taken in the store's namespace (an
// import keeps its ids), so that nextID gives only later ones.
func (s *Store) seenID(ctx context.Context, tx conn, kind string, id int64) error {
	_, err := tx.ExecContext(ctx, `INSERT INTO seq (ns, kind, last) VALUES (?, ?, ?)
		ON CONFLICT (ns, kind) DO UPDATE SET last = CASE WHEN seq.last < excluded.last THEN excluded.last ELSE seq.last END`, s.ns, kind, id)
	if err != nil {
		return fmt.Errorf("store: %s ids: %w", kind, err)
	}
	return nil
}

// Counts are the numbers of rows of each kind.
type Counts struct {
	Memories    int `json:"memories"`
	Experiences int `json:"experiences"`
	Values      int `json:"values"`
	Commits     int `json:"commits"`
}

// Counts returns how many memories, experiences and values the store
// reads (its namespace's and the shared ones'), and how many commits its
// namespace holds.
func (s *Store) Counts(ctx context.Context) (Counts, error) {
	var c Counts
	in, args := s.nsIn("")
	err := s.read(ctx, func(tx conn) error {
		return tx.QueryRowContext(ctx, `SELECT
		(SELECT count(*) FROM memories WHERE `+in+`), (SELECT count(*) FROM experiences WHERE `+in+`),
		(SELECT count(*) FROM learned_values WHERE `+in+`), (SELECT count(*) FROM commits WHERE ns = ?)`,
			slices.Concat(args, args, args, []any{s.ns})...).Scan(&c.Memories, &c.Experiences, &c.Values, &c.Commits)
	})
	if err != nil {
		return Counts{}, wrap("counts", err)
	}
	if s.local != nil {
		lc, err := s.local.Counts(ctx)
		if err != nil {
			return Counts{}, err
		}
		c.Commits = lc.Commits
	}
	return c, nil
}

// StateRoot returns the state root of the rows the store reads:
// project.StateRoot (a Merkle root, "sha256:" and hex) over one input per
// row, keyed "memory:<id>", "experience:<id>", "value:<id>" or
// "commit:<sha>" (a row of a shared namespace adds "@" and the
// namespace: "value:3@team"), with the content id of the row's canonical
// form (canonical.go). The same rows give the same root, whatever order
// they were added in and whichever backend holds them (for memories,
// experiences and values the ids are part of the rows). An empty store's
// root is that of no inputs.
func (s *Store) StateRoot(ctx context.Context) (string, error) {
	inputs, err := s.rootInputs(ctx, true, s.local == nil)
	if err == nil && s.local != nil {
		var commits []project.Input
		commits, err = s.local.rootInputs(ctx, false, true)
		inputs = append(inputs, commits...)
	}
	if err != nil {
		return "", wrap("state root", err)
	}
	return project.StateRoot(inputs), nil
}

// rootInputs returns StateRoot's inputs: of the memories, experiences and
// values the store reads when rows is set, of its commits when commits
// is.
func (s *Store) rootInputs(ctx context.Context, rows, commits bool) ([]project.Input, error) {
	var parts []string
	var args []any
	if rows {
		in, nsArgs := s.nsIn("")
		parts = append(parts,
			`SELECT 'memory', ns, CAST(id AS TEXT), cid FROM memories WHERE `+in,
			`SELECT 'experience', ns, CAST(id AS TEXT), cid FROM experiences WHERE `+in,
			`SELECT 'value', ns, CAST(id AS TEXT), cid FROM learned_values WHERE `+in)
		args = slices.Concat(nsArgs, nsArgs, nsArgs)
	}
	if commits {
		parts = append(parts, `SELECT 'commit', ns, sha, cid FROM commits WHERE ns = ?`)
		args = append(args, s.ns)
	}
	var inputs []project.Input
	err := s.read(ctx, func(tx conn) error {
		inputs = inputs[:0]
		rows, err := tx.QueryContext(ctx, strings.Join(parts, ` UNION ALL `), args...)
		if err != nil {
			return err
		}
		defer rows.Close()
		for rows.Next() {
			var kind, ns, id, cid string
			if err := rows.Scan(&kind, &ns, &id, &cid); err != nil {
				return err
			}
			inputs = append(inputs, project.Input{Path: RowKey(kind, id, s.foreign(ns)), CID: cid})
		}
		return rows.Err()
	})
	return inputs, err
}

// RowKey is the key of a row: "memory:12", or "value:3@team" for a row
// of another namespace (ns not ""). Outputs and state roots name rows so.
func RowKey(kind, id, ns string) string {
	if ns == "" {
		return kind + ":" + id
	}
	return kind + ":" + id + "@" + ns
}
