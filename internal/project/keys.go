package project

import (
	"maps"
	"reflect"
	"regexp"
	"slices"
	"strconv"
	"strings"

	"go.yaml.in/yaml/v3"
)

// KeyLines walks the mapping n and returns the line of each key in it and
// in the mappings below it, by dotted name after prefix: "factors.recency",
// and "tiers[1].share" for a mapping in a sequence. Mappings are read as
// Pairs reads them: merge keys ("<<: *base") are expanded, the merged keys
// named as if written in place, at the line where they are written;
// explicit keys win; a key that is not a plain name is left out. It
// reports no errors: LoadConfig and the section's decoding do.
func KeyLines(n *yaml.Node, prefix string) map[string]int {
	out := map[string]int{}
	var l loader // its errors are not KeyLines' to report
	var walk func(n *yaml.Node, prefix string)
	walk = func(n *yaml.Node, prefix string) {
		switch n = DerefYAML(n); n.Kind {
		case yaml.MappingNode:
			for _, kv := range l.pairs(n, prefix) {
				name := prefix + kv.Key.Value
				out[name] = kv.Key.Line
				walk(kv.Val, name+".")
			}
		case yaml.SequenceNode:
			base := strings.TrimSuffix(prefix, ".")
			for i, item := range n.Content {
				walk(item, base+"["+strconv.Itoa(i)+"].")
			}
		}
	}
	walk(n, prefix)
	return out
}

// UnknownKeys returns the keys of lines (as KeyLines gives them) that v,
// a value decoded from them, has no field for by its yaml tags, sorted,
// and the keys it has ("tiers[].share" for the fields of a sequence's
// items), for suggestions.
func UnknownKeys(lines map[string]int, v any) (unknown, known []string) {
	has := map[string]bool{}
	var fields func(t reflect.Type, prefix string)
	fields = func(t reflect.Type, prefix string) {
		for t.Kind() == reflect.Pointer || t.Kind() == reflect.Slice {
			if t.Kind() == reflect.Slice {
				prefix = strings.TrimSuffix(prefix, ".") + "[]."
			}
			t = t.Elem()
		}
		if t.Kind() != reflect.Struct {
			return
		}
		for i := range t.NumField() {
			name, _, _ := strings.Cut(t.Field(i).Tag.Get("yaml"), ",")
			if name == "" || name == "-" {
				continue
			}
			has[prefix+name] = true
			fields(t.Field(i).Type, prefix+name+".")
		}
	}
	fields(reflect.TypeOf(v), "")
	for k := range lines {
		if !has[seqIndex.ReplaceAllString(k, "[]")] {
			unknown = append(unknown, k)
		}
	}
	slices.Sort(unknown)
	return unknown, slices.Sorted(maps.Keys(has))
}

var seqIndex = regexp.MustCompile(`\[\d+\]`)
