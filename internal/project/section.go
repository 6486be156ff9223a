package project

import (
	"cmp"
	"fmt"
	"slices"
	"strings"
)

// DecodeSection decodes the top-level section name into c (a pointer to
// the section's struct), as the retrieval: and sources: sections are
// read, and checks its keys against c's yaml tags. ok is
// false when the configuration has no such section. bad makes an error
// about a key of the section: "ctxpack: file:line: name.key must…", at
// the section's line when the key is not written in it. A key c has no
// field for, and allow (if not nil) does not accept, is an error: the
// first such key by line, then name, with the known key it looks like and
// the page of docs/ that lists the section's settings.
func (cfg Config) DecodeSection(name string, c any, allow func(key string) bool) (ok bool, bad BadKey, err error) {
	if ok, err := cfg.Section(name, c); err != nil || !ok {
		return ok, nil, err
	}
	node := cfg.Extra[name]
	lines := KeyLines(&node, "")
	bad = func(key, must string) error {
		where := ""
		if cfg.Source != "" {
			where = fmt.Sprintf("%s:%d: ", cfg.Source, cmp.Or(lines[key], node.Line))
		}
		return fmt.Errorf("ctxpack: %s%s.%s %s", where, name, key, must)
	}
	unknown, known := UnknownKeys(lines, c)
	if allow != nil {
		unknown = slices.DeleteFunc(unknown, allow)
	}
	if len(unknown) == 0 {
		return true, bad, nil
	}
	key := slices.MinFunc(unknown, func(a, b string) int { return cmp.Or(cmp.Compare(lines[a], lines[b]), strings.Compare(a, b)) })
	hint := ""
	if s := Suggest(key, known); s != "" {
		hint = fmt.Sprintf(" (did you mean %s?)", s)
	}
	return true, bad, bad(key, fmt.Sprintf("is not a %s setting%s; docs/%s.md lists them", name, hint, name))
}

// Where is "file:line: " of the top-level setting name (one of Extra),
// for an error about it; "" for the defaults.
func (cfg Config) Where(name string) string {
	n := cfg.Extra[name]
	return location(cfg.Source, n.Line)
}

// BadKey makes the error about a key of a configuration section: key
// (dotted, within the section) must… (see DecodeSection).
type BadKey func(key, must string) error

// count sets *dst to *v when v is set: a whole number from 1 to most, else
// an error about key.
func (bad BadKey) Count(key string, v *int, dst *int, most int) error {
	if v == nil {
		return nil
	}
	if *v <= 0 || *v > most {
		return bad(key, fmt.Sprintf("must be a whole number from 1 to %d", most))
	}
	*dst = *v
	return nil
}
