package store

import (
	"fmt"
	"slices"
	"strconv"
	"strings"
	"unicode/utf8"
)

// MaxText is the longest text field, in bytes, that Validate accepts:
// a memory's content, an experience's goal, a value's text. The store
// holds what people and agents wrote down, not documents.
const MaxText = 64 << 10

// maxWord is the longest word (category, domain, strategy, tag), in bytes.
const maxWord = 32

// DefaultImportance is the importance of a memory added with Importance -1.
const DefaultImportance = 0.5

// DefaultCategory is the category of a memory added without one.
const DefaultCategory = "fact"

// Memory is something a team or an agent learned: a fact, a preference, a
// decision, an error message and its fix.
type Memory struct {
	ID int64 // assigned by AddMemory; ignored by it
	// Namespace is "" for a row of the store's own namespace, else the
	// shared namespace it was read from (Options.Shared). Adds ignore it.
	Namespace string
	Content   string // required: not blank
	// Category is a lower-case word: a letter, then up to 31 letters,
	// digits, '_' or '-'. "" means DefaultCategory. The suggested set is
	// fact, preference, decision, error, workflow, context and event, but
	// any word is accepted.
	Category string
	// Importance is from 0 to 1 inclusive; -1 means DefaultImportance (0
	// is a legal importance, so it cannot be the default's marker).
	Importance float64
	Created    int64 // Unix seconds; 0 means now (Options.Now)
}

// Outcome is how an experience ended.
type Outcome string

// The outcomes.
const (
	OutcomeConfirmed Outcome = "confirmed" // the prediction held
	OutcomeFalsified Outcome = "falsified" // it did not: the hypothesis was wrong
	OutcomeAbandoned Outcome = "abandoned" // given up before the prediction was tested
)

// Outcomes returns the outcomes in the order above.
func Outcomes() []Outcome {
	return []Outcome{OutcomeConfirmed, OutcomeFalsified, OutcomeAbandoned}
}

// ParseOutcome returns the outcome named s, or a *ValidationError for the
// field "outcome.status" listing the valid ones.
func ParseOutcome(s string) (Outcome, error) {
	if slices.Contains(Outcomes(), Outcome(s)) {
		return Outcome(s), nil
	}
	return "", invalid("outcome.status", "must be confirmed, falsified or abandoned (got %s)", quote(s))
}

// Tier is an experience's confidence tier.
type Tier string

// The tiers, most confident first.
const (
	TierGold      Tier = "gold"
	TierSilver    Tier = "silver"
	TierBronze    Tier = "bronze" // the default
	TierAbandoned Tier = "abandoned"
)

// Tiers returns the tiers, most confident first.
func Tiers() []Tier { return []Tier{TierGold, TierSilver, TierBronze, TierAbandoned} }

// ParseTier returns the tier named s, or a *ValidationError for the field
// "confidence" listing the valid ones.
func ParseTier(s string) (Tier, error) {
	if slices.Contains(Tiers(), Tier(s)) {
		return Tier(s), nil
	}
	return "", invalid("confidence", "must be gold, silver, bronze or abandoned (got %s)", quote(s))
}

// Axis is one of the four ways experiences are searched and clustered,
// each over its own full-text table (so that a term's rarity is measured
// among the experiences on that axis):
//
//   - full: every narrative field of every experience;
//   - strategy: the strategy, goal, action, outcome and lesson of the
//     experiences that name a strategy;
//   - surprise: the surprise, prediction and result of the experiences
//     that record a surprise;
//   - root_cause: the root cause, hypothesis and result of the
//     experiences that record a root cause, and of the falsified ones
//     that do not (their hypothesis and result say why it failed).
type Axis string

// The axes.
const (
	AxisFull      Axis = "full"
	AxisStrategy  Axis = "strategy"
	AxisSurprise  Axis = "surprise"
	AxisRootCause Axis = "root_cause"
)

// Axes returns the axes in the order above.
func Axes() []Axis { return []Axis{AxisFull, AxisStrategy, AxisSurprise, AxisRootCause} }

// ParseAxis returns the axis named s; "root-cause" is accepted for
// root_cause. Any other name is a *ValidationError for the field "axis"
// listing the valid ones.
func ParseAxis(s string) (Axis, error) {
	if s == "root-cause" {
		return AxisRootCause, nil
	}
	if slices.Contains(Axes(), Axis(s)) {
		return Axis(s), nil
	}
	return "", invalid("axis", "must be full, strategy, surprise or root_cause (got %s)", quote(s))
}

