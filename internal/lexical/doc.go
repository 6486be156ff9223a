// Package lexical holds the lexical side of search that the repository
// index and the store share: code-aware terms (Terms, QueryTerms,
// TermsText), the FTS5 query that matches any of them (MatchExpr), and
// TopK, which widens a full-text search until its k best are settled.
//
// Everything is a pure function of its input; terms hold nothing but
// lower-case letters and digits, so SQLite's FTS5 "ascii" tokenizer reads
// a space-separated list of them back as the same terms.
package lexical
