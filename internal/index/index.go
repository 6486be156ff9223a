package index

import (
	"context"
	"crypto/sha256"
	"database/sql"
	"encoding/hex"
	"errors"
	"fmt"
	"path/filepath"
	"strconv"
	"strings"
	"sync"
	"sync/atomic"
	"time"

	"github.com/ctxpack/ctxpack/internal/chunk"
	"github.com/ctxpack/ctxpack/internal/project"
	"github.com/ctxpack/ctxpack/internal/sqlitedb"
)

// FormatVersion is the version of the database layout, stored in meta.
// Bump it, with a line below, whenever a change makes an older index
// unreadable or its rows mean something else (the terms rules included).
//
//	1: files, chunks, token_counts, meta; FTS5 chunk_terms (symbol, path, body), contentless, ascii tokenizer
//	2: vectors (cid, embedder, dim, vec): chunk embeddings by content id and embedder, int8 with a scale (vectors.go);
//	   later without token_counts, which nothing read (an index that has it
//	   names tokenizers in its options, so it is rebuilt: OptionsMismatch)
const FormatVersion = 2

// DefaultLockTimeout is how long Update waits for another update of the
// same index to finish before giving up.
const DefaultLockTimeout = 60 * time.Second

// DefaultPath returns where a project's index lives: .ctxpack/index.db
// under its root (an OS path).
func DefaultPath(root string) string {
	return filepath.Join(root, project.DirCtxpack, "index.db")
}

// Options configure an index. The zero value indexes with the walk
// defaults and as many workers as GOMAXPROCS.
type Options struct {
	// Walk chooses the files (project.WalkOptions: size limit, hidden
	// files, ignore files). Reverse and Workers are ignored. Changing it
	// does not force a rebuild: every Update walks again and adds or
	// removes what the new limits let in or out.
	Walk project.WalkOptions
	// Exclude lists slash paths, relative to the root of the fs.FS given
	// to Update, that are left out as if ignored, with everything below
	// them: the index's own files when it lives inside the tree somewhere
	// other than .ctxpack/. The artifact folders, .ctxpack/ and
	// .contextia/ (project.IsArtifactPath), are always left out: their
	// artifacts are read as artifacts, not indexed as code.
	Exclude []string
	// Workers is how many goroutines read, chunk and count files; 0 means
	// GOMAXPROCS. The index does not depend on it.
	Workers int
	// LockTimeout is how long Update waits for another update of the same
	// index; 0 means DefaultLockTimeout, negative means do not wait.
	LockTimeout time.Duration
	// ReadOnly opens the index for searching and status only: nothing is
	// created or written, and Update fails.
	ReadOnly bool
	// Now is the clock Update uses to tell which files changed so recently
	// that their modification time cannot yet be trusted (they are read
	// again next time); nil means time.Now. It never changes an answer.
	Now func() time.Time
}

// Reason says whether an index can be used as it is, and if not, why it
// must be rebuilt.
type Reason int

// The reasons. Update rebuilds the index from scratch for every reason but
// Current.
const (
	Current         Reason = iota // the index can be used and updated incrementally
	Missing                       // there is no index yet
	VersionMismatch               // written with another FormatVersion
	OptionsMismatch               // written with other chunking rules
	Corrupt                       // unreadable, or not a ctxpack index
)

var reasonNames = [...]string{"current", "missing", "version mismatch", "options mismatch", "corrupt"}

func (r Reason) String() string {
	if r < 0 || int(r) >= len(reasonNames) {
		return "reason(" + strconv.Itoa(int(r)) + ")"
	}
	return reasonNames[r]
}

// State is the state of an index when it was opened.
type State struct {
	Reason Reason
	Detail string // what was found, for people: "format 2, this build reads 1"
}

// Replaced reports whether an update found an index it had to throw away
// and build again (another format, other options, damage): worth telling
// the user, unlike a current index or a missing one.
func (s State) Replaced() bool { return s.Reason != Current && s.Reason != Missing }

func (s State) String() string {
	if s.Detail == "" {
		return s.Reason.String()
	}
	return s.Reason.String() + ": " + s.Detail
}

// Index is an open repository index. Its methods are safe for concurrent
// use; Update calls are serialized, across processes too.
type Index struct {
	path string // OS path of the database file
	opts Options

	// mu guards db, state and foreign against an Update that finds the
	// index corrupt and replaces the database under searches: searches
	// hold it for reading, Update for writing only while it swaps.
	mu    sync.RWMutex
	db    *sql.DB
	state State
	// foreign marks an SQLite database that is not a ctxpack index: Update
	// refuses to replace it.
	foreign bool
	// options is the canonical text of what the index's rows depend on
	// besides the files (see buildOptions); hash is its digest.
	options, hash string
	// damage, when set, is the State.Detail of the damage a read found
	// (see damaged): the next Update rebuilds the index.
	damage atomic.Pointer[string]
}

