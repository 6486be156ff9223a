package lexical

import (
	"strings"
	"unicode/utf8"

	"github.com/ctxpack/ctxpack/internal/words"
)

// MaxTermBytes is the longest term Terms emits; longer words (hashes,
// base64, minified code) are split into their parts, and the whole word,
// or a part, that is still longer is left out.
const MaxTermBytes = 64

// Terms returns the code-aware search terms of text, in the order they
// occur, repeats included, so that their counts are term frequencies.
//
// Each word (package words: a run of letters, digits, marks and
// underscores, hyphens joining kebab-case) gives its whole form first, then
// its parts when it has more than one (words.Split: camelCase → camel case,
// HTTPServer → http server, utf8 → utf 8, at underscores and hyphens).
// The whole form is the parts joined without separators, so
// max_file_bytes, maxFileBytes and max-file-bytes all give
// "maxfilebytes". Every term is lower-cased with strings.ToLower; terms of
// a single ASCII byte and terms longer than MaxTermBytes are left out.
//
// Every term is non-empty, lower case, and holds no ASCII byte other than
// a letter or a digit, so that SQLite's FTS5 "ascii" tokenizer reads a
// space-separated list of terms back as the same terms. Terms depends on
// its input alone. Invalid UTF-8 separates words.
func Terms(text string) []string {
	var out []string
	words.Each(text, func(word string) { out = appendWordTerms(out, word) })
	return out
}

// QueryTerms returns the distinct terms of a query, in order of first
// occurrence: Terms with repeats removed, and with the English stop words
// (IsStopWord: "how", "are", "the"…) removed unless the query has nothing
// else, so that a question's grammar is not matched as if it were its
// subject. Only whole words are stop words: the parts of an identifier
// (is_valid → isvalid is valid) are kept.
func QueryTerms(query string) []string {
	var all []string
	stop := map[int]bool{} // indexes in all of the terms that are stop words
	words.Each(query, func(word string) {
		n := len(all)
		all = appendWordTerms(all, word)
		if len(all) == n+1 && IsStopWord(all[n]) {
			stop[n] = true
		}
	})
	if len(stop) == len(all) {
		stop = nil // only stop words: search for them
	}
	seen := make(map[string]bool, len(all))
	out := all[:0]
	for i, t := range all {
		if !seen[t] && !stop[i] {
			seen[t] = true
			out = append(out, t)
		}
	}
	return out
}

// IsStopWord reports whether the term t (lower case) is an English stop
// word: an article, a pronoun, an auxiliary or modal verb, a preposition,
// a conjunction or a question word, which says how a query is phrased
// rather than what it is about. Words that name things in code as well
// (all, any, each, get, set, new, not, none, true…), and the keywords of
// common languages (if, in, is, for, from, with, as, and, or, this, do,
// then, while, let), are not stop words: a bug report's code snippets
// match code through them (bench/swebench measured it).
func IsStopWord(t string) bool { return stopWords[t] }

var stopWords = func() map[string]bool {
	m := map[string]bool{}
	for _, w := range strings.Fields(`
		about above after again against am an are aren at
		be because been before being below between both but by
		can cannot could couldn did didn does doesn doing don down during
		few further
		had hadn has hasn have haven having he her here hers herself him himself his how
		into isn it its itself
		me more most my myself
		of off on once other ought our ours ourselves out over own
		same shall she should shouldn so some such
		than that the their theirs them themselves there these they those through to too
		under until up very
		was wasn we were weren what when where which who whom why will won would wouldn
		you your yours yourself yourselves`) {
		m[w] = true
	}
	return m
}()

// TermsText returns the terms of text joined by spaces: the form a
// full-text table with the ascii tokenizer holds, which reads it back as
// the same terms.
func TermsText(text string) string {
	return strings.TrimSuffix(string(AppendTermsText(nil, text)), " ")
}

// AppendTermsText appends the terms of text to b, each followed by a
// space: the form stored in the full-text index.
func AppendTermsText(b []byte, text string) []byte {
	words.Each(text, func(word string) {
		var buf [16]string
		for _, t := range appendWordTerms(buf[:0], word) {
			b = append(b, t...)
			b = append(b, ' ')
		}
	})
	return b
}

// appendWordTerms appends the terms of one word: its whole form, then its
// parts when there are several, lower-cased.
func appendWordTerms(out []string, word string) []string {
	var parts [32]string
	ps := words.Split(word, parts[:0])
	for i, p := range ps {
		ps[i] = lowerString(p)
	}
	if len(ps) == 0 {
		return out
	}
	if len(ps) == 1 {
		return appendTerm(out, ps[0])
	}
	out = appendTerm(out, strings.Join(ps, ""))
	for _, p := range ps {
		out = appendTerm(out, p)
	}
	return out
}

func appendTerm(out []string, t string) []string {
	if len(t) > MaxTermBytes || len(t) == 1 && t[0] < utf8.RuneSelf {
		return out
	}
	return append(out, t)
}

// lowerString lower-cases s, without allocating when it is already lower
// case ASCII.
func lowerString(s string) string {
	for i := 0; i < len(s); i++ {
		c := s[i]
		if c >= utf8.RuneSelf || 'A' <= c && c <= 'Z' {
			return strings.ToLower(s)
		}
	}
	return s
}
