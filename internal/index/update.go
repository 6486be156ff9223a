package index

import (
	"cmp"
	"context"
	"database/sql"
	"errors"
	"fmt"
	"io/fs"
	"os"
	"runtime"
	"slices"
	"strings"
	"sync"
	"time"

	"github.com/ctxpack/ctxpack/internal/chunk"
	"github.com/ctxpack/ctxpack/internal/lexical"
	"github.com/ctxpack/ctxpack/internal/project"
	"github.com/ctxpack/ctxpack/internal/sqlitedb"
)

// racyWindow is how close to the start of an update a file's modification
// time may be before it is no longer trusted: a file changed again within
// the file system's timestamp granularity could keep its size and mtime.
// Such files are marked and read again by the next update (git calls them
// "racily clean").
const racyWindow = 2 * time.Second

// Progress is what Update reports while it works.
type Progress struct {
	Phase  string // "lock" (waiting for another update), "walk", "index", "commit"
	Done   int    // files processed in the index phase
	Total  int    // files to process in the index phase
	Holder string // in the lock phase: who holds the lock
}

// Stats describe what an Update did.
type Stats struct {
	// Rebuilt is the state the index was in before: Current unless
	// Update rebuilt it from scratch.
	Rebuilt State

	Files     int // indexed files
	Chunks    int // their chunks
	Skipped   int // files found but not indexed (binary, too large, unreadable)
	Languages []LanguageCount

	Added     int // files indexed that were not before
	Changed   int // files whose content changed
	Touched   int // files read again whose content had not changed
	Removed   int // files no longer indexed
	Unchanged int // files not read: size and mtime as recorded

	StateRoot string
	Wrote     bool // whether the database was written
}

// LanguageCount is how many indexed files and chunks one language has.
type LanguageCount struct {
	Lang          string // chunk.Language, "" for plain text
	Files, Chunks int
}

// fileRow is a row of the files table.
type fileRow struct {
	path        string
	size, mtime int64
	recheck     bool
	cid, lang   string
	lines       int
	chunks      int
	skip        string
}

// job is a file Update must read.
type job struct {
	f   project.File
	old *fileRow // nil when the file is new
}

// result is what a worker made of one file.
type result struct {
	job
	gone     bool   // vanished between the walk and the read
	skip     string // unreadable: why
	same     bool   // content unchanged: only size and mtime are written
	cid      string
	lang     string
	lines    int
	chunks   []chunkRow
	repaired bool
}

type chunkRow struct {
	chunk.Chunk
	cid                string
	symbol, path, body string // terms, space-separated
}

// Update brings the index in line with the files in fsys, the project
// root: it walks fsys with Options.Walk, reads the files whose size or
// modification time differ from the index (or are new), re-chunks those
// whose content changed, and deletes what is gone. An
// index that is not Current is rebuilt from scratch, as is one a read
// found damaged (*DamagedError) or whose damage the update meets itself.
//
// All of an update's writes are one SQLite transaction: a crash or kill at
// any moment leaves the index as it was before the update or as it is
// after it. Updates of one index are serialized through a lock file next
// to the database; Update waits Options.LockTimeout for another update and
// then fails with *LockError. progress, if not nil, is called from one
// goroutine at a time.
//
// The result depends only on the files (paths, contents, and which are
// skipped and why): not on Options.Workers, walk order or timing.
func (ix *Index) Update(ctx context.Context, fsys fs.FS, progress func(Progress)) (*Stats, error) {
	if ix.opts.ReadOnly {
		return nil, errors.New("index: update: the index was opened read-only")
	}
	if progress == nil {
		progress = func(Progress) {}
	}
	lk, err := ix.lockUpdates(ctx, progress)
	if err != nil {
		return nil, err
	}
	defer lk.unlock()

	// Another process may have rebuilt or updated the index since Open.
	ix.mu.Lock()
	before := ix.readState(ctx)
	if before.Reason == Corrupt {
		err = ix.removeCorrupt(before)
	}
	ix.mu.Unlock()
	if err != nil {
		return nil, err
	}
	u := &updater{ix: ix, fsys: fsys, progress: progress, rebuild: before.Reason != Current, start: ix.now()}
	stats, err := u.run(ctx)
	if sqlitedb.IsCorrupt(err) && before.Reason != Corrupt {
		// The update met damage its first reads did not show: the index
		// is derived data, so it is deleted and built again, once.
		before = State{Reason: Corrupt, Detail: damageDetail(err)}
		ix.mu.Lock()
		err = ix.removeCorrupt(before)
		ix.mu.Unlock()
		if err != nil {
			return nil, err
		}
		u = &updater{ix: ix, fsys: fsys, progress: progress, rebuild: true, start: ix.now()}
		stats, err = u.run(ctx)
	}
	if err != nil {
		return nil, ix.damaged(err)
	}
	stats.Rebuilt = before
	ix.mu.Lock()
	ix.state = State{Reason: Current}
	ix.mu.Unlock()
	return stats, nil
}

