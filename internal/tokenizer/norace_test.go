//go:build !race

package tokenizer

// raceEnabled: the race detector is on (see race_test.go).
const raceEnabled = false
