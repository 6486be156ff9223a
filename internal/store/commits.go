package store

import (
	"bytes"
	"cmp"
	"context"
	"errors"
	"fmt"
	"strconv"
	"strings"
	"unicode/utf8"

	"github.com/ctxpack/ctxpack/internal/history"
	"github.com/ctxpack/ctxpack/internal/lexical"
)

// CommitStats say what SyncCommits did.
type CommitStats struct {
	Added int // commits read and stored by this call
	// Rescanned: the stored history was rewritten (history.ErrRewritten),
	// or read for another folder of the repository; everything was read
	// again.
	Rescanned bool
	Head      string // the HEAD sha now stored
	Total     int    // commits in the store after the call
}

// SyncCommits brings the store's commits up to date with the git history
// of root, the project root, which may be a folder of a larger repository
// (history.Log: the commits that changed its files, named from it; merge
// commits left out). The HEAD it read last is kept in the store, with
// root's folder in the repository: only the commits since it are read,
// and when HEAD has not moved the call costs one `git rev-parse`. When
// that head is no longer in the history of HEAD (a rebase, a reset), or
// the commits were read for another folder, the stored commits are
// deleted and the whole history read again (Rescanned).
//
// Its writes are one transaction. history.ErrNotRepository is returned
// wrapped, and leaves the store unchanged. A store opened with
// Options.LocalCommits keeps them in that SQLite file.
func (s *Store) SyncCommits(ctx context.Context, root string) (CommitStats, error) {
	if s.local != nil {
		return s.local.SyncCommits(ctx, root)
	}
	if s.opt.ReadOnly {
		return CommitStats{}, ErrReadOnly
	}
	headKey, prefixKey := metaCommitHead+"/"+s.ns, metaCommitPrefix+"/"+s.ns
	db := s.conn(s.db)
	stored, err := getMeta(ctx, db, headKey)
	if err != nil {
		return CommitStats{}, err
	}
	prefix, err := getMeta(ctx, db, prefixKey)
	if err != nil {
		return CommitStats{}, err
	}
	// The log reads back from the HEAD read here, so that the head stored
	// is the one the commits stored were read from.
	head, err := history.Head(ctx, root)
	if err != nil {
		return CommitStats{}, fmt.Errorf("store: sync commits: %w", err)
	}
	if head.SHA == stored && head.Prefix == prefix {
		n, err := s.commitCount(ctx, db)
		return CommitStats{Head: head.SHA, Total: n}, err
	}
	var st CommitStats
	since := stored
	if head.Prefix != prefix {
		since, st.Rescanned = "", stored != ""
	}
	commits, err := history.Log(ctx, root, since, head)
	if errors.Is(err, history.ErrRewritten) {
		st.Rescanned = true
		commits, err = history.Log(ctx, root, "", head)
	}
	if err != nil {
		return CommitStats{}, fmt.Errorf("store: sync commits: %w", err)
	}
	err = s.write(ctx, func(tx conn) error {
		if st.Rescanned {
			if _, err := tx.ExecContext(ctx, `DELETE FROM commits WHERE ns = ?`, s.ns); err != nil {
				return fmt.Errorf("store: sync commits: %w", err)
			}
			if err := commitTerms.deleteAll(ctx, tx, s.ns); err != nil {
				return err
			}
		}
		if st.Added, err = s.insertCommits(ctx, tx, commits); err != nil {
			return err
		}
		if err := setMeta(ctx, tx, headKey, head.SHA); err != nil {
			return err
		}
		if err := setMeta(ctx, tx, prefixKey, head.Prefix); err != nil {
			return err
		}
		st.Total, err = s.commitCount(ctx, tx)
		return err
	})
	if err != nil {
		return CommitStats{}, err
	}
	st.Head = head.SHA
	return st, nil
}

func (s *Store) commitCount(ctx context.Context, q conn) (int, error) {
	var n int
	if err := q.QueryRowContext(ctx, `SELECT count(*) FROM commits WHERE ns = ?`, s.ns).Scan(&n); err != nil {
		return 0, fmt.Errorf("store: commits: %w", err)
	}
	return n, nil
}

// insertCommits stores the commits not stored yet in the store's
// namespace (by sha), oldest first (commits is newest first, as
// history.Log gives them), and returns how many it stored. Text that is
// not UTF-8, or holds NUL bytes (git stores messages as bytes), is stored
// mended, as PostgreSQL's text columns require, on every backend alike.
func (s *Store) insertCommits(ctx context.Context, tx conn, commits []history.Commit) (int, error) {
	stored := map[string]bool{}
	shas, err := queryRows(ctx, tx, func(r interface{ Scan(...any) error }) (string, error) {
		var sha string
		err := r.Scan(&sha)
		return sha, err
	}, `SELECT sha FROM commits WHERE ns = ?`, s.ns)
	if err != nil {
		return 0, fmt.Errorf("store: sync commits: %w", err)
	}
	for _, sha := range shas {
		stored[sha] = true
	}
	var news []history.Commit
	for i := len(commits) - 1; i >= 0; i-- {
		if c := commits[i]; !stored[c.SHA] {
			stored[c.SHA] = true
			news = append(news, c)
		}
	}
	if len(news) == 0 {
		return 0, nil
	}
	first, err := s.reserveIDs(ctx, tx, "commit", len(news))
	if err != nil {
		return 0, err
	}
	w := newWriter(tx)
	for i, c := range news {
		c.Author, c.Email, c.Message = mendText(c.Author), mendText(c.Email), mendText(c.Message)
		id := first + int64(i)
		if err := w.add(ctx, "commits", "ns, id, sha, author, email, time, message, files, insertions, deletions, cid",
			s.ns, id, c.SHA, c.Author, c.Email, c.Time, c.Message, encodeFiles(c.Files), c.Insertions, c.Deletions, commitCID(c)); err != nil {
			return 0, fmt.Errorf("store: sync commits: commit %s: %w", c.SHA, err)
		}
		if err := commitTerms.insert(ctx, w, s.ns, id, commitTexts(&c)); err != nil {
			return 0, err
		}
	}
	if err := w.flush(ctx); err != nil {
		return 0, fmt.Errorf("store: sync commits: %w", err)
	}
	return len(news), nil
}