// Experience is one attempt at a goal, told as goal, hypothesis, action,
// prediction and outcome (GHAP), with what was learned from it.
type Experience struct {
	ID int64 // assigned by AddExperience; ignored by it
	// Namespace is "" for a row of the store's own namespace, else the
	// shared namespace it was read from (Options.Shared). Adds ignore it.
	Namespace string
	// Domain is a word like Memory.Category's: debugging, feature,
	// refactor, testing, … Required.
	Domain string
	// Strategy is an optional word of the same form:
	// systematic-elimination, …
	Strategy   string
	Goal       string  // what was wanted; required
	Hypothesis string  // what was believed; required
	Action     string  // what was done to test it; required
	Prediction string  // what the hypothesis said would happen; required
	Outcome    Outcome // required
	Result     string  // what happened; required
	Surprise   string  // what was unexpected; optional
	RootCause  string  // why the hypothesis failed, free text ("category: description"); optional
	Lesson     string  // what to do next time; optional, but only experiences with one give values
	Confidence Tier    // "" means TierBronze
	Iterations int     // attempts it took; 0 means 1
	Created    int64   // Unix seconds; 0 means now (Options.Now)
}

// Value is a principle the team holds: written by hand, or derived from a
// cluster of experiences by DeriveValues and stored with AddValue.
type Value struct {
	ID int64 // assigned by AddValue; ignored by it
	// Namespace is "" for a row of the store's own namespace, else the
	// shared namespace it was read from (Options.Shared). Adds ignore it.
	Namespace string
	Text      string // required
	Axis      Axis   // required
	// Cluster names the cluster a derived value came from ("full/3"); ""
	// for a value written by hand.
	Cluster     string
	ClusterSize int     // 0 for a value written by hand
	Similarity  float64 // of its experience to the cluster's centroid, 0 to 1; 0 for one written by hand
	Experience  int64   // the experience whose lesson it came from; 0 if none
	// Tags are the words (domains, strategies) the value applies to; they
	// are searched. AddValue stores them sorted, without repeats.
	Tags    []string
	Created int64 // Unix seconds; 0 means now (Options.Now)
}

// ValidationError is input an Add refuses. Field names the field as the
// YAML form of experiences spells it ("importance", "outcome.status"),
// Msg says what is wrong and what is valid.
type ValidationError struct{ Field, Msg string }

func (e *ValidationError) Error() string { return "store: " + e.Field + ": " + e.Msg }

func invalid(field, format string, args ...any) *ValidationError {
	for i, a := range args {
		if f, ok := a.(float64); ok {
			args[i] = strconv.FormatFloat(f, 'g', -1, 64)
		}
	}
	return &ValidationError{Field: field, Msg: fmt.Sprintf(format, args...)}
}

// Validate reports whether AddMemory accepts m: nil, or a
// *ValidationError for the first field at fault in the order of the
// struct. The markers of a default (Category "", Importance -1, Created
// 0) are valid.
func (m Memory) Validate() error {
	if err := checkText("content", m.Content, true); err != nil {
		return err
	}
	if m.Category != "" && !isWord(m.Category) {
		return invalid("category", "must be a lower-case word (a letter, then letters, digits, _ or -, at most %d bytes) such as fact, preference, decision, error, workflow, context or event (got %s)", maxWord, quote(m.Category))
	}
	if m.Importance != -1 && !(m.Importance >= 0 && m.Importance <= 1) {
		return invalid("importance", "must be from 0 to 1, or -1 for the default %v (got %v)", DefaultImportance, m.Importance)
	}
	return checkCreated(m.Created)
}

// withDefaults returns m with its defaults filled in, now being the time
// for a zero Created.
func (m Memory) withDefaults(now int64) Memory {
	if m.Category == "" {
		m.Category = DefaultCategory
	}
	if m.Importance == -1 {
		m.Importance = DefaultImportance
	}
	if m.Created == 0 {
		m.Created = now
	}
	return m
}

// Validate reports whether AddExperience accepts e: nil, or a
// *ValidationError for the first field at fault in the order of the
// struct. The markers of a default (Confidence "", Iterations 0, Created
// 0) are valid.
func (e Experience) Validate() error {
	if e.Domain == "" {
		return invalid("domain", "is required: a lower-case word such as debugging, feature, refactor or testing")
	}
	if !isWord(e.Domain) {
		return invalid("domain", "must be a lower-case word (a letter, then letters, digits, _ or -, at most %d bytes) such as debugging, feature, refactor or testing (got %s)", maxWord, quote(e.Domain))
	}
	if e.Strategy != "" && !isWord(e.Strategy) {
		return invalid("strategy", "must be a lower-case word (a letter, then letters, digits, _ or -, at most %d bytes) such as systematic-elimination (got %s)", maxWord, quote(e.Strategy))
	}
	for _, f := range []struct {
		name, text string
		required   bool
	}{
		{"goal", e.Goal, true},
		{"hypothesis", e.Hypothesis, true},
		{"action", e.Action, true},
		{"prediction", e.Prediction, true},
	} {
		if err := checkText(f.name, f.text, f.required); err != nil {
			return err
		}
	}
	if e.Outcome == "" {
		return invalid("outcome.status", "is required: confirmed, falsified or abandoned")
	}
	if _, err := ParseOutcome(string(e.Outcome)); err != nil {
		return err
	}
	for _, f := range []struct {
		name, text string
		required   bool
	}{
		{"outcome.result", e.Result, true},
		{"surprise", e.Surprise, false},
		{"root_cause", e.RootCause, false},
		{"lesson", e.Lesson, false},
	} {
		if err := checkText(f.name, f.text, f.required); err != nil {
			return err
		}
	}
	if e.Confidence != "" {
		if _, err := ParseTier(string(e.Confidence)); err != nil {
			return err
		}
	}
	if e.Iterations < 0 {
		return invalid("iterations", "must be a whole number from 1, or 0 for the default 1 (got %d)", e.Iterations)
	}
	return checkCreated(e.Created)
}

