// count.mjs counts tokens with a reference tokenizer, for ctxpack's
// TestTokensMatchReference (internal/cli/reference_test.go).
//
//	node count.mjs [--ref=tiktoken|js-tiktoken] ENCODING FILE...
//	node count.mjs --sha256 FILE...
//
// prints COUNT<TAB>FILE for every FILE, in argument order. ENCODING is
// cl100k_base or o200k_base. Files are read as Node decodes UTF-8
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
// Both encoders' merge loops are quadratic in the length of a piece: the
// tiktoken package takes about a minute on 200,000 repeated letters, and
// js-tiktoken far longer (over three minutes on 40,000), so do not give
// js-tiktoken long runs.
import { createHash } from "node:crypto";
import { readFileSync } from "node:fs";

const usage = `usage: node count.mjs [--ref=tiktoken|js-tiktoken] ENCODING FILE...
       node count.mjs --sha256 FILE...`;

let ref = "tiktoken";
const args = process.argv.slice(2);
while (args.length > 0 && args[0].startsWith("--")) {
  const a = args.shift();
  if (a.startsWith("--ref=")) {
    ref = a.slice("--ref=".length);
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
if (encoding !== "cl100k_base" && encoding !== "o200k_base") {
  fail(`unknown encoding ${JSON.stringify(encoding)} (valid: cl100k_base, o200k_base)`);
}

let count;
if (ref === "tiktoken") {
  const { get_encoding } = await import("tiktoken");
  const enc = get_encoding(encoding);
  count = (text) => enc.encode_ordinary(text).length;
} else if (ref === "js-tiktoken") {
  const { getEncoding } = await import("js-tiktoken");
  const enc = getEncoding(encoding);
  // No special token is allowed and none is disallowed: their text is
  // encoded as ordinary text.
  count = (text) => enc.encode(text, [], []).length;
} else {
  fail(`unknown reference ${JSON.stringify(ref)} (valid: tiktoken, js-tiktoken)`);
}

for (const f of files) {
  const text = readFileSync(f, "utf8");
  process.stdout.write(`${count(text)}\t${f}\n`);
}

function fail(msg) {
  process.stderr.write(`count.mjs: ${msg}\n${usage}\n`);
  process.exit(2);
}
