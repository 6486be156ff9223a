// Package secrets finds secrets in text — cloud, VCS, registry, chat,
// payment and AI-provider keys and tokens, JWTs, private keys, passwords
// in URLs and credentials assigned to names that say what they are — and
// redacts them: each value is replaced by a marker that names its rule,
// [redacted: aws-access-key-id], and a private key block is replaced
// whole.
//
// The engine's redact stage (DESIGN §1) runs a Scanner over every text
// before anything is counted, so what leaves the machine holds no value
// a rule matches and is still exactly within budget. A Finding names its
// rule, its line and a fingerprint of the value, never the value itself.
//
// Detection is one pass over the text, in words (runs of letters, digits
// and _-+/.), with a few substring searches for what words cannot see
// (PEM blocks, "://"): a word is checked against the rules only when its
// first byte can start a known prefix, or when it names a credential and
// is followed by an assignment. Patterns with a fixed prefix and shape
// are trusted alone; a value assigned to a credential name must also look
// like one (length, character classes, entropy) and not like a
// placeholder (${VAR}, <your-key>, changeme, an expression).
//
// Scanning is a pure function of the text (and the allow-list): the same
// text always gives the same findings, so redacted output is as
// deterministic as the rest.
package secrets