// removeCorrupt deletes a corrupt index so that it can be built again,
// unless the file is not an index at all. ix.mu is held.
func (ix *Index) removeCorrupt(st State) error {
	if ix.foreign {
		return fmt.Errorf("index: %s is an SQLite database but not a ctxpack index; remove it or choose another index file", ix.path)
	}
	if err := ix.closeDB(); err != nil {
		return err
	}
	ok, err := sqlitedb.IsSQLiteFile(ix.path)
	if err != nil {
		return fmt.Errorf("index: %w", err)
	}
	if !ok {
		return fmt.Errorf("index: %s is not an SQLite database (%s); remove it or choose another index file", ix.path, st.Detail)
	}
	for _, suffix := range []string{"", "-wal", "-shm", "-journal"} {
		if err := os.Remove(ix.path + suffix); err != nil && !errors.Is(err, fs.ErrNotExist) {
			return fmt.Errorf("index: remove corrupt index: %w", err)
		}
	}
	if err := ix.clearDamage(); err != nil {
		return err
	}
	return ix.openDB()
}

// updater holds one update's state.
type updater struct {
	ix       *Index
	fsys     fs.FS
	progress func(Progress)
	rebuild  bool
	start    time.Time

	conn  *sql.Conn
	stmts map[string]*sql.Stmt
	stats Stats

	terms     []termsRow // held back for the full-text index; see flushTerms
	termBytes int
}

func (u *updater) run(ctx context.Context) (*Stats, error) {
	conn, err := u.ix.db.Conn(ctx)
	if err != nil {
		return nil, fmt.Errorf("index: %w", err)
	}
	defer conn.Close()
	u.conn = conn
	// The write lock is taken before anything is read, so that no other
	// writer (on a platform without the lock file) can slip in between.
	if _, err := conn.ExecContext(ctx, `BEGIN IMMEDIATE`); err != nil {
		return nil, fmt.Errorf("index: begin: %w", err)
	}
	committed := false
	defer func() {
		if !committed {
			_, _ = conn.ExecContext(context.WithoutCancel(ctx), `ROLLBACK`)
		}
	}()
	wrote, err := u.sync(ctx)
	if err != nil {
		return nil, err
	}
	if !wrote {
		return &u.stats, nil // nothing changed: the transaction is rolled back
	}
	u.progress(Progress{Phase: "commit"})
	if _, err := conn.ExecContext(ctx, `COMMIT`); err != nil {
		return nil, fmt.Errorf("index: commit: %w", err)
	}
	committed = true
	u.stats.Wrote = true
	// Fold the write-ahead log back into the database so that it does not
	// stay as large as the update; readers may hold it, so this can be
	// partial, which is fine.
	_, _ = conn.ExecContext(ctx, `PRAGMA wal_checkpoint(TRUNCATE)`)
	return &u.stats, nil
}

