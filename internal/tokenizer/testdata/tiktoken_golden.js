// Writes tiktoken_golden.json: texts and the token ids that OpenAI's tiktoken
// gives them (npm tiktoken, the WebAssembly build of its Rust core,
// encode_ordinary). TestTiktokenGolden checks ctxpack's encoders against it.
// Regenerate with:
//
//	cd internal/tokenizer/testdata
//	npm install --no-save tiktoken@1.0.22
//	node tiktoken_golden.js > tiktoken_golden.json
//	rm -r node_modules package-lock.json
"use strict";
const crypto = require("crypto");
const { get_encoding } = require("tiktoken");

// xorshift32, the same generator as the Go test's.
function xorshift(seed) {
  let x = seed >>> 0;
  return () => {
    x ^= x << 13; x >>>= 0;
    x ^= x >>> 17;
    x ^= x << 5; x >>>= 0;
    return x;
  };
}

// expand builds the text of a spec: literal text, repeated n times, or
// n random characters from an alphabet.
function expand(spec) {
  if (spec.alphabet) {
    const next = xorshift(spec.seed);
    const runes = Array.from(spec.alphabet);
    let s = "";
    for (let i = 0; i < spec.n; i++) s += runes[next() % runes.length];
    return s;
  }
  return spec.text.repeat(spec.repeat || 1);
}

const alphabet = "aAzZsStTrReEvVmMlLdDſK'\u2019\u2018  \t\n\r\v\f/!.,-_()\"#" +
  "\u0085\u00a0\u1680\u2000\u2028\u2029\u202f\u3000\ufeff\u200b\u180e" +
  "éÉßµªº中あアא한ǅǈʰˈ々〆ꜱ" +
  "\u0301\u0308\u093f\u0903\u20dd\u{1d165}" +
  "0123456789٣½²Ⅻ〇𝟎𐄇" +
  "𝐀𝐚𐐀𐐨𠀀𞤀𞤢" +
  "😀👍🏽\u200d🇺🇸©®€$^<>|\x7f\x00";

function caseVariants(s) {
  let out = [""];
  for (const c of s) out = out.flatMap(p => [p + c, p + c.toUpperCase()]);
  return out;
}
let contractions = "";
for (const c of ["s", "t", "re", "ve", "m", "ll", "d"])
  for (const v of caseVariants(c))
    for (const before of ["", "it", "IT", "It", "中", "é", "ǅ", "ʰ", "e\u0301", "7", " ", "'", "x'"])
      for (const after of ["", " ", "x", "X", "'", "\n", "s"])
        contractions += before + "'" + v + after + "|";

const specs = [
  ["cjk", { text: "日本語のテキストと中文文本，한국어 텍스트도。漢字仮名交じり文" }],
  ["emoji zwj", { text: "👨‍👩‍👧‍👦 👩🏽‍💻 🏳️‍🌈 ❤️‍🔥 🧑‍🤝‍🧑 x👍y" }],
  ["flags", { text: "🇺🇸🇬🇧🇯🇵 🇩🇪! 🏴󠁧󠁢󠁳󠁣󠁴󠁿" }],
  ["combining", { text: "e\u0301 n\u0303o a\u0300\u0301\u0302 \u0301\u0301x ́start क्षि ना\u093F \u0301'S" }],
  ["crlf", { text: "line one\r\nline two\r\n\r\n  \r\n\tindented\r\r\n\n\r" }],
  ["blank lines with spaces", { text: "a\n  \nb\n\t\n\tc\n \n \n d\r\n  \r\n\r\ne  \n\n  f" }],
  ["spaces", { text: " ", repeat: 5000 }],
  ["spaces then x", { text: "          x", repeat: 300 }],
  ["tabs", { text: "\t", repeat: 4099 }],
  ["mixed space runs", { text: "a \t \u00a0\u3000\u2003 b\u2028\u2029c \u0085 d\u000b\u000c e \u180e f\u200b g" }],
  ["repeated letters", { text: "a", repeat: 200000 }],
  ["repeated upper", { text: "A", repeat: 70000 }],
  ["digits", { text: "1234567890", repeat: 5000 }],
  ["other digits", { text: "١٢٣٤٥ ½¼ ²³ Ⅻⅻ 𝟎𝟏𝟐 ０１２ 12½" }],
  ["base64", { alphabet: "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789+/", seed: 1, n: 100000 }],
  ["contractions", { text: contractions }],
  ["long s", { text: "it'ſ IT'ſ 'ſ 'ſt ſ's 'Ss 'K 'k it\u2019s" }],
  ["mixed scripts", { text: "Привет мир, γειά σου κόσμε, שלום עולם, مرحبا بالعالم, नमस्ते दुनिया, สวัสดีชาวโลก, HTTPServer xmlHTTPRequest ǅemal ǈ ǋ" }],
  ["nel nbsp bom", { text: "a\u0085b \u0085 c\u00a0d \u00a0 e\ufefff \ufeff g\u2028h \u2028 \u2029" }],
  ["special tokens", { text: "<|endoftext|> <|fim_prefix|><|fim_middle|><|fim_suffix|> <|endofprompt|> <|im_start|>user<|im_end|>" }],
  ["slashes", { text: "a//b ///\n//\r\n/ // http://x.y/z?q=1 </div>\n" }],
  ["astral letters", { text: "𝐀𝐁𝐜𝐝 𐐀𐐨 𝒜bc 𝓍yz 𠀀𠀁 x𝐀" }],
  ["code", { text: "func (e *bpe) Count(text string) int {\n\tif n := len(text); n > 0 {\n\t\treturn n // it's fine\n\t}\n\treturn 0\n}\n" }],
  ["punctuation runs", { text: "!!!??? ... --- === +++ ;;;\n\n\n*** ~~~ `backticks` \"quotes\" 'single'" }],
  ["lone marks", { text: "\u0301\u0301\u0301 \u0301 \u0301a \u0301A \u0301's" }],
  ["titlecase", { text: "ǅǅǅ ǅa Aǅ aǅ ǅ's ǈʰʰa ʰA" }],
  ["modifier letters", { text: "ʰʰʰ ʰa aʰ ʰ'S ˈstress ꜱmall" }],
  ["delete", { text: "a\x7fb !\x7f! \x7f\x7f x \x7f\n\x7f's" }],
];
for (let i = 0; i < 400; i++) specs.push([`random ${i}`, { alphabet, seed: 1000 + i, n: 1 + (i % 60) }]);

const encs = ["o200k_base", "cl100k_base"].map(name => [name, get_encoding(name)]);
const cases = specs.map(([name, spec]) => {
  const text = expand(spec);
  const c = { name, ...spec };
  if (spec.alphabet && spec.n <= 100) { c.text = text; delete c.alphabet; delete c.seed; delete c.n; }
  for (const [encName, enc] of encs) {
    const ids = Array.from(enc.encode_ordinary(text));
    c[encName] = ids.length <= 300
      ? { count: ids.length, ids }
      : { count: ids.length, sha256: crypto.createHash("sha256").update(ids.join(",")).digest("hex") };
  }
  return c;
});
process.stdout.write("[\n" + cases.map(c => JSON.stringify(c)).join(",\n") + "\n]\n");
