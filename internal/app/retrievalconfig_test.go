package app

import (
	"strings"
	"testing"
)

// TestRetrievalConfigErrors: every problem of the retrieval: section is an
// error that names the file, the line and the key, unknown keys included.
func TestRetrievalConfigErrors(t *testing.T) {
	tests := []struct {
		name, config, want string // want: a part of the error; "" for none
	}{
		{"valid", "retrieval:\n  factors:\n    recency: 0.3\n  tiers:\n    - {name: all, share: 1, threshold: 0}\n", ""},
		{"out of range", "retrieval:\n  factors:\n    recency: 7\n", ".ctxpack/config.yaml:3: retrieval.factors.recency must be a number from 0 to 1"},
		{"unknown key", "retrieval:\n  rrf_k: 60\n  weights:\n    recency: 0.5\n", ".ctxpack/config.yaml:3: retrieval.weights is not a retrieval setting"},
		{"misspelt key", "retrieval:\n  factors:\n    recncy: 0.5\n", ".ctxpack/config.yaml:3: retrieval.factors.recncy is not a retrieval setting (did you mean factors.recency?)"},
		{"unknown tier key", "retrieval:\n  tiers:\n    - name: a\n      share: 1\n      threshold: 0\n      colour: red\n", ".ctxpack/config.yaml:6: retrieval.tiers[0].colour is not a retrieval setting"},
		{"merge key", "base: &base\n  factors:\n    recency: 0.3\nretrieval:\n  <<: *base\n  rrf_k: 60\n", ""},
		{"merged unknown key", "base: &base\n  factors:\n    recncy: 0.3\nretrieval:\n  <<: *base\n", ".ctxpack/config.yaml:3: retrieval.factors.recncy is not a retrieval setting (did you mean factors.recency?)"},
		{"merged bad value", "base: &base\n  factors:\n    recency: 3\nretrieval:\n  <<: *base\n", ".ctxpack/config.yaml:3: retrieval.factors.recency must be a number from 0 to 1"},
		{"explicit key over merged", "base: &base\n  rrf_k: 60\nretrieval:\n  <<: *base\n  rrf_k: 0\n", ".ctxpack/config.yaml:5: retrieval.rrf_k must be a whole number from 1 to 10000"},
		{"bad tier", "retrieval:\n  tiers:\n    - {name: a, share: 1, threshold: 0.5}\n    - {name: b, share: 1, threshold: 0.7}\n", ".ctxpack/config.yaml:4: retrieval.tiers[1].threshold must be from 0 to 1 and below"},
	}
	for _, tt := range tests {
		p, err := Open(writeProject(t, map[string]string{".ctxpack/config.yaml": tt.config}), "")
		if err != nil {
			t.Fatalf("%s: %v", tt.name, err)
		}
		if e, err := p.embedder(); e != nil || err != nil {
			t.Errorf("%s: embedder %v, %v; want none, and no error from the retrieval: section", tt.name, e, err)
		}
		_, _, err = p.retrieval()
		switch {
		case tt.want == "" && err != nil:
			t.Errorf("%s: %v", tt.name, err)
		case tt.want != "" && (err == nil || !strings.Contains(err.Error(), tt.want)):
			t.Errorf("%s: %v; want an error with %q", tt.name, err, tt.want)
		}
	}
}
