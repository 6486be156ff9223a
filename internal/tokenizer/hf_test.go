package tokenizer

import (
	"fmt"
	"math/rand/v2"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"
	"unicode/utf8"
)

// tokenEnds returns where the tokens of text end, or -1 (see run).
func (e *hfBPE) tokenEnds(text string) []int {
	var ends []int
	e.run(ToValidUTF8(text), new(hfScratch), -1, func(_ int32, end int) { ends = append(ends, end) })
	return ends
}

// decode returns the text of ids: the bytes of a byte-level family's tokens,
// and gemma3's tokens with ▁ as a space and <0xXX> as the byte XX.
func (e *hfBPE) decode(ids []int) string {
	var b strings.Builder
	for _, id := range ids {
		tok := e.token(int32(id))
		if e.fam.pre == preMetaspace {
			{
				var x byte
				if n, _ := fmt.Sscanf(tok, "<0x%02X>", &x); n == 1 && len(tok) == 6 {
					b.WriteByte(x)
					continue
				}
				tok = strings.ReplaceAll(tok, "▁", " ")
			}
		}
		b.WriteString(tok)
	}
	return b.String()
}

// normalized returns text as the family's normalizer leaves it (bar
// gemma3's ▁, which decode undoes).
func (e *hfBPE) normalized(text string) string {
	text = ToValidUTF8(text)
	if e.fam.nfc {
		return e.nfc(text, new(hfScratch))
	}
	return text
}

// checkFamilyText checks the invariants that need no reference: the ids
// decode to the normalized text, Count is their number, and the token ends
// are in order.
func checkFamilyText(t *testing.T, e *hfBPE, text string) {
	t.Helper()
	ids := e.encode(text)
	// gemma3's ▁ and space are one: ▁ spells a space inside a token, and
	// an added token can be a run of ▁.
	if got, want := e.decode(ids), e.normalized(text); strings.ReplaceAll(got, "▁", " ") != strings.ReplaceAll(want, "▁", " ") {
		t.Fatalf("%s: %q: the tokens decode to %q", e.Name(), text, got)
	}
	if n := e.Count(text); n != len(ids) {
		t.Fatalf("%s: %q: Count = %d, encode has %d tokens", e.Name(), text, n, len(ids))
	}
	prev := 0
	for _, end := range e.tokenEnds(text) {
		if end >= 0 {
			if end < prev {
				t.Fatalf("%s: %q: token ends out of order", e.Name(), text)
			}
			prev = end
		}
	}
	if len(ids) > 0 && prev != len(ToValidUTF8(text)) {
		t.Fatalf("%s: %q: the last token ends at %d of %d", e.Name(), text, prev, len(ToValidUTF8(text)))
	}
}

func TestFamilyInvariants(t *testing.T) {
	cases := edgeCases()
	rng := rand.New(rand.NewPCG(9, 10))
	var texts []string
	for _, name := range sortedKeys(cases) {
		texts = append(texts, cases[name])
	}
	for range 2000 {
		texts = append(texts, randomFamilyText(rng, 40))
	}
	for _, name := range familyNames() {
		e := mustHF(t, name)
		for _, text := range texts {
			checkFamilyText(t, e, text)
		}
	}
}

// familyAlphabet adds to alphabet what the families treat apart: added
// tokens' text, gemma3's line-break runs, ▁, characters newer than Go's
// Unicode tables, DeepSeek's CJK ranges and punctuation.
var familyAlphabet = []string{
	"<think>", "</think>", "<tool_call>", "<|fim_prefix|>", "<｜User｜>", "<｜fim▁hole｜>", "<table>", "<td>", "<unused7>",
	"<bos>", "<|endoftext|>", "<|im_start|>", "[multimodal]", "<mask>", "\n\n", "\n\n\n", "▁", "▁▁", "  ", "    ",
	"\U0002ebf0", "\U00010d50", "\U00011380", "\U0001ccf0", "\ua7cb", "\u0897", "日本", "テスト", "ひら", "・", "゛", "\u3099",
	"(x", "'s", "\"Ab", "12345", "½", "e\u0301", "\u0301\u0302\u0303", "Å", "\u1100\u1161\u11a8", "\ufeff", "\u200d", "\u0085",
}

// randomFamilyText returns a text of up to n parts from the alphabets.
func randomFamilyText(rng *rand.Rand, n int) string {
	var b strings.Builder
	for range rng.IntN(n + 1) {
		if rng.IntN(4) == 0 {
			b.WriteString(familyAlphabet[rng.IntN(len(familyAlphabet))])
		} else {
			b.WriteRune(alphabet[rng.IntN(len(alphabet))])
		}
	}
	return b.String()
}

