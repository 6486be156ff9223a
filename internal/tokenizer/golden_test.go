package tokenizer

import (
	"crypto/sha256"
	"encoding/hex"
	"encoding/json"
	"os"
	"strconv"
	"strings"
	"testing"
)

// goldenCase is one text of testdata/tiktoken_golden.json with OpenAI
// tiktoken's token ids for it, written by testdata/tiktoken_golden.js.
type goldenCase struct {
	Name     string
	Text     string
	Repeat   int
	Alphabet string
	Seed     uint32
	N        int
	O200k    goldenIDs `json:"o200k_base"`
	Cl100k   goldenIDs `json:"cl100k_base"`
}

// goldenIDs are the ids of one encoding, or their count and the sha256 of
// the ids in decimal joined by commas.
type goldenIDs struct {
	Count  int
	IDs    []int
	SHA256 string
}

// text builds the case's text as tiktoken_golden.js does.
func (c goldenCase) text() string {
	if c.Alphabet != "" {
		runes := []rune(c.Alphabet)
		var b strings.Builder
		x := c.Seed
		for range c.N {
			x ^= x << 13
			x ^= x >> 17
			x ^= x << 5
			b.WriteRune(runes[x%uint32(len(runes))])
		}
		return b.String()
	}
	return strings.Repeat(c.Text, max(c.Repeat, 1))
}

func TestTiktokenGolden(t *testing.T) {
	data, err := os.ReadFile("testdata/tiktoken_golden.json")
	if err != nil {
		t.Fatal(err)
	}
	var cases []goldenCase
	if err := json.Unmarshal(data, &cases); err != nil {
		t.Fatal(err)
	}
	if len(cases) == 0 {
		t.Fatal("no golden cases")
	}
	for _, c := range cases {
		text := c.text()
		for _, enc := range encodings {
			want := map[string]goldenIDs{"o200k_base": c.O200k, "cl100k_base": c.Cl100k}[enc.name]
			if want.IDs == nil && want.SHA256 == "" {
				t.Fatalf("%s: no ids for %s", c.Name, enc.name)
			}
			e := mustBPE(t, enc.name)
			got := e.encode(text)
			if n := e.Count(text); n != want.Count {
				t.Errorf("%s: %s: Count = %d, want %d", enc.name, c.Name, n, want.Count)
			}
			if want.IDs != nil {
				if i := firstDiff(got, want.IDs); i >= 0 {
					t.Errorf("%s: %s: token %d differs:\n%s", enc.name, c.Name, i, diffContext(e, got, want.IDs, i))
				}
				continue
			}
			parts := make([]string, len(got))
			for i, id := range got {
				parts[i] = strconv.Itoa(id)
			}
			sum := sha256.Sum256([]byte(strings.Join(parts, ",")))
			if hex.EncodeToString(sum[:]) != want.SHA256 {
				t.Errorf("%s: %s: the sha256 of the ids differs", enc.name, c.Name)
			}
		}
	}
}