// Open opens the index at path, an OS path (DefaultPath for a project).
// It never modifies an existing index: it reports in the returned State
// whether the index can be used as is (Current) or why Update will rebuild
// it. Outside ReadOnly mode it creates path's directory when missing.
//
// A read-only index that is not Current cannot be searched; see
// NotCurrentError.
func Open(path string, opts Options) (*Index, State, error) {
	abs, err := filepath.Abs(path)
	if err != nil {
		return nil, State{}, fmt.Errorf("index: %w", err)
	}
	ix := &Index{path: abs, opts: opts}
	ix.options, ix.hash = buildOptions()

	fi, err := sqlitedb.Stat(abs, opts.ReadOnly)
	if err != nil {
		return nil, State{}, fmt.Errorf("index: %w", err)
	}
	if fi == nil && opts.ReadOnly {
		ix.state = State{Reason: Missing, Detail: "no index at " + abs}
		return ix, ix.state, nil
	}
	if err := ix.openDB(); err != nil {
		return nil, State{}, err
	}
	ix.state = ix.readState(context.Background())
	return ix, ix.state, nil
}

// Path returns the OS path of the database file.
func (ix *Index) Path() string { return ix.path }

// State returns the state the index was found in by Open, or that the
// last Update left it in.
func (ix *Index) State() State {
	ix.mu.RLock()
	defer ix.mu.RUnlock()
	return ix.state
}

// Close closes the database.
func (ix *Index) Close() error {
	ix.mu.Lock()
	defer ix.mu.Unlock()
	return ix.closeDB()
}

func (ix *Index) closeDB() error {
	if ix.db == nil {
		return nil
	}
	err := ix.db.Close()
	ix.db = nil
	if err != nil {
		return fmt.Errorf("index: close: %w", err)
	}
	return nil
}

func (ix *Index) openDB() error {
	pragmas := []string{"journal_mode(WAL)", "synchronous(NORMAL)", "cache_size(-32000)"}
	if ix.opts.ReadOnly {
		pragmas = []string{"cache_size(-32000)"}
	}
	db, err := sqlitedb.Open(ix.path, sqlitedb.Options{ReadOnly: ix.opts.ReadOnly, Pragmas: pragmas, MaxOpenConns: 4, MaxIdleConns: 4})
	if err != nil {
		return fmt.Errorf("index: open %s: %w", ix.path, err)
	}
	ix.db = db
	return nil
}

// buildOptions returns the canonical description of what an index's rows
// depend on besides the files and FormatVersion, and its hash: the chunker
// (its version, its parsers, which differ between cgo and pure-Go builds,
// and a fingerprint of its behaviour). They depend on the build alone, so
// they are made once, not on every Open (ctxpack serve opens the index
// for every request).
var buildOptions = sync.OnceValues(func() (text, hash string) {
	var b strings.Builder
	fmt.Fprintf(&b, "chunk.version=%d\n", chunk.Version)
	fmt.Fprintf(&b, "chunk.backend=%s\n", chunk.Backend)
	fmt.Fprintf(&b, "chunk.fingerprint=%s\n", chunkFingerprint())
	sum := sha256.Sum256([]byte(b.String()))
	return b.String(), "sha256:" + hex.EncodeToString(sum[:])
})

// chunkFingerprint chunks a fixed sample of sources and hashes the
// chunks, so that an index built by a binary whose chunker behaves
// differently is rebuilt even if chunk.Version was not bumped.
func chunkFingerprint() string {
	h := sha256.New()
	for _, s := range fingerprintSamples {
		for _, c := range chunk.Split(s.path, []byte(s.src)) {
			fmt.Fprintf(h, "%s %d %d %d %d %d %s %q\n", s.path, c.Seq, c.Start, c.End, c.StartLine, c.EndLine, c.Kind, c.Symbol)
		}
	}
	return hex.EncodeToString(h.Sum(nil)[:8])
}

