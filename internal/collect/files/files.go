package files

import (
	"cmp"
	"context"
	"fmt"
	"hash/crc32"
	"io/fs"
	"runtime"
	"slices"
	"strings"

	"golang.org/x/sync/errgroup"

	"github.com/ctxpack/ctxpack/internal/pack"
	"github.com/ctxpack/ctxpack/internal/project"
	"github.com/ctxpack/ctxpack/internal/refgraph"
)

// Env is what the collector reads: the project's files and its git
// history.
type Env struct {
	FS fs.FS // the project's files, rooted at the project root
	// Root is the project root on disk, where git history is read for
	// recency; "" reads none.
	Root string
	// Walk configures the walk (file size limit, hidden files); its
	// Reverse is Request.Reverse.
	Walk project.WalkOptions
}

// Request says what to collect and how to rank it.
type Request struct {
	// Roots are the files and directories to pack: slash paths relative
	// to the project root, sorted and distinct; empty means ".".
	Roots []string
	// Ranked ranks the files by structure (centrality, recency, file
	// type), for a pack under a budget.
	Ranked bool
	// Query, when set, ranks the files by their relevance to it instead,
	// with or without a budget, through Relevance.
	Query string
	// Relevance gives each file's relevance to query, in [0, 1], by path
	// (0 for files it leaves out), and the ranking's warnings. It is
	// called once, when Query is set.
	Relevance func(ctx context.Context, query string) (map[string]float64, []string, error)
	// Changed sets each part's Changed time from git history, for the
	// engine's PreferRecent, when the files are not ranked (a ranking
	// weighs recency itself).
	Changed bool
	// Reverse walks in reverse order: a test knob that proves the
	// collection does not depend on walk order.
	Reverse bool
	// Leave, when set, gives the reason to leave out a file the walk
	// lists, before it is read ("" keeps it): the file is among the
	// skipped with that reason.
	Leave func(path string) string
}

// Collection is what a pack is made of.
type Collection struct {
	// Parts are the files read, one part each, in walk order; with
	// Request.Reverse, in reverse walk order.
	Parts []pack.Part
	// StateRoot is the Merkle root over the (path, content id) of every
	// file read (project.StateRoot).
	StateRoot string
	// Target names what was packed: the roots, space-separated.
	Target string
	// Warnings are the files whose invalid UTF-8 was replaced and the
	// ranking's warnings, sorted.
	Warnings []string
	// Skipped are the files skipped and why, in path order: by the walk,
	// and those that could not be read.
	Skipped []project.Skipped
}

// Collect walks req.Roots, reads every file and ranks the parts.
func Collect(ctx context.Context, env Env, req Request) (*Collection, error) {
	roots := req.Roots
	if len(roots) == 0 {
		roots = []string{"."}
	}
	wo := env.Walk
	wo.Reverse = req.Reverse
	listed, skipped, err := project.Walk(env.FS, roots, wo)
	if err != nil {
		return nil, err
	}
	if req.Leave != nil {
		kept := listed[:0]
		for _, f := range listed {
			if r := req.Leave(f.Path); r != "" {
				skipped = append(skipped, project.Skipped{Path: f.Path, Reason: r})
				continue
			}
			kept = append(kept, f)
		}
		listed = kept
	}
	read, err := readAll(ctx, env.FS, listed, req.Ranked && req.Query == "")
	if err != nil {
		return nil, err
	}
	var warnings []string
	parts := make([]pack.Part, 0, len(read))
	inputs := make([]project.Input, 0, len(read))
	kept := read[:0]
	for _, f := range read {
		if f.err != nil {
			skipped = append(skipped, project.Skipped{Path: f.path, Reason: "unreadable: " + project.ErrorText(f.err)})
			continue
		}
		if f.repaired {
			warnings = append(warnings, fmt.Sprintf("%s: invalid UTF-8 replaced with U+FFFD", f.path))
		}
		parts = append(parts, f.part(env.FS))
		inputs = append(inputs, project.Input{Path: f.path, CID: f.cid})
		kept = append(kept, f)
	}
	switch {
	case req.Query != "":
		warns, err := rankByQuery(ctx, parts, req.Query, req.Relevance)
		if err != nil {
			return nil, err
		}
		warnings = append(warnings, warns...)
	case req.Ranked:
		if err := rankByStructure(ctx, env, parts, kept); err != nil {
			return nil, err
		}
	case req.Changed:
		changed, err := lastChanged(ctx, env.Root, parts)
		if err != nil {
			return nil, err
		}
		for i := range parts {
			parts[i].Changed = changed[parts[i].Path]
		}
	}
	slices.Sort(warnings)
	slices.SortFunc(skipped, func(a, b project.Skipped) int { return strings.Compare(a.Path, b.Path) })
	return &Collection{
		Parts:     parts,
		StateRoot: project.StateRoot(inputs),
		Target:    strings.Join(roots, " "),
		Warnings:  warnings,
		Skipped:   skipped,
	}, nil
}