// mendText returns s as valid UTF-8 without NUL bytes: each invalid byte
// sequence becomes U+FFFD and each NUL is dropped. Valid text is
// returned as it is.
func mendText(s string) string {
	if utf8.ValidString(s) && strings.IndexByte(s, 0) < 0 {
		return s
	}
	return strings.ReplaceAll(strings.ToValidUTF8(s, "\uFFFD"), "\x00", "")
}

// commitTexts are the texts of commit_terms' columns: the message, the
// paths (one a line; their terms are the index's path terms), the author.
func commitTexts(c *history.Commit) []string {
	paths := make([]string, len(c.Files))
	for i, f := range c.Files {
		paths[i] = f.Path
	}
	return []string{c.Message, strings.Join(paths, "\n"), c.Author}
}

// encodeFiles is the files column: "added TAB deleted TAB path NUL" for
// each file.
func encodeFiles(files []history.File) []byte {
	var b []byte
	for _, f := range files {
		b = strconv.AppendInt(b, int64(f.Added), 10)
		b = append(b, '\t')
		b = strconv.AppendInt(b, int64(f.Deleted), 10)
		b = append(b, '\t')
		b = append(b, f.Path...)
		b = append(b, 0)
	}
	if b == nil {
		b = []byte{} // NOT NULL
	}
	return b
}

func decodeFiles(b []byte) ([]history.File, error) {
	var out []history.File
	for len(b) > 0 {
		e, rest, ok := bytes.Cut(b, []byte{0})
		if !ok {
			return nil, errors.New("files column: an entry without its NUL")
		}
		b = rest
		a, r, ok1 := bytes.Cut(e, []byte{'\t'})
		d, path, ok2 := bytes.Cut(r, []byte{'\t'})
		added, err1 := strconv.Atoi(string(a))
		deleted, err2 := strconv.Atoi(string(d))
		if !ok1 || !ok2 || err1 != nil || err2 != nil {
			return nil, fmt.Errorf("files column: entry %.60q", e)
		}
		out = append(out, history.File{Path: string(path), Added: added, Deleted: deleted})
	}
	return out, nil
}

const commitCols = `ns, id, sha, author, email, time, message, files, insertions, deletions`

// commitRow is a stored commit with its namespace and row id.
type commitRow struct {
	rowID
	history.Commit
}

func scanCommit(r interface{ Scan(...any) error }) (commitRow, error) {
	var c commitRow
	var files []byte
	if err := r.Scan(&c.ns, &c.id, &c.SHA, &c.Author, &c.Email, &c.Time, &c.Message, &files, &c.Insertions, &c.Deletions); err != nil {
		return commitRow{}, err
	}
	var err error
	if c.Files, err = decodeFiles(files); err != nil {
		return commitRow{}, fmt.Errorf("commit %s: %w", c.SHA, err)
	}
	return c, nil
}

// CommitHit is a commit that matched a search.
type CommitHit struct {
	history.Commit
	Match
}

// SearchCommits returns the k commits that best match query: those that
// hold any of its terms (lexical.QueryTerms) in their message, the paths of
// their files or their author's name, ranked by BM25 over them (weights
// in terms.go), then newest first (time descending, then sha ascending). A
// query without terms, or k <= 0, gives none.
func (s *Store) SearchCommits(ctx context.Context, query string, k int) ([]CommitHit, error) {
	if s.local != nil {
		return s.local.SearchCommits(ctx, query, k)
	}
	terms := lexical.QueryTerms(query)
	var out []CommitHit
	err := s.read(ctx, func(tx conn) error {
		out = out[:0]
		load := func(ids []rowID) (map[rowID]commitRow, error) {
			return loadRows(ctx, tx, ids, `SELECT `+commitCols+` FROM commits`, scanCommit, func(c commitRow) rowID { return c.rowID })
		}
		hits, err := search(ctx, tx, commitTerms, []string{s.ns}, terms, k, nil, load, func(a, b commitRow) int {
			return cmp.Or(cmp.Compare(b.Time, a.Time), strings.Compare(a.SHA, b.SHA))
		})
		for _, h := range hits {
			out = append(out, CommitHit{h.row.Commit, Match{h.score, matched(terms, commitTexts(&h.row.Commit)...)}})
		}
		return err
	})
	if err != nil {
		return nil, err
	}
	return out, nil
}