func sortedKeys(m map[string]string) []string {
	var keys []string
	for k := range m {
		keys = append(keys, k)
	}
	for i := 1; i < len(keys); i++ {
		for j := i; j > 0 && keys[j-1] > keys[j]; j-- {
			keys[j-1], keys[j] = keys[j], keys[j-1]
		}
	}
	return keys
}

// TestFamiliesRandomReference compares the counts of random texts, heavy in
// what the families treat apart, with Hugging Face's tokenizers.
func TestFamiliesRandomReference(t *testing.T) {
	node := requireFamilyRef(t)
	skipShort(t)
	rng := rand.New(rand.NewPCG(11, 12))
	dir := t.TempDir()
	var texts, paths []string
	for i := range 1500 {
		text := randomFamilyText(rng, 1+i%60)
		if i%10 == 0 {
			text += "\xff\xe2\x82" // invalid UTF-8, repaired on both sides
		}
		p := filepath.Join(dir, fmt.Sprintf("r%04d.txt", i))
		if err := os.WriteFile(p, []byte(text), 0o644); err != nil {
			t.Fatal(err)
		}
		texts, paths = append(texts, text), append(paths, p)
	}
	for _, name := range familyNames() {
		t.Run(name, func(t *testing.T) {
			e := mustHF(t, name)
			want, err := refIDs(t.Context(), node, "tokenizers", name, paths)
			if err != nil {
				t.Fatal(err)
			}
			for i, text := range texts {
				if k := firstDiff(e.encode(text), want[i]); k >= 0 {
					t.Errorf("%q: token %d differs:\n%s", text, k, hfDiff(e, e.encode(text), want[i], k))
				}
			}
		})
	}
}

func TestFamilyTruncate(t *testing.T) {
	texts := []string{
		"", "a", "hello world", "Hello, world! It's a test.\n\n", "a  b", "x   \n  y", "日本語のテキスト",
		"👨‍👩‍👧‍👦 family", "e\u0301e\u0301e\u0301", "A\u0301\u0327B", "\xff\xfe\xfd", "ok\xe2\x82",
		strings.Repeat(" ", 40) + "z", "1234567890123", "<bos><think>x</think>\n\n\n<td>",
		"func main() {\n\tprintln(\"hi\")\n}\n",
	}
	rng := rand.New(rand.NewPCG(13, 14))
	for range 150 {
		texts = append(texts, randomFamilyText(rng, 25))
	}
	for _, name := range familyNames() {
		e := mustHF(t, name)
		for _, text := range texts {
			for max := -1; max <= e.Count(text)+1; max++ {
				checkTruncate(t, e, text, max)
			}
		}
	}
}

func TestFamilyTruncateLong(t *testing.T) {
	text := strings.Repeat("The quick brown fox jumps over the lazy dog. ", 2000)
	for _, name := range familyNames() {
		e := mustHF(t, name)
		for _, max := range []int{1, 10, 1000, 9999} {
			if n := e.Count(e.Truncate(text, max)); n != max {
				t.Errorf("%s: Count(Truncate(text, %d)) = %d", name, max, n)
			}
		}
	}
}

// TestWholeTokens proves the speed-up that wholeTokens allows: merging the
// bytes of any token gives that token back, so a piece that is a token is
// one token. It checks every token of every family that claims it, and
// reports the families that could claim it.
func TestWholeTokens(t *testing.T) {
	for _, name := range familyNames() {
		e := mustHF(t, name)
		if e.fam.pre == preMetaspace {
			continue
		}
		sc := new(hfScratch)
		bad := 0
		for id := range e.vocab.size() {
			tok := e.vocab.token(int32(id))
			if tok == "" {
				continue
			}
			if n := e.mergeBytes(tok, 0, len(tok), sc); n != 1 || sc.ids[0] != int32(id) {
				if bad++; bad <= 3 && e.fam.wholeTokens {
					t.Errorf("%s: token %d %q merges to %d tokens", name, id, tok, n)
				}
			}
		}
		t.Logf("%s: %d of %d tokens do not merge back to themselves (wholeTokens %v)", name, bad, e.vocab.size(), e.fam.wholeTokens)
	}
}

