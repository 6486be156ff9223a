package cli

import (
	"fmt"
	"strconv"
	"strings"

	"github.com/ctxpack/ctxpack/internal/app"
)

// The text formats of numbers and records that budget, report, score
// and summarize share.

// thousands writes n with a comma between groups of three digits, as
// the rendered tree does (render.Thousands).
func thousands(n int) string { return app.Thousands(n) }

// percent writes a fraction as a percentage with one decimal.
func percent(x float64) string { return strconv.FormatFloat(x*100, 'f', 1, 64) + "%" }

// number writes a score exactly as it is stored (at most 6 decimals).
func number(x float64) string { return strconv.FormatFloat(x, 'f', -1, 64) }

// oneLine collapses white space, for targets shown on one line, and cuts
// them to n characters.
func oneLine(s string, n int) string {
	s = strings.Join(strings.Fields(s), " ")
	if r := []rune(s); len(r) > n {
		return string(r[:n-1]) + "…"
	}
	return s
}

// overflowLines describes a record's overflow: "none", or the strategy and
// each part it lowered, cut or dropped.
func overflowLines(r app.BudgetRecord) []string {
	ov := r.Overflow
	if !ov.Occurred {
		return []string{"none"}
	}
	head := ov.StrategyApplied
	var n []string
	if k := ov.LoweredCount(); k > 0 {
		n = append(n, fmt.Sprintf("%d lowered", k))
	}
	if k := ov.TruncatedCount(); k > 0 {
		n = append(n, fmt.Sprintf("%d truncated", k))
	}
	if k := ov.DroppedCount(); k > 0 {
		n = append(n, fmt.Sprintf("%d dropped", k))
	}
	if r.TotalBudget > 0 && r.TotalTokens > r.TotalBudget {
		n = append(n, fmt.Sprintf("over the budget by %s tokens", thousands(r.TotalTokens-r.TotalBudget)))
	}
	if len(n) > 0 {
		head += " (" + strings.Join(n, ", ") + ")"
	}
	out := []string{head}
	for _, a := range ov.Lowered {
		out = append(out, "- lowered: "+a.Part+": "+a.Reason)
	}
	for _, a := range ov.Truncated {
		out = append(out, "- truncated: "+a.Part+": "+a.Reason)
	}
	for _, a := range ov.Dropped {
		out = append(out, "- dropped: "+a.Part+": "+a.Reason)
	}
	if k := ov.LoweredOmitted + ov.TruncatedOmitted + ov.DroppedOmitted; k > 0 {
		out = append(out, fmt.Sprintf("… and %s more, not listed in the record", thousands(k)))
	}
	return out
}
