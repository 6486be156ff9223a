package index

import (
	"context"

	"fmt"
	"slices"
	"strings"

	"github.com/ctxpack/ctxpack/internal/chunk"
	"github.com/ctxpack/ctxpack/internal/lexical"
)

// ready checks that the index can be read: the caller holds ix.mu.
func (ix *Index) ready() error {
	if ix.state.Reason != Current {
		return &NotCurrentError{Path: ix.path, State: ix.state}
	}
	return nil
}

// Paths returns the slash paths of the indexed files (not the skipped
// ones), sorted.
func (ix *Index) Paths(ctx context.Context) (_ []string, err error) {
	defer func() { err = ix.damaged(err) }()
	ix.mu.RLock()
	defer ix.mu.RUnlock()
	if err := ix.ready(); err != nil {
		return nil, err
	}
	rows, err := ix.db.QueryContext(ctx, `SELECT path FROM files WHERE skip = '' ORDER BY path`)
	if err != nil {
		return nil, fmt.Errorf("index: paths: %w", err)
	}
	defer rows.Close()
	var out []string
	for rows.Next() {
		var p string
		if err := rows.Scan(&p); err != nil {
			return nil, fmt.Errorf("index: paths: %w", err)
		}
		out = append(out, p)
	}
	if err := rows.Err(); err != nil {
		return nil, fmt.Errorf("index: paths: %w", err)
	}
	return out, nil
}

// FileChunks returns the chunks of the file at path, in order, as hits
// with no score; none if the file is not indexed.
func (ix *Index) FileChunks(ctx context.Context, path string) (_ []Hit, err error) {
	defer func() { err = ix.damaged(err) }()
	ix.mu.RLock()
	defer ix.mu.RUnlock()
	if err := ix.ready(); err != nil {
		return nil, err
	}
	hits, err := ix.chunkRows(ctx, `WHERE path = ? ORDER BY seq`, path)
	for i := range hits {
		hits[i].id = 0
	}
	return hits, err
}

// chunkRows returns the chunks a WHERE clause selects, as hits.
func (ix *Index) chunkRows(ctx context.Context, where string, args ...any) ([]Hit, error) {
	rows, err := ix.db.QueryContext(ctx, `SELECT id, path, seq, byte_start, byte_end, start_line, end_line, kind, symbol, cid FROM chunks `+where, args...)
	if err != nil {
		return nil, fmt.Errorf("index: chunks: %w", err)
	}
	defer rows.Close()
	var out []Hit
	for rows.Next() {
		var h Hit
		if err := rows.Scan(&h.id, &h.Path, &h.Seq, &h.Start, &h.End, &h.StartLine, &h.EndLine, &h.Kind, &h.Symbol, &h.CID); err != nil {
			return nil, fmt.Errorf("index: chunks: %w", err)
		}
		out = append(out, h)
	}
	if err := rows.Err(); err != nil {
		return nil, fmt.Errorf("index: chunks: %w", err)
	}
	return out, nil // ids stay set: Definitions needs none, FileChunks clears them
}

// Definitions returns the chunks whose symbol defines one of names (one
// of chunk.SymbolNames equal to it, case-sensitive), ordered by path and
// sequence.
// Names that are not identifiers are ignored.
func (ix *Index) Definitions(ctx context.Context, names []string) (_ []Hit, err error) {
	defer func() { err = ix.damaged(err) }()
	ix.mu.RLock()
	defer ix.mu.RUnlock()
	if err := ix.ready(); err != nil {
		return nil, err
	}
	want := make(map[string]bool, len(names))
	var whole []string
	for _, n := range names {
		t := lexical.Terms(n)
		if len(t) == 0 || want[n] {
			continue
		}
		want[n] = true
		whole = append(whole, `"`+t[0]+`"`)
	}
	if len(whole) == 0 {
		return nil, nil
	}
	slices.Sort(whole)
	whole = slices.Compact(whole)
	var out []Hit
	// The full-text symbol column finds every chunk with a word whose
	// whole form is one of the names' (a superset); the exact name is
	// checked after.
	const batch = 200
	for i := 0; i < len(whole); i += batch {
		match := "{symbol} : (" + strings.Join(whole[i:min(i+batch, len(whole))], " OR ") + ")"
		hits, err := ix.chunkRows(ctx, `WHERE id IN (SELECT rowid FROM chunk_terms WHERE chunk_terms MATCH ?)`, match)
		if err != nil {
			return nil, err
		}
		for _, h := range hits {
			if slices.ContainsFunc(chunk.SymbolNames(h.Symbol), func(n string) bool { return want[n] }) {
				h.id = 0
				out = append(out, h)
			}
		}
	}
	slices.SortFunc(out, func(a, b Hit) int {
		if c := strings.Compare(a.Path, b.Path); c != 0 {
			return c
		}
		return a.Seq - b.Seq
	})
	return slices.CompactFunc(out, func(a, b Hit) bool { return a.Path == b.Path && a.Seq == b.Seq }), nil
}

// StateRoot returns the state root of the indexed files as of the last
// update: project.StateRoot over their (path, content id).
func (ix *Index) StateRoot(ctx context.Context) (_ string, err error) {
	defer func() { err = ix.damaged(err) }()
	ix.mu.RLock()
	defer ix.mu.RUnlock()
	if err := ix.ready(); err != nil {
		return "", err
	}
	meta, err := ix.readMeta(ctx)
	if err != nil {
		return "", fmt.Errorf("index: state root: %w", err)
	}
	return meta[metaStateRoot], nil
}
