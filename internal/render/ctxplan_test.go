package render

import (
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"
)

// ctxPlanInput is an engine plan of five workspace files and what the
// workspace knows of them: a system file shown whole, evidence degraded
// to a stub, evidence truncated, evidence dropped by the budget, a
// skipped file and an unreadable one.
func ctxPlanInput() (*Plan, EvidenceWorkspace) {
	p := &Plan{
		Tokenizer: "o200k_base", Chunker: "test v1", Budget: 100, Overflow: "degrade", TotalTokens: 60,
		Truncated: true, StateRoot: "sha256:root", Digest: "sha256:content",
		Content: "0123456789",
		Parts: []PlanPart{
			{Key: "ctx/000_p.system.md", Level: "full", Tokens: 30},
			{Key: "ctx/evidence/100_a.evidence.md", Level: "meta", Tokens: 5, Reason: "degraded to meta: full needs a budget of 140"},
			{Key: "ctx/evidence/110_b.evidence.md", Level: "full", Tokens: 20, Truncated: true, Reason: "truncated to fit the budget"},
		},
		Dropped: []Dropped{{Key: "ctx/evidence/120_c.evidence.md", Reason: "budget", NeedBudget: 180}},
	}
	file := func(key, role, status string, whole string) EvidenceFile {
		f := EvidenceFile{Key: key, Part: EvidencePart{Role: role, Status: status, CID: "sha256:" + key, URI: "file://" + key}}
		if whole != "" {
			f.Whole = &Block{Type: role, Path: key, Text: whole}
		}
		return f
	}
	w := EvidenceWorkspace{FlowID: "ctx", OrderRule: "role,rank", Files: []EvidenceFile{
		file("ctx/000_p.system.md", "system", StatusActive, "policy\n"),
		file("ctx/evidence/100_a.evidence.md", "evidence", StatusActive, "aaaa\n"),
		file("ctx/evidence/110_b.evidence.md", "evidence", StatusLinked, "bbbb\n"),
		file("ctx/evidence/120_c.evidence.md", "evidence", StatusActive, "cccc\n"),
		file("", "evidence", StatusSkipped, "dddd\n"),
		{Part: EvidencePart{Role: "evidence", Status: StatusDropped, Reason: "ctx/evidence/140_e.evidence.md: unreadable"}},
	}}
	return p, w
}

func TestCtxPlan(t *testing.T) {
	p, w := ctxPlanInput()
	var counted []string
	count := func(s string) int { counted = append(counted, s); return len(s) }
	got := CtxPlan(p, w, count)
	type row struct {
		Status            string
		Tokens, Full      int
		Reason            string
		NeedBudget        int
		Shown, WasCounted bool
	}
	var rows []row
	for i, pt := range got.Parts {
		c := false
		if wh := w.Files[i].Whole; wh != nil {
			for _, s := range counted {
				c = c || strings.Contains(s, wh.Text)
			}
		}
		rows = append(rows, row{pt.Status, pt.Tokens, pt.FullTokens, pt.Reason, pt.NeedBudget, pt.Shown(), c})
	}
	seg := func(i int) int { return len(Segment(MDCtx, *w.Files[i].Whole, Block{})) }
	want := []row{
		{StatusActive, 30, 30, "", 0, true, false}, // shown whole: its tokens, not measured again
		{StatusDegraded, 5, seg(1), "degraded to meta: full needs a budget of 140", 0, true, true},
		{StatusTruncated, 20, seg(2), "truncated to fit the budget", 0, true, true},
		{StatusDropped, 0, seg(3), "budget", 180, false, true},
		{StatusSkipped, 0, seg(4), "", 0, false, true},
		{StatusDropped, 0, 0, "ctx/evidence/140_e.evidence.md: unreadable", 0, false, false},
	}
	if d := cmp.Diff(want, rows); d != "" {
		t.Errorf("parts (-want +got):\n%s", d)
	}
	head := got
	head.Parts, head.CtxDigest = nil, ""
	wantHead := EvidencePlan{
		Version: EvidencePlanVersion, FlowID: "ctx", OrderRule: "role,rank", Tokenizer: "o200k_base", Chunker: "test v1",
		Budget: 100, Overflow: "degrade", TotalBytes: 10, TotalTokens: 60, Truncated: true,
		Warnings: []string{}, StateRoot: "sha256:root", Digest: "sha256:content",
	}
	if d := cmp.Diff(wantHead, head); d != "" {
		t.Errorf("totals (-want +got):\n%s", d)
	}

	// ctx_digest: the same plan gives the same; another status, another.
	if again := CtxPlan(p, w, count); again.CtxDigest != got.CtxDigest || !strings.HasPrefix(got.CtxDigest, "sha256:") {
		t.Errorf("ctx_digest %s, then %s", got.CtxDigest, again.CtxDigest)
	}
	p.Chunker = "other v1"
	if other := CtxPlan(p, w, count); other.CtxDigest == got.CtxDigest {
		t.Error("another chunker kept ctx_digest")
	}
	p.Chunker = "test v1"
	p.Parts[1].Level = "full"
	if other := CtxPlan(p, w, count); other.CtxDigest == got.CtxDigest || other.Parts[1].Status != StatusActive {
		t.Errorf("a part shown whole instead of degraded: status %s, ctx_digest unchanged %v", other.Parts[1].Status, other.CtxDigest == got.CtxDigest)
	}
}

// TestCtxPlanEmpty checks the field order of ctxplan.json, and that an
// empty workspace's ctx_digest is the documented formula's:
// printf 'ctxpack ctx_digest v1\nchunker \n' | sha256sum.
func TestCtxPlanEmpty(t *testing.T) {
	got := CtxPlan(&Plan{Warnings: []string{"w"}}, EvidenceWorkspace{}, func(string) int { return 0 })
	data, err := EncodeEvidencePlan(&got)
	if err != nil {
		t.Fatal(err)
	}
	want := `{
  "version": "1.0",
  "flow_id": "",
  "order_rule": "",
  "tokenizer": "",
  "chunker": "",
  "budget": 0,
  "overflow": "",
  "parts": [],
  "total_bytes": 0,
  "total_tokens": 0,
  "truncated": false,
  "exceeded": false,
  "warnings": [
    "w"
  ],
  "state_root": "",
  "ctx_digest": "sha256:ec5e577de18dce3feeec5b553b23bb0b7f4f03dd27e465dc40ade1a23c95ebdd",
  "digest": ""
}
`
	if d := cmp.Diff(want, string(data)); d != "" {
		t.Errorf("ctxplan.json (-want +got):\n%s", d)
	}
}
