package app

import (
	"context"
	"errors"
	"fmt"
	"io/fs"
	"path/filepath"
	"strings"
	"time"

	"github.com/ctxpack/ctxpack/internal/index"
	"github.com/ctxpack/ctxpack/internal/project"
)

// IndexOptions say where a project's repository index lives and how to
// treat it.
type IndexOptions struct {
	// File is the database; empty means .ctxpack/index.db under the root.
	// A relative path starts at the project's working directory.
	File string
	// Wait is how long an update waits for another update of the same
	// index: 0 means index.DefaultLockTimeout, negative means not at all.
	Wait time.Duration
	// NoUpdate uses the index as it is: retrieval fails if it is not
	// current. Otherwise it is brought up to date first.
	NoUpdate bool
	// Progress, when set, receives the update's progress.
	Progress func(index.Progress)
}

// OpenedIndex is a project's index, open.
type OpenedIndex struct {
	*index.Index
	// State is the index's state when it was opened.
	State index.State
	// Shown is the database's path as people should see it: relative to
	// the project root when inside it.
	Shown string
}

// OpenIndex opens the project's repository index without changing it.
// readOnly opens it for reading only (searches, status).
func (p *Project) OpenIndex(o IndexOptions, readOnly bool) (*OpenedIndex, error) {
	dbPath := index.DefaultPath(p.Root)
	if o.File != "" {
		dbPath = o.File
		if !filepath.IsAbs(dbPath) {
			dbPath = filepath.Join(p.Dir, dbPath)
		}
	}
	wo, err := p.walkOptions()
	if err != nil {
		return nil, err
	}
	opts := index.Options{
		Walk:        wo,
		LockTimeout: o.Wait, // the same meaning: 0 the default, negative no wait
		ReadOnly:    readOnly,
	}
	shown := dbPath
	if rel, err := filepath.Rel(p.Root, dbPath); err == nil && rel != ".." && !strings.HasPrefix(rel, ".."+string(filepath.Separator)) {
		shown = filepath.ToSlash(rel)
		if !strings.HasPrefix(shown, ".ctxpack/index.db") {
			// The database lives in the tree: leave its files out of it.
			for _, suffix := range []string{"", "-wal", "-shm", "-journal", ".lock", ".damaged"} {
				opts.Exclude = append(opts.Exclude, shown+suffix)
			}
		}
	}
	if !readOnly && filepath.Dir(dbPath) == filepath.Join(p.Root, project.DirCtxpack) {
		p.keepStateIgnored()
	}
	ix, state, err := index.Open(dbPath, opts)
	if errors.Is(err, fs.ErrPermission) {
		return nil, fmt.Errorf("%w (--index FILE keeps the index elsewhere)", err)
	}
	if err != nil {
		return nil, err
	}
	return &OpenedIndex{Index: ix, State: state, Shown: shown}, nil
}

// UpdateIndex brings the index up to date with the project's files.
func (p *Project) UpdateIndex(ctx context.Context, oi *OpenedIndex, progress func(index.Progress)) (*index.Stats, error) {
	stats, err := oi.Update(ctx, p.FS, progress)
	if errors.Is(err, fs.ErrPermission) {
		return nil, fmt.Errorf("%w (--index FILE keeps the index elsewhere)", err)
	}
	return stats, err
}

// EmbedIndex computes the vectors the index lacks for the configured
// embedder (embed: in the configuration); nil stats and no error when none
// is configured.
func (p *Project) EmbedIndex(ctx context.Context, oi *OpenedIndex, progress func(index.Progress)) (*index.EmbedStats, error) {
	e, err := p.embedder()
	if err != nil || e == nil {
		return nil, err
	}
	return oi.Embed(ctx, p.FS, e, progress)
}

// retryDamaged decides what a search of oi that failed with err does
// next: when the search found the index damaged (*index.DamagedError) and
// o lets it update the index, it rebuilds the index (the failed search
// marked it, so the update starts from scratch; nothing is lost, since the
// index is derived from the project's files) and returns the warning that
// says so, for the caller to search again. Otherwise it returns err.
func (p *Project) retryDamaged(ctx context.Context, oi *OpenedIndex, o IndexOptions, err error) (string, error) {
	var de *index.DamagedError
	if o.NoUpdate || !errors.As(err, &de) {
		return "", err
	}
	stats, uerr := p.UpdateIndex(ctx, oi, o.Progress)
	if uerr != nil {
		return "", fmt.Errorf("%w; rebuilding it failed: %w", err, uerr)
	}
	return fmt.Sprintf("rebuilt the index: %s", stats.Rebuilt), nil
}

// currentIndex opens the index for retrieval and, unless o.NoUpdate,
// brings it up to date. It returns the warnings to report.
func (p *Project) currentIndex(ctx context.Context, o IndexOptions) (*OpenedIndex, []string, error) {
	oi, err := p.OpenIndex(o, o.NoUpdate)
	if err != nil {
		return nil, nil, err
	}
	var warnings []string
	if !o.NoUpdate {
		stats, err := p.UpdateIndex(ctx, oi, o.Progress)
		if err != nil {
			oi.Close()
			return nil, nil, err
		}
		if r := stats.Rebuilt; r.Replaced() {
			warnings = append(warnings, fmt.Sprintf("rebuilt the index: %s", r))
		}
		if _, err := p.EmbedIndex(ctx, oi, o.Progress); err != nil {
			oi.Close()
			return nil, nil, err
		}
	}
	return oi, warnings, nil
}
