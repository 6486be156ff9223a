package artifact

import (
	"errors"
	"strings"
	"testing"
	"time"

	"github.com/google/go-cmp/cmp"
	"github.com/google/go-cmp/cmp/cmpopts"
)

const specPath = ".ctxpack/system/specs/SPEC-1.md"

func TestParse(t *testing.T) {
	tests := []struct {
		name string
		path string
		src  string
		want *Artifact // Path, Lines, Body, CID are checked elsewhere
	}{{
		name: "every field",
		path: ".ctxpack/work/tasks/TASK-042.md",
		src: `---
id: TASK-042
type: task
title: Add multi-currency support
status: in_progress
links:
  specs: [SPEC-BILLING-001, SPEC-CURRENCY-001]
  decisions:
    - DEC-BILLING-001
  norms: NORM-ERROR-001
  tasks: []
paths:
  - src/billing/**
  - src/currency/*.py
superseded_by: TASK-043
owner: billing-team
---
body
`,
		want: &Artifact{
			ID: "TASK-042", Type: Task, Title: "Add multi-currency support", Status: InProgress,
			Links: Links{
				Specs:     []string{"SPEC-BILLING-001", "SPEC-CURRENCY-001"},
				Decisions: []string{"DEC-BILLING-001"},
				Norms:     []string{"NORM-ERROR-001"},
			},
			Paths:        []string{"src/billing/**", "src/currency/*.py"},
			SupersededBy: "TASK-043",
			Extra:        []Field{{Key: "owner", Value: "billing-team", Line: 16}},
			Line: map[string]int{
				"id": 2, "type": 3, "title": 4, "status": 5, "links": 6,
				"links.specs": 7, "links.specs[SPEC-BILLING-001]": 7, "links.specs[SPEC-CURRENCY-001]": 7,
				"links.decisions": 8, "links.decisions[DEC-BILLING-001]": 9,
				"links.norms": 10, "links.norms[NORM-ERROR-001]": 10,
				"links.tasks": 11,
				"paths":       12, "paths[src/billing/**]": 13, "paths[src/currency/*.py]": 14,
				"superseded_by": 15,
			},
		},
	}, {
		name: "type from id prefix",
		path: "notes/x.md",
		src:  "---\nid: DEC-7\n---\n",
		want: &Artifact{ID: "DEC-7", Type: Decision, Line: map[string]int{"id": 2}},
	}, {
		name: "type from folder",
		path: ".contextia/system/norms/errors.md",
		src:  "---\nid: ERRORS\n---\n",
		want: &Artifact{ID: "ERRORS", Type: Norm, Line: map[string]int{"id": 2}},
	}, {
		name: "type from Contextia working folder",
		path: ".contextia/work/archive/2026/TASK-9.md",
		src:  "---\nid: T9\n---\n",
		want: &Artifact{ID: "T9", Type: Task, Line: map[string]int{"id": 2}},
	}, {
		name: "explicit type wins over prefix and folder",
		path: ".ctxpack/system/specs/x.md",
		src:  "---\nid: NORM-1\ntype: decision\n---\n",
		want: &Artifact{ID: "NORM-1", Type: Decision, Line: map[string]int{"id": 2, "type": 3}},
	}, {
		name: "identity",
		path: ".contextia/system/identity.md",
		src:  "---\nproject: acme-billing\nversion: \"3.0\"\nlanguages: [python, typescript]\nframeworks: [fastapi, react]\n---\n# Acme\n",
		want: &Artifact{ID: "identity", Type: Identity, Line: map[string]int{}, Extra: []Field{
			{Key: "project", Value: "acme-billing", Line: 2},
			{Key: "version", Value: "3.0", Line: 3},
			{Key: "languages", Value: "python, typescript", Line: 4},
			{Key: "frameworks", Value: "fastapi, react", Line: 5},
		}},
	}, {
		name: "identity by type, id identity allowed",
		path: "x.md",
		src:  "---\ntype: identity\nid: identity\n---\n",
		want: &Artifact{ID: "identity", Type: Identity, Line: map[string]int{"type": 2, "id": 3}},
	}, {
		name: "Contextia top-level links merge with links, each target once",
		path: specPath,
		src:  "---\nid: SPEC-1\nlinks:\n  decisions: [DEC-1]\ndecisions:\n  - DEC-2\n  - DEC-1\nnorms: NORM-1\ntasks: [TASK-1, TASK-1]\n---\n",
		want: &Artifact{ID: "SPEC-1", Type: Spec,
			Links: Links{Decisions: []string{"DEC-1", "DEC-2"}, Norms: []string{"NORM-1"}, Tasks: []string{"TASK-1"}},
			Line: map[string]int{"id": 2, "links": 3, "links.decisions": 4, "links.decisions[DEC-1]": 4, "links.decisions[DEC-2]": 6,
				"links.norms": 8, "links.norms[NORM-1]": 8, "links.tasks": 9, "links.tasks[TASK-1]": 9}},
	}, {
		name: "paths as one string, nulls, folded title",
		path: specPath,
		src:  "---\nid: SPEC-1\ntitle: >\n  Invoice\n  generation\nstatus:\nsuperseded_by: ~\nlinks:\npaths: src/**\n---\n",
		want: &Artifact{ID: "SPEC-1", Type: Spec, Title: "Invoice generation", Paths: []string{"src/**"},
			Line: map[string]int{"id": 2, "title": 3, "status": 6, "superseded_by": 7, "links": 8, "paths": 9, "paths[src/**]": 9}},
	}, {
		name: "extra values on one line",
		path: specPath,
		src: `---
id: SPEC-1
description: |
  Two
  lines
tags: [a, "b, c"]
nested: {k: [1, 2], m: {x: y}}
listofmaps:
  - {a: 1}
  - [x, y]
empty: []
none: null
anchor: &a [1]
alias: *a
---
`,
		want: &Artifact{ID: "SPEC-1", Type: Spec, Line: map[string]int{"id": 2}, Extra: []Field{
			{Key: "description", Value: "Two lines", Line: 3},
			{Key: "tags", Value: `a, "b, c"`, Line: 6},
			{Key: "nested", Value: "{k: [1, 2], m: {x: y}}", Line: 7},
			{Key: "listofmaps", Value: "{a: 1}, [x, y]", Line: 8},
			{Key: "empty", Value: "", Line: 11},
			{Key: "none", Value: "", Line: 12},
			{Key: "anchor", Value: "1", Line: 13},
			{Key: "alias", Value: "1", Line: 14}, // a top-level alias shows its anchor's value
		}},
	}, {
		name: "CRLF, BOM and a ... fence",
		path: specPath,
		src:  "\ufeff---\r\nid: SPEC-1\r\ntitle: T\r\n...\r\nbody\r\n",
		want: &Artifact{ID: "SPEC-1", Type: Spec, Title: "T", Line: map[string]int{"id": 2, "title": 3}},
	}, {
		name: "fences with trailing spaces; --- inside YAML block is not a fence",
		path: specPath,
		src:  "--- \nid: SPEC-1\n---\t\n",
		want: &Artifact{ID: "SPEC-1", Type: Spec, Line: map[string]int{"id": 2}},
	}, {
		name: "lines where YAML breaks at CR or U+2028 but the file does not",
		path: specPath,
		src:  "---\nid: SPEC-1\rtitle: T\nstatus: done\u2028owner: me\n---\n",
		want: &Artifact{ID: "SPEC-1", Type: Spec, Title: "T", Status: "done",
			Extra: []Field{{Key: "owner", Value: "me", Line: 3}},
			Line:  map[string]int{"id": 2, "title": 2, "status": 3}},
	}, {
		name: "unknown status kept",
		path: specPath,
		src:  "---\nid: SPEC-1\nstatus: wip\n---\n",
		want: &Artifact{ID: "SPEC-1", Type: Spec, Status: "wip", Line: map[string]int{"id": 2, "status": 3}},
	}}
	ignore := cmpopts.IgnoreFields(Artifact{}, "Path", "Lines", "Body", "CID")
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			got, err := Parse(tt.path, []byte(tt.src))
			if err != nil {
				t.Fatal(err)
			}
			if diff := cmp.Diff(tt.want, got, ignore, cmpopts.EquateEmpty()); diff != "" {
				t.Errorf("Parse (-want +got):\n%s", diff)
			}
			if got.Path != tt.path {
				t.Errorf("Path = %q, want %q", got.Path, tt.path)
			}
		})
	}
}

