package fakesecrets

import (
	"encoding/json"
	"slices"
	"strings"
)

// Score is what one output holds of a manifest's values.
type Score struct {
	Secrets int      // secrets in the manifest
	Leaked  []Secret // secrets with a value in the output
	// Reached counts the secrets that have context lines, all of them in
	// the output: the output shows where they were.
	Reached    int
	LookAlikes int // look-alikes in the manifest
	Kept       int // look-alikes whose value is in the output
	// InScope counts the look-alikes whose context lines are all in the
	// output; KeptInScope those of them that are kept, and Lost the others.
	InScope, KeptInScope int
	Lost                 []LookAlike
}

// Check scores output. It looks for each value in the output as it is
// and, when the output is JSON or JSON lines (a plan, MCP messages), in
// its strings decoded.
func (m Manifest) Check(output string) Score {
	hay := output
	if dec := jsonStrings(output); dec != "" {
		hay += "\n" + dec
	}
	has := func(s string) bool { return strings.Contains(hay, s) }
	all := func(ss []string) bool {
		for _, s := range ss {
			if !has(s) {
				return false
			}
		}
		return true
	}
	s := Score{Secrets: len(m.Secrets), LookAlikes: len(m.LookAlikes)}
	for _, sec := range m.Secrets {
		if slices.ContainsFunc(sec.Values, has) {
			s.Leaked = append(s.Leaked, sec)
		}
		if len(sec.Context) > 0 && all(sec.Context) {
			s.Reached++
		}
	}
	for _, l := range m.LookAlikes {
		kept := has(l.Value)
		if kept {
			s.Kept++
		}
		if all(l.Context) {
			s.InScope++
			if kept {
				s.KeptInScope++
			} else {
				s.Lost = append(s.Lost, l)
			}
		}
	}
	return s
}

// LeakedKinds returns the sorted kinds of the leaked secrets.
func (s Score) LeakedKinds() []string { return kinds(s.Leaked) }

// KeptShare is the share of the look-alikes in scope that are kept; 1
// when none is in scope.
func (s Score) KeptShare() float64 {
	if s.InScope == 0 {
		return 1
	}
	return float64(s.KeptInScope) / float64(s.InScope)
}

// Kinds returns the sorted kinds of the manifest's secrets.
func (m Manifest) Kinds() []string { return kinds(m.Secrets) }

// jsonStrings returns the strings of out, one a line, when out is a JSON
// document or JSON lines; "" otherwise.
func jsonStrings(out string) string {
	var b strings.Builder
	var walk func(v any)
	walk = func(v any) {
		switch v := v.(type) {
		case string:
			b.WriteString(v)
			b.WriteByte('\n')
		case []any:
			for _, e := range v {
				walk(e)
			}
		case map[string]any:
			keys := make([]string, 0, len(v))
			for k := range v {
				keys = append(keys, k)
			}
			slices.Sort(keys)
			for _, k := range keys {
				walk(v[k])
			}
		}
	}
	var v any
	if json.Unmarshal([]byte(out), &v) == nil {
		walk(v)
		return b.String()
	}
	for line := range strings.SplitSeq(out, "\n") {
		if json.Unmarshal([]byte(line), &v) == nil {
			walk(v)
		}
	}
	return b.String()
}
