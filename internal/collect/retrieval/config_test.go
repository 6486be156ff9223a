package retrieval

import (
	"strings"
	"testing"
	"testing/fstest"

	"github.com/ctxpack/ctxpack/internal/project"
	"github.com/ctxpack/ctxpack/internal/retrieve"
)

func settings(t *testing.T, yaml string) (retrieve.Options, []Tier, error) {
	t.Helper()
	cfg, _, err := project.LoadConfig(fstest.MapFS{".ctxpack/config.yaml": {Data: []byte(yaml)}}, ".ctxpack/config.yaml")
	if err != nil {
		t.Fatal(err)
	}
	return Settings(cfg)
}

// TestSettings: every value of the retrieval: section reaches the options
// or the tiers; none gives the defaults.
func TestSettings(t *testing.T) {
	o, tiers, err := settings(t, "budget: 100\n")
	if err != nil || o.Factors != retrieve.DefaultFactors() || len(tiers) != 4 || tiers[0] != DefaultTiers()[0] {
		t.Fatalf("no section: %+v, %v, %v", o.Factors, tiers, err)
	}
	o, tiers, err = settings(t, `retrieval:
  factors: {task_alignment: 0.5, recency: 0, mention_density: 0.25, dependency_depth: 0.125, file_type: 1}
  file_types: {source: 0.9, test: 0.8, requirements: 0.7, documentation: 0.6, config: 0.5, other: 0.4}
  rrf_k: 30
  lexical: 40
  semantic: 41
  mentions: 42
  fused: 43
  decay_days: 14
  expand: 0
  expand_share: 0.5
  off: [stemming, test_mapping]
  tiers:
    - {name: top, share: 60, threshold: 0.6}
    - {name: rest, share: 40, threshold: 0}
`)
	if err != nil {
		t.Fatal(err)
	}
	f := o.Factors
	if f.TaskAlignment != 0.5 || f.Recency != 0 || f.MentionDensity != 0.25 || f.DependencyDepth != 0.125 || f.FileType != 1 {
		t.Errorf("factors %+v", f)
	}
	if ft := o.FileTypes; ft.Source != 0.9 || ft.Other != 0.4 || ft.Documentation != 0.6 {
		t.Errorf("file types %+v", ft)
	}
	if o.K != 30 || o.Lexical != 40 || o.Semantic != 41 || o.Mentions != 42 || o.Fused != 43 || o.DecayDays != 14 || o.Expand != -1 || o.ExpandShare != 0.5 {
		t.Errorf("options %+v", o)
	}
	if o.Off != (retrieve.Components{Stemming: true, TestMapping: true}) {
		t.Errorf("off %+v", o.Off)
	}
	if len(tiers) != 2 || tiers[0] != (Tier{"top", 60, 0.6}) || tiers[1] != (Tier{"rest", 40, 0}) {
		t.Errorf("tiers %+v", tiers)
	}
}

// TestSettingsErrors: every problem names the file, the line and the key.
func TestSettingsErrors(t *testing.T) {
	for _, tt := range []struct{ name, yaml, want string }{
		{"factor out of range", "retrieval:\n  factors:\n    recency: 7\n", ".ctxpack/config.yaml:3: retrieval.factors.recency must be a number from 0 to 1"},
		{"all factors zero", "retrieval:\n  factors: {task_alignment: 0, recency: 0, mention_density: 0, dependency_depth: 0, file_type: 0}\n", "retrieval.factors must give at least one factor a weight above 0"},
		{"file type", "retrieval:\n  file_types:\n    test: -1\n", "retrieval.file_types.test must be a number from 0 to 1"},
		{"count", "retrieval:\n  fused: 0\n", ".ctxpack/config.yaml:2: retrieval.fused must be a whole number from 1 to 10000"},
		{"expand", "retrieval:\n  expand: 101\n", "retrieval.expand must be a whole number of files from 0 to 100"},
		{"decay", "retrieval:\n  decay_days: 0\n", "retrieval.decay_days must be a positive number of days"},
		{"off", "retrieval:\n  off: [stemming, stems]\n", ".ctxpack/config.yaml:2: retrieval.off[1] must name a component: query_cleaning, kind_prior, stemming, test_mapping, term_selection, windows"},
		{"unknown key", "retrieval:\n  weights: {}\n", "retrieval.weights is not a retrieval setting"},
		{"tier name", "retrieval:\n  tiers:\n    - {share: 1, threshold: 0}\n", "retrieval.tiers[0].name must be a name no other tier has"},
		{"tier share", "retrieval:\n  tiers:\n    - {name: a, threshold: 0}\n", "retrieval.tiers[0].share must be a positive share of the budget"},
		{"tier threshold", "retrieval:\n  tiers:\n    - {name: a, share: 1, threshold: 0.5}\n    - {name: b, share: 1, threshold: 0.7}\n", "retrieval.tiers[1].threshold must be from 0 to 1 and below"},
	} {
		_, _, err := settings(t, tt.yaml)
		if err == nil || !strings.Contains(err.Error(), tt.want) {
			t.Errorf("%s: %v; want an error with %q", tt.name, err, tt.want)
		}
	}
}
