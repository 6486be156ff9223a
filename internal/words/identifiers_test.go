package words

import (
	"slices"
	"testing"
)

func TestIdentifiers(t *testing.T) {
	tests := []struct {
		text   string
		minLen int
		want   []string
	}{
		{"func RunFlow(script string) (int, error)", 3, []string{"RunFlow", "error", "func", "int", "script", "string"}},
		{"a bb ccc dddd", 3, []string{"ccc", "dddd"}},
		{"a bb ccc", 1, []string{"a", "bb", "ccc"}},
		{"zeta alpha zeta _x alpha", 2, []string{"_x", "alpha", "zeta"}},
		// A run that starts with a digit holds no identifier.
		{"10px 0xff 1_000 12abc_d x12abc", 3, []string{"x12abc"}},
		// Anything but ASCII letters, digits and '_' ends one.
		{"max-file-bytes caféBar foo\xffbar os.ReadFile", 3, []string{"Bar", "ReadFile", "bar", "bytes", "caf", "file", "foo", "max"}},
		{"", 3, nil},
		{"+-*/ 12 ()", 1, nil},
	}
	for _, tt := range tests {
		if got := Identifiers(tt.text, tt.minLen); !slices.Equal(got, tt.want) {
			t.Errorf("Identifiers(%q, %d) = %q, want %q", tt.text, tt.minLen, got, tt.want)
		}
	}
}

func TestIdentifierLine(t *testing.T) {
	text := "package core\n\n// ParseScripts splits.\nx := ParseScript(s)\ny := ParseScript\n"
	tests := []struct {
		name string
		want int
	}{
		{"package", 1},
		{"ParseScript", 4}, // not inside ParseScripts on line 3
		{"ParseScripts", 3},
		{"core", 1},
		{"Parse", 0},
		{"y", 5},
		{"s", 4},
		{"missing", 0},
		{"", 0},
	}
	for _, tt := range tests {
		if got := IdentifierLine(text, tt.name); got != tt.want {
			t.Errorf("IdentifierLine(%q) = %d, want %d", tt.name, got, tt.want)
		}
	}
	if got := IdentifierLine("x1 x", "x"); got != 1 {
		t.Errorf("IdentifierLine at the end of the text = %d, want 1", got)
	}
	if got := IdentifierLine("café", "caf"); got != 1 {
		t.Errorf("a non-ASCII letter ends an identifier: got %d, want 1", got)
	}
}

// FuzzIdentifiers checks that every identifier Identifiers finds stands
// whole in the text (IdentifierLine finds it) and is one by the rule.
func FuzzIdentifiers(f *testing.F) {
	f.Add("func RunFlow(script string) 10px x12", 3)
	f.Add("café_Bar-baz", 1)
	f.Fuzz(func(t *testing.T, text string, minLen int) {
		minLen = max(0, minLen%8)
		ids := Identifiers(text, minLen)
		if !slices.IsSorted(ids) {
			t.Fatalf("not sorted: %q", ids)
		}
		for i, id := range ids {
			if i > 0 && ids[i-1] == id {
				t.Fatalf("repeated: %q", id)
			}
			if len(id) < max(minLen, 1) || isDigitByte(id[0]) {
				t.Fatalf("%q is not an identifier of at least %d bytes", id, minLen)
			}
			for j := range len(id) {
				if !isIdentByte(id[j]) {
					t.Fatalf("%q holds byte %q", id, id[j])
				}
			}
			if IdentifierLine(text, id) == 0 {
				t.Fatalf("%q found but IdentifierLine says it does not stand whole in %q", id, text)
			}
		}
	})
}
