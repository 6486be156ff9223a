// Package sources is the collector of sources mode and premortem: it turns
// a request into parts from the project's store (memories, experiences,
// values, commits), its repository index (code) and its artifacts (a
// task's linked artifacts), and says what the engine must know of them.
//
// Collect runs one search per source, Premortem one per premortem section,
// in parallel, and returns a Collection: the parts, each an item in the
// ContextAssembler seed's format (render.Item) at the requested level, in
// the bucket of its source or section, with its relevance and that
// relevance's components as its score; the items found but not shown; the
// warnings; the state root over the inputs searched. Collection.Options
// sets the options only this mode knows: the sections as buckets weighted
// by sources.weights, with water-filling and a cutting item cap, sources
// mode's deduplication by edit distance at sources.similarity, the render
// order, and markdown's header and footer.
//
// The contracts:
//
//   - A collector only collects. It neither measures, cuts, deduplicates,
//     allocates nor renders: pack.Assemble does all of it, under the
//     options Collection.Options sets. What the items say is rendered by
//     render's item formats.
//   - The collection depends on the project's inputs and the request
//     alone: searches run in parallel, but their results are combined in
//     source order, and the store's ranking breaks ties by id. Relevance
//     uses no clock: recency is measured from the newest item found.
//   - A search that fails, or panics, is left out with a warning, and the
//     others are collected. Failing to open the store or to read its state
//     root fails the collection.
//   - The store is opened for reading only, and not created when missing,
//     unless the commits source is asked for without Request.NoUpdate: it
//     is then brought up to date with the git history under Env.Root
//     first.
//   - The request's defaults (sources, limits, level, the query of a task
//     alone) and its checks (a task needs the artifacts source, and must
//     exist) are the caller's: the ctxpack facade decides them once for
//     the CLI, the library and the MCP server.
//
// The package imports neither the facade nor another collector: code
// search and the artifact set come in through Env as functions.
package sources
