package app

import (
	"errors"
	"fmt"
	"io/fs"
	"slices"
	"strings"
)

// Message is err as a front end shows it to a person: the same words,
// without the names of ctxpack's packages that the layers below put in
// front of what they say ("graph: ", "project: ", "ctxpack: "), which a
// reader cannot know and does not need. Every front end shows errors
// through it, so that they read the same everywhere.
func Message(err error) string {
	if err == nil {
		return ""
	}
	segs := strings.Split(err.Error(), ": ")
	out := segs[:0]
	for i, s := range segs {
		// The last segment is what is wrong, never a prefix.
		if i < len(segs)-1 && slices.Contains(packageNames, s) {
			continue
		}
		out = append(out, s)
	}
	return strings.Join(out, ": ")
}

// packageNames are the names of ctxpack's packages below the front ends,
// and ctxpack itself: the prefixes of their errors. TestPackageNames
// keeps the list in step with internal/.
var packageNames = []string{
	"app", "artifact", "cache", "changes", "check", "chunk", "chunkid", "ctxpack", "embed",
	"evidence", "fakesecrets", "filelock", "files", "graph", "history", "index",
	"lang", "lexical", "links", "pack", "pgtest", "project", "rank", "record", "refgraph",
	"remote", "render", "retrieval", "retrieve", "secrets", "sources", "sqlitedb", "store",
	"textsim", "tokenizer", "words",
}

// PathError is a path a request names that is not in the project: it
// does not exist, or it is outside the project's root. It is the
// caller's mistake, as a *TargetError is.
type PathError struct {
	Path string // as the request gave it
	Err  error
}

func (e *PathError) Error() string {
	if errors.Is(e.Err, fs.ErrNotExist) {
		return fmt.Sprintf("%s: no such file or directory (a path is taken relative to the working directory)", ShowPath(e.Path))
	}
	return Message(e.Err) // project.Resolve's and Lstat's errors name the path
}

func (e *PathError) Unwrap() error { return e.Err }
