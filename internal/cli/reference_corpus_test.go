package cli

import (
	"bytes"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"unicode/utf8"
)

// edgeFile is one file of the edge-case corpus that TestTokensMatchReference
// counts with ctxpack and with the reference tokenizer.
type edgeFile struct {
	name string
	data []byte
	// long marks a file with a piece (a run the split pattern keeps whole)
	// of thousands of characters. The BPE merge loops of both JavaScript
	// references are quadratic in a piece's length, js-tiktoken's much the
	// worse, so only the authoritative reference counts these files.
	long bool
}

// edgeCorpus returns the edge-case corpus, sorted by name. It is the same
// bytes on every call: the pseudo-random parts use a fixed seed.
func edgeCorpus() []edgeFile {
	var files []edgeFile
	add := func(name string, long bool, parts ...string) {
		files = append(files, edgeFile{name: name, data: []byte(strings.Join(parts, "")), long: long})
	}
	rng := newXorshift(0x5eed)

	// Scripts without spaces between words: a whole paragraph is one \p{L}+
	// piece.
	add("cjk-chinese.txt", false,
		"中华人民共和国是工人阶级领导的、以工农联盟为基础的人民民主专政的社会主义国家。\n",
		"学而时习之，不亦说乎？有朋自远方来，不亦乐乎？人不知而不愠，不亦君子乎？\n",
		"「你好，世界！」他说。『这是一个测试』——标点符号：；、…《书名》〈篇名〉\n",
		"繁體中文與简体中文混合：臺灣、香港、澳門；机器学习模型GPT-4o和o200k_base。\n",
		"𠀀𠀁𠀂𪚥𰻞 (CJK Extension B and G, outside the Basic Multilingual Plane)\n")
	add("cjk-japanese.txt", false,
		"日本語のテキストです。ひらがな、カタカナ、漢字が混ざっています。\n",
		"東京都渋谷区でコーヒーを飲みながら、プログラミングの勉強をしました。\n",
		"半角ｶﾀｶﾅとﾃﾞｰﾀ、全角ＡＢＣ１２３、記号【】〜・ー\n",
		"「吾輩は猫である。名前はまだ無い。」――夏目漱石\n",
		"ＡＩ（人工知能）は2024年に急速に発展した。\n")
	add("cjk-korean.txt", false,
		"대한민국의 수도는 서울입니다. 한국어 텍스트를 토큰화합니다.\n",
		"안녕하세요! 반갑습니다. 오늘 날씨가 정말 좋네요?\n",
		// Conjoining jamo: the decomposed form of 한국어.
		"\u1112\u1161\u11ab\u1100\u116e\u11a8\u110b\u1165 (conjoining jamo)\n",
		"ㄱㄴㄷㄹ ㅏㅑㅓㅕ (compatibility jamo)\n")

	// Emoji sequences: ZWJ families, flags, skin tones, keycaps.
	add("emoji-zwj.txt", false,
		"family: 👨\u200d👩\u200d👧\u200d👦 👩\u200d👩\u200d👦 👨\u200d👨\u200d👧\u200d👧\n",
		"jobs: 👩🏽\u200d💻 🧑🏿\u200d🚀 👨🏻\u200d🍳 🧑\u200d⚕️\n",
		"flags: 🏳️\u200d🌈 🏴\u200d☠️ ❤️\u200d🔥 🐻\u200d❄️\n",
		"couple: 👩\u200d❤️\u200d💋\u200d👨 🧑🏻\u200d🤝\u200d🧑🏿\n",
		strings.Repeat("👨\u200d👩\u200d👧\u200d👦", 40), "\n",
		"no spaces:👨\u200d👩\u200d👧\u200d👦👩🏽\u200d💻🏳️\u200d🌈end\n")
	add("emoji-flags.txt", false,
		"🇺🇸🇯🇵🇩🇪🇫🇷🇬🇧🇨🇳🇰🇷🇧🇷🇮🇳🇿🇦\n",
		"🇺🇸 🇯🇵 🇩🇪 odd count: 🇺🇸🇯\n",
		"subdivisions: 🏴\U000e0067\U000e0062\U000e0065\U000e006e\U000e0067\U000e007f 🏴\U000e0067\U000e0062\U000e0073\U000e0063\U000e0074\U000e007f\n",
		"keycaps: 1️⃣ 2️⃣ #️⃣ *️⃣ 🔟\n",
		strings.Repeat("🇪🇺", 100), "\n")
	add("emoji-skin-tones.txt", false,
		"👋🏻👋🏼👋🏽👋🏾👋🏿 👍🏻 👍🏿\n",
		"text vs emoji presentation: ☺︎ ☺️ ♥︎ ♥️ ✔︎ ✔️\n",
		"lone modifiers: 🏻🏼🏽🏾🏿\n",
		"hello 😀😃😄😁😆😅😂🤣 world 🙂🙃\n")

	// Combining marks: NFD text and Zalgo stacks.
	add("combining-nfd.txt", false,
		"NFD: Cafe\u0301 re\u0301sume\u0301 nai\u0308ve Ågstro\u0308m A\u030agstro\u0308m n\u0303 u\u0308ber\n",
		"Vietnamese: Tie\u0302\u0301ng Vie\u0323\u0302t co\u0301 da\u0302\u0301u\n",
		"Devanagari: हिन्दी भाषा देवनागरी लिपि में लिखी जाती है।\n",
		"Hebrew: בְּרֵאשִׁית בָּרָא אֱלֹהִים\n",
		"Arabic: بِسْمِ اللَّهِ الرَّحْمَٰنِ الرَّحِيمِ\n",
		"Thai: ภาษาไทยเป็นภาษาที่มีวรรณยุกต์\n",
		"marks first: \u0301\u0302abc \u0308\n")
	var zalgo strings.Builder
	for i, r := range "Zalgo is tokenized here" {
		zalgo.WriteRune(r)
		for range 5 + (i*7)%40 {
			zalgo.WriteRune(rune(0x300 + rng.intn(0x70)))
		}
	}
	add("combining-zalgo.txt", false, zalgo.String(), "\n", "e", strings.Repeat("\u0301", 200), "\n")

	// Line ends.
	add("newlines-crlf.txt", false,
		"package main\r\n\r\nimport \"fmt\"\r\n\r\nfunc main() {\r\n\tfmt.Println(\"hi\")  \r\n}\r\n",
		"trailing spaces  \r\n\r\n\r\n  indented\r\n\t\ttabbed\r\n",
		"no final newline, then CRLF then spaces at the end\r\n   ")
	add("newlines-cr.txt", false,
		"classic Mac\rline ends\r\rdouble\r\n\r\r\n\n\rmixed\n\r",
		" \r \r\t\rx\r\r   ")

	// White space runs.
	var spaces strings.Builder
	for n := 1; n <= 64; n++ {
		fmt.Fprintf(&spaces, "x%sy\n", strings.Repeat(" ", n))
	}
	add("ws-spaces.txt", true, spaces.String(),
		"a", strings.Repeat(" ", 10000), "b\n",
		strings.Repeat(" ", 5000), "\n", "end", strings.Repeat(" ", 3000))
	var tabs strings.Builder
	for n := 1; n <= 32; n++ {
		fmt.Fprintf(&tabs, "%sindent %d\n", strings.Repeat("\t", n), n)
	}
	add("ws-tabs.txt", true, tabs.String(),
		"a", strings.Repeat("\t", 10000), "b\n", "end", strings.Repeat("\t", 2000))
	var mixed strings.Builder
	for i := range 400 {
		for range 1 + rng.intn(12) {
			mixed.WriteString([]string{" ", "\t", " ", "\n", "\r\n", "  "}[rng.intn(6)])
		}
		mixed.WriteString([]string{"x", "if", "}", "//", "42", "é", "(", "Go"}[i%8])
	}
	add("ws-mixed.txt", false, mixed.String(),
		" \t \t \t\n \t\n\n\t  \n", "tail", " \n \n  ")

	// 200,000 repeated letters: one piece, the worst case for a quadratic
	// merge.
	add("repeat-letters.txt", true, strings.Repeat("a", 200000))
	add("repeat-letters-mixed.txt", true,
		strings.Repeat("ab", 5000), "\n", strings.Repeat("é", 5000), "\n", strings.Repeat("Ab", 2000), "\n")

	// Long digit strings: \p{N}{1,3} splits them.
	var digits strings.Builder
	for range 50000 {
		digits.WriteByte(byte('0' + rng.intn(10)))
	}
	add("digits-long.txt", false,
		digits.String(), "\n",
		strings.Repeat("1234567890", 1000), "\n",
		"3.14159265358979323846e-10 0xDEADBEEF 1_000_000 -42 +7 1,234,567.89\n",
		"Unicode digits: ٠١٢٣٤٥٦٧٨٩ ०१२३४५६७८९ ０１２３４５ ²³¹ ⅫⅣ ①②③ 𝟘𝟙𝟚\n")

	// Invalid UTF-8, repaired by both sides (WHATWG: each maximal
	// ill-formed subsequence becomes one U+FFFD).
	add("invalid-utf8.txt", false,
		"truncated 2-byte: \xc3 end\n",
		"truncated 3-byte: \xe2\x82 end \xe2\x82\n",
		"truncated 4-byte: \xf0\x9f\x98 then a: \xf0\x9f\x98a\n",
		"overlong: \xc0\xaf \xc1\xbf \xe0\x80\xaf \xf0\x80\x80\xaf \xe0\x9f\xbf\n",
		"surrogates: \xed\xa0\x80 \xed\xbf\xbf CESU pair: \xed\xa0\xbd\xed\xb8\x80\n",
		"stray continuation: \x80 \xbf \x80\x80\x80 a\x80b\n",
		"bytes never in UTF-8: \xff \xfe \xff\xfe \xf5\x80\x80\x80 \xf8\x88\x80\x80\x80\n",
		"above U+10FFFF: \xf4\x90\x80\x80\n",
		"in a word: caf\xe9 na\xefve \xe9t\xe9\n",
		"valid neighbours: é\xa9é \xe2\x82\xac\xac\n",
		"run: \x80\x81\x82\x83\x84\x85\x86\x87\x88\x89\x8a\x8b\x8c\x8d\x8e\x8f\n",
		"ends truncated: \xf0\x9f")

	// White space by the different definitions of \s: Unicode White_Space
	// (Go, Rust, .NET) has U+0085 and lacks U+FEFF; JavaScript's \s has
	// U+FEFF and lacks U+0085.
	add("ws-unicode.txt", false,
		"NEL:\u0085x \u0085\u0085y a\u0085.\n",
		"NBSP: a\u00a0b a\u00a0\u00a0b \u00a0.\n",
		"LS/PS: a\u2028b\u2029c \u2028\u2028\n",
		"ideographic: 中\u3000文 \u3000\u3000x\n",
		"ogham and friends: a\u1680b\u2000c\u2001d\u2002e\u2003f\u2004g\u2005h\u2006i\u2007j\u2008k\u2009l\u200am\u202fn\u205fo\n",
		"not white space: a\u200bb a\u180ec a\u2060d\n",
		"controls: a\x1cb\x1dc\x1ed\x1fe\vf\fg\x01h\x7fi\n",
		"end:\u0085\u00a0\u2028 ")
	add("nel.txt", false,
		"line one\u0085line two\u0085\u0085 three\u0085",
		"   \u0085   x\u0085.\u0085\n",
		"\u0085's \u0085.is\n")
	add("bom-start.txt", false, "\ufeffpackage main\n\nfunc main() {}\n")
	add("bom-start-comment.go", false, "\ufeff// Package bom starts with a byte order mark.\npackage bom\n")
	add("bom-json.txt", false, "\ufeff{\"name\": \"ctxpack\", \"version\": 1}\n")
	add("bom-mid.txt", false,
		"a\ufeff. x \ufeff\ufeff y \ufeff\n",
		"word\ufeffword \ufeff123 \ufeff\ufeff\ufeff!\n",
		"\ufeff\ufeff\n\ufeff")

	// Contractions: (?i:'s|'t|'re|'ve|'m|'ll|'d).
	add("contractions.txt", false,
		"it's IT'S it'S 'tis don't DON'T they're THEY'RE they'rE we've WE'VE I'm I'M\n",
		"she'll SHE'LL she'Ll he'd HE'D 's 'S 't 're 'RE 'rE 'Re 've 'm 'll 'LL 'd\n",
		"''s '''s 's's 'sa 'Sa 'st 'ss 'x ' ' '' end'\n",
		"curly: it’s don’t they’re\n",
		"after marks: é's 中's 1's _'s ('s) \"'s\"\n")
	// 'ſ (U+017F, long s) case-folds to s, so (?i:'s) matches it; js-tiktoken
	// splits it differently but, no token spanning the difference, counts
	// the same.
	add("contractions-long-s.txt", false, "it'ſ IT'ſ 'ſ 'ſſ Chriſt'ſ\n")

	add("special-tokens.txt", false,
		"<|endoftext|>\n",
		"text<|endoftext|>more <|endoftext|> <|endoftext|><|endoftext|>\n",
		"<|fim_prefix|><|fim_middle|><|fim_suffix|><|endofprompt|>\n",
		"<|im_start|>user\nhi<|im_end|>\n",
		"<|endoftext <endoftext|> <| endoftext |>\n")

	add("mixed-code.go", false, mixedCode)

	add("scripts.txt", false,
		"Русский текст: Съешь же ещё этих мягких французских булок.\n",
		"Ελληνικά: Ξεσκεπάζω την ψυχοφθόρα βδελυγμία.\n",
		"Title case ǅ ǈ ǋ ǲ, modifier letters ʰʲʷ ˢ, ﬁ ligature, Ⅻ\n",
		"camelCaseHTTPServer XMLHttpRequest getHTTPResponseCode ALLCAPS lowercase\n",
		"Mathematical: 𝐀𝐁𝐂 𝑥𝑦𝑧 ∀x∈ℝ: x²≥0 ∑∫∂√∞≠≤≥\n",
		"Private use \ue000\uf8ff, U+FFFD \ufffd, noncharacters \ufffe\uffff \U0010ffff\n",
		"Variation selectors: 葛\U000e0100 ⚠\ufe0f ⚠\ufe0e\n")
	// Letters and digits assigned after Unicode 15.0, the version of Go's
	// tables: ctxpack sees them as unassigned (neither \p{L} nor \p{N}),
	// newer tables as letters and digits. No token spans them, so the
	// counts agree.
	add("unicode-recent.txt", false,
		"CJK Extension I (15.1): x\U0002ebf0\U0002ebf1\U0002ebf2 y \U0002ebf0.\n",
		"Garay (16.0): a \U00010d50\U00010d51\U00010d70\U00010d71 b\n",
		"Tulu-Tigalari (16.0): a \U00011380\U00011381\U000113b8 b\n",
		"Outlined digits (16.0): \U0001ccf0\U0001ccf1 1\U0001ccf02\n",
		"Latin (16.0): a\ua7cb\ua7cc\ua7cd b\n",
		"Unicode 17.0: x\U0001cec0 \U00016ea0\U00016ebb\n")

	for _, f := range files {
		if !utf8.Valid(f.data) && !strings.HasPrefix(f.name, "invalid-") {
			panic("edge corpus: " + f.name + " is not valid UTF-8")
		}
		if bytes.IndexByte(f.data, 0) >= 0 {
			panic("edge corpus: " + f.name + " has a NUL byte, which makes it binary")
		}
	}
	return files
}

