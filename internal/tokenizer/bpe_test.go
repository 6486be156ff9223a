package tokenizer

import (
	"fmt"
	"maps"
	"math/rand/v2"
	"slices"
	"strings"
	"sync"
	"testing"
	"unicode/utf8"
)

// TestEncodeGoTree compares token ids with the reference library on every
// file under $(go env GOROOT)/src/net/http and every 40th other file of the
// tree (in walk order), binary files included.
func TestEncodeGoTree(t *testing.T) {
	fsys := gorootSrc(t)
	files := readTree(t, fsys, "net/http", func(string, int) bool { return true })
	sample := readTree(t, fsys, ".", func(name string, i int) bool {
		return i%40 == 0 && !strings.HasPrefix(name, "net/http/")
	})
	files = append(files, sample...)
	for _, enc := range encodings {
		t.Run(enc.name, func(t *testing.T) {
			e, ref := mustBPE(t, enc.name), enc.ref()
			var bytes, tokens, oracle int
			for _, f := range files {
				want, viaOracle := wantEncode(t, e, ref, f.text)
				got := e.encode(f.text)
				if viaOracle {
					oracle++
				}
				if i := firstDiff(got, want); i >= 0 {
					t.Errorf("%s: token %d differs:\n%s", f.name, i, diffContext(e, got, want, i))
				}
				if n := e.Count(f.text); n != len(want) {
					t.Errorf("%s: Count = %d, want %d", f.name, n, len(want))
				}
				bytes += len(f.text)
				tokens += len(want)
			}
			t.Logf("%d files (%d checked against the oracle), %d bytes, %d tokens", len(files), oracle, bytes, tokens)
		})
	}
}

// diffContext describes where two id sequences part.
func diffContext(e *bpe, got, want []int, i int) string {
	tok := func(ids []int) string {
		var parts []string
		for _, id := range ids[max(0, i-3):min(len(ids), i+3)] {
			parts = append(parts, fmt.Sprintf("%d:%q", id, e.vocab.token(int32(id))))
		}
		return strings.Join(parts, " ")
	}
	return fmt.Sprintf("  got  %s\n  want %s", tok(got), tok(want))
}

// edgeCases returns texts that exercise the pre-tokenizers' and the merge's
// corners, by name.
func edgeCases() map[string]string {
	rng := rand.New(rand.NewPCG(1, 2))
	const b64 = "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789+/"
	var base64 strings.Builder
	for range 100_000 {
		base64.WriteByte(b64[rng.IntN(len(b64))])
	}
	var contractions strings.Builder
	for _, c := range []string{"s", "t", "re", "ve", "m", "ll", "d"} {
		for _, v := range caseVariants(c) {
			for _, before := range []string{"", "it", "IT", "It", "中", "é", "ǅ", "ʰ", "e\u0301", "7", " ", "'", "x'"} {
				for _, after := range []string{"", " ", "x", "X", "'", "\n", "s"} {
					contractions.WriteString(before + "'" + v + after + "|")
				}
			}
		}
	}
	return map[string]string{
		"empty":            "",
		"cjk":              "日本語のテキストと中文文本，한국어 텍스트도。漢字仮名交じり文",
		"emoji zwj":        "👨‍👩‍👧‍👦 👩🏽‍💻 🏳️‍🌈 ❤️‍🔥 🧑‍🤝‍🧑 x👍y",
		"flags":            "🇺🇸🇬🇧🇯🇵 🇩🇪! 🏴󠁧󠁢󠁳󠁣󠁴󠁿",
		"combining":        "e\u0301 n\u0303o a\u0300\u0301\u0302 \u0301\u0301x ́start क्षि ना\u093F \u0301'S",
		"crlf":             "line one\r\nline two\r\n\r\n  \r\n\tindented\r\r\n\n\r",
		"spaces":           strings.Repeat(" ", 5000) + "x" + strings.Repeat(" ", 3333),
		"tabs":             strings.Repeat("\t", 4099) + "y\t\t \t \n\t",
		"mixed space runs": "a \t \u00a0\u3000\u2003 b\u2028\u2029c \u0085 d\u000b\u000c e \u180e f\u200b g",
		"repeated letters": strings.Repeat("a", 200_000),
		"repeated upper":   strings.Repeat("A", 70_000) + strings.Repeat("b", 70_000),
		"digits":           strings.Repeat("1234567890", 5_000),
		"other digits":     "١٢٣٤٥ ½¼ ²³ Ⅻⅻ 𝟎𝟏𝟐 ０１２ 12½",
		"base64":           base64.String(),
		"contractions":     contractions.String(),
		"long s":           "it'ſ IT'ſ 'ſ 'ſt ſ's 'Ss 'K 'k",
		"mixed scripts":    "Привет мир, γειά σου κόσμε, שלום עולם, مرحبا بالعالم, नमस्ते दुनिया, สวัสดีชาวโลก, HTTPServer xmlHTTPRequest ǅemal ǈ ǋ",
		"nel nbsp bom":     "a\u0085b \u0085 c\u00a0d \u00a0 e\ufefff \ufeff g\u2028h \u2028 \u2029",
		"repaired invalid": "ok \xff\xfe bad \xe2\x82 cut \xf0\x9f\x98 emoji \xc0\xaf overlong \xed\xa0\x80 surrogate end\xe2",
		"special tokens":   "<|endoftext|> <|fim_prefix|><|fim_middle|><|fim_suffix|> <|endofprompt|> <|im_start|>user<|im_end|>",
		"slashes":          "a//b ///\n//\r\n/ // http://x.y/z?q=1 </div>\n",
		"astral letters":   "𝐀𝐁𝐜𝐝 𐐀𐐨 𝒜bc 𝓍yz 𠀀𠀁 x𝐀",
		"code":             "func (e *bpe) Count(text string) int {\n\tif n := len(text); n > 0 {\n\t\treturn n // it's fine\n\t}\n\treturn 0\n}\n",
		"punctuation runs": "!!!??? ... --- === +++ ;;;\n\n\n*** ~~~ `backticks` \"quotes\" 'single'",
		"lone marks":       "\u0301\u0301\u0301 \u0301 \u0301a \u0301A \u0301's",
		"titlecase":        "ǅǅǅ ǅa Aǅ aǅ ǅ's ǈʰʰa ʰA",
		"modifier letters": "ʰʰʰ ʰa aʰ ʰ'S ˈstress ꜱmall",
		"delete":           "a\x7fb !\x7f! \x7f\x7f x \x7f\n\x7f's",
	}
}

