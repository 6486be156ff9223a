package index

import (
	"context"
	"fmt"
	"io/fs"
	"slices"
	"strconv"

	"github.com/ctxpack/ctxpack/internal/project"
)

// Status describes an index and, when asked, how it differs from the
// working tree.
type Status struct {
	Path          string // the database file
	State         State
	FormatVersion int // as stored; 0 when the index is missing or unreadable
	StateRoot     string
	Walk          string // the walk settings of the last update
	Files, Chunks int
	Languages     []LanguageCount
	Skipped       []project.Skipped // files found but not indexed, with why
	// Stale is how the tree differs from the index, by size and
	// modification time only; nil when Status was given no fs.FS or the
	// index is not Current.
	Stale *Stale
}

// Stale lists the files an update would read or drop, in path order.
type Stale struct {
	Added   []string // found by the walk, not indexed
	Changed []string // indexed, with another size or modification time
	Removed []string // indexed, no longer found (or now skipped)
}

// Empty reports whether nothing is stale.
func (s *Stale) Empty() bool {
	return len(s.Added) == 0 && len(s.Changed) == 0 && len(s.Removed) == 0
}

// Status reports what the index holds. With fsys (the project root) it
// also walks the tree, as Update would, and compares sizes and
// modification times, reading no file beyond what the walk reads.
func (ix *Index) Status(ctx context.Context, fsys fs.FS) (_ *Status, err error) {
	defer func() { err = ix.damaged(err) }()
	ix.mu.RLock()
	defer ix.mu.RUnlock()
	st := &Status{Path: ix.path, State: ix.state}
	if ix.db == nil || ix.state.Reason == Missing || ix.state.Reason == Corrupt {
		return st, nil
	}
	meta, err := ix.readMeta(ctx)
	if err != nil {
		return nil, fmt.Errorf("index: status: %w", err)
	}
	st.FormatVersion, _ = strconv.Atoi(meta[metaFormat])
	st.StateRoot = meta[metaStateRoot]
	st.Walk = meta[metaWalk]
	if ix.state.Reason != Current {
		return st, nil
	}
	if st.Languages, err = languageCounts(ctx, ix.db); err != nil {
		return nil, err
	}
	for _, l := range st.Languages {
		st.Files += l.Files
		st.Chunks += l.Chunks
	}
	rows, err := ix.db.QueryContext(ctx, `SELECT path, size, mtime_ns, skip FROM files ORDER BY path`)
	if err != nil {
		return nil, fmt.Errorf("index: status: %w", err)
	}
	defer rows.Close()
	indexed := make(map[string]*fileRow)
	for rows.Next() {
		r := new(fileRow)
		if err := rows.Scan(&r.path, &r.size, &r.mtime, &r.skip); err != nil {
			return nil, fmt.Errorf("index: status: %w", err)
		}
		if r.skip != "" {
			st.Skipped = append(st.Skipped, project.Skipped{Path: r.path, Reason: r.skip})
			continue
		}
		indexed[r.path] = r
	}
	if err := rows.Err(); err != nil {
		return nil, fmt.Errorf("index: status: %w", err)
	}
	if fsys == nil {
		return st, nil
	}
	files, _, err := ix.walk(fsys)
	if err != nil {
		return nil, fmt.Errorf("index: status: %w", err)
	}
	stale := &Stale{}
	seen := make(map[string]bool, len(files))
	for _, f := range files {
		seen[f.Path] = true
		r, ok := indexed[f.Path]
		switch {
		case !ok:
			stale.Added = append(stale.Added, f.Path)
		case r.size != f.Size || r.mtime != f.ModTime.UnixNano():
			stale.Changed = append(stale.Changed, f.Path)
		}
	}
	for p := range indexed {
		if !seen[p] {
			stale.Removed = append(stale.Removed, p)
		}
	}
	slices.Sort(stale.Removed)
	st.Stale = stale
	return st, nil
}