// writeEdgeCorpus writes the edge-case corpus into dir and returns it.
func writeEdgeCorpus(t *testing.T, dir string) []edgeFile {
	t.Helper()
	files := edgeCorpus()
	for _, f := range files {
		if err := os.WriteFile(filepath.Join(dir, f.name), f.data, 0o644); err != nil {
			t.Fatal(err)
		}
	}
	return files
}

// xorshift is a fixed pseudo-random sequence (Marsaglia's xorshift64), so
// the corpus is the same bytes on every run and Go version.
type xorshift struct{ s uint64 }

func newXorshift(seed uint64) *xorshift { return &xorshift{s: seed} }

func (x *xorshift) intn(n int) int {
	x.s ^= x.s << 13
	x.s ^= x.s >> 7
	x.s ^= x.s << 17
	return int(x.s % uint64(n))
}

// mixedCode is a source file of the kind ctxpack packs: code, comments in
// several languages, string literals with emoji and escapes, and data.
const mixedCode = "// Package demo mixes what real repositories hold.\n" +
	"// 中文注释：这个函数计算总和。コメント：合計を計算します。\n" +
	"package demo\n\n" +
	"import (\n\t\"fmt\"\n\t\"strings\"\n)\n\n" +
	"const greeting = \"héllo, wörld 👋🏽 — «quotes» \\u00e9\\t\\n\"\n\n" +
	"var table = map[string]int{\"alpha\": 1, \"β\": 2, \"γάμμα\": 3, \"0x1F\": 0x1F}\n\n" +
	"func Sum(xs ...int) (total int) {\n" +
	"\tfor _, x := range xs { // 💡 tabs, then spaces\n" +
	"        total += x\n" +
	"\t}\n" +
	"\treturn total\n" +
	"}\n\n" +
	"/*\n * SELECT id, name FROM users WHERE email LIKE '%@example.com' AND age >= 18;\n */\n" +
	"const html = `<div class=\"x\"><a href=\"https://example.com/a/b?c=d&e=f#g\">link</a></div>`\n" +
	"const blob = \"iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAYAAAAfFcSJAAAADUlEQVR42mNkYPhfDwAChwGA60e6kgAAAABJRU5ErkJggg==\"\n" +
	"const path = \"/usr/local/go/src/net/http/server.go:1234:56\"\n" +
	"// ASCII art:   +--------+    +--------+\n" +
	"//              |  node  |--->|  node  |\n" +
	"//              +--------+    +--------+\n" +
	"func init() { fmt.Println(strings.Repeat(\"=\", 80)) }\n" +
	"# python: def f(x): return x ** 2  # noqa: E731\n" +
	"{\"json\": [1, 2.5e-3, true, null, \"\\\"escaped\\\"\"], \"nested\": {\"k\": []}}\n" +
	"\t\t\t\t\n" +
	"    \n" +
	"} // end   "