func TestParseBody(t *testing.T) {
	src := "\ufeff---\r\nid: SPEC-1\r\n---\r\n# Title\r\n\r\ntext"
	a, err := Parse(specPath, []byte(src))
	if err != nil {
		t.Fatal(err)
	}
	if want := "# Title\n\ntext"; a.Body != want {
		t.Errorf("Body = %q, want %q", a.Body, want)
	}
	if a.Lines != 6 {
		t.Errorf("Lines = %d, want 6", a.Lines)
	}
	// The content id is of the file's bytes as they are.
	if want := "sha256:"; !strings.HasPrefix(a.CID, want) || len(a.CID) != len(want)+64 {
		t.Errorf("CID = %q", a.CID)
	}
	b, _ := Parse(specPath, []byte(strings.ReplaceAll(src, "\r\n", "\n")))
	if a.CID == b.CID {
		t.Error("CRLF and LF files have the same CID")
	}
	if a.Text(Full) != b.Text(Full) {
		t.Errorf("CRLF and LF texts differ:\n%q\n%q", a.Text(Full), b.Text(Full))
	}
}

func TestParseErrors(t *testing.T) {
	big := "---\nid: SPEC-1\n---\n" + strings.Repeat("x", MaxBytes)
	tests := []struct {
		name, path, src, want string
	}{
		{"empty file", specPath, "", ":  empty file; an artifact starts with a line ---, its YAML frontmatter (id, title, …) and a line ---"},
		{"blank file", specPath, "\n\n", ": empty file; an artifact starts with a line ---, its YAML frontmatter (id, title, …) and a line ---"},
		{"no frontmatter", specPath, "# SPEC-1\n", ":1: no frontmatter: the file must start with a line ---, then YAML fields such as id and title, then a line ---"},
		{"fence not first", specPath, "\n---\nid: SPEC-1\n---\n", ":1: no frontmatter: the file must start with a line ---, then YAML fields such as id and title, then a line ---"},
		{"unterminated", specPath, "---\nid: SPEC-1\ntitle: x\n", ":1: frontmatter is not closed: add a line --- after the last field"},
		{"only a fence", specPath, "---", ":1: frontmatter is not closed: add a line --- after the last field"},
		{"malformed YAML", specPath, "---\nid: SPEC-1\ntitle: [a\n---\n", ":3: invalid YAML in frontmatter: did not find expected ',' or ']'; close the quote or bracket opened here"},
		{"unclosed quote", specPath, "---\nid: SPEC-1\ntitle: 'x\nstatus: done\n---\n", ":3: invalid YAML in frontmatter: found unexpected end of stream; close the quote or bracket opened here"},
		{"unknown anchor", specPath, "---\nid: SPEC-1\ntitle: *x\n---\n", ":3: invalid YAML in frontmatter: unknown anchor 'x' referenced; define the anchor (&name) before using it (*name)"},
		{"colon in value", specPath, "---\nid: SPEC-1\ntitle: a: b\n---\n", `:3: invalid YAML in frontmatter: mapping values are not allowed in this context; quote a value that holds ": ", or fix the indentation`},
		{"reserved character", specPath, "---\nid: SPEC-1\ntitle: @x\n---\n", ":3: invalid YAML in frontmatter: found character that cannot start any token; quote the value (YAML reserves @ and ` at its start)"},
		{"bad indentation", specPath, "---\nid: SPEC-1\n  title: x\n---\n", ":3: invalid YAML in frontmatter: mapping values are not allowed in this context; quote a value that holds \": \", or fix the indentation"},
		{"tab", specPath, "---\nid: SPEC-1\n\ttitle: x\n---\n", ":3: invalid YAML in frontmatter: found a tab character that violates indentation; indent with spaces, not tabs"},
		{"control character", specPath, "---\nid: SPEC-1\ntitle: a\x01b\n---\n", ":3: frontmatter holds the control character U+0001, which YAML does not allow; remove it"},
		{"two documents", specPath, "---\nid: SPEC-1\n--- x\n---\n", ":3: frontmatter holds more than one YAML document; keep one set of fields between the --- lines"},
		{"not a map: list", specPath, "---\n- id\n- SPEC-1\n---\n", ":2: frontmatter must be a mapping of fields like id: SPEC-1 (got a list)"},
		{"not a map: scalar", specPath, "---\nSPEC-1\n---\n", `:2: frontmatter must be a mapping of fields like id: SPEC-1 (got "SPEC-1")`},
		{"invalid UTF-8", specPath, "---\nid: SPEC-1\ntitle: caf\xe9\n---\n", ":3: invalid UTF-8 at byte 25; save the file as UTF-8"},
		{"invalid UTF-8 in body", specPath, "---\nid: SPEC-1\n---\n\nok\n\xff", ":6: invalid UTF-8 at byte 23; save the file as UTF-8"},
		{"too large", specPath, big, ": file is 1048595 bytes, over the 1048576-byte limit for artifacts; split it"},
		{"missing id", specPath, "---\ntitle: x\n---\n", ":1: missing id: add a line like id: SPEC-1 to the frontmatter"},
		{"missing id in tasks", ".ctxpack/work/tasks/a.md", "---\ntitle: x\n---\n", ":1: missing id: add a line like id: TASK-1 to the frontmatter"},
		{"empty frontmatter", specPath, "---\n---\n", ":1: missing id: add a line like id: SPEC-1 to the frontmatter"},
		{"unknown type", "x.md", "---\nid: X-1\n---\n", ":1: cannot tell the artifact's type: add a line type: with task, spec, decision or norm, or use an id prefix TASK-, SPEC-, DEC- or NORM-"},
		{"bad type", specPath, "---\nid: SPEC-1\ntype: Spec\n---\n", `:3: type must be one of identity, task, spec, decision, norm (got "Spec")`},
		{"type a list", specPath, "---\nid: SPEC-1\ntype: [spec]\n---\n", `:3: type must be one of identity, task, spec, decision, norm (got a list)`},
		{"identity with an id", ".ctxpack/system/identity.md", "---\nid: PROJ-1\n---\n", ":2: the identity has no id (got PROJ-1); remove the id line"},
		{"id a number", specPath, "---\nid: 42\n---\n", `:2: id must be an id like SPEC-1 (got "42")`},
		{"id empty", specPath, "---\nid:\n---\n", `:2: id must be an id like SPEC-1 (got nothing)`},
		{"id a list", specPath, "---\nid: [SPEC-1]\n---\n", `:2: id must be an id like SPEC-1 (got a list)`},
		{"id with a slash", specPath, "---\nid: specs/SPEC-1\n---\n", `:2: id "specs/SPEC-1" must not contain a path separator; ids are a letter, then letters, digits, '-', '_' or '.' (like SPEC-BILLING-001)`},
		{"id with a backslash", specPath, "---\nid: 'a\\b'\n---\n", `:2: id "a\\b" must not contain a path separator; ids are a letter, then letters, digits, '-', '_' or '.' (like SPEC-BILLING-001)`},
		{"id with ..", specPath, "---\nid: a..b\n---\n", `:2: id "a..b" must not contain ".."; ids are a letter, then letters, digits, '-', '_' or '.' (like SPEC-BILLING-001)`},
		{"id starting with a dot", specPath, "---\nid: .hidden\n---\n", `:2: id ".hidden" must start with a letter; ids are a letter, then letters, digits, '-', '_' or '.' (like SPEC-BILLING-001)`},
		{"id with a space", specPath, "---\nid: SPEC 1\n---\n", `:2: id "SPEC 1" must not contain spaces; ids are a letter, then letters, digits, '-', '_' or '.' (like SPEC-BILLING-001)`},
		{"id with a control character", specPath, "---\nid: \"SPEC\\x001\"\n---\n", `:2: id "SPEC\x001" must not contain control characters; ids are a letter, then letters, digits, '-', '_' or '.' (like SPEC-BILLING-001)`},
		{"id non-ASCII", specPath, "---\nid: SPÉC-1\n---\n", `:2: id "SPÉC-1" must not contain 'É'; ids are a letter, then letters, digits, '-', '_' or '.' (like SPEC-BILLING-001)`},
		{"id too long", specPath, "---\nid: " + strings.Repeat("a", 129) + "\n---\n", `:2: id "aaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaa…" is 129 bytes long (at most 128); ids are a letter, then letters, digits, '-', '_' or '.' (like SPEC-BILLING-001)`},
		{"title a list", specPath, "---\nid: SPEC-1\ntitle: [a, b]\n---\n", ":3: title must be text (got a list)"},
		{"status a map", specPath, "---\nid: SPEC-1\nstatus: {a: b}\n---\n", ":3: status must be text (got a map)"},
		{"duplicate field", specPath, "---\nid: SPEC-1\ntitle: a\ntitle: b\n---\n", ":4: title is set twice (first on line 3); keep one"},
		{"links a list", specPath, "---\nid: SPEC-1\nlinks: [SPEC-2]\n---\n", ":3: links must be a mapping like links: {specs: [SPEC-1], norms: [NORM-1]} (got a list)"},
		{"links.specs a map", specPath, "---\nid: SPEC-1\nlinks:\n  specs: {a: b}\n---\n", ":4: links.specs must be a list of ids like [SPEC-1] (got a map)"},
		{"links.specs comma string", specPath, "---\nid: SPEC-1\nlinks:\n  specs: SPEC-A, SPEC-B\n---\n", `:4: links.specs must be a list of ids, like [SPEC-1, SPEC-2] (got "SPEC-A, SPEC-B")`},
		{"links item a list", specPath, "---\nid: SPEC-1\nlinks:\n  norms:\n    - NORM-1\n    - [NORM-2]\n---\n", ":6: links.norms item 2 must be an id like NORM-1 (got a list)"},
		{"links item empty", specPath, "---\nid: SPEC-1\nlinks:\n  norms:\n    -\n---\n", ":5: links.norms item 1 must be an id like NORM-1 (got nothing)"},
		{"links item bad id", specPath, "---\nid: SPEC-1\nlinks:\n  decisions: [../DEC-1]\n---\n", `:4: links.decisions: "../DEC-1" must start with a letter; ids are a letter, then letters, digits, '-', '_' or '.' (like DEC-1)`},
		{"links unknown kind", specPath, "---\nid: SPEC-1\nlinks:\n  spec: [SPEC-2]\n---\n", ":4: links.spec is not a link kind (did you mean specs?); links are specs, decisions, norms or tasks"},
		{"links unknown kind, no hint", specPath, "---\nid: SPEC-1\nlinks:\n  related: [SPEC-2]\n---\n", ":4: links.related is not a link kind; links are specs, decisions, norms or tasks"},
		{"links kind twice", specPath, "---\nid: SPEC-1\nlinks:\n  specs: [SPEC-2]\n  specs: [SPEC-3]\n---\n", ":5: links.specs is set twice (first on line 4); keep one"},
		{"top-level specs bad", specPath, "---\nid: SPEC-1\nspecs: {a: 1}\n---\n", ":3: links.specs must be a list of ids like [SPEC-1] (got a map)"},
		{"paths a map", specPath, "---\nid: SPEC-1\npaths: {a: b}\n---\n", ":3: paths must be a list of globs like src/billing/** (got a map)"},
		{"paths item a map", specPath, "---\nid: SPEC-1\npaths:\n  - src/**\n  - {a: b}\n---\n", ":5: paths item 2 must be a glob like src/billing/** (got a map)"},
		{"paths item empty", specPath, "---\nid: SPEC-1\npaths: ['']\n---\n", `:3: paths item 1 must be a glob on one line like src/billing/** (got "")`},
		{"superseded_by a list", specPath, "---\nid: SPEC-1\nsuperseded_by: [SPEC-2]\n---\n", ":3: superseded_by must be the id of the artifact that replaces this one (got a list)"},
		{"superseded_by bad id", specPath, "---\nid: SPEC-1\nsuperseded_by: SPEC 2\n---\n", `:3: superseded_by "SPEC 2" must not contain spaces; ids are a letter, then letters, digits, '-', '_' or '.' (like SPEC-1)`},
		{"merge key", specPath, "---\nbase: &b {title: x}\n<<: *b\nid: SPEC-1\n---\n", ":3: merge keys (<<) are not supported in frontmatter; write the fields out"},
		{"complex key", specPath, "---\nid: SPEC-1\n? [a]\n: b\n---\n", ":3: field names must be plain words (got a list)"},
		{"empty key", specPath, "---\nid: SPEC-1\n\"\": b\n---\n", ":3: empty field name; name the field or remove the line"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			a, err := Parse(tt.path, []byte(tt.src))
			if err == nil {
				t.Fatalf("Parse succeeded: %+v", a)
			}
			var pe *ParseError
			if !errors.As(err, &pe) {
				t.Fatalf("error %T is not a *ParseError: %v", err, err)
			}
			want := "artifact: " + tt.path + strings.Replace(tt.want, ":  ", ": ", 1)
			if err.Error() != want {
				t.Errorf("error\n got %s\nwant %s", err, want)
			}
			if a != nil {
				t.Error("Parse returned an artifact with its error")
			}
		})
	}
}