// sync does the work of an update inside the transaction and reports
// whether it wrote anything.
func (u *updater) sync(ctx context.Context) (bool, error) {
	ix := u.ix
	wrote := false
	if u.rebuild {
		if err := dropAll(ctx, u.conn); err != nil {
			return false, fmt.Errorf("index: rebuild: %w", err)
		}
		for _, q := range schema {
			if _, err := u.conn.ExecContext(ctx, q); err != nil {
				return false, fmt.Errorf("index: create schema: %w", err)
			}
		}
		wrote = true
	}
	old, err := u.loadFiles(ctx)
	if err != nil {
		return false, err
	}
	meta, err := u.loadMeta(ctx)
	if err != nil {
		return false, err
	}

	u.progress(Progress{Phase: "walk"})
	files, skipped, err := ix.walk(u.fsys)
	if err != nil {
		return false, fmt.Errorf("index: %w", err)
	}

	// Plan: what is gone, what must be read, what is skipped now.
	present := make(map[string]bool, len(files)+len(skipped))
	var jobs []job
	for _, f := range files {
		present[f.Path] = true
		o, ok := old[f.Path]
		switch {
		case !ok:
			jobs = append(jobs, job{f: f})
		case o.skip == "" && !o.recheck && o.size == f.Size && o.mtime == f.ModTime.UnixNano():
			u.stats.Unchanged++
		default:
			jobs = append(jobs, job{f: f, old: o})
		}
	}
	var skipWrites []project.Skipped
	for _, s := range skipped {
		present[s.Path] = true
		if o, ok := old[s.Path]; !ok || o.skip != s.Reason {
			skipWrites = append(skipWrites, s)
		}
	}
	var gone []string
	for p := range old {
		if !present[p] {
			gone = append(gone, p)
		}
	}
	slices.Sort(gone)
	wopt := ix.opts.Walk
	walkText := fmt.Sprintf("max_file_bytes=%d include_hidden=%t ignore_files=%s",
		cmp.Or(wopt.MaxFileBytes, project.DefaultMaxFileBytes), wopt.IncludeHidden, ignoreFilesText(wopt.IgnoreFiles))
	if wopt.SkipGenerated {
		walkText += " skip_generated=true"
	}
	if len(ix.opts.Exclude) > 0 {
		walkText += " exclude=" + strings.Join(ix.opts.Exclude, ",")
	}

	if !wrote && len(jobs) == 0 && len(gone) == 0 && len(skipWrites) == 0 && meta[metaWalk] == walkText {
		// Nothing to do; report the index as it is.
		return false, u.finishStats(ctx, meta[metaStateRoot])
	}

	if err := u.prepare(ctx); err != nil {
		return false, err
	}
	defer func() {
		for _, s := range u.stmts {
			s.Close()
		}
	}()
	for _, p := range gone {
		if err := u.deleteFile(ctx, p, old[p]); err != nil {
			return false, err
		}
		if old[p].skip == "" {
			u.stats.Removed++
		}
		delete(old, p)
	}
	for _, s := range skipWrites {
		o := old[s.Path]
		if o != nil && o.skip == "" {
			u.stats.Removed++
			if err := u.deleteChunks(ctx, s.Path); err != nil {
				return false, err
			}
		}
		row := &fileRow{path: s.Path, skip: s.Reason}
		if err := u.putFile(ctx, row); err != nil {
			return false, err
		}
		old[s.Path] = row
	}
	if err := u.readAndWrite(ctx, jobs, old); err != nil {
		return false, err
	}
	if err := u.flushTerms(ctx); err != nil {
		return false, err
	}

	// The state root over every indexed file, and the meta rows.
	inputs := make([]project.Input, 0, len(old))
	for _, r := range old {
		if r.skip == "" {
			inputs = append(inputs, project.Input{Path: r.path, CID: r.cid})
		}
	}
	root := project.StateRoot(inputs)
	for _, kv := range [][2]string{
		{metaFormat, fmt.Sprint(FormatVersion)},
		{metaOptions, ix.options},
		{metaHash, ix.hash},
		{metaStateRoot, root},
		{metaWalk, walkText},
	} {
		if _, err := u.conn.ExecContext(ctx, `INSERT OR REPLACE INTO meta (key, value) VALUES (?, ?)`, kv[0], kv[1]); err != nil {
			return false, fmt.Errorf("index: write meta: %w", err)
		}
	}
	return true, u.finishStats(ctx, root)
}

func ignoreFilesText(names []string) string {
	if names == nil {
		names = project.DefaultIgnoreFiles()
	}
	return strings.Join(names, ",")
}

// walk lists the files an update indexes and those it skips, with why:
// project.Walk with Options.Walk, less Options.Exclude.
func (ix *Index) walk(fsys fs.FS) ([]project.File, []project.Skipped, error) {
	wopt := ix.opts.Walk
	wopt.Reverse, wopt.Workers = false, ix.opts.Workers
	files, skipped, err := project.Walk(fsys, nil, wopt)
	if err != nil {
		return nil, nil, err
	}
	files = slices.DeleteFunc(files, func(f project.File) bool { return left(ix.opts.Exclude, f.Path) })
	skipped = slices.DeleteFunc(skipped, func(s project.Skipped) bool { return left(ix.opts.Exclude, s.Path) })
	return files, skipped, nil
}