// caseVariants returns every upper/lower case spelling of an ASCII word.
func caseVariants(s string) []string {
	out := []string{""}
	for _, c := range s {
		var next []string
		for _, p := range out {
			next = append(next, p+string(c), p+strings.ToUpper(string(c)))
		}
		out = next
	}
	return out
}

func TestEncodeEdgeCases(t *testing.T) {
	cases := edgeCases()
	for _, enc := range encodings {
		e, ref := mustBPE(t, enc.name), enc.ref()
		for _, name := range slices.Sorted(maps.Keys(cases)) {
			text := cases[name]
			t.Run(enc.name+"/"+name, func(t *testing.T) {
				got := e.encode(text)
				want, _ := wantEncode(t, e, ref, text)
				if i := firstDiff(got, want); i >= 0 {
					t.Fatalf("token %d of %d differs:\n%s", i, len(want), diffContext(e, got, want, i))
				}
				if n := e.Count(text); n != len(want) {
					t.Fatalf("Count = %d, want %d", n, len(want))
				}
			})
		}
	}
}

// alphabet holds runes of every class the patterns distinguish, for random
// texts: letters of each category (BMP and astral), marks, numbers, white
// space, newlines, the contraction letters, apostrophes, slashes, symbols.
var alphabet = []rune(
	"aAzZsStTrReEvVmMlLdDſK'''  \t\n\r\v\f/!.,-_()\"#" +
		"\u0085\u00a0\u1680\u2000\u2028\u2029\u202f\u3000\ufeff\u200b\u180e" +
		"éÉßµªº中あアא한ǅǈʰˈ々〆ꜱ" +
		"\u0301\u0308\u093f\u0903\u20dd\U0001d165" +
		"0123456789٣½²Ⅻ〇𝟎𐄇" +
		"𝐀𝐚𐐀𐐨𠀀𞤀𞤢" +
		"😀👍🏽\u200d🇺🇸©®€$^<>|\x7f\x00",
)

// randomText returns a text of up to n runes from the alphabet.
func randomText(rng *rand.Rand, n int) string {
	var b strings.Builder
	for range rng.IntN(n + 1) {
		b.WriteRune(alphabet[rng.IntN(len(alphabet))])
	}
	return b.String()
}

func TestEncodeRandom(t *testing.T) {
	rng := rand.New(rand.NewPCG(3, 4))
	texts := make([]string, 5000)
	for i := range texts {
		texts[i] = randomText(rng, 1+i%40)
	}
	for _, enc := range encodings {
		e, ref := mustBPE(t, enc.name), enc.ref()
		for _, text := range texts {
			got := e.encode(text)
			want, _ := wantEncode(t, e, ref, text)
			if i := firstDiff(got, want); i >= 0 {
				t.Fatalf("%s: %q: token %d differs:\n%s", enc.name, text, i, diffContext(e, got, want, i))
			}
		}
	}
}

