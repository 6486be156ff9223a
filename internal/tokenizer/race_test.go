//go:build race

package tokenizer

// raceEnabled: the race detector is on. Its sync.Pool drops a quarter of
// what is put back, on purpose, so the pools allocate.
const raceEnabled = true