func (e Experience) withDefaults(now int64) Experience {
	if e.Confidence == "" {
		e.Confidence = TierBronze
	}
	if e.Iterations == 0 {
		e.Iterations = 1
	}
	if e.Created == 0 {
		e.Created = now
	}
	return e
}

// Validate reports whether AddValue accepts v, leaving aside whether its
// Experience exists: nil, or a *ValidationError for the first field at
// fault in the order of the struct. Tags may be unsorted and repeated.
func (v Value) Validate() error {
	if err := checkText("text", v.Text, true); err != nil {
		return err
	}
	if v.Axis == "" {
		return invalid("axis", "is required: full, strategy, surprise or root_cause")
	}
	if !slices.Contains(Axes(), v.Axis) {
		return invalid("axis", "must be full, strategy, surprise or root_cause (got %s)", quote(string(v.Axis)))
	}
	if v.Cluster != "" && !isClusterName(v.Cluster) {
		return invalid("cluster", `must be "" or an axis and a number, like "full/3" (got %s)`, quote(v.Cluster))
	}
	if v.ClusterSize < 0 {
		return invalid("cluster_size", "must not be negative (got %d)", v.ClusterSize)
	}
	if !(v.Similarity >= 0 && v.Similarity <= 1) {
		return invalid("similarity", "must be from 0 to 1 (got %v)", v.Similarity)
	}
	if v.Experience < 0 {
		return invalid("experience", "must be an experience id, or 0 for none (got %d)", v.Experience)
	}
	for _, t := range v.Tags {
		if !isWord(t) {
			return invalid("tags", "must be lower-case words (a letter, then letters, digits, _ or -, at most %d bytes), like domains and strategies (got %s)", maxWord, quote(t))
		}
	}
	return checkCreated(v.Created)
}

func (v Value) withDefaults(now int64) Value {
	v.Tags = normalTags(v.Tags)
	if v.Created == 0 {
		v.Created = now
	}
	return v
}

// normalTags returns tags sorted, without repeats; nil when there are
// none.
func normalTags(tags []string) []string {
	if len(tags) == 0 {
		return nil
	}
	out := slices.Clone(tags)
	slices.Sort(out)
	return slices.Compact(out)
}

func checkText(field, s string, required bool) error {
	switch {
	case required && strings.TrimSpace(s) == "":
		return invalid(field, "is required and must not be blank")
	case len(s) > MaxText:
		return invalid(field, "is %d bytes, more than the %d a field may hold", len(s), MaxText)
	case !utf8.ValidString(s):
		return invalid(field, "must be valid UTF-8")
	case strings.IndexByte(s, 0) >= 0:
		return invalid(field, "must not hold a NUL byte")
	}
	return nil
}

func checkCreated(t int64) error {
	if t < 0 {
		return invalid("created", "must be Unix seconds, or 0 for now (got %d)", t)
	}
	return nil
}

// isWord reports whether s is a lower-case word: [a-z][a-z0-9_-]{0,31}.
func isWord(s string) bool {
	if len(s) == 0 || len(s) > maxWord || !('a' <= s[0] && s[0] <= 'z') {
		return false
	}
	for i := 1; i < len(s); i++ {
		if c := s[i]; !('a' <= c && c <= 'z' || '0' <= c && c <= '9' || c == '_' || c == '-') {
			return false
		}
	}
	return true
}

// isClusterName reports whether s is an axis, a slash and a number from
// 1: DeriveValues' cluster names.
func isClusterName(s string) bool {
	a, n, ok := strings.Cut(s, "/")
	if !ok || !slices.Contains(Axes(), Axis(a)) {
		return false
	}
	i, err := strconv.Atoi(n)
	return err == nil && i >= 1 && strconv.Itoa(i) == n
}

// quote quotes s for an error message, cut to 40 bytes.
func quote(s string) string {
	if len(s) > 40 {
		cut := 40
		for cut > 0 && !utf8.RuneStart(s[cut]) {
			cut--
		}
		return strconv.Quote(s[:cut]) + "…"
	}
	return strconv.Quote(s)
}