// left reports whether the index leaves p out: an excluded path, or the
// artifact folders (project.IsArtifactPath), whose artifacts ctxpack
// reads as artifacts, never as chunks of code.
func left(exclude []string, p string) bool {
	return project.IsArtifactPath(p) || excluded(exclude, p)
}

// excluded reports whether p is one of the excluded paths or below one.
func excluded(exclude []string, p string) bool {
	for _, e := range exclude {
		if p == e || strings.HasPrefix(p, e+"/") {
			return true
		}
	}
	return false
}

// finishStats fills the totals from the files table.
func (u *updater) finishStats(ctx context.Context, root string) error {
	u.stats.StateRoot = root
	langs, err := languageCounts(ctx, u.conn)
	if err != nil {
		return err
	}
	u.stats.Languages = langs
	for _, l := range langs {
		u.stats.Files += l.Files
		u.stats.Chunks += l.Chunks
	}
	return u.conn.QueryRowContext(ctx, `SELECT count(*) FROM files WHERE skip != ''`).Scan(&u.stats.Skipped)
}

// languageCounts counts indexed files and chunks by language, in language
// order.
func languageCounts(ctx context.Context, q sqlitedb.Querier) ([]LanguageCount, error) {
	rows, err := q.QueryContext(ctx, `SELECT lang, count(*), sum(chunks) FROM files WHERE skip = '' GROUP BY lang ORDER BY lang`)
	if err != nil {
		return nil, fmt.Errorf("index: %w", err)
	}
	defer rows.Close()
	var out []LanguageCount
	for rows.Next() {
		var l LanguageCount
		if err := rows.Scan(&l.Lang, &l.Files, &l.Chunks); err != nil {
			return nil, fmt.Errorf("index: %w", err)
		}
		out = append(out, l)
	}
	return out, rows.Err()
}

func (u *updater) loadFiles(ctx context.Context) (map[string]*fileRow, error) {
	rows, err := u.conn.QueryContext(ctx, `SELECT path, size, mtime_ns, recheck, cid, lang, lines, chunks, skip FROM files`)
	if err != nil {
		return nil, fmt.Errorf("index: read files: %w", err)
	}
	defer rows.Close()
	m := make(map[string]*fileRow)
	for rows.Next() {
		r := new(fileRow)
		if err := rows.Scan(&r.path, &r.size, &r.mtime, &r.recheck, &r.cid, &r.lang, &r.lines, &r.chunks, &r.skip); err != nil {
			return nil, fmt.Errorf("index: read files: %w", err)
		}
		m[r.path] = r
	}
	if err := rows.Err(); err != nil {
		return nil, fmt.Errorf("index: read files: %w", err)
	}
	return m, nil
}

func (u *updater) loadMeta(ctx context.Context) (map[string]string, error) {
	rows, err := u.conn.QueryContext(ctx, `SELECT key, value FROM meta`)
	if err != nil {
		return nil, fmt.Errorf("index: read meta: %w", err)
	}
	defer rows.Close()
	m := make(map[string]string)
	for rows.Next() {
		var k, v string
		if err := rows.Scan(&k, &v); err != nil {
			return nil, fmt.Errorf("index: read meta: %w", err)
		}
		m[k] = v
	}
	return m, rows.Err()
}

// statements are the SQL the updater prepares, by name.
func statements() map[string]string {
	return map[string]string{
		"putFile":   `INSERT OR REPLACE INTO files (path, size, mtime_ns, recheck, cid, lang, lines, chunks, skip) VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?)`,
		"delFile":   `DELETE FROM files WHERE path = ?`,
		"chunksOf":  `SELECT id FROM chunks WHERE path = ?`,
		"delTerms":  `DELETE FROM chunk_terms WHERE rowid = ?`,
		"delChunks": `DELETE FROM chunks WHERE path = ?`,
		"putChunk":  `INSERT INTO chunks (path, seq, byte_start, byte_end, start_line, end_line, kind, symbol, cid) VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?) RETURNING id`,
		"putTerms":  `INSERT INTO chunk_terms (rowid, symbol, path, body) VALUES (?, ?, ?, ?)`,
		"touchFile": `UPDATE files SET size = ?, mtime_ns = ?, recheck = ? WHERE path = ?`,
	}
}