var fingerprintSamples = []struct{ path, src string }{
	{"a.go", "package a\n\nimport \"fmt\"\n\n// T is a type.\ntype T struct{ n int }\n\n// Get returns n.\nfunc (t *T) Get() int { return t.n }\n\nfunc main() {\n\tfmt.Println(T{}.n)\n}\n"},
	{"a.py", "import os\n\nclass Invoice:\n    def total(self):\n        return 1\n\n    def tax(self):\n        return 2\n\ndef main():\n    print(Invoice().total())\n"},
	{"a.js", "const x = 1;\n\nfunction add(a, b) {\n  return a + b;\n}\n\nclass Cart {\n  total() { return add(1, 2); }\n}\n"},
	{"a.ts", "interface Item { price: number }\n\nexport function sum(items: Item[]): number {\n  return items.reduce((a, i) => a + i.price, 0);\n}\n"},
	{"a.rs", "use std::fmt;\n\nstruct P { x: i32 }\n\nimpl P {\n    fn new() -> P { P { x: 0 } }\n}\n\nfn main() {}\n"},
	{"a.java", "package a;\n\npublic class A {\n    int n;\n    public int get() { return n; }\n}\n"},
	{"a.c", "#include <stdio.h>\n\n#define N 3\n\nstatic int add(int a, int b) {\n  return a + b;\n}\n\nint main(void) { return add(1, N); }\n"},
	{"a.cpp", "#include <vector>\n\nnamespace n {\nclass V {\n public:\n  int size() const { return 0; }\n};\n}\n"},
	{"a.md", "# Title\n\nIntro.\n\n## Install\n\nRun it.\n\n## Use\n\nMore text.\n"},
	{"a.txt", "first block\nstill first\n\nsecond block\n\n\nthird\n"},
}

// meta keys.
const (
	metaFormat    = "format_version"
	metaOptions   = "options"
	metaHash      = "options_hash"
	metaStateRoot = "state_root"
	metaWalk      = "walk"
)

// readState reads meta and decides whether the index can be used: not
// when a read found it damaged (damagedState).
func (ix *Index) readState(ctx context.Context) State {
	if st, ok := ix.damagedState(); ok {
		return st
	}
	meta, err := ix.readMeta(ctx)
	if err != nil {
		var nm noMetaError
		if errors.As(err, &nm) {
			if nm.empty {
				return State{Reason: Missing, Detail: "no index at " + ix.path}
			}
			ix.foreign = true
		}
		return State{Reason: Corrupt, Detail: err.Error()}
	}
	for _, k := range []string{metaFormat, metaHash, metaStateRoot} {
		if _, ok := meta[k]; !ok {
			return State{Reason: Corrupt, Detail: "meta has no " + k}
		}
	}
	if v := meta[metaFormat]; v != strconv.Itoa(FormatVersion) {
		return State{Reason: VersionMismatch, Detail: fmt.Sprintf("format %s, this build reads %d", v, FormatVersion)}
	}
	if meta[metaHash] != ix.hash {
		return State{Reason: OptionsMismatch, Detail: optionsDiff(meta[metaOptions], ix.options)}
	}
	return State{Reason: Current}
}

// optionsDiff names the options that differ, for people.
func optionsDiff(old, cur string) string {
	oldKV := parseKV(old)
	var diffs []string
	for _, line := range strings.Split(strings.TrimSpace(cur), "\n") {
		k, v, _ := strings.Cut(line, "=")
		if ov, ok := oldKV[k]; !ok || ov != v {
			diffs = append(diffs, fmt.Sprintf("%s %s → %s", k, cmpOr(ov, "(none)"), v))
		}
	}
	if len(diffs) == 0 {
		return "options hash differs"
	}
	return strings.Join(diffs, ", ")
}

func parseKV(s string) map[string]string {
	m := make(map[string]string)
	for _, line := range strings.Split(strings.TrimSpace(s), "\n") {
		if k, v, ok := strings.Cut(line, "="); ok {
			m[k] = v
		}
	}
	return m
}

func cmpOr(s, def string) string {
	if s == "" {
		return def
	}
	return s
}

// noMetaError is a database without a meta table; empty says whether it
// has no tables at all (a new database).
type noMetaError struct{ empty bool }

func (e noMetaError) Error() string {
	if e.empty {
		return "empty database"
	}
	return "not a ctxpack index: the database has no meta table"
}

// readMeta returns the meta table.
func (ix *Index) readMeta(ctx context.Context) (map[string]string, error) {
	var n int
	err := ix.db.QueryRowContext(ctx, `SELECT count(*) FROM sqlite_schema WHERE type = 'table' AND name = 'meta'`).Scan(&n)
	if err != nil {
		return nil, err
	}
	if n == 0 {
		var all int
		if err := ix.db.QueryRowContext(ctx, `SELECT count(*) FROM sqlite_schema`).Scan(&all); err != nil {
			return nil, err
		}
		return nil, noMetaError{empty: all == 0}
	}
	rows, err := ix.db.QueryContext(ctx, `SELECT key, value FROM meta`)
	if err != nil {
		return nil, err
	}
	defer rows.Close()
	m := make(map[string]string)
	for rows.Next() {
		var k, v string
		if err := rows.Scan(&k, &v); err != nil {
			return nil, err
		}
		m[k] = v
	}
	return m, rows.Err()
}

