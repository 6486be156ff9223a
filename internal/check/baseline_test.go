package check

import (
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"
)

func TestBaselineRoundTrip(t *testing.T) {
	findings := []Finding{
		{Rule: BrokenLink, Severity: Warning, Path: "b.md", Line: 4, Message: "B links to X, which does not exist", ID: "B"},
		{Rule: BrokenRef, Severity: Warning, Path: "a.go", Line: 9, Message: "@spec SPEC-X, which does not exist", ID: "SPEC-X"},
		{Rule: BrokenRef, Severity: Warning, Path: "a.go", Line: 12, Message: "@spec SPEC-X, which does not exist", ID: "SPEC-X"},
	}
	data := NewBaseline(findings).Marshal()
	want := `{
  "version": 1,
  "findings": [
    {
      "rule": "broken-ref",
      "path": "a.go",
      "message": "@spec SPEC-X, which does not exist"
    },
    {
      "rule": "broken-ref",
      "path": "a.go",
      "message": "@spec SPEC-X, which does not exist"
    },
    {
      "rule": "broken-link",
      "path": "b.md",
      "message": "B links to X, which does not exist"
    }
  ]
}
`
	if diff := cmp.Diff(want, string(data)); diff != "" {
		t.Errorf("(-want +got):\n%s", diff)
	}
	b, err := ParseBaseline("x.json", data)
	if err != nil {
		t.Fatal(err)
	}

	// Lines shift; the same findings stay hidden.
	moved := append([]Finding(nil), findings...)
	for i := range moved {
		moved[i].Line += 10
	}
	kept, hidden := b.Filter(moved)
	if len(kept) != 0 || hidden != 3 {
		t.Errorf("kept %v, hidden %d", kept, hidden)
	}

	// A third occurrence of a known finding is new, and so is a new one.
	extra := Finding{Rule: BrokenRef, Severity: Warning, Path: "a.go", Line: 20, Message: "@spec SPEC-X, which does not exist"}
	other := Finding{Rule: OrphanSpec, Severity: Warning, Path: "s.md", Line: 2, Message: "S is linked from nothing"}
	kept, hidden = b.Filter(append(moved, extra, other))
	if diff := cmp.Diff([]Finding{extra, other}, kept); diff != "" || hidden != 3 {
		t.Errorf("hidden %d, kept (-want +got):\n%s", hidden, diff)
	}

	// A nil baseline hides nothing.
	kept, hidden = (*Baseline)(nil).Filter(findings)
	if len(kept) != 3 || hidden != 0 {
		t.Errorf("nil baseline: %v, %d", kept, hidden)
	}
	// An empty one writes an empty list.
	if got := string(NewBaseline(nil).Marshal()); got != "{\n  \"version\": 1,\n  \"findings\": []\n}\n" {
		t.Errorf("empty baseline %q", got)
	}
}

func TestParseBaselineErrors(t *testing.T) {
	for _, tc := range []struct{ data, want string }{
		{"", "check: baseline b.json: EOF"},
		{"{", "check: baseline b.json: unexpected EOF"},
		{`{"version": 2, "findings": []}`, "check: baseline b.json: version 2, want 1"},
		{`{"version": 1, "findings": [{"rule": "x"}]}`, "check: baseline b.json: finding 1 needs rule, path and message"},
		{`{"version": 1, "extra": 1}`, `check: baseline b.json: json: unknown field "extra"`},
	} {
		_, err := ParseBaseline("b.json", []byte(tc.data))
		if err == nil || !strings.HasPrefix(err.Error(), tc.want) {
			t.Errorf("%q: got %v, want %s…", tc.data, err, tc.want)
		}
	}
}