func TestValidID(t *testing.T) {
	for _, id := range []string{"SPEC-1", "a", "DEC_2.v1", "NORM-ERROR-001", strings.Repeat("a", MaxIDBytes)} {
		if !ValidID(id) {
			t.Errorf("ValidID(%q) = false", id)
		}
	}
	for _, id := range []string{"", "1SPEC", "-x", ".x", "a..b", "a/b", `a\b`, "a b", "a\tb", "a\nb", "a\x00", "é", strings.Repeat("a", MaxIDBytes+1), "a:b", "a\u00a0b"} {
		if ValidID(id) {
			t.Errorf("ValidID(%q) = true", id)
		}
	}
}

func TestKnownStatus(t *testing.T) {
	for _, s := range []string{Draft, Current, InProgress, Done, Deprecated, Superseded, "created", "active", "completed", "approved", "implemented", "proposed", "accepted", "rejected"} {
		if !KnownStatus(s) {
			t.Errorf("KnownStatus(%q) = false", s)
		}
	}
	for _, s := range []string{"", "wip", "Done", "in progress"} {
		if KnownStatus(s) {
			t.Errorf("KnownStatus(%q) = true", s)
		}
	}
}

func TestLevelString(t *testing.T) {
	got := []string{Meta.String(), Summary.String(), Detailed.String(), Full.String(), Level(9).String()}
	want := []string{"meta", "summary", "detailed", "full", "level(9)"}
	if diff := cmp.Diff(want, got); diff != "" {
		t.Errorf("(-want +got):\n%s", diff)
	}
}

