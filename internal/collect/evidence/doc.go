// Package evidence is evidence mode's collector, and the commands that
// read and change an evidence workspace (a ctx/ folder of ranked role
// files, package internal/evidence): add, assemble, stale, focus, deps,
// ask and export.
//
// # Collector
//
// Env.Collect reads the workspace, in its assembly order (role, rank,
// kind, path), into a Collection: one pack.Part for each active or linked
// file that could be read, system and user files pinned, evidence with a
// stub at meta and its rank as its priority; and what ctxplan.json says of
// every file whatever the engine does (render.EvidenceWorkspace: rank,
// kind, role, content id, provenance, and each file's section whole, to
// measure it). Collection.Options gives the engine the options only this
// mode knows: the mdctx format with the flow in its header, parts in
// section order, and deduplication, the item cap, the bucket policy and
// recency off, since every file was chosen by hand and its rank is its
// priority. The package renders, fits and allocates nothing: the caller
// runs pack.Assemble and renders ctxplan.json from the engine's plan with
// render.CtxPlan.
//
// # Ask
//
// ParseQuestion reads a question to evidence ask: the sections its words
// ask for (coverage, gaps, redundancy) and its subject. Env.Ask answers
// them from the workspace and the index's hits for the subject, and
// returns the workspace as a Collection and, for each gap, the parts with
// the gap added as add would add it: the caller runs the engine on them
// to fill what the plan says (statuses, tokens, totals, fit).
//
// # The project
//
// Env is what the package reads of the project: its root and files (an
// fs.FS), the file size limit, and two functions for the repository
// index, Search (focus, ask) and Index (deps), which the caller supplies. The
// package imports neither the facade nor another collector. A selector
// or a link that leads outside Env.Root is refused; paths in results,
// plans and messages are slash paths relative to the root, never
// absolute. Writes go to the workspace folder (Write, Focus, FocusOff,
// Export) and to the build folder (WriteBuild, atomically), both inside
// the root.
//
// # Contracts
//
// The same workspace and project files give the same collection, plan and
// reports: files are read in workspace order, every list is in that order
// or sorted, and no map order reaches a result. Deps follows the
// identifiers of words.Identifiers (ASCII names of at least three bytes)
// that the index defines in at most three places. Nothing here is safe
// for concurrent use on one workspace folder. Error messages start with
// "ctxpack: ", as they did in the facade the code came from: the CLI and
// the MCP server show them, and ctxplan.json holds them as reasons.
package evidence
