package graph

import (
	"strings"
	"testing"

	"github.com/ctxpack/ctxpack/internal/artifact"
)

// set builds an artifact set from "ID status -> target,target ~ superseded_by"
// lines; the type comes from the id prefix.
func set(t *testing.T, lines ...string) *artifact.Set {
	t.Helper()
	s := &artifact.Set{ByID: map[string]*artifact.Artifact{}}
	types := map[string]artifact.Type{"TASK": artifact.Task, "SPEC": artifact.Spec, "DEC": artifact.Decision, "NORM": artifact.Norm}
	for _, l := range lines {
		head, succ, _ := strings.Cut(l, " ~ ")
		head, targets, _ := strings.Cut(head, " -> ")
		f := strings.Fields(head)
		a := &artifact.Artifact{ID: f[0], Status: "current", SupersededBy: strings.TrimSpace(succ)}
		if len(f) > 1 {
			a.Status = f[1]
		}
		pre, _, _ := strings.Cut(a.ID, "-")
		a.Type = types[pre]
		for _, tg := range strings.Split(targets, ",") {
			tg = strings.TrimSpace(tg)
			switch {
			case tg == "":
			case strings.HasPrefix(tg, "SPEC"):
				a.Links.Specs = append(a.Links.Specs, tg)
			case strings.HasPrefix(tg, "DEC"):
				a.Links.Decisions = append(a.Links.Decisions, tg)
			case strings.HasPrefix(tg, "NORM"):
				a.Links.Norms = append(a.Links.Norms, tg)
			case strings.HasPrefix(tg, "TASK"):
				a.Links.Tasks = append(a.Links.Tasks, tg)
			}
		}
		s.ByID[a.ID] = a
		s.List = append(s.List, a)
	}
	return s
}

func describe(c *Closure) (nodes, excluded string) {
	var n, x []string
	for _, nd := range c.Nodes {
		n = append(n, nd.A.ID+"("+strings.Join(nd.Via, ">")+")")
	}
	for _, e := range c.Excluded {
		s := e.ID + ":" + e.Reason
		if e.ReplacedBy != "" {
			s += ">" + e.ReplacedBy
		}
		x = append(x, s)
	}
	return strings.Join(n, " "), strings.Join(x, " ")
}

