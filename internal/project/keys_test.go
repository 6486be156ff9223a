package project

import (
	"testing"

	"github.com/google/go-cmp/cmp"
	"go.yaml.in/yaml/v3"
)

// TestKeyLines: keys by dotted name with their lines, read as Pairs reads
// a mapping: merge keys expanded (explicit keys win, then earlier merged
// mappings), in sequences too; keys that are not plain names left out.
func TestKeyLines(t *testing.T) {
	const src = `base: &base
  factors:
    recency: 0.3
  rrf_k: 60
more: &more
  rrf_k: 70
  expand: 2
retrieval:
  <<: [*base, *more]
  rrf_k: 50
  tiers:
    - <<: *more
      name: a
  ? [x]
  : 1
`
	var doc yaml.Node
	if err := yaml.Unmarshal([]byte(src), &doc); err != nil {
		t.Fatal(err)
	}
	pairs, _ := Pairs("config.yaml", doc.Content[0], "")
	var retrieval *yaml.Node
	for _, kv := range pairs {
		if kv.Key.Value == "retrieval" {
			retrieval = kv.Val
		}
	}
	if retrieval == nil {
		t.Fatal("no retrieval section")
	}
	want := map[string]int{
		"factors":         2,
		"factors.recency": 3,
		"rrf_k":           10,
		"expand":          7,
		"tiers":           11,
		"tiers[0].name":   13,
		"tiers[0].rrf_k":  6,
		"tiers[0].expand": 7,
	}
	if diff := cmp.Diff(want, KeyLines(retrieval, "")); diff != "" {
		t.Errorf("KeyLines (-want +got):\n%s", diff)
	}
	if got := KeyLines(retrieval, "retrieval.")["retrieval.factors.recency"]; got != 3 {
		t.Errorf("with a prefix: retrieval.factors.recency at line %d, want 3", got)
	}
}