// TestParseLargeInputs parses files near MaxBytes built to be slow: deep
// nesting, many keys, aliases, headings and fences. Parse and Text must stay
// about linear; the bound is loose (the quadratic versions took seconds
// for one input) so that a busy machine does not fail it.
func TestParseLargeInputs(t *testing.T) {
	if testing.Short() {
		t.Skip("short")
	}
	n := MaxBytes - 100
	tests := []struct{ name, src, err string }{
		{"deep flow", "---\nid: SPEC-1\nx: " + strings.Repeat("[", n/2) + "\n---\n", ":3: invalid YAML in frontmatter: exceeded max depth of 10000"},
		{"deep block", "---\nid: SPEC-1\nx:\n" + strings.Repeat(" - ", 3000) + "a\n---\n", ""},
		{"many keys", "---\nid: SPEC-1\n" + strings.Repeat("a: 1\n", n/5-10) + "---\n", ":4: a is set twice (first on line 3); keep one"},
		{"many links", "---\nid: SPEC-1\nlinks:\n  specs:\n" + strings.Repeat("  - SPEC-1\n", n/11-10) + "---\n", ""},
		{"many aliases", "---\nid: SPEC-1\na: &a [x]\nb: [" + strings.Repeat("*a, ", n/4-10) + "]\n---\n", ""},
		{"error at the end", "---\nid: SPEC-1\n" + strings.Repeat("k: v\n", n/5-10) + "x: [\n---\n", ""},
		{"many headings", "---\nid: SPEC-1\n---\n" + strings.Repeat("# h\n\n", n/5), ""},
		{"many fences", "---\nid: SPEC-1\n---\n" + strings.Repeat("```\n", n/4-10), ""},
		{"long title", "---\nid: SPEC-1\ntitle: " + strings.Repeat("a ", n/2-20) + "\n---\n", ""},
		{"unclosed", "---\n" + strings.Repeat("a\n", n/2-10), ":1: frontmatter is not closed: add a line --- after the last field"},
	}
	start := time.Now()
	for _, tt := range tests {
		a, err := Parse(specPath, []byte(tt.src))
		switch {
		case err != nil && tt.name == "error at the end":
		case err != nil && tt.err == "":
			t.Errorf("%s: %v", tt.name, err)
		case err != nil && !strings.HasSuffix(err.Error(), tt.err):
			t.Errorf("%s: error %v, want …%s", tt.name, err, tt.err)
		case err == nil && tt.err != "":
			t.Errorf("%s: no error, want …%s", tt.name, tt.err)
		case err == nil:
			checkLevels(t, a)
		}
	}
	if d := time.Since(start); d > 30*time.Second {
		t.Errorf("large inputs took %v", d)
	}
}

// Paths globs start at the project root: a leading ./ or / and a trailing
// / are dropped, and a glob that leaves the project is an error with its
// line, so no such path reaches a plan.
func TestParsePathsStayInside(t *testing.T) {
	src := "---\nid: SPEC-1\ntitle: T\nstatus: current\npaths: [./src/billing/, /lib/**, src]\n---\n"
	a, err := Parse(specPath, []byte(src))
	if err != nil {
		t.Fatal(err)
	}
	if d := cmp.Diff([]string{"src/billing", "lib/**", "src"}, a.Paths); d != "" {
		t.Errorf("paths (-want +got):\n%s", d)
	}
	for _, g := range []string{"../other/**", "src/../../x", "..", "C:/x/**", "a/.."} {
		src := "---\nid: SPEC-1\ntitle: T\nstatus: current\npaths:\n  - " + g + "\n---\n"
		_, err := Parse(specPath, []byte(src))
		if err == nil || !strings.Contains(err.Error(), ":6: paths item 1 must stay inside the project") {
			t.Errorf("paths [%s]: %v, want an error at line 6", g, err)
		}
	}
}
