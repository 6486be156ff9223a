// Package sqlitedb opens the SQLite database files that ctxpack keeps
// under .ctxpack/: the repository index (internal/index) and the sources
// store (internal/store). Each package owns its schema and its meta; this
// one holds what opening a file takes, the same for both.
package sqlitedb

import (
	"bytes"
	"context"
	"database/sql"
	"errors"
	"io"
	"io/fs"
	"net/url"
	"os"
	"path/filepath"
	"strconv"
	"strings"

	"modernc.org/sqlite" // registers the "sqlite" driver
	sqlite3 "modernc.org/sqlite/lib"
)

// Options say how Open connects to a database.
type Options struct {
	// ReadOnly opens the file with mode=ro: SQLite neither creates nor
	// writes it.
	ReadOnly bool
	// Pragmas run on every new connection, in order, after
	// busy_timeout(10000): "synchronous(NORMAL)".
	Pragmas []string
	// ImmediateTx makes a write transaction take the write lock when it
	// begins (_txlock=immediate), so that two writers wait for each other
	// under busy_timeout instead of one failing when it upgrades a read
	// lock.
	ImmediateTx bool
	// MaxOpenConns and MaxIdleConns size the connection pool.
	MaxOpenConns, MaxIdleConns int
}

// Stat returns the file at path, an OS path, or nil, and no error, when
// there is none; then, unless readOnly, it creates the file's directory so
// that SQLite can create the file.
func Stat(path string, readOnly bool) (fs.FileInfo, error) {
	fi, err := os.Stat(path)
	if !errors.Is(err, fs.ErrNotExist) {
		return fi, err
	}
	if !readOnly {
		if err := os.MkdirAll(filepath.Dir(path), 0o777); err != nil {
			return nil, err
		}
	}
	return nil, nil
}

// Open opens the database at path, an absolute OS path, with the "sqlite"
// driver. Like sql.Open it connects only when first used.
func Open(path string, opt Options) (*sql.DB, error) {
	db, err := sql.Open("sqlite", DSN(path, opt))
	if err != nil {
		return nil, err
	}
	db.SetMaxOpenConns(opt.MaxOpenConns)
	db.SetMaxIdleConns(opt.MaxIdleConns)
	return db, nil
}

// DSN returns the data source name of the database at path, an absolute
// OS path: a file: URI, so that SQLite reads mode=ro, with the connection
// settings of opt.
func DSN(path string, opt Options) string {
	u := url.URL{Scheme: "file", Path: filepath.ToSlash(path)}
	if !strings.HasPrefix(u.Path, "/") {
		u.Path = "/" + u.Path // Windows drive letters: file:///C:/…
	}
	q := url.Values{}
	q.Add("_pragma", "busy_timeout(10000)")
	for _, p := range opt.Pragmas {
		q.Add("_pragma", p)
	}
	if opt.ReadOnly {
		q.Set("mode", "ro")
	}
	if opt.ImmediateTx {
		q.Set("_txlock", "immediate")
	}
	return u.String() + "?" + q.Encode()
}

// header starts every SQLite database file.
var header = []byte("SQLite format 3\x00")

// IsSQLiteFile reports whether the file at p is missing, empty, or starts
// like an SQLite database: whether SQLite may create or open it without
// destroying a file that was never a database.
func IsSQLiteFile(p string) (bool, error) {
	f, err := os.Open(p)
	if errors.Is(err, fs.ErrNotExist) {
		return true, nil
	}
	if err != nil {
		return false, err
	}
	defer f.Close()
	buf := make([]byte, len(header))
	n, err := io.ReadFull(f, buf)
	if n == 0 && (err == io.EOF || err == nil) {
		return true, nil
	}
	return bytes.Equal(buf[:n], header), nil
}

// Querier is what *sql.DB, *sql.Conn and *sql.Tx share.
type Querier interface {
	ExecContext(ctx context.Context, query string, args ...any) (sql.Result, error)
	QueryContext(ctx context.Context, query string, args ...any) (*sql.Rows, error)
	QueryRowContext(ctx context.Context, query string, args ...any) *sql.Row
}

// IsCorrupt reports whether err, or an error it wraps, is SQLite finding
// the database file damaged (SQLITE_CORRUPT, with any extended code) or
// not a database at all (SQLITE_NOTADB): what no retry or wait can fix.
func IsCorrupt(err error) bool {
	var se *sqlite.Error
	if !errors.As(err, &se) {
		return false
	}
	switch se.Code() & 0xff {
	case sqlite3.SQLITE_CORRUPT, sqlite3.SQLITE_NOTADB:
		return true
	}
	return false
}

