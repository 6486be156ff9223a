package pack

import (
	"strings"
	"testing"

	"github.com/ctxpack/ctxpack/internal/render"
)

func TestPreferRecent(t *testing.T) {
	day := int64(86400)
	parts := []Part{
		{Key: "old", Path: "a.go", Text: full("old\n"), Score: 0.5, Changed: 1000 * day},
		{Key: "new", Path: "b.go", Text: full("new\n"), Score: 0.5, Changed: 1014 * day},
		{Key: "unknown", Path: "c.go", Text: full("unknown\n"), Score: 0.55},
	}
	for _, tc := range []struct {
		prefer bool
		want   string
	}{
		{false, "unknown,old,new"}, // by score, then path
		{true, "new,old,unknown"},  // new +0.2, old (14 days older) +0.05, unknown +0
	} {
		res, err := Assemble(parts, Options{Budget: 100, Tokenizer: runeCounter{}, Strategy: ByScore, PreferRecent: tc.prefer})
		if err != nil {
			t.Fatal(err)
		}
		var keys []string
		for _, p := range res.Plan.Parts {
			keys = append(keys, p.Key)
			if tc.prefer && p.Key != "unknown" && p.Components["recency"] == 0 {
				t.Errorf("%s has no recency component", p.Key)
			}
		}
		if got := strings.Join(keys, ","); got != tc.want {
			t.Errorf("prefer_recent=%v: order %s, want %s", tc.prefer, got, tc.want)
		}
	}
}

func TestMetadataLineIsCounted(t *testing.T) {
	parts := []Part{{Key: "a", Path: "a.go", Text: full("aaaa\n")}}
	meta := "mode=pack target=. state_root=sha256:00"
	res, err := Assemble(parts, Options{Budget: 100, Tokenizer: runeCounter{}, Format: render.Text, Metadata: meta})
	if err != nil {
		t.Fatal(err)
	}
	want := "=== CTXPACK: " + meta + " ===\n=== a.go ===\naaaa\n"
	if string(res.Output) != want {
		t.Errorf("output %q, want %q", res.Output, want)
	}
	if res.Plan.TotalTokens != (runeCounter{}).Count(want) {
		t.Errorf("total %d does not count the metadata line", res.Plan.TotalTokens)
	}
	// With too small a budget for line and part, nothing is emitted at all.
	res, err = Assemble(parts, Options{Budget: 20, Tokenizer: runeCounter{}, Metadata: meta})
	if err != nil {
		t.Fatal(err)
	}
	if len(res.Output) != 0 || len(res.Plan.Dropped) != 1 {
		t.Errorf("budget 20: output %q, dropped %v", res.Output, res.Plan.Dropped)
	}
}

// TestMaxLevelMeta: asking for meta gives meta; the zero value gives full.
func TestMaxLevelMeta(t *testing.T) {
	parts := []Part{{Key: "a", Path: "a.go", Text: map[Level]string{Meta: "a.go\n", Full: "package a\n"}}}
	for _, tc := range []struct {
		max  Level
		want string
	}{{0, "full"}, {Meta, "meta"}, {Summary, "meta"}, {Full, "full"}} {
		res, err := Assemble(parts, Options{Budget: 100, Tokenizer: runeCounter{}, MaxLevel: tc.max})
		if err != nil {
			t.Fatal(err)
		}
		if got := res.Plan.Parts[0].Level; got != tc.want {
			t.Errorf("MaxLevel %v: level %s, want %s", tc.max, got, tc.want)
		}
	}
	if _, err := ParseLevel(""); err == nil {
		t.Error(`ParseLevel("") succeeded`)
	}
}
