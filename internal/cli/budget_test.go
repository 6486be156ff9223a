package cli

import (
	"bytes"
	"testing"
	"time"

	"github.com/ctxpack/ctxpack/internal/app"
	"github.com/ctxpack/ctxpack/internal/record"
	"github.com/ctxpack/ctxpack/internal/render"
	"github.com/google/go-cmp/cmp"
)

func score(f float64) *float64 { return &f }

// TestWriteBudget renders a fixed record: the seed's format, box tables,
// subtotals, summary and overflow.
func TestWriteBudget(t *testing.T) {
	plan := render.Plan{
		Mode: "retrieval", Target: "add OAuth\nsupport", Tokenizer: "o200k_base", Budget: 9000, TotalTokens: 5250,
		Overflow: "degrade", Metrics: render.Metrics{Utilization: 0.5833},
		Parts: []render.PlanPart{
			{Key: "src/auth/oauth.ts#0", Path: "src/auth/oauth.ts", Lines: &[2]int{1, 80}, Level: "full", Tokens: 2500, Score: score(0.95), Bucket: "primary"},
			{Key: "src/client.ts#2", Path: "src/client.ts", Lines: &[2]int{10, 40}, Level: "detailed", Tokens: 1500, Score: score(0.72), Bucket: "primary",
				Reason: "degraded to detailed: full needs a budget of 12000"},
			{Key: "docs/oauth.md#0", Path: "docs/oauth.md", Lines: &[2]int{1, 9}, Level: "summary", Tokens: 1250, Score: score(0.125), Bucket: "history"},
		},
		Dropped: []render.Dropped{{Key: "src/types.ts#0", Path: "src/types.ts", Reason: "budget: enters at a budget of 9500"}},
	}
	a := &app.Allocation{
		Mode: "retrieval", Window: 10000, Reserves: &record.Reserves{System: 200, Query: 100, Response: 700}, Budget: 9000,
		Tiers: []app.TierAllocation{
			{Name: "primary", Share: 50, Threshold: 0.7, Tokens: 4500},
			{Name: "supporting", Share: 30, Threshold: 0.5, Tokens: 2700},
			{Name: "reference", Share: 15, Threshold: 0.3, Tokens: 1350},
			{Name: "history", Share: 5, Tokens: 450},
		},
	}
	rec := a.Record(&plan, time.Date(2026, 1, 2, 3, 4, 5, 0, time.UTC))
	var got bytes.Buffer
	writeBudget(&got, budgetDoc{Task: plan.Target, Mode: "retrieval", Tokenizer: "o200k_base", Allocation: a}, &rec)
	want := `================================================================================
CONTEXT BUDGET ALLOCATION
================================================================================
Task: "add OAuth support"
Mode: retrieval
Tokenizer: o200k_base
Total Budget: 10,000 tokens (the window)

ALLOCATION:
Reserved:
- Output generation: 700 tokens
- System prompts: 200 tokens
- Query: 100 tokens
- Available: 9,000 tokens

PRIMARY CONTEXT (50% = 4,500 tokens, relevance >= 0.7):
┌───────────────────┬───────┬──────────┬────────┬───────────┐
│ File              │ Lines │ Level    │ Tokens │ Relevance │
├───────────────────┼───────┼──────────┼────────┼───────────┤
│ src/auth/oauth.ts │ 1-80  │ full     │  2,500 │  0.950000 │
│ src/client.ts     │ 10-40 │ detailed │  1,500 │  0.720000 │
└───────────────────┴───────┴──────────┴────────┴───────────┘
Subtotal: 4,000 tokens (89% of allocation)

SUPPORTING CONTEXT (30% = 2,700 tokens, relevance >= 0.5):
(no parts)
Subtotal: 0 tokens (0% of allocation)

REFERENCE CONTEXT (15% = 1,350 tokens, relevance >= 0.3):
(no parts)
Subtotal: 0 tokens (0% of allocation)

HISTORY CONTEXT (5% = 450 tokens, the rest):
┌───────────────┬───────┬─────────┬────────┬───────────┐
│ File          │ Lines │ Level   │ Tokens │ Relevance │
├───────────────┼───────┼─────────┼────────┼───────────┤
│ docs/oauth.md │ 1-9   │ summary │  1,250 │  0.125000 │
└───────────────┴───────┴─────────┴────────┴───────────┘
Subtotal: 1,250 tokens (278% of allocation)

SUMMARY:
Total Used: 5,250 tokens
Total Available: 9,000 tokens
Utilization: 58.3%
Efficiency: 76.2% (tokens of parts with relevance >= 0.3 / tokens of all parts)
Overflow: degrade (1 lowered, 1 dropped)
- lowered: src/client.ts:10-40: degraded to detailed: full needs a budget of 12000
- dropped: src/types.ts#0: budget: enters at a budget of 9500
Status: within budget, after overflow handling
`
	if d := cmp.Diff(want, got.String()); d != "" {
		t.Errorf("budget table (-want +got):\n%s", d)
	}

	var block bytes.Buffer
	writeRecord(&block, rec)
	wantBlock := `2026-01-02T03:04:05Z  retrieval  "add OAuth support"
  budget 9,000 (window 10,000 less reserves 1,000), 5,250 tokens used (o200k_base), utilization 58.3%, efficiency 76.2%
  overflow: degrade (1 lowered, 1 dropped)
    - lowered: src/client.ts:10-40: degraded to detailed: full needs a budget of 12000
    - dropped: src/types.ts#0: budget: enters at a budget of 9500
  primary (50% = 4,500): 4,000 tokens in 2 parts
    src/auth/oauth.ts:1-80  2,500  full      0.95
    src/client.ts:10-40     1,500  detailed  0.72
  supporting (30% = 2,700): 0 tokens in 0 parts
  reference (15% = 1,350): 0 tokens in 0 parts
  history (5% = 450): 1,250 tokens in 1 part
    docs/oauth.md:1-9  1,250  summary  0.125
  state root 
  digest 
`
	if d := cmp.Diff(wantBlock, block.String()); d != "" {
		t.Errorf("report block (-want +got):\n%s", d)
	}
}

func TestThousands(t *testing.T) {
	for n, want := range map[int]string{0: "0", 7: "7", 999: "999", 1000: "1,000", 45000: "45,000", 1234567: "1,234,567", -1500: "-1,500"} {
		if got := thousands(n); got != want {
			t.Errorf("thousands(%d) = %q, want %q", n, got, want)
		}
	}
}
