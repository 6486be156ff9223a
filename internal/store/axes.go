package store

// axisDef is an axis's searched table, what each of its columns holds,
// and which experiences are on it.
type axisDef struct {
	axis  Axis
	table ftsTable
	// texts are the texts of the table's columns for an experience.
	texts func(e *Experience) []string
	// on reports whether an experience is on the axis; where is the same
	// test in SQL over the experiences table.
	on    func(e *Experience) bool
	where string
}

// axisDefs are the axes, in Axes() order. Each table weighs the field the
// axis is about 4 (as the index weighs a chunk's symbol), a lesson 2 (what
// a search of past experience most wants) and the rest 1:
//
//   - full: domain, strategy, goal 2, hypothesis, action, prediction,
//     outcome (status and result), surprise, root cause, lesson 2. Every
//     experience.
//   - strategy: strategy 4, goal, action, outcome, lesson 2. Experiences
//     with a strategy.
//   - surprise: surprise 4, prediction, result. Experiences with a
//     surprise.
//   - root_cause: root cause 4, hypothesis, result. Experiences with a
//     root cause, and falsified ones without (their hypothesis and result
//     say why it failed).
var axisDefs = [...]axisDef{
	{
		axis: AxisFull,
		table: ftsTable{2, "experience_full",
			[]string{"domain", "strategy", "goal", "hypothesis", "action", "prediction", "outcome", "surprise", "root_cause", "lesson"},
			[]float64{1, 1, 2, 1, 1, 1, 1, 1, 1, 2}},
		texts: func(e *Experience) []string {
			return []string{e.Domain, e.Strategy, e.Goal, e.Hypothesis, e.Action, e.Prediction, outcomeText(e), e.Surprise, e.RootCause, e.Lesson}
		},
		on:    func(*Experience) bool { return true },
		where: `1 = 1`,
	},
	{
		axis: AxisStrategy,
		table: ftsTable{3, "experience_strategy",
			[]string{"strategy", "goal", "action", "outcome", "lesson"},
			[]float64{4, 1, 1, 1, 2}},
		texts: func(e *Experience) []string {
			return []string{e.Strategy, e.Goal, e.Action, outcomeText(e), e.Lesson}
		},
		on:    func(e *Experience) bool { return e.Strategy != "" },
		where: `strategy != ''`,
	},
	{
		axis:  AxisSurprise,
		table: ftsTable{4, "experience_surprise", []string{"surprise", "prediction", "result"}, []float64{4, 1, 1}},
		texts: func(e *Experience) []string {
			return []string{e.Surprise, e.Prediction, e.Result}
		},
		on:    func(e *Experience) bool { return e.Surprise != "" },
		where: `surprise != ''`,
	},
	{
		axis:  AxisRootCause,
		table: ftsTable{5, "experience_root_cause", []string{"root_cause", "hypothesis", "result"}, []float64{4, 1, 1}},
		texts: func(e *Experience) []string {
			return []string{e.RootCause, e.Hypothesis, e.Result}
		},
		on:    func(e *Experience) bool { return e.RootCause != "" || e.Outcome == OutcomeFalsified },
		where: `(root_cause != '' OR outcome = 'falsified')`,
	},
}

// outcomeText is the outcome column: the status, then the result.
func outcomeText(e *Experience) string { return string(e.Outcome) + " " + e.Result }

// defOf returns the definition of axis a, which is valid.
func defOf(a Axis) *axisDef {
	for i := range axisDefs {
		if axisDefs[i].axis == a {
			return &axisDefs[i]
		}
	}
	panic("store: no axis " + string(a))
}
