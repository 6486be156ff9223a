package store

import (
	"bytes"
	"errors"
	"fmt"
	"io"
	"regexp"
	"strconv"
	"strings"

	"github.com/ctxpack/ctxpack/internal/project"
	"go.yaml.in/yaml/v3"
)

// The bounds of ParseExperiences' input.
const (
	MaxParseBytes       = 1 << 20 // bytes of YAML
	MaxParseExperiences = 10000   // experiences in one file
)

// ParseError is a fault in a YAML file of experiences.
type ParseError struct {
	Name string // the file name given to ParseExperiences
	Line int    // 1-based; 0 for a fault of the whole file
	Msg  string // what is wrong: "outcome.status must be confirmed, …"
	// Err is the *ValidationError behind Msg, when the fault is a field's
	// value; nil for a fault of the YAML itself.
	Err error
}

func (e *ParseError) Error() string {
	if e.Line == 0 {
		return "store: " + e.Name + ": " + e.Msg
	}
	return "store: " + e.Name + ":" + strconv.Itoa(e.Line) + ": " + e.Msg
}

func (e *ParseError) Unwrap() error { return e.Err }

// experienceKeys are the keys of an experience mapping, in the order of
// the Experience struct; outcomeKeys those of its outcome mapping.
var (
	experienceKeys = []string{"domain", "strategy", "goal", "hypothesis", "action", "prediction", "outcome", "result", "surprise", "root_cause", "lesson", "confidence", "iterations"}
	outcomeKeys    = []string{"status", "result"}
)

// ParseExperiences reads experiences from YAML: one (a mapping) or several
// (a list of mappings), in one YAML document. name is the file's name,
// for errors. The keys are those of the Experience fields in snake case
// (domain, strategy, goal, hypothesis, action, prediction, surprise,
// root_cause, lesson, confidence, iterations) and outcome: a mapping of
// status and result, or the status alone with result as a key beside it:
//
//	domain: debugging
//	strategy: systematic-elimination
//	goal: find why the invoice total drifts
//	hypothesis: rounding happens per line
//	action: summed the unrounded lines
//	prediction: the drift disappears
//	outcome: {status: falsified, result: the drift stayed}
//	root_cause: "wrong-assumption: the drift came from currency conversion"
//	lesson: convert currencies after summing
//
// Text is taken with the spaces around it trimmed; a null is an absent
// key. Every experience must pass Experience.Validate. Errors are
// *ParseError naming the file and line: "store: exp.yaml:4:
// outcome.status must be confirmed, falsified or abandoned (got
// "maybe")"; a key that is not one of the above is an error that
// suggests the closest one. Input over MaxParseBytes, or with more than
// MaxParseExperiences experiences, is refused.
func ParseExperiences(name string, data []byte) ([]Experience, error) {
	if len(data) > MaxParseBytes {
		return nil, &ParseError{Name: name, Msg: fmt.Sprintf("is %d bytes, more than the %d an experiences file may hold", len(data), MaxParseBytes)}
	}
	dec := yaml.NewDecoder(bytes.NewReader(data))
	var doc yaml.Node
	if err := dec.Decode(&doc); err != nil {
		if errors.Is(err, io.EOF) {
			return nil, &ParseError{Name: name, Msg: "holds no experience: want a mapping, or a list of mappings"}
		}
		return nil, yamlError(name, err)
	}
	var next yaml.Node
	if err := dec.Decode(&next); !errors.Is(err, io.EOF) {
		if err != nil {
			return nil, yamlError(name, err)
		}
		return nil, &ParseError{Name: name, Line: next.Line, Msg: "a second YAML document: put every experience in one list"}
	}
	root := &doc
	if root.Kind == yaml.DocumentNode && len(root.Content) == 1 {
		root = root.Content[0]
	}
	root = project.DerefYAML(root)
	var items []*yaml.Node
	switch {
	case root.Kind == yaml.MappingNode:
		items = []*yaml.Node{root}
	case root.Kind == yaml.SequenceNode:
		items = root.Content
	case project.IsNullYAML(root):
		return nil, &ParseError{Name: name, Line: root.Line, Msg: "holds no experience: want a mapping, or a list of mappings"}
	default:
		return nil, &ParseError{Name: name, Line: root.Line, Msg: "must be an experience (a mapping) or a list of them (got " + project.DescribeYAML(root) + ")"}
	}
	if len(items) > MaxParseExperiences {
		return nil, &ParseError{Name: name, Line: root.Line, Msg: fmt.Sprintf("holds %d experiences, more than the %d one file may hold", len(items), MaxParseExperiences)}
	}
	if len(items) == 0 {
		return nil, &ParseError{Name: name, Line: root.Line, Msg: "holds no experience: the list is empty"}
	}
	out := make([]Experience, 0, len(items))
	for _, n := range items {
		e, err := parseExperience(name, project.DerefYAML(n))
		if err != nil {
			return nil, err
		}
		out = append(out, e)
	}
	return out, nil
}

var yamlLine = regexp.MustCompile(`^yaml: line (\d+): (.*)$`)

// yamlError turns a YAML syntax error into a *ParseError.
func yamlError(name string, err error) error {
	if m := yamlLine.FindStringSubmatch(err.Error()); m != nil {
		line, _ := strconv.Atoi(m[1])
		return &ParseError{Name: name, Line: line, Msg: m[2]}
	}
	return &ParseError{Name: name, Msg: strings.TrimPrefix(err.Error(), "yaml: ")}
}