func TestTraverse(t *testing.T) {
	for _, tc := range []struct {
		name     string
		lines    []string
		depth    int
		nodes    string
		excluded string
		warnings int
	}{
		{
			name: "seed closure, NORM-ERROR-001 once",
			lines: []string{
				"TASK-042 in_progress -> SPEC-BILLING-001, SPEC-CURRENCY-001, DEC-BILLING-001",
				"SPEC-BILLING-001 -> DEC-BILLING-001, DEC-BILLING-003, NORM-ERROR-001, NORM-ASYNC-001",
				"SPEC-CURRENCY-001 -> DEC-CURRENCY-001, NORM-ERROR-001",
				"DEC-BILLING-001", "DEC-BILLING-003", "DEC-CURRENCY-001", "NORM-ERROR-001", "NORM-ASYNC-001",
			},
			nodes: "TASK-042() SPEC-BILLING-001(TASK-042) SPEC-CURRENCY-001(TASK-042) DEC-BILLING-001(TASK-042) " +
				"DEC-BILLING-003(TASK-042>SPEC-BILLING-001) NORM-ERROR-001(TASK-042>SPEC-BILLING-001) " +
				"NORM-ASYNC-001(TASK-042>SPEC-BILLING-001) DEC-CURRENCY-001(TASK-042>SPEC-CURRENCY-001)",
		},
		{
			name:  "cycles and self links are legal",
			lines: []string{"TASK-1 -> SPEC-1", "SPEC-1 -> SPEC-2, SPEC-1", "SPEC-2 -> SPEC-1, DEC-1", "DEC-1 -> DEC-1, SPEC-2"},
			nodes: "TASK-1() SPEC-1(TASK-1) SPEC-2(TASK-1>SPEC-1) DEC-1(TASK-1>SPEC-1>SPEC-2)",
		},
		{
			name:  "shortest chain wins over link order",
			lines: []string{"TASK-1 -> SPEC-1, NORM-1", "SPEC-1 -> NORM-1", "NORM-1"},
			nodes: "TASK-1() SPEC-1(TASK-1) NORM-1(TASK-1)",
		},
		{
			name:     "missing, deprecated, superseded",
			lines:    []string{"TASK-1 -> SPEC-1, SPEC-9, DEC-1", "SPEC-1 deprecated", "DEC-1 superseded ~ DEC-2", "DEC-2 -> NORM-1", "NORM-1"},
			nodes:    "TASK-1() DEC-2(TASK-1) NORM-1(TASK-1>DEC-2)",
			excluded: "SPEC-1:deprecated SPEC-9:missing DEC-1:superseded>DEC-2",
			warnings: 3,
		},
		{
			name:     "superseded chains: to a deprecated one, into a cycle, to nowhere",
			lines:    []string{"TASK-1 -> DEC-1, DEC-3, DEC-5", "DEC-1 superseded ~ DEC-2", "DEC-2 deprecated", "DEC-3 superseded ~ DEC-4", "DEC-4 superseded ~ DEC-3", "DEC-5 superseded"},
			nodes:    "TASK-1()",
			excluded: "DEC-1:superseded>DEC-2 DEC-2:deprecated DEC-3:superseded DEC-5:superseded",
			warnings: 4,
		},
		{
			name:     "link depth",
			lines:    []string{"TASK-1 -> SPEC-1", "SPEC-1 -> NORM-1", "NORM-1 -> DEC-1", "DEC-1"},
			depth:    2,
			nodes:    "TASK-1() SPEC-1(TASK-1) NORM-1(TASK-1>SPEC-1)",
			excluded: "DEC-1:depth",
		},
		{
			name:  "links to tasks are not followed",
			lines: []string{"TASK-1 -> SPEC-1, TASK-2", "SPEC-1 -> TASK-2", "TASK-2 -> NORM-1", "NORM-1"},
			nodes: "TASK-1() SPEC-1(TASK-1)",
		},
	} {
		t.Run(tc.name, func(t *testing.T) {
			s := set(t, tc.lines...)
			c, err := Traverse(s, strings.Fields(tc.lines[0])[0], Options{MaxDepth: tc.depth})
			if err != nil {
				t.Fatal(err)
			}
			nodes, excluded := describe(c)
			if nodes != tc.nodes {
				t.Errorf("nodes:\n got %s\nwant %s", nodes, tc.nodes)
			}
			if excluded != tc.excluded {
				t.Errorf("excluded:\n got %s\nwant %s", excluded, tc.excluded)
			}
			if len(c.Warnings) != tc.warnings {
				t.Errorf("warnings %q, want %d", c.Warnings, tc.warnings)
			}
		})
	}
}

func TestTraverseErrors(t *testing.T) {
	s := set(t, "TASK-042 -> SPEC-1", "SPEC-1")
	if _, err := Traverse(s, "TASK-42", Options{}); err == nil || !strings.Contains(err.Error(), "no artifact TASK-42") {
		t.Errorf("missing task: %v", err)
	}
	if _, err := Traverse(s, "task-042", Options{}); err == nil || !strings.Contains(err.Error(), "did you mean TASK-042") {
		t.Errorf("case: %v", err)
	}
	if _, err := Traverse(s, "TASK-042", Options{MaxDepth: -1}); err == nil {
		t.Error("negative depth accepted")
	}
}

func TestDraw(t *testing.T) {
	s := set(t, "TASK-1 -> SPEC-1, DEC-1, NORM-9", "SPEC-1 -> NORM-1", "DEC-1 superseded ~ DEC-2", "DEC-2", "NORM-1")
	s.ByID["SPEC-1"].Title = `Quotes "and" <tags>`
	c, err := Traverse(s, "TASK-1", Options{})
	if err != nil {
		t.Fatal(err)
	}
	m := Mermaid(c)
	for _, want := range []string{
		"flowchart LR\n",
		`n_SPEC_2d_1["SPEC-1: Quotes #quot;and#quot; #lt;tags#gt;"]:::spec`,
		"n_TASK_2d_1 -->|spec| n_SPEC_2d_1",
		"n_DEC_2d_1 -.->|superseded_by| n_DEC_2d_2",
		`n_NORM_2d_9["NORM-9 (missing)"]:::excluded`,
	} {
		if !strings.Contains(m, want) {
			t.Errorf("mermaid lacks %q:\n%s", want, m)
		}
	}
	d := Dot(c)
	for _, want := range []string{`digraph "TASK-1" {`, `"SPEC-1" [label="SPEC-1: Quotes \"and\" <tags>"`, `"SPEC-1" -> "NORM-1" [label="norm"];`, `style=dashed`} {
		if !strings.Contains(d, want) {
			t.Errorf("dot lacks %q:\n%s", want, d)
		}
	}
	if Mermaid(c) != m || Dot(c) != d {
		t.Error("drawing is not deterministic")
	}
}
