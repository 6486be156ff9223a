package check

import (
	"errors"
	"strings"
	"testing"
	"testing/fstest"

	"github.com/ctxpack/ctxpack/internal/artifact"
	"github.com/ctxpack/ctxpack/internal/project"
	"github.com/google/go-cmp/cmp"
)

func parseConfigText(t *testing.T, text string) (Config, error) {
	t.Helper()
	fsys := fstest.MapFS{".ctxpack/config.yaml": &fstest.MapFile{Data: []byte(text)}}
	cfg, _, err := project.LoadConfig(fsys, ".ctxpack/config.yaml")
	if err != nil {
		t.Fatalf("LoadConfig: %v", err)
	}
	return ParseConfig(cfg)
}

func TestParseConfig(t *testing.T) {
	c, err := parseConfigText(t, `budget: 100
check:
  rules:
    orphan-spec: error
    broken-path: off
    broken-ref: warning
  required_fields:
    spec: [id, title, status, owner]
    norm: []
  baseline: ci/baseline.json
`)
	if err != nil {
		t.Fatal(err)
	}
	want := Config{
		Rules:          map[string]Severity{OrphanSpec: Error, BrokenPath: Off, BrokenRef: Warning},
		RequiredFields: map[artifact.Type][]string{artifact.Spec: {"id", "title", "status", "owner"}, artifact.Norm: {}},
		Baseline:       "ci/baseline.json",
	}
	if diff := cmp.Diff(want, c); diff != "" {
		t.Errorf("(-want +got):\n%s", diff)
	}
	if c.Severity(OrphanSpec) != Error || c.Severity(BrokenLink) != Warning || c.Severity(DuplicateID) != Error {
		t.Error("severities")
	}
	if got := c.Required(artifact.Task); !cmp.Equal(got, []string{"id", "title", "status"}) {
		t.Errorf("task default %v", got)
	}
	if got := c.Required(artifact.Norm); len(got) != 0 {
		t.Errorf("norm %v", got)
	}
	if got := c.Required(artifact.Identity); len(got) != 0 {
		t.Errorf("identity %v", got)
	}
}

// The check section reads merge keys as the rest of the file does:
// explicit keys win over merged ones.
func TestParseConfigMergeKeys(t *testing.T) {
	c, err := parseConfigText(t, "strict: &strict {orphan-spec: error, broken-path: error}\ncheck:\n  rules:\n    <<: *strict\n    broken-path: off\n")
	if err != nil {
		t.Fatal(err)
	}
	want := map[string]Severity{OrphanSpec: Error, BrokenPath: Off}
	if diff := cmp.Diff(want, c.Rules); diff != "" {
		t.Errorf("(-want +got):\n%s", diff)
	}
}

func TestParseConfigAbsentOrEmpty(t *testing.T) {
	for _, text := range []string{"", "budget: 5\n", "check:\n", "check: {}\n", "check:\n  rules:\n"} {
		c, err := parseConfigText(t, text)
		if err != nil || c.Rules != nil || c.RequiredFields != nil || c.Baseline != "" {
			t.Errorf("%q: %+v, %v", text, c, err)
		}
	}
}

func TestParseConfigErrors(t *testing.T) {
	for _, tc := range []struct{ text, want string }{
		{"check: [1]\n", "project: .ctxpack/config.yaml:1: check must be a mapping (got a list)"},
		{"check:\n  rule: {}\n", `project: .ctxpack/config.yaml:2: unknown key "check.rule" (did you mean "rules"?); the check section has rules, required_fields, baseline`},
		{"check:\n  rules:\n    orfan-spec: error\n", `project: .ctxpack/config.yaml:3: unknown rule "orfan-spec" (did you mean "orphan-spec"?); rules: duplicate-id, malformed-frontmatter, missing-required-field, broken-link, superseded-link, deprecated-link, broken-ref, broken-path, orphan-spec, unknown-status`},
		{"check:\n  rules:\n    orphan-spec: fatal\n", `project: .ctxpack/config.yaml:3: check.rules.orphan-spec must be error, warning or off (got "fatal")`},
		{"check:\n  rules:\n    orphan-spec: 5\n", `project: .ctxpack/config.yaml:3: check.rules.orphan-spec must be error, warning or off (got 5)`},
		{"check:\n  rules:\n    orphan-spec: [error]\n", `project: .ctxpack/config.yaml:3: check.rules.orphan-spec must be error, warning or off (got a list)`},
		{"check:\n  rules:\n    orphan-spec: error\n    orphan-spec: off\n", `project: .ctxpack/config.yaml:4: check.rules.orphan-spec is set twice (first at line 3); remove one`},
		{"check:\n  rules:\n    [orphan-spec]: error\n", `project: .ctxpack/config.yaml:3: check.rules: keys must be plain names (got a list)`},
		{"check:\n  rules: error\n", `project: .ctxpack/config.yaml:2: check.rules must be a mapping (got "error")`},
		{"check:\n  required_fields:\n    specs: [id]\n", `project: .ctxpack/config.yaml:3: unknown artifact type "specs" (did you mean "spec"?); types: identity, task, spec, decision, norm`},
		{"check:\n  required_fields:\n    spec: id\n", `project: .ctxpack/config.yaml:3: check.required_fields.spec must be a list of field names, such as [id, title] (got "id")`},
		{"check:\n  required_fields:\n    spec: [id, {a: b}]\n", `project: .ctxpack/config.yaml:3: check.required_fields.spec must list field names (got a mapping)`},
		{"check:\n  baseline: [x]\n", `project: .ctxpack/config.yaml:2: check.baseline must be a file path (got a list)`},
	} {
		_, err := parseConfigText(t, tc.text)
		if err == nil || err.Error() != tc.want {
			t.Errorf("%q:\n got  %v\n want %s", tc.text, err, tc.want)
			continue
		}
		var ce *project.ConfigError
		if !errors.As(err, &ce) || ce.Key == "" {
			t.Errorf("%q: not a ConfigError with a key: %#v", tc.text, err)
		}
	}
	// Several problems are all reported.
	_, err := parseConfigText(t, "check:\n  rules:\n    a: error\n    b: off\n  x: 1\n")
	if n := strings.Count(err.Error(), "\n") + 1; n != 3 {
		t.Errorf("%d errors, want 3:\n%v", n, err)
	}
}