// TestFamilyCountAllocs checks that counting text allocates nothing once
// the scratch space is warm, unless qwen3's NFC changes it.
func TestFamilyCountAllocs(t *testing.T) {
	if raceEnabled {
		t.Skip("the race detector's sync.Pool drops scratch space on purpose")
	}
	text := edgeCases()["code"] + edgeCases()["mixed scripts"] + edgeCases()["cjk"] + strings.Repeat("a", 1000)
	for _, name := range familyNames() {
		e := mustHF(t, name)
		e.Count(text)
		if n := testing.AllocsPerRun(10, func() { e.Count(text) }); n != 0 {
			t.Errorf("%s: Count allocates %v times", name, n)
		}
	}
}

func TestFamilyConcurrent(t *testing.T) {
	rng := rand.New(rand.NewPCG(15, 16))
	texts := make([]string, 64)
	for i := range texts {
		texts[i] = randomFamilyText(rng, 200)
	}
	for _, name := range familyNames() {
		e := mustHF(t, name)
		want := make([]int, len(texts))
		for i, s := range texts {
			want[i] = e.Count(s)
		}
		done := make(chan bool)
		for g := range 4 {
			go func() {
				defer func() { done <- true }()
				for k := range texts {
					i := (k + g*7) % len(texts)
					if n := e.Count(texts[i]); n != want[i] {
						t.Errorf("%s: concurrent Count = %d, want %d", name, n, want[i])
					}
					e.Truncate(texts[i], want[i]/2)
				}
			}()
		}
		for range 4 {
			<-done
		}
	}
}

// FuzzFamilies checks the invariants of every family (checkFamilyText) and
// Truncate's contract:
//
//	go test -run '^$' -fuzz '^FuzzFamilies$' -fuzztime 2m ./internal/tokenizer
func FuzzFamilies(f *testing.F) {
	for _, s := range fuzzSeeds() {
		f.Add(s, 3)
	}
	for _, s := range familyAlphabet {
		f.Add("x"+s+" y", 2)
	}
	f.Fuzz(func(t *testing.T, text string, max int) {
		if len(text) > 1<<12 {
			t.Skip("the maximality check is quadratic")
		}
		if !utf8.ValidString(text) && len(text) > 1<<10 {
			t.Skip()
		}
		for _, name := range familyNames() {
			e := mustHF(t, name)
			checkFamilyText(t, e, text)
			n := e.Count(text)
			checkTruncate(t, e, text, max%(n+2))
		}
	})
}

// TestNFCLongRun checks that a letter with a million combining marks is
// normalized in time (the canonical ordering is a stable sort, not an
// insertion sort) and keeps Count's and Truncate's contracts.
func TestNFCLongRun(t *testing.T) {
	text := "a" + strings.Repeat("\u0316\u0301", 500_000) + " b"
	e := mustHF(t, "qwen3")
	n := e.Count(text)
	if n < 1000 {
		t.Fatalf("Count = %d", n)
	}
	if got := e.Truncate(text, n/2); e.Count(got) > n/2 || !strings.HasPrefix(text, got) {
		t.Fatalf("Truncate(text, %d) is %d bytes with %d tokens", n/2, len(got), e.Count(got))
	}
}

// TestMetaspaceCuts checks what metaspace's cuts rely on: the only gemma3
// token in which a ▁ follows a character other than ▁ is >▁</.
func TestMetaspaceCuts(t *testing.T) {
	if !slices.Contains(familyNames(), "gemma3") {
		t.Skip("gemma3's vocabulary is not installed (npm ci --prefix testdata/tokref)")
	}
	e := mustHF(t, "gemma3")
	var found []string
	for id := range e.vocab.size() {
		tok := e.vocab.token(int32(id))
		for i := 1; i < len(tok); i++ {
			if strings.HasPrefix(tok[i:], "▁") && !strings.HasSuffix(tok[:i], "▁") {
				found = append(found, tok)
				break
			}
		}
	}
	if len(found) != 1 || found[0] != ">▁</" {
		t.Errorf("tokens with a ▁ after another character: %q, want only \">▁</\"", found)
	}
	for _, c := range []struct {
		text string
		p    int
		want bool
	}{
		{"a b", 1, true}, {"a  b", 2, false}, {"a  b", 1, true}, {"> </", 1, false}, {"> <a", 1, true},
		{"▁ x", 3, false}, {"ab", 1, false}, {" b", 0, false},
	} {
		if c.p == 0 {
			continue
		}
		if got := metaspaceCut(c.text, 0, c.p, len(c.text)); got != c.want {
			t.Errorf("metaspaceCut(%q, %d) = %v, want %v", c.text, c.p, got, c.want)
		}
	}
}
