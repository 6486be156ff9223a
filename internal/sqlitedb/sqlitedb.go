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
