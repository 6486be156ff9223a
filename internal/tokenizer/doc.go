// Package tokenizer counts and truncates text in the tokens of a large
// language model's vocabulary.
//
// Three tokenizers are available by name: "o200k_base" (the default, used by
// GPT-4o and later OpenAI models), "cl100k_base" (GPT-4 and GPT-3.5) and
// "approx", the seeds' (bytes+3)/4 estimate kept for compatibility. The two
// BPE encodings are exact: they give the counts of OpenAI's tiktoken, with
// special-token text treated as ordinary text, and need no network.
//
// Contracts:
//   - Every Tokenizer is safe for concurrent use and deterministic.
//   - Count and Truncate accept any string. Invalid UTF-8 is first repaired
//     by ToValidUTF8 (each maximal ill-formed subsequence becomes one U+FFFD,
//     as the WHATWG Encoding Standard decodes it), so the count is the count
//     of the text ctxpack would emit.
//   - Truncate returns a prefix of the repaired text that ends on a token
//     boundary and on a UTF-8 character boundary, and whose own Count is at
//     most the limit. A larger limit never gives a shorter prefix.
//   - Counting text whose pieces (see below) are at most 64 bytes long
//     allocates nothing.
//
// # How the BPE encodings work
//
// A text is cut into pieces by the encoding's pre-tokenizer, written by hand
// to split exactly as tiktoken's regular expression does (split.go), and
// each piece that is not itself a token is merged byte pair by byte pair,
// lowest rank first, as tiktoken merges (merge.go). The vocabularies are
// embedded files generated from github.com/tiktoken-go/tokenizer, which is
// linked only into the tests (internal/genvocab); each is loaded on the first
// Get of its name, in about 10 ms.
//
// Character classes come from Go's unicode package (Unicode 15.0.0 in Go
// 1.26). OpenAI's tiktoken uses newer tables, so it can split text with
// characters assigned after Unicode 15.0 differently.
package tokenizer