// parseExperience reads one experience mapping and validates it.
func parseExperience(name string, n *yaml.Node) (Experience, error) {
	fail := func(line int, format string, args ...any) error {
		return &ParseError{Name: name, Line: line, Msg: fmt.Sprintf(format, args...)}
	}
	if n.Kind != yaml.MappingNode {
		return Experience{}, fail(n.Line, "an experience must be a mapping of domain, goal, hypothesis, … (got %s)", project.DescribeYAML(n))
	}
	var e Experience
	lines := map[string]int{} // line of each field, by ValidationError.Field
	seen := map[string]int{}  // line of each key given
	text := func(key string, v *yaml.Node, dst *string) error {
		switch {
		case project.IsNullYAML(v):
			return nil
		case v.Kind != yaml.ScalarNode:
			return fail(v.Line, "%s must be text (got %s)", key, project.DescribeYAML(v))
		}
		*dst = strings.TrimSpace(v.Value)
		return nil
	}
	var result, outcomeResult string
	for i := 0; i+1 < len(n.Content); i += 2 {
		k, v := n.Content[i], project.DerefYAML(n.Content[i+1])
		key := k.Value
		if first, dup := seen[key]; dup {
			return Experience{}, fail(k.Line, "%s is given twice (first at line %d)", key, first)
		}
		seen[key] = k.Line
		field := key
		var err error
		switch key {
		case "domain":
			err = text(key, v, &e.Domain)
		case "strategy":
			err = text(key, v, &e.Strategy)
		case "goal":
			err = text(key, v, &e.Goal)
		case "hypothesis":
			err = text(key, v, &e.Hypothesis)
		case "action":
			err = text(key, v, &e.Action)
		case "prediction":
			err = text(key, v, &e.Prediction)
		case "surprise":
			err = text(key, v, &e.Surprise)
		case "root_cause":
			err = text(key, v, &e.RootCause)
		case "lesson":
			err = text(key, v, &e.Lesson)
		case "confidence":
			var s string
			err = text(key, v, &s)
			e.Confidence = Tier(s)
		case "result":
			field = "outcome.result"
			err = text(key, v, &result)
		case "iterations":
			if project.IsNullYAML(v) {
				break
			}
			if v.Kind != yaml.ScalarNode || v.Decode(&e.Iterations) != nil {
				err = fail(v.Line, "iterations must be a whole number from 1 (got %s)", project.DescribeYAML(v))
			}
		case "outcome":
			field = "outcome.status"
			err = parseOutcome(v, fail, text, &e.Outcome, &outcomeResult, lines)
		default:
			hint := ""
			if s := project.Suggest(key, experienceKeys); s != "" {
				hint = " (did you mean " + s + "?)"
			}
			err = fail(k.Line, "%s is not a key of an experience%s; the keys are %s", keyText(key), hint, strings.Join(experienceKeys, ", "))
		}
		if err != nil {
			return Experience{}, err
		}
		if _, ok := lines[field]; !ok {
			lines[field] = k.Line
		}
	}
	switch {
	case result != "" && outcomeResult != "":
		return Experience{}, fail(seen["result"], "result is given twice: as a key and in outcome")
	case outcomeResult != "":
		result = outcomeResult
	}
	e.Result = result
	if err := e.Validate(); err != nil {
		var ve *ValidationError
		if !errors.As(err, &ve) {
			return Experience{}, err
		}
		line, ok := lines[ve.Field]
		if !ok {
			line = n.Line
		}
		return Experience{}, &ParseError{Name: name, Line: line, Msg: ve.Field + " " + ve.Msg, Err: ve}
	}
	return e, nil
}

// parseOutcome reads outcome: a status, or a mapping of status and
// result. It records the lines of outcome.status and outcome.result.
func parseOutcome(v *yaml.Node, fail func(int, string, ...any) error, text func(string, *yaml.Node, *string) error,
	status *Outcome, result *string, lines map[string]int) error {
	var s string
	switch v.Kind {
	case yaml.ScalarNode:
		if err := text("outcome", v, &s); err != nil {
			return err
		}
		lines["outcome.status"] = v.Line
	case yaml.MappingNode:
		seen := map[string]int{}
		for i := 0; i+1 < len(v.Content); i += 2 {
			k, sv := v.Content[i], project.DerefYAML(v.Content[i+1])
			if first, dup := seen[k.Value]; dup {
				return fail(k.Line, "outcome.%s is given twice (first at line %d)", k.Value, first)
			}
			seen[k.Value] = k.Line
			switch k.Value {
			case "status":
				if err := text("outcome.status", sv, &s); err != nil {
					return err
				}
				lines["outcome.status"] = k.Line
			case "result":
				if err := text("outcome.result", sv, result); err != nil {
					return err
				}
				lines["outcome.result"] = k.Line
			default:
				hint := ""
				if s := project.Suggest(k.Value, outcomeKeys); s != "" {
					hint = " (did you mean " + s + "?)"
				}
				return fail(k.Line, "outcome.%s is not a key of an outcome%s; the keys are status and result", keyText(k.Value), hint)
			}
		}
	default:
		if !project.IsNullYAML(v) {
			return fail(v.Line, "outcome must be a status (confirmed, falsified or abandoned) or a mapping of status and result (got %s)", project.DescribeYAML(v))
		}
	}
	*status = Outcome(s)
	return nil
}

// keyText is a key as an error shows it: as it is when it is a plain
// word, else quoted.
func keyText(k string) string {
	if k != "" && !strings.ContainsFunc(k, func(r rune) bool {
		return !('a' <= r && r <= 'z' || 'A' <= r && r <= 'Z' || '0' <= r && r <= '9' || r == '_' || r == '-' || r == '.')
	}) {
		return k
	}
	return quote(k)
}