func (u *updater) prepare(ctx context.Context) error {
	u.stmts = make(map[string]*sql.Stmt)
	for name, q := range statements() {
		s, err := u.conn.PrepareContext(ctx, q)
		if err != nil {
			return fmt.Errorf("index: prepare %s: %w", name, err)
		}
		u.stmts[name] = s
	}
	return nil
}

func (u *updater) exec(ctx context.Context, name string, args ...any) error {
	if _, err := u.stmts[name].ExecContext(ctx, args...); err != nil {
		return fmt.Errorf("index: %s: %w", name, err)
	}
	return nil
}

func (u *updater) putFile(ctx context.Context, r *fileRow) error {
	return u.exec(ctx, "putFile", r.path, r.size, r.mtime, r.recheck, r.cid, r.lang, r.lines, r.chunks, r.skip)
}

// deleteFile deletes a file's row and its chunks.
func (u *updater) deleteFile(ctx context.Context, p string, r *fileRow) error {
	if r.skip == "" {
		if err := u.deleteChunks(ctx, p); err != nil {
			return err
		}
	}
	return u.exec(ctx, "delFile", p)
}

// deleteChunks deletes a file's chunks and their terms.
func (u *updater) deleteChunks(ctx context.Context, p string) error {
	rows, err := u.stmts["chunksOf"].QueryContext(ctx, p)
	if err != nil {
		return fmt.Errorf("index: %w", err)
	}
	var ids []int64
	for rows.Next() {
		var id int64
		if err := rows.Scan(&id); err != nil {
			rows.Close()
			return fmt.Errorf("index: %w", err)
		}
		ids = append(ids, id)
	}
	rows.Close()
	if err := rows.Err(); err != nil {
		return fmt.Errorf("index: %w", err)
	}
	for _, id := range ids {
		if err := u.exec(ctx, "delTerms", id); err != nil {
			return err
		}
	}
	return u.exec(ctx, "delChunks", p)
}

// readAndWrite reads and chunks the jobs' files in parallel and writes
// the results in path order.
func (u *updater) readAndWrite(ctx context.Context, jobs []job, rows map[string]*fileRow) error {
	workers := u.ix.opts.Workers
	if workers <= 0 {
		workers = runtime.GOMAXPROCS(0)
	}
	ctx, cancel := context.WithCancel(ctx)
	defer cancel()

	// Results come back through one channel per job, consumed in order; the
	// window bounds how far the workers run ahead of the writer.
	ready := make([]chan result, len(jobs))
	for i := range ready {
		ready[i] = make(chan result, 1)
	}
	window := make(chan struct{}, 8*workers+32)
	next := make(chan int)
	var wg sync.WaitGroup
	wg.Go(func() {
		defer close(next)
		for i := range jobs {
			select {
			case window <- struct{}{}:
			case <-ctx.Done():
				return
			}
			select {
			case next <- i:
			case <-ctx.Done():
				return
			}
		}
	})
	for range workers {
		wg.Go(func() {
			for i := range next {
				ready[i] <- process(u.fsys, jobs[i])
			}
		})
	}
	defer wg.Wait()
	defer cancel() // on an error return, stop the workers before waiting

	total := len(jobs)
	u.progress(Progress{Phase: "index", Done: 0, Total: total})
	for i := range jobs {
		var r result
		select {
		case r = <-ready[i]:
		case <-ctx.Done():
			return fmt.Errorf("index: update: %w", ctx.Err())
		}
		<-window
		if err := u.write(ctx, r, rows); err != nil {
			return err
		}
		u.progress(Progress{Phase: "index", Done: i + 1, Total: total})
	}
	if err := ctx.Err(); err != nil {
		return fmt.Errorf("index: update: %w", err)
	}
	return nil
}

