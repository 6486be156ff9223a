// classes.mjs prints the Unicode character classes that Hugging Face's
// tokenizers (the npm package `tokenizers`: Rust, Oniguruma) gives every
// code point, for ctxpack's generator of the open-weight families'
// character tables (internal/tokenizer/internal/genhf):
//
//	node classes.mjs
//
// prints CLASS<TAB>FIRST<TAB>LAST for each range of code points, in hex,
// that Oniguruma matches with \p{CLASS} (L, M, N, P, S) or \s (space).
// Oniguruma's Unicode tables can be newer than Go's unicode package, whose
// differences ctxpack's splitters must know.
import { Tokenizer } from "tokenizers";

const classes = { L: "\\p{L}", M: "\\p{M}", N: "\\p{N}", P: "\\p{P}", S: "\\p{S}", space: "\\s" };
const chunk = 0x10000;
for (const [name, re] of Object.entries(classes)) {
  const tok = Tokenizer.fromString(
    JSON.stringify({
      version: "1.0",
      model: { type: "WordLevel", vocab: { x: 0 }, unk_token: "x" },
      pre_tokenizer: { type: "Split", pattern: { Regex: re }, behavior: "Isolated", invert: false },
    }),
  );
  const pre = tok.getPreTokenizer();
  let runStart = -1;
  let prev = -2;
  const flush = () => {
    if (runStart >= 0) process.stdout.write(`${name}\t${runStart.toString(16)}\t${prev.toString(16)}\n`);
    runStart = -1;
  };
  for (let base = 0; base < 0x110000; base += chunk) {
    // The code points with a separator between each that the class does
    // not match: a piece of exactly one code point is a match.
    const sep = name === "space" ? "a" : "\n";
    const cps = [];
    for (let cp = base; cp < base + chunk; cp++) {
      if (cp >= 0xd800 && cp <= 0xdfff) continue;
      cps.push(cp);
    }
    const text = cps.map((cp) => String.fromCodePoint(cp)).join(sep);
    const matched = new Set();
    for (const [piece] of pre.preTokenizeString(text)) {
      if ([...piece].length === 1) matched.add(piece.codePointAt(0));
    }
    for (const cp of cps) {
      if (String.fromCodePoint(cp) === sep) continue; // decided below
      if (matched.has(cp)) {
        if (runStart < 0 || cp !== prev + 1) {
          flush();
          runStart = cp;
        }
        prev = cp;
      }
    }
  }
  flush();
}
// The separators themselves: "\n" is \s only, "a" is \p{L} only (checked
// by the splitters' own tests).
