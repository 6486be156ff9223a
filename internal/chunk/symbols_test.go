package chunk

import (
	"testing"

	"github.com/google/go-cmp/cmp"
)

func TestSymbolNames(t *testing.T) {
	for sym, want := range map[string][]string{
		"":                      nil,
		"RoundTotal":            {"RoundTotal"},
		"(*Server).ServeHTTP":   {"ServeHTTP"},
		"Invoice.total":         {"total"},
		"Money::new":            {"new"},
		"Alpha, Beta, Gamma":    {"Alpha", "Beta", "Gamma"},
		"Invoice (part 2)":      {"Invoice"},
		"## Rounding":           nil,
		"…":                     nil,
		"List[T].Len, 2fast":    {"Len"},
		"impl Money, Money.add": {"add"},
	} {
		if got := SymbolNames(sym); !cmp.Equal(got, want) {
			t.Errorf("SymbolNames(%q) = %q, want %q", sym, got, want)
		}
	}
}
