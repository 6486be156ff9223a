// Package artifact reads the project's artifacts: Markdown files with YAML
// frontmatter (identity, tasks, specs, decisions, norms; DESIGN §4), their
// levels of detail (DESIGN §3) and a project's whole set of them. It reads
// the Contextia layout as-is.
//
// Contracts:
//
//   - Format. A file starts with a line "---" (after an optional UTF-8 byte
//     order mark); the frontmatter runs to the next line "---" or "...";
//     the body is the rest. CRLF line ends are accepted everywhere. The
//     whole file must be valid UTF-8 and at most MaxBytes long.
//   - Fields. id, type, title, status, links {specs, decisions, norms,
//     tasks}, paths and superseded_by are known. Link lists and paths are
//     YAML lists or one string. Contextia's top-level specs, decisions,
//     norms and tasks are read as links (merged with links.*, in file order,
//     each target once). Every other field is kept in Artifact.Extra, in
//     file order, its value on one line (list items joined by ", ", maps
//     as flow YAML, aliases as "*name", never expanded).
//   - Ids. An id matches ^[A-Za-z][A-Za-z0-9_.-]*$, has no "..", and is at
//     most MaxIDBytes bytes (ValidID): never a path, never with spaces or
//     control characters. Link targets and superseded_by follow the same
//     rule. The identity (system/identity.md, or type: identity) has the id
//     "identity" and no id field of its own.
//   - Types. type is the explicit field when present (identity, task,
//     spec, decision or norm); else identity for system/identity.md; else
//     from the id prefix (TASK-, SPEC-, DEC-, NORM-); else from the folder
//     (work/tasks, work/active, work/archive, system/specs,
//     system/rationale, system/norms).
//   - Statuses are kept as written. KnownStatus tells DESIGN's and
//     Contextia's statuses from others; an unknown status is not an error.
//   - Lines. Artifact.Line gives the 1-based file line of each known field
//     ("id", "type", "title", "status", "links", "links.specs",
//     "paths", "superseded_by"), of each link target ("links.specs[SPEC-X]",
//     also for Contextia's top-level lists) and of each path glob
//     ("paths[src/**]").
//   - Errors. Parse's error, and every Set.Problems entry, is a *ParseError
//     whose text starts with "artifact: ", names the file and (when it
//     applies) the line, and says how to fix it. Parse never panics,
//     whatever the input.
//   - Levels. Text is a pure function of the Artifact's fields: meta ⊑
//     summary ⊑ detailed as prefixes, summary ⊑ full, and every line of
//     detailed is a line of full in the same order (see Artifact.Text).
//   - Load. Artifacts are listed in bytewise path order (Set.List, and
//     Set.Problems by path and line), whatever the file system's listing
//     order and however many goroutines read the files; ByID keeps the
//     first file of each id and the later ones are reported as duplicates.
//     Symlinks are followed only when they stay inside the project; files
//     over MaxBytes are reported from their size, not read. Load does not
//     keep fsys.
//   - Concurrency. The package keeps no mutable state; every function is
//     safe for concurrent use, and Text may be called concurrently on one
//     Artifact.
package artifact
