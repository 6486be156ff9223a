// Package retrieval is retrieval mode's collector (DESIGN §5): the chunks
// a query ranks best in the repository index, as parts for the engine.
//
// The ranking itself is internal/retrieve's; this package turns a ranking
// into parts. Each chunk is read again from the project's files (Files,
// each file read once) and shown only when its text still has the content
// id the index recorded; a chunk whose file changed or cannot be read is
// left out with a reason (dropped) and a warning per file. A part offers
// four levels: the chunk whole, its signatures and doc comments, its
// first lines, and a line naming it. Each part goes to the tier its
// relevance reaches (the aiwg seed's 50/30/15/5); Policy turns the tiers
// into the engine's budget buckets. It renders, fits and allocates
// nothing: that is internal/pack's.
//
// Parts come in the ranking's order; everything is a pure function of
// the ranking and the files' texts.
package retrieval