// QuickCheck runs PRAGMA quick_check over the database q reads and
// returns nil when it finds it whole, else an error that says what is
// wrong first: the check's own finding, or SQLite's error when reading
// stopped it.
func QuickCheck(ctx context.Context, q Querier) error {
	var first string
	if err := q.QueryRowContext(ctx, `PRAGMA quick_check(1)`).Scan(&first); err != nil {
		return err
	}
	if first != "ok" {
		return errors.New(strings.ReplaceAll(first, "\n", "; "))
	}
	return nil
}

// walHeaderBytes is the size of a write-ahead log's header: a log no
// longer than it holds no page.
const walHeaderBytes = 32

// StaleWAL is a write-ahead log that SetAsideStaleWAL moved aside.
type StaleWAL struct {
	WAL     string // where it was: the database's path and "-wal"
	MovedTo string // where it is: "…-wal.stale-N"
	Damage  string // what quick_check found in the database read with it
}

// SetAsideStaleWAL looks at the write-ahead log beside the database at
// path, an OS path, before the database is opened for writing, and moves
// it aside when it does not belong to the database: when the database
// read with it is damaged (quick_check, on a read-only connection, which
// never writes the log into the database) while the database without it
// (a copy, checked alone) is whole. That is what a database restored from
// a backup, or copied in, next to the log of the one it replaced looks
// like: SQLite would otherwise lay the log's pages over the other
// database's, damaging it for good at the next checkpoint. The log is
// renamed to path-wal.stale-N (the first N free), never deleted, since it
// may hold changes that were not in the backup; the -shm index of it goes.
//
// A missing log, one without a page, one that reads fine, and one beside a
// database that is damaged without it too are left as they are: it
// returns nil, as it does when it cannot tell.
func SetAsideStaleWAL(ctx context.Context, path string) (*StaleWAL, error) {
	wal := path + "-wal"
	fi, err := os.Stat(wal)
	if errors.Is(err, fs.ErrNotExist) || err == nil && fi.Size() <= walHeaderBytes {
		return nil, nil
	}
	if err != nil {
		return nil, err
	}
	if _, err := os.Stat(path); err != nil {
		return nil, nil // no database: nothing to compare the log with
	}
	damage := damageOf(ctx, path, true)
	if damage == "" {
		return nil, nil
	}
	alone, err := damageOfCopy(ctx, path)
	if err != nil || alone != "" {
		return nil, err
	}
	for n := 1; ; n++ {
		to := wal + ".stale-" + strconv.Itoa(n)
		if _, err := os.Lstat(to); !errors.Is(err, fs.ErrNotExist) {
			continue
		}
		if err := os.Rename(wal, to); err != nil {
			return nil, err
		}
		if err := os.Remove(path + "-shm"); err != nil && !errors.Is(err, fs.ErrNotExist) {
			return nil, err
		}
		return &StaleWAL{WAL: wal, MovedTo: to, Damage: damage}, nil
	}
}

// damageOf quick-checks the database at path, read-only when readOnly,
// and says what is damaged; "" when it is whole, or cannot be read for
// another reason than damage.
func damageOf(ctx context.Context, path string, readOnly bool) string {
	db, err := Open(path, Options{ReadOnly: readOnly, MaxOpenConns: 1})
	if err != nil {
		return ""
	}
	defer db.Close()
	err = QuickCheck(ctx, db)
	var se *sqlite.Error
	if err == nil || errors.As(err, &se) && !IsCorrupt(err) {
		return ""
	}
	return err.Error()
}

// damageOfCopy is damageOf a copy of the database file at path, alone,
// without the log beside it.
func damageOfCopy(ctx context.Context, path string) (string, error) {
	dir, err := os.MkdirTemp("", "ctxpack-check-*")
	if err != nil {
		return "", err
	}
	defer os.RemoveAll(dir)
	cp := filepath.Join(dir, "copy.db")
	src, err := os.Open(path)
	if err != nil {
		return "", err
	}
	defer src.Close()
	dst, err := os.Create(cp)
	if err != nil {
		return "", err
	}
	_, err = io.Copy(dst, src)
	if cerr := dst.Close(); err == nil {
		err = cerr
	}
	if err != nil {
		return "", err
	}
	return damageOf(ctx, cp, false), nil
}
