package check

import (
	"errors"
	"fmt"
	"slices"
	"strconv"
	"strings"

	"github.com/ctxpack/ctxpack/internal/artifact"
	"github.com/ctxpack/ctxpack/internal/project"
	"go.yaml.in/yaml/v3"
)

// Config is the check section of the project configuration:
//
//	check:
//	  rules:                  # severity per rule id: error, warning or off
//	    orphan-spec: error
//	    broken-path: off
//	  required_fields:        # per type, replacing that type's default
//	    spec: [id, title, status]
//	  baseline: .ctxpack/.baseline.json
//
// The zero Config checks every rule at its default severity with the
// default required fields.
type Config struct {
	// Rules overrides the default severity of rules, by id.
	Rules map[string]Severity
	// RequiredFields replaces, for the types it names, the fields an
	// artifact of that type must have (see DefaultRequiredFields).
	RequiredFields map[artifact.Type][]string
	// Baseline is the baseline file, a slash path relative to the project
	// root; "" means .baseline.json in the artifact directory.
	Baseline string
}

// DefaultRequiredFields returns the fields each type must have by default:
// id and title for tasks, specs, decisions and norms, and status too for
// tasks and specs, whose status says whether they still apply. The identity
// file needs nothing.
func DefaultRequiredFields() map[artifact.Type][]string {
	return map[artifact.Type][]string{
		artifact.Task:     {"id", "title", "status"},
		artifact.Spec:     {"id", "title", "status"},
		artifact.Decision: {"id", "title"},
		artifact.Norm:     {"id", "title"},
	}
}

// Severity returns the severity rule is checked at.
func (c Config) Severity(rule string) Severity {
	if s, ok := c.Rules[rule]; ok {
		return s
	}
	for _, r := range Rules() {
		if r.ID == rule {
			return r.Default
		}
	}
	return Off
}

// Required returns the fields an artifact of type t must have.
func (c Config) Required(t artifact.Type) []string {
	if f, ok := c.RequiredFields[t]; ok {
		return f
	}
	return DefaultRequiredFields()[t]
}

// types are the artifact types required_fields may name.
func types() []string {
	return []string{string(artifact.Identity), string(artifact.Task), string(artifact.Spec), string(artifact.Decision), string(artifact.Norm)}
}

// ParseConfig reads the check section of cfg. Every problem is an error
// naming the file, line and key (*project.ConfigError, joined when there
// are several): unknown keys, unknown rule ids and types, severities other
// than error, warning and off, values of the wrong shape, repeated keys.
func ParseConfig(cfg project.Config) (Config, error) {
	var n yaml.Node
	ok, err := cfg.Section("check", &n)
	if err != nil || !ok {
		return Config{}, err
	}
	p := configParser{path: cfg.Source}
	c := p.parse(&n)
	if len(p.errs) > 0 {
		return Config{}, errors.Join(p.errs...)
	}
	return c, nil
}

type configParser struct {
	path string
	errs []error
}

func (p *configParser) errorf(n *yaml.Node, key, format string, args ...any) {
	p.errs = append(p.errs, &project.ConfigError{Path: p.path, Line: n.Line, Key: key, Msg: fmt.Sprintf(format, args...)})
}

func (p *configParser) parse(n *yaml.Node) Config {
	var c Config
	n = project.DerefYAML(n)
	if project.IsNullYAML(n) {
		return c
	}
	for _, kv := range p.mapping(n, "check") {
		key, val := kv.Key, project.DerefYAML(kv.Val)
		name := "check." + key.Value
		if project.IsNullYAML(val) {
			continue
		}
		switch key.Value {
		case "rules":
			c.Rules = p.rules(val)
		case "required_fields":
			c.RequiredFields = p.requiredFields(val)
		case "baseline":
			if val.Kind != yaml.ScalarNode || val.ShortTag() != "!!str" || val.Value == "" {
				p.errorf(val, name, "%s must be a file path (got %s)", name, project.DescribeYAML(val))
				continue
			}
			c.Baseline = val.Value
		default:
			p.errorf(key, name, "unknown key %s%s; the check section has rules, required_fields, baseline", strconv.Quote(name), didYouMean(key.Value, []string{"rules", "required_fields", "baseline"}))
		}
	}
	return c
}

func (p *configParser) rules(n *yaml.Node) map[string]Severity {
	out := make(map[string]Severity)
	ids := ruleIDs()
	for _, kv := range p.mapping(n, "check.rules") {
		key, val := kv.Key, project.DerefYAML(kv.Val)
		name := "check.rules." + key.Value
		if !slices.Contains(ids, key.Value) {
			p.errorf(key, name, "unknown rule %s%s; rules: %s", strconv.Quote(key.Value), didYouMean(key.Value, ids), strings.Join(ids, ", "))
			continue
		}
		sev := Severity(val.Value)
		if val.Kind != yaml.ScalarNode || (sev != Error && sev != Warning && sev != Off) {
			p.errorf(val, name, "%s must be error, warning or off (got %s)", name, project.DescribeYAML(val))
			continue
		}
		out[key.Value] = sev
	}
	return out
}

func (p *configParser) requiredFields(n *yaml.Node) map[artifact.Type][]string {
	out := make(map[artifact.Type][]string)
	for _, kv := range p.mapping(n, "check.required_fields") {
		key, val := kv.Key, project.DerefYAML(kv.Val)
		name := "check.required_fields." + key.Value
		if !slices.Contains(types(), key.Value) {
			p.errorf(key, name, "unknown artifact type %s%s; types: %s", strconv.Quote(key.Value), didYouMean(key.Value, types()), strings.Join(types(), ", "))
			continue
		}
		fields := []string{}
		switch {
		case project.IsNullYAML(val):
		case val.Kind == yaml.SequenceNode:
			for _, e := range val.Content {
				e = project.DerefYAML(e)
				if e.Kind != yaml.ScalarNode || e.ShortTag() != "!!str" || e.Value == "" {
					p.errorf(e, name, "%s must list field names (got %s)", name, project.DescribeYAML(e))
					continue
				}
				fields = append(fields, e.Value)
			}
		default:
			p.errorf(val, name, "%s must be a list of field names, such as [id, title] (got %s)", name, project.DescribeYAML(val))
			continue
		}
		out[artifact.Type(key.Value)] = fields
	}
	return out
}

// mapping returns the entries of the mapping n, read as the rest of the
// configuration file is (project.Pairs: merge keys expanded; keys that
// are not plain names, and repeated keys, reported), and reports a node
// that is not a mapping.
func (p *configParser) mapping(n *yaml.Node, name string) []project.KeyValue {
	if n.Kind != yaml.MappingNode {
		p.errorf(n, name, "%s must be a mapping (got %s)", name, project.DescribeYAML(n))
		return nil
	}
	kvs, errs := project.Pairs(p.path, n, name+".")
	p.errs = append(p.errs, errs...)
	return kvs
}

// didYouMean returns ` (did you mean "x"?)` for the candidate closest to
// s within two edits, or "".
func didYouMean(s string, candidates []string) string {
	if best := project.Suggest(s, candidates); best != "" {
		return fmt.Sprintf(" (did you mean %q?)", best)
	}
	return ""
}
