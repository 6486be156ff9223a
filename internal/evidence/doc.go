// Package evidence is the mdctx seed's evidence workspace on disk: a
// folder (ctx/) of ranked role files that a person curates, and the
// selectors and provenance comments that say where their text came from.
//
// A workspace file is named <rank>_<kind>.<role>.md (ParseName): a
// three-digit rank that orders assembly within its role, a kind, and a
// role, system, user or evidence. Its state is in the name too: .md is
// active, .md.skip is skipped, .link is a link (a symlink to a project
// file, or a file holding a selector) read afresh at each assembly.
// Evidence files live in the folder's evidence/ subfolder, system and
// user files at its top; List reads both and returns the files in
// assembly order (role, rank, kind, path), with a warning for every other
// file. Every change is a rename or a new file: toggling renames .md to
// .md.skip and back, SetRank and Rebase rename, Write never replaces a
// file, and Rebase moves through temporary names so that no file is lost
// when ranks swap, writing a journal (JournalFile) first: a rebase
// interrupted half way leaves a workspace that List refuses
// (*InterruptedError, naming what was left) until Recover finishes it.
//
// A Selector (ParseSelector, String) names a project file and a span:
// path[::range][#tags], a closed grammar documented on the type. A
// Provenance is the comment a file made from a selector starts with:
// source URI, content id of the selected text, span and tags; it gives
// the selector back, so that a later read can tell whether the source
// changed (stale).
//
// The package reads and writes the workspace folder only. It does not
// read project files (the caller passes their text to Select), except
// to resolve a symlinked .link, which must stay inside Workspace.Root.
// Nothing here is safe for concurrent use on one folder: two processes
// renaming the same files race as they would in a shell.
package evidence
