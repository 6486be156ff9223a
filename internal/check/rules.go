package check

import (
	"cmp"
	"fmt"
	"slices"
	"strings"
)

// Severity is how much a finding matters: Error, Warning, or Off for a
// rule that is not checked.
type Severity string

const (
	Error   Severity = "error"
	Warning Severity = "warning"
	Off     Severity = "off"
)

// Label is the severity as the text output shows it: ERROR or WARN.
func (s Severity) Label() string {
	if s == Error {
		return "ERROR"
	}
	return "WARN"
}

// The rule ids, named as Contextia names them.
const (
	DuplicateID          = "duplicate-id"
	MalformedFrontmatter = "malformed-frontmatter"
	MissingRequiredField = "missing-required-field"
	BrokenLink           = "broken-link"
	SupersededLink       = "superseded-link"
	DeprecatedLink       = "deprecated-link"
	BrokenRef            = "broken-ref"
	BrokenPath           = "broken-path"
	OrphanSpec           = "orphan-spec"
	UnknownStatus        = "unknown-status"
)

// Rule is one check, with its default severity and what it reports.
type Rule struct {
	ID      string
	Default Severity
	Doc     string
}

// Rules returns every rule, errors first, in a fixed order.
func Rules() []Rule {
	return []Rule{
		{DuplicateID, Error, "two artifact files claim the same id (reported at every file after the first, in path order)"},
		{MalformedFrontmatter, Error, "an artifact file whose frontmatter cannot be read"},
		{MissingRequiredField, Error, "an artifact without a field its type requires (check.required_fields)"},
		{BrokenLink, Warning, "a link or superseded_by naming an artifact that does not exist"},
		{SupersededLink, Warning, "a link or annotation naming a superseded artifact, with its replacement"},
		{DeprecatedLink, Warning, "a link or annotation naming a deprecated artifact"},
		{BrokenRef, Warning, "an @spec or @decision annotation whose artifact does not exist, is of another type, or does not list the file in its paths"},
		{BrokenPath, Warning, "a paths glob that matches no file of the project"},
		{OrphanSpec, Warning, "a spec that no other artifact links to and no annotation names"},
		{UnknownStatus, Warning, "a status outside draft, current, in_progress, done, deprecated, superseded"},
	}
}

// ruleIDs returns the rule ids in Rules order.
func ruleIDs() []string {
	var ids []string
	for _, r := range Rules() {
		ids = append(ids, r.ID)
	}
	return ids
}

// Finding is one problem, with where it is.
type Finding struct {
	Rule     string   `json:"rule"`
	Severity Severity `json:"severity"`
	Path     string   `json:"path"` // slash path relative to the project root
	Line     int      `json:"line"` // 1-based
	Message  string   `json:"message"`
	// ID is the artifact the finding is about: for a finding in an
	// artifact file, that artifact ("" when it has no id); for an
	// annotation in code, the id the annotation names.
	ID string `json:"id"`
}

// String returns the finding as the text output prints it:
// "WARN broken-link path:line: message".
func (f Finding) String() string {
	return fmt.Sprintf("%s %s %s:%d: %s", f.Severity.Label(), f.Rule, f.Path, f.Line, f.Message)
}

// compareFindings orders findings by path, line, rule, message, then id.
func compareFindings(a, b Finding) int {
	return cmp.Or(
		strings.Compare(a.Path, b.Path),
		cmp.Compare(a.Line, b.Line),
		strings.Compare(a.Rule, b.Rule),
		strings.Compare(a.Message, b.Message),
		strings.Compare(a.ID, b.ID),
		strings.Compare(string(a.Severity), string(b.Severity)),
	)
}

// SortFindings sorts fs in the order the output uses: path, line, rule,
// message.
func SortFindings(fs []Finding) { slices.SortFunc(fs, compareFindings) }

// Summary is the last line of a check: what was checked, what was found,
// and whether the check passed.
type Summary struct {
	Specs     int  `json:"specs"`
	Decisions int  `json:"decisions"`
	Norms     int  `json:"norms"`
	Tasks     int  `json:"tasks"`
	Errors    int  `json:"errors"`
	Warnings  int  `json:"warnings"`
	Baselined int  `json:"baselined"` // findings the baseline hid
	OK        bool `json:"ok"`        // no errors (and, when strict, no warnings)
}

// Summarize counts findings (those left after the baseline, which hid
// baselined more). With strict, warnings fail the check as errors do.
func Summarize(c Counts, findings []Finding, baselined int, strict bool) Summary {
	s := Summary{Specs: c.Specs, Decisions: c.Decisions, Norms: c.Norms, Tasks: c.Tasks, Baselined: baselined}
	for _, f := range findings {
		switch f.Severity {
		case Error:
			s.Errors++
		case Warning:
			s.Warnings++
		}
	}
	s.OK = s.Errors == 0 && (!strict || s.Warnings == 0)
	return s
}

// String returns the summary line, as Contextia prints it:
//
//	OK 14 specs, 8 decisions, 5 norms  2 warnings, 0 errors
//
// FAIL instead of OK when the check fails, and "  (3 baselined)" at the
// end when the baseline hid findings.
func (s Summary) String() string {
	verdict := "OK"
	if !s.OK {
		verdict = "FAIL"
	}
	line := fmt.Sprintf("%s %s, %s, %s  %s, %s", verdict,
		plural(s.Specs, "spec"), plural(s.Decisions, "decision"), plural(s.Norms, "norm"),
		plural(s.Warnings, "warning"), plural(s.Errors, "error"))
	if s.Baselined > 0 {
		line += fmt.Sprintf("  (%d baselined)", s.Baselined)
	}
	return line
}

func plural(n int, noun string) string {
	if n == 1 {
		return "1 " + noun
	}
	return fmt.Sprintf("%d %ss", n, noun)
}
