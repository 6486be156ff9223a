package app

import (
	"fmt"
	"strings"

	"github.com/ctxpack/ctxpack/internal/render"
)

// EmptyError reports that an assembly came out empty: nothing was found
// to assemble (an empty folder, only binary files, an empty store, a
// query nothing matches, a premortem domain with no experiences), or
// parts were found and none fits the budget. The CLI exits with its own
// code (3); over MCP it is a tool error.
type EmptyError struct {
	Mode   string // pack, retrieval, sources, premortem
	Target string // what was assembled: the paths, the query, the domain
	// Searched says where nothing was found ("no text file under it").
	Searched string
	// Found is how many parts were found, every one left out; 0 when
	// nothing was found.
	Found  int
	Budget int
	// Smallest is the part that enters at the smallest budget, Need that
	// budget (0 when the engine does not know it); Reason is why the first
	// part was left out, when no budget is known.
	Smallest string
	Need     int
	Reason   string
	// Warnings are the assembly's warnings (files skipped and why): what
	// explains an empty result, shown with it.
	Warnings []string
	// Plan is the empty assembly's plan: every part left out, with why.
	Plan *Plan
}

func (e *EmptyError) Error() string {
	if e.Found > 0 && e.Budget > 0 {
		msg := fmt.Sprintf("ctxpack: nothing fits in a budget of %d %s: %d %s found for %s, every one left out", e.Budget, plural(e.Budget, "token", "tokens"), e.Found, plural(e.Found, "part was", "parts were"), e.what())
		switch {
		case e.Need > 0:
			msg += fmt.Sprintf("; the smallest, %s, needs a budget of %d: give --budget %d or more", e.Smallest, e.Need, e.Need)
		case e.Reason != "":
			msg += fmt.Sprintf(" (%s: %s)", e.Smallest, e.Reason)
		}
		return msg
	}
	msg := "ctxpack: nothing found for " + e.what()
	switch {
	case e.Found > 0:
		msg += fmt.Sprintf(": %d %s found, every one left out (%s: %s)", e.Found, plural(e.Found, "part was", "parts were"), e.Smallest, e.Reason)
	case e.Searched != "":
		msg += ": " + e.Searched
	}
	return msg
}

// what names the target and mode for a message.
func (e *EmptyError) what() string {
	t := strings.Join(strings.Fields(e.Target), " ")
	if len(t) > 80 {
		t = t[:77] + "..."
	}
	return fmt.Sprintf("%q (%s)", t, e.Mode)
}

func plural(n int, one, many string) string {
	if n == 1 {
		return one
	}
	return many
}

// checkEmpty returns an *EmptyError when plan shows no part, nil
// otherwise; searched says where nothing was found, for the message.
// Parts left out by the budget or the item cap make it a budget problem
// (Found, with the smallest budget that would hold one); parts left out
// for another reason (a file changed since it was indexed) make it
// nothing found, with the first reason.
func checkEmpty(plan *Plan, searched string) error {
	if len(plan.Parts) > 0 {
		return nil
	}
	e := &EmptyError{Mode: plan.Mode, Target: plan.Target, Searched: searched, Warnings: plan.Warnings, Plan: plan}
	var first *render.Dropped // the first part the budget or the cap left out
	for i, d := range plan.Dropped {
		if !strings.HasPrefix(d.Reason, render.ReasonBudget) && !strings.HasPrefix(d.Reason, render.ReasonItemCap) {
			continue
		}
		e.Found++
		if first == nil {
			first = &plan.Dropped[i]
		}
		if d.NeedBudget > 0 && (e.Need == 0 || d.NeedBudget < e.Need) {
			e.Smallest, e.Need = d.Key, d.NeedBudget
		}
	}
	switch {
	case e.Found > 0:
		e.Budget = plan.Budget
		if e.Need == 0 {
			e.Smallest, e.Reason = first.Key, first.Reason
		}
	case len(plan.Dropped) > 0:
		e.Found = len(plan.Dropped)
		e.Smallest, e.Reason = plan.Dropped[0].Key, plan.Dropped[0].Reason
	}
	return e
}