// checkTruncate checks Truncate's contract for one text and limit.
func checkTruncate(t *testing.T, e endsTokenizer, text string, max int) {
	t.Helper()
	got := e.Truncate(text, max)
	text = ToValidUTF8(text)
	if !strings.HasPrefix(text, got) {
		t.Fatalf("%s: Truncate(%q, %d) = %q, not a prefix", e.Name(), text, max, got)
	}
	if n := e.Count(got); n > max && !(max <= 0 && got == "") {
		t.Fatalf("%s: Truncate(%q, %d) = %q has %d tokens", e.Name(), text, max, got, n)
	}
	if len(got) < len(text) && !utf8.RuneStart(text[len(got)]) {
		t.Fatalf("%s: Truncate(%q, %d) = %q splits a character", e.Name(), text, max, got)
	}
	if got != "" && !slices.Contains(e.tokenEnds(text), len(got)) {
		t.Fatalf("%s: Truncate(%q, %d) = %q does not end at a token boundary", e.Name(), text, max, got)
	}
	if e.Count(text) <= max && got != text {
		t.Fatalf("%s: Truncate(%q, %d) = %q, want the whole text", e.Name(), text, max, got)
	}
	// No longer prefix that ends where one of the first max tokens ends,
	// at a character boundary, has at most max tokens.
	ends := e.tokenEnds(text)
	for k := min(max, len(ends)) - 1; k >= 0; k-- {
		end := ends[k]
		if end < 0 {
			continue // not a place to cut (see hfBPE.Truncate)
		}
		if end <= len(got) {
			break
		}
		if (end == len(text) || utf8.RuneStart(text[end])) && e.Count(text[:end]) <= max {
			t.Fatalf("%s: Truncate(%q, %d) = %q, but %q also fits", e.Name(), text, max, got, text[:end])
		}
	}
	// A larger limit never gives a shorter prefix.
	if more := e.Truncate(text, max+1); !strings.HasPrefix(more, got) {
		t.Fatalf("%s: Truncate(%q, %d) = %q is not a prefix of Truncate(…, %d) = %q", e.Name(), text, max, got, max+1, more)
	}
}

// endsTokenizer is a Tokenizer that tells where its tokens end.
type endsTokenizer interface {
	Tokenizer
	// tokenEnds returns the offsets where the tokens of text end, in
	// order, or -1 for an end that is not a place to cut.
	tokenEnds(text string) []int
}

func (e *bpe) tokenEnds(text string) []int { return tokenEnds(e, text) }

// tokenEnds returns the offsets where the tokens of text end, in order.
func tokenEnds(e *bpe, text string) []int {
	var ends []int
	off := 0
	for _, id := range e.encode(text) {
		off += len(e.vocab.token(int32(id)))
		ends = append(ends, off)
	}
	return ends
}

func TestTruncate(t *testing.T) {
	texts := []string{
		"", "a", "hello world", "Hello, world! It's a test.\n\n", "a  b", "x   \n  y",
		"日本語のテキスト", "👨‍👩‍👧‍👦 family", "e\u0301e\u0301e\u0301", "\xff\xfe\xfd", "ok\xe2\x82",
		strings.Repeat(" ", 40) + "z", "1234567890123", "<|endoftext|>", "func main() {\n\tprintln(\"hi\")\n}\n",
	}
	rng := rand.New(rand.NewPCG(5, 6))
	for range 300 {
		texts = append(texts, randomText(rng, 30))
	}
	for _, enc := range encodings {
		e := mustBPE(t, enc.name)
		for _, text := range texts {
			for max := -1; max <= e.Count(text)+1; max++ {
				checkTruncate(t, e, text, max)
			}
		}
	}
}

func TestTruncateLong(t *testing.T) {
	text := strings.Repeat("The quick brown fox jumps over the lazy dog. ", 2000)
	for _, enc := range encodings {
		e := mustBPE(t, enc.name)
		for _, max := range []int{1, 10, 1000, 9999, 20000} {
			got := e.Truncate(text, max)
			if n := e.Count(got); n != max {
				t.Errorf("%s: Count(Truncate(text, %d)) = %d", enc.name, max, n)
			}
		}
	}
}

func TestGet(t *testing.T) {
	for _, name := range Names() {
		tok, err := Get(name)
		if err != nil {
			t.Fatalf("Get(%q): %v", name, err)
		}
		if tok.Name() != name {
			t.Errorf("Get(%q).Name() = %q", name, tok.Name())
		}
	}
	if tok, err := Get(""); err != nil || tok.Name() != Default {
		t.Errorf("Get(\"\") = %v, %v; want %s", tok, err, Default)
	}
	if _, err := Get("p50k_base"); err == nil || !strings.HasPrefix(err.Error(), "tokenizer: ") {
		t.Errorf("Get(\"p50k_base\") error = %v", err)
	}
}

