package evidence

import (
	"context"
	"fmt"
	"io/fs"
	"path"
	"path/filepath"

	workspace "github.com/ctxpack/ctxpack/internal/evidence"
	"github.com/ctxpack/ctxpack/internal/index"
	"github.com/ctxpack/ctxpack/internal/project"
)

// Env is the project as the evidence commands see it: its files and, for
// focus and deps, its repository index. The facade fills it.
type Env struct {
	Root string // the project root, absolute: selectors and links must stay inside it
	FS   fs.FS  // the files under Root
	// MaxFileBytes is walk.max_file_bytes: a larger file is refused. 0
	// means project.DefaultMaxFileBytes.
	MaxFileBytes int64
	// Search returns the k best chunks of the repository index for a
	// free-text query, best first, and warnings (focus, ask).
	Search func(ctx context.Context, query string, k int) ([]Hit, []string, error)
	// Index opens the repository index, brought up to date as the
	// caller asked, and returns warnings (deps). The command closes it
	// before it returns.
	Index func(ctx context.Context) (Index, []string, error)
}

// Hit is a chunk of a project file that a search ranked.
type Hit struct {
	Path               string
	StartLine, EndLine int     // 1-based, inclusive
	Relevance          float64 // shown in focus's and ask's reasons
	Symbol             string  // what the chunk defines, if anything
	Why                string  // why the index ranked it (ask's reasons)
}

// Index is what deps reads of the repository index: the chunks of a file
// and the chunks that define names, each with its Symbol
// (chunk.SymbolNames gives the names it defines).
type Index interface {
	FileChunks(ctx context.Context, path string) ([]index.Hit, error)
	Definitions(ctx context.Context, names []string) ([]index.Hit, error)
	Close() error
}

// DefaultWorkspace is the folder evidence commands use when none is given.
const DefaultWorkspace = "ctx"

// OpenWorkspace opens the workspace in dir (relative to wd, or absolute;
// "" is DefaultWorkspace), which must be a folder inside the project root
// and need not exist yet.
func OpenWorkspace(root, wd, dir string) (*workspace.Workspace, error) {
	if dir == "" {
		dir = DefaultWorkspace
	}
	rel, err := project.Resolve(root, wd, dir)
	if err != nil {
		return nil, fmt.Errorf("ctxpack: workspace: %w", err)
	}
	if rel == "." {
		return nil, fmt.Errorf("ctxpack: workspace %s is the project root; a workspace is a folder in it (ctx)", dir)
	}
	return &workspace.Workspace{Root: root, Dir: filepath.Join(root, filepath.FromSlash(rel)), Shown: rel}, nil
}

// BuildDir is where assemble writes prompt.mdctx and ctxplan.json: build/
// beside the workspace folder, as a slash path relative to the root.
func BuildDir(ws *workspace.Workspace) string { return path.Join(path.Dir(ws.Shown), "build") }

func (e Env) maxFileBytes() int64 {
	if e.MaxFileBytes > 0 {
		return e.MaxFileBytes
	}
	return project.DefaultMaxFileBytes
}