// write applies one file's result.
func (u *updater) write(ctx context.Context, r result, rows map[string]*fileRow) error {
	p := r.f.Path
	old := r.old
	mtime := r.f.ModTime.UnixNano()
	recheck := !r.f.ModTime.Before(u.start.Add(-racyWindow))
	switch {
	case r.gone:
		if old != nil {
			if err := u.deleteFile(ctx, p, old); err != nil {
				return err
			}
			if old.skip == "" {
				u.stats.Removed++
			}
			delete(rows, p)
		}
		return nil
	case r.skip != "":
		if old != nil && old.skip == "" {
			if err := u.deleteChunks(ctx, p); err != nil {
				return err
			}
			u.stats.Removed++
		}
		row := &fileRow{path: p, skip: r.skip}
		rows[p] = row
		return u.putFile(ctx, row)
	case r.same:
		u.stats.Touched++
		old.size, old.mtime, old.recheck = r.f.Size, mtime, recheck
		return u.exec(ctx, "touchFile", r.f.Size, mtime, recheck, p)
	}
	if old != nil && old.skip == "" {
		if err := u.deleteChunks(ctx, p); err != nil {
			return err
		}
		u.stats.Changed++
	} else {
		u.stats.Added++
	}
	for _, c := range r.chunks {
		var id int64
		if err := u.stmts["putChunk"].QueryRowContext(ctx, p, c.Seq, c.Start, c.End, c.StartLine, c.EndLine, c.Kind, c.Symbol, c.cid).Scan(&id); err != nil {
			return fmt.Errorf("index: putChunk %s#%d: %w", p, c.Seq, err)
		}
		u.terms = append(u.terms, termsRow{id: id, symbol: c.symbol, path: c.path, body: c.body})
		u.termBytes += len(c.symbol) + len(c.path) + len(c.body)
	}
	if u.termBytes >= termBatchBytes {
		if err := u.flushTerms(ctx); err != nil {
			return err
		}
	}
	row := &fileRow{path: p, size: r.f.Size, mtime: mtime, recheck: recheck, cid: r.cid, lang: r.lang, lines: r.lines, chunks: len(r.chunks)}
	rows[p] = row
	return u.putFile(ctx, row)
}

// termBatchBytes is how many bytes of terms an update holds back before
// writing them to the full-text index in one run of inserts. Any other
// write statement in between makes FTS5 flush its pending terms to a new
// segment (a statement savepoint), so inserting terms chunk by chunk
// between the chunks' rows costs one segment per chunk and much merging.
const termBatchBytes = 16 << 20

// termsRow is a chunk's terms, waiting to be written.
type termsRow struct {
	id                 int64
	symbol, path, body string
}

// flushTerms writes the terms held back.
func (u *updater) flushTerms(ctx context.Context) error {
	for _, t := range u.terms {
		if err := u.exec(ctx, "putTerms", t.id, t.symbol, t.path, t.body); err != nil {
			return err
		}
	}
	u.terms, u.termBytes = u.terms[:0], 0
	return nil
}

// process reads one file and, when its content changed, chunks it and
// makes its terms. It runs in a worker.
func process(fsys fs.FS, j job) result {
	r := result{job: j}
	text, repaired, err := project.ReadText(fsys, j.f.Path)
	if err != nil {
		if errors.Is(err, fs.ErrNotExist) {
			r.gone = true
		} else {
			r.skip = unreadable(err)
		}
		return r
	}
	r.repaired = repaired
	r.cid = project.ContentID(text)
	if j.old != nil && j.old.skip == "" && j.old.cid == r.cid {
		r.same = true
		return r
	}
	r.lang = chunk.Language(j.f.Path)
	r.lines = project.CountLines(text)
	pathTerms := string(lexical.AppendTermsText(nil, j.f.Path))
	cs := chunk.Split(j.f.Path, []byte(text))
	r.chunks = make([]chunkRow, len(cs))
	var buf []byte
	for i, c := range cs {
		s := text[c.Start:c.End]
		cr := chunkRow{Chunk: c, cid: project.ContentID(s), path: pathTerms}
		cr.symbol = string(lexical.AppendTermsText(buf[:0], c.Symbol))
		buf = lexical.AppendTermsText(buf[:0], s)
		cr.body = string(buf)
		r.chunks[i] = cr
	}
	return r
}

// unreadable is the skip reason for a read error, without the path.
func unreadable(err error) string { return "unreadable: " + project.ErrorText(err) }

// lockUpdates takes the update lock of the index, waiting up to
// Options.LockTimeout and reporting the phase "lock" while it waits.
func (ix *Index) lockUpdates(ctx context.Context, progress func(Progress)) (*updateLock, error) {
	timeout := cmp.Or(ix.opts.LockTimeout, DefaultLockTimeout)
	return lock(ctx, ix.path, timeout, ix.now, func(holder string) {
		progress(Progress{Phase: "lock", Holder: holder})
	})
}

// now is the index's clock: Options.Now, or time.Now.
func (ix *Index) now() time.Time {
	if ix.opts.Now != nil {
		return ix.opts.Now()
	}
	return time.Now()
}
