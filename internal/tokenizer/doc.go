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
//     most the limit.
package tokenizer