// schema creates the tables of FormatVersion 2.
var schema = []string{
	`CREATE TABLE meta (key TEXT PRIMARY KEY, value TEXT NOT NULL) WITHOUT ROWID`,
	// One row per file the walk found. skip is "" for an indexed file, else
	// why it is not indexed (cid, lang and lines are then empty). recheck
	// marks a file whose mtime was too recent to trust: it is read again.
	`CREATE TABLE files (
		path     TEXT PRIMARY KEY,
		size     INTEGER NOT NULL,
		mtime_ns INTEGER NOT NULL,
		recheck  INTEGER NOT NULL,
		cid      TEXT NOT NULL,
		lang     TEXT NOT NULL,
		lines    INTEGER NOT NULL,
		chunks   INTEGER NOT NULL,
		skip     TEXT NOT NULL
	) WITHOUT ROWID`,
	// Chunks tile each indexed file; id is the rowid of its terms in
	// chunk_terms. Offsets are into the file's text as project.ReadText
	// returns it.
	`CREATE TABLE chunks (
		id         INTEGER PRIMARY KEY,
		path       TEXT NOT NULL,
		seq        INTEGER NOT NULL,
		byte_start INTEGER NOT NULL,
		byte_end   INTEGER NOT NULL,
		start_line INTEGER NOT NULL,
		end_line   INTEGER NOT NULL,
		kind       TEXT NOT NULL,
		symbol     TEXT NOT NULL,
		cid        TEXT NOT NULL,
		UNIQUE (path, seq)
	)`,
	`CREATE INDEX chunks_cid ON chunks (cid)`,
	// The code-aware terms of each chunk (see Terms), by column; contentless,
	// so only the inverted index is stored, never a copy of the text.
	`CREATE VIRTUAL TABLE chunk_terms USING fts5(symbol, path, body, content='', contentless_delete=1, tokenize='ascii')`,
	// The embedding of each chunk text, by content id and embedder
	// (embed.Embedder.ID), written by Embed; vec is int8 with a scale (see
	// vectors.go). A rowid table, not WITHOUT ROWID: rows of a WITHOUT
	// ROWID table spill to an overflow page beyond about 1,000 bytes
	// (dimension 850 here), rows of a rowid table only beyond about 4,000.
	// Measured with 70-byte embedder ids: 529 against 629 bytes a vector at
	// dimension 256, 1.2 KB both at 768, 4.7 KB against 2.2 KB at 1,536.
	`CREATE TABLE vectors (
		cid      TEXT NOT NULL,
		embedder TEXT NOT NULL,
		dim      INTEGER NOT NULL,
		vec      BLOB NOT NULL,
		PRIMARY KEY (cid, embedder)
	)`,
}

// dropAll drops every table, view and trigger in the database, inside
// tx: virtual tables first, which drops their shadow tables with them.
func dropAll(ctx context.Context, tx sqlitedb.Querier) error {
	for _, q := range []string{
		`SELECT type, name FROM sqlite_schema WHERE type = 'table' AND sql LIKE 'CREATE VIRTUAL TABLE%'`,
		`SELECT type, name FROM sqlite_schema WHERE type IN ('table', 'view', 'trigger') AND name NOT LIKE 'sqlite_%'`,
	} {
		rows, err := tx.QueryContext(ctx, q)
		if err != nil {
			return err
		}
		var drops []string
		for rows.Next() {
			var typ, name string
			if err := rows.Scan(&typ, &name); err != nil {
				rows.Close()
				return err
			}
			drops = append(drops, "DROP "+strings.ToUpper(typ)+` IF EXISTS "`+strings.ReplaceAll(name, `"`, `""`)+`"`)
		}
		rows.Close()
		if err := rows.Err(); err != nil {
			return err
		}
		for _, d := range drops {
			if _, err := tx.ExecContext(ctx, d); err != nil {
				return err
			}
		}
	}
	return nil
}

// NotCurrentError is returned when an index must be rebuilt before it can
// be searched: it is read-only, or Update was not called.
type NotCurrentError struct {
	Path  string
	State State
}

func (e *NotCurrentError) Error() string {
	return fmt.Sprintf("index: %s cannot be searched (%s); run 'ctxpack index'", e.Path, e.State)
}