// file is what the collector keeps of a file it read: what its part and
// the state root need, and how to know the file again. Its text is not
// kept: a part loads it when the engine needs it (see load).
type file struct {
	path     string
	len      int    // bytes of the text (after U+FFFD repair)
	lines    int    // project.CountLines
	cid      string // project.ContentID of the text
	sum      uint32 // CRC-32C of the text
	repaired bool   // invalid UTF-8 was replaced
	defs     refgraph.Defs
	err      error
}

// readAll reads files on up to GOMAXPROCS goroutines and returns what it
// found of each, in the order given: the parallelism never reaches the
// output. With scan, it also finds what each file defines, for the
// reference graph.
func readAll(ctx context.Context, fsys fs.FS, files []project.File, scan bool) ([]file, error) {
	out := make([]file, len(files))
	g, gctx := errgroup.WithContext(ctx)
	g.SetLimit(runtime.GOMAXPROCS(0))
	for i := range files {
		if gctx.Err() != nil {
			break
		}
		g.Go(func() error {
			f := &out[i]
			f.path = files[i].Path
			text, repaired, err := project.ReadText(fsys, f.path)
			if err != nil {
				f.err = err
				return nil
			}
			f.len, f.lines, f.repaired = len(text), project.CountLines(text), repaired
			f.cid, f.sum = project.ContentID(text), checksum(text)
			if scan {
				f.defs = refgraph.Scan(f.path, text)
			}
			return nil
		})
	}
	if err := g.Wait(); err != nil {
		return nil, err
	}
	if err := ctx.Err(); err != nil {
		return nil, err
	}
	return out, nil
}

// part is the file as a part: a meta line, its full text through a
// Loader, and its summary and detailed levels through More, which the
// engine calls only when a level between them is wanted (a budget, or a
// depth below full): a depth means the same with or without a budget.
func (f *file) part(fsys fs.FS) pack.Part {
	lang, kind, score := classify(f.path)
	meta := fmt.Sprintf("%s, %d lines, %d bytes\n", cmp.Or(lang, "text"), f.lines, f.len)
	part := pack.Part{
		Key: f.path, Source: "file", Type: kind, Path: f.path, Lang: lang, Score: score,
		Text:       map[pack.Level]string{pack.Meta: meta},
		Loader:     &pack.Loader{Len: f.len, Load: loader(fsys, f.path, f.len, f.sum)},
		Components: map[string]float64{"file_type": score},
		CID:        f.cid,
	}
	if f.lines > 0 {
		// The part is the whole file: its header names the file, not
		// its lines, as the way to get it whole.
		part.Lines = [2]int{1, f.lines}
		part.Whole = pack.SummarizeCommand(f.path, [2]int{})
	}
	part.More = codeLevels(f.path)
	return part
}

// loader returns a function that reads the file at path again, as
// readAll read it, and fails if its text is not the one read then.
func loader(fsys fs.FS, path string, n int, sum uint32) func() (string, error) {
	return func() (string, error) {
		text, _, err := project.ReadText(fsys, path)
		if err != nil {
			return "", err
		}
		return text, same(path, text, n, sum)
	}
}

// same fails when text is not the text of the file at path read first:
// n bytes with CRC-32C sum.
func same(path, text string, n int, sum uint32) error {
	if len(text) != n || checksum(text) != sum {
		return fmt.Errorf("files: %s changed while it was packed", path)
	}
	return nil
}

var castagnoli = crc32.MakeTable(crc32.Castagnoli)

// checksum is the CRC-32C of text, which tells a file that changed between
// two reads from one that did not.
func checksum(text string) uint32 {
	var buf [16 << 10]byte
	sum := uint32(0)
	for len(text) > 0 {
		n := copy(buf[:], text)
		sum = crc32.Update(sum, castagnoli, buf[:n])
		text = text[n:]
	}
	return sum
}
