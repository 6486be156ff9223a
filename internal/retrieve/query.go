package retrieve

import (
	"fmt"
	"maps"
	"regexp"
	"slices"
	"strings"
)

// Query is a free-text query as Rank reads it: the text its terms and
// mentions come from, with what says nothing about the repository taken
// out, and the names the query's own code defines.
type Query struct {
	// Text is the query without the parts CleanQuery removes.
	Text string
	// Own are the names the query's code defines itself (def NAME,
	// class NAME, function NAME, NAME = at the start of a line inside a
	// code block): a reporter's example, not the repository's code, so
	// they are not mentions.
	Own map[string]bool
	// Removed counts the lines taken out, by why.
	Removed map[string]int
}

// CleanQuery reads a query the way an issue is written: it takes out
// HTML comments (an issue template's instructions), task-list lines
// ("- [x] a minimal example"), and lines that list installed packages and
// versions (pip list, conda list, show_versions), which name every
// dependency and match whatever mentions one; and it finds the names the
// query's own code blocks define. Prose, code, tracebacks and other output
// are kept.
func CleanQuery(q string) Query {
	out := Query{Own: map[string]bool{}, Removed: map[string]int{}}
	q = htmlComment.ReplaceAllStringFunc(q, func(c string) string {
		out.Removed["comment"] += strings.Count(c, "\n") + 1
		return ""
	})
	var b strings.Builder
	inCode := false
	for line := range strings.Lines(q) {
		trim := strings.TrimSpace(line)
		if strings.HasPrefix(trim, "```") || strings.HasPrefix(trim, "~~~") {
			inCode = !inCode
			b.WriteString(line)
			continue
		}
		switch {
		case taskLine.MatchString(line):
			out.Removed["task list"]++
			continue
		case versionLine.MatchString(trim) || versionPair.MatchString(trim):
			out.Removed["versions"]++
			continue
		}
		if inCode {
			if m := ownDef.FindStringSubmatch(line); m != nil {
				out.Own[m[1]+m[2]] = true // one of them matched
			}
		}
		b.WriteString(line)
	}
	out.Text = b.String()
	return out
}

// Note says what CleanQuery took out of the query, for the ranking's
// warnings: "the query's 5 lines of comment and 294 lines of versions
// left out of the search (retrieval.off: [query_cleaning] keeps
// them)"; "" when nothing was.
func (q Query) Note() string {
	if len(q.Removed) == 0 {
		return ""
	}
	var parts []string
	for _, why := range slices.Sorted(maps.Keys(q.Removed)) {
		n, unit := q.Removed[why], "lines"
		if n == 1 {
			unit = "line"
		}
		parts = append(parts, fmt.Sprintf("%d %s of %s", n, unit, why))
	}
	return "the query's " + strings.Join(parts, " and ") + " left out of the search (retrieval.off: [query_cleaning] keeps them)"
}

var (
	htmlComment = regexp.MustCompile(`(?s)<!--.*?-->`)
	taskLine    = regexp.MustCompile(`^\s*[-*+] \[[ xX]\] `)
	// versionLine is a package and its version, with an optional location
	// or build after it: "numpy 1.21.0", "pytest  6.0.0rc2.dev33 /src".
	versionLine = regexp.MustCompile(`^[A-Za-z][\w.\-\[\]]*\s+v?\d+(\.[\w+\-]+)+(\s+\S+)?$`)
	// versionPair is a name and a version joined by ":" or "==":
	// "numpy: 1.18.1", "attrs==19.1.0".
	versionPair = regexp.MustCompile(`^[A-Za-z][\w.\-]*\s*(:|==)\s*v?\d+(\.[\w+\-]+)+$`)
	ownDef      = regexp.MustCompile(`^\s*(?:async\s+)?(?:def|class|function|func|fn|type)\s+([A-Za-z_]\w*)|^([A-Za-z_]\w*)\s*=[^=]`)
)