func TestVocab(t *testing.T) {
	for _, enc := range encodings {
		e, ref := mustBPE(t, enc.name), enc.ref()
		v := e.vocab
		for r := range v.size() {
			tok := v.token(int32(r))
			if got := v.rank(tok); got != int32(r) {
				t.Fatalf("%s: rank(%q) = %d, want %d", enc.name, tok, got, r)
			}
		}
		// Every id decodes as the reference decodes it, and no more do.
		if _, err := ref.Decode([]uint{uint(v.size())}); err == nil {
			t.Fatalf("%s: the reference has more than %d tokens", enc.name, v.size())
		}
		for r := range v.size() {
			want, err := ref.Decode([]uint{uint(r)})
			if err != nil || want != v.token(int32(r)) {
				t.Fatalf("%s: token %d = %q, reference %q (%v)", enc.name, r, v.token(int32(r)), want, err)
			}
		}
		for _, s := range []string{"", strings.Repeat("a", 300), "not-a-token-at-all-xyzzy"} {
			if r := v.rank(s); r != noRank {
				t.Errorf("%s: rank(%q) = %d, want none", enc.name, s, r)
			}
		}
	}
}

func TestParseVocabErrors(t *testing.T) {
	good := vocabMagic + "\x00\x01\x00\x00" + strings.Repeat("\x01", 256)
	var blob strings.Builder
	for b := range 256 {
		blob.WriteByte(byte(b))
	}
	if _, err := parseVocab("good", good+blob.String()); err != nil {
		t.Fatalf("parseVocab(good): %v", err)
	}
	for name, data := range map[string]string{
		"empty":     "",
		"magic":     "ctxbpe0\n\x00\x01\x00\x00",
		"count":     vocabMagic + "\x00\x00\x00\x00",
		"overrun":   good + blob.String()[:255],
		"trailing":  good + blob.String() + "x",
		"duplicate": good + "a" + blob.String()[1:],
	} {
		_, err := parseVocab(name, data)
		if err == nil || !strings.HasPrefix(err.Error(), "tokenizer: "+name+": ") {
			t.Errorf("parseVocab(%s) error = %v", name, err)
		}
	}
}

func TestConcurrent(t *testing.T) {
	texts := make([]string, 0, 64)
	rng := rand.New(rand.NewPCG(7, 8))
	for range cap(texts) {
		texts = append(texts, randomText(rng, 200))
	}
	for _, enc := range encodings {
		e := mustBPE(t, enc.name)
		want := make([]int, len(texts))
		for i, s := range texts {
			want[i] = e.Count(s)
		}
		var wg sync.WaitGroup
		for g := range 4 {
			wg.Go(func() {
				for k := range texts {
					i := (k + g*7) % len(texts)
					if n := e.Count(texts[i]); n != want[i] {
						t.Errorf("%s: concurrent Count = %d, want %d", enc.name, n, want[i])
					}
					e.Truncate(texts[i], want[i]/2)
				}
			})
		}
		wg.Wait()
	}
}

func TestToValidUTF8(t *testing.T) {
	for _, c := range []struct{ in, want string }{
		{"", ""},
		{"plain", "plain"},
		{"é中😀", "é中😀"},
		{"\xff", "\uFFFD"},
		{"a\xffb", "a\uFFFDb"},
		{"\xe2\x82", "\uFFFD"},                 // truncated 3-byte sequence: one U+FFFD
		{"\xe2\x82x", "\uFFFDx"},               // …followed by ASCII
		{"\xf0\x9f\x98", "\uFFFD"},             // truncated 4-byte sequence
		{"\xc0\xaf", "\uFFFD\uFFFD"},           // overlong: C0 is never valid
		{"\xe0\x80\x80", "\uFFFD\uFFFD\uFFFD"}, // E0 needs A0..BF next
		{"\xed\xa0\x80", "\uFFFD\uFFFD\uFFFD"}, // surrogate
		{"\xf4\x90\x80\x80", "\uFFFD\uFFFD\uFFFD\uFFFD"},
		{"\x80\x80", "\uFFFD\uFFFD"},
	} {
		if got := ToValidUTF8(c.in); got != c.want {
			t.Errorf("ToValidUTF8(%q) = %q, want %q", c.in, got, c.want)
		}
	}
}

// TestCountAllocs checks that counting valid text allocates nothing unless a
// piece is longer than shortPiece bytes.
func TestCountAllocs(t *testing.T) {
	text := edgeCases()["code"] + edgeCases()["mixed scripts"] + edgeCases()["contractions"]
	for _, enc := range encodings {
		e := mustBPE(t, enc.name)
		if n := testing.AllocsPerRun(10, func() { e.Count(text) }); n != 0 {
			t.Errorf("%s: Count allocates %v times", enc.name, n)
		}
	}
}
