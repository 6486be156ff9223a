package app

import (
	"strings"
	"testing"
)

// TestSourcesSettingsErrors: every problem of the sources: section is an
// error that names the file, the line and the key; the keys of weights
// are source names, not settings; merged keys (<<) count as written.
func TestSourcesSettingsErrors(t *testing.T) {
	tests := []struct {
		name, config, want string // want: a part of the error; "" for none
	}{
		{"valid", "sources:\n  weights:\n    memories: 2\n  limit: 30\n  premortem:\n    values: 3\n", ""},
		{"merged", "base: &base\n  limit: 30\nsources:\n  <<: *base\n  similarity: 0.5\n", ""},
		{"misspelt key", "sources:\n  limit: 30\n  similarty: 0.5\n", ".ctxpack/config.yaml:3: sources.similarty is not a sources setting (did you mean similarity?); docs/sources.md lists them"},
		{"unknown nested key", "sources:\n  premortem:\n    limits: 3\n", ".ctxpack/config.yaml:3: sources.premortem.limits is not a sources setting (did you mean premortem.limit?)"},
		{"unknown weight", "sources:\n  weights:\n    memorys: 2\n", ".ctxpack/config.yaml:3: sources.weights.memorys names no source"},
		{"bad count", "sources:\n  premortem:\n    values: 0\n", ".ctxpack/config.yaml:3: sources.premortem.values must be a whole number from 1 to 1000"},
		{"merged bad count", "base: &base\n  limit: 5000\nsources:\n  <<: *base\n", ".ctxpack/config.yaml:2: sources.limit must be a whole number from 1 to 1000"},
	}
	for _, tt := range tests {
		p, err := Open(writeProject(t, map[string]string{".ctxpack/config.yaml": tt.config}), "")
		if err != nil {
			t.Fatalf("%s: %v", tt.name, err)
		}
		_, err = p.SourcesSettings()
		switch {
		case tt.want == "" && err != nil:
			t.Errorf("%s: %v", tt.name, err)
		case tt.want != "" && (err == nil || !strings.Contains(err.Error(), tt.want)):
			t.Errorf("%s: %v; want an error with %q", tt.name, err, tt.want)
		}
	}
}
