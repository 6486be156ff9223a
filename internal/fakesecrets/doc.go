// Package fakesecrets makes a small, realistic project full of fake
// secrets and of values that only look like secrets, to measure a secret
// scanner: every secret must be gone from an assembly's output, and the
// look-alikes kept.
//
// Generate(seed) is a pure function of its seed: the same seed gives the
// same Project, byte for byte, on every machine (math/rand/v2's PCG).
// No secret-looking value is written in this package's source: every
// value is drawn at run time, and the prefixes scanners key on are put
// together from pieces, so that secret scanners run over the repository
// find nothing to report.
//
// A Project's Files are the project's text; Secrets and LookAlikes say
// where each value was put and what must, or must not, be found in an
// output. Memories and CommitMessage hold text that reaches ctxpack
// through the store (ctxpack memory add) and git history; their secrets
// have the paths MemoryPath and CommitPath. Check scores one output.
package fakesecrets
