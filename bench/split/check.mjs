// check.mjs checks the outputs of `ctxpack pack --split-output --format
// json -o DIR/out.json` against the unbudgeted pack's plan:
//
//	node check.mjs ALL.json DIR
//
// It writes each output's content to DIR/out.N.txt (for the reference
// tokenizer to count), and prints how many outputs there are, whether
// every file of the unbudgeted pack is in them and nothing else, and
// whether every file cut into pieces is covered line by line, once.
import { readFileSync, readdirSync, writeFileSync } from "node:fs";
import { join } from "node:path";

const [allFile, dir] = process.argv.slice(2);
const all = JSON.parse(readFileSync(allFile, "utf8"));
const want = new Map(); // path -> lines [first, last], or null
for (const p of all.parts) want.set(p.path ?? p.key, p.level === "full" && p.lines ? p.lines : null);

const outs = readdirSync(dir).filter((f) => /^out\.\d+\.json$/.test(f));
outs.sort((a, b) => Number(a.split(".")[1]) - Number(b.split(".")[1]));
const got = new Map(); // path -> list of [first, last] pieces
let count = 0, tokens = 0, maxTokens = 0, over = 0, splitErr = 0;
for (const f of outs) {
  const plan = JSON.parse(readFileSync(join(dir, f), "utf8"));
  count++;
  if (!plan.split || plan.split.index !== count || plan.split.count !== outs.length) splitErr++;
  writeFileSync(join(dir, f.replace(/\.json$/, ".txt")), plan.content);
  tokens += plan.total_tokens;
  maxTokens = Math.max(maxTokens, plan.total_tokens);
  if (plan.total_tokens > plan.budget) over++;
  for (const p of plan.parts) {
    const path = p.path ?? p.key;
    if (!got.has(path)) got.set(path, []);
    got.get(path).push(p.lines ?? null);
  }
}
let missing = 0, extra = 0, gaps = 0, cut = 0;
for (const path of want.keys()) if (!got.has(path)) { missing++; if (missing <= 5) console.log(`missing: ${path}`); }
for (const [path, pieces] of got) {
  if (!want.has(path)) { extra++; if (extra <= 5) console.log(`extra: ${path}`); continue; }
  if (pieces.length === 1) continue;
  cut++;
  const lines = want.get(path);
  // Pieces in order, each starting where the one before ended (a long
  // line cut in several pieces repeats its line number), first to last.
  let next = lines ? lines[0] : 1, ok = true;
  for (const l of pieces) {
    if (!l) { ok = false; break; }
    if (l[0] !== next && !(l[0] === next - 1 && l[0] === l[1])) { ok = false; break; }
    next = l[1] + 1;
  }
  if (!ok || (lines && next !== lines[1] + 1)) { gaps++; if (gaps <= 5) console.log(`pieces do not cover ${path}: ${JSON.stringify(pieces)}`); }
}
console.log(`outputs ${count}; ctxpack counts: ${tokens} tokens in all, largest ${maxTokens}, ${over} over the budget; ` +
  `files: ${want.size} unbudgeted, ${got.size} split, ${missing} missing, ${extra} extra; ${cut} files cut in pieces, ${gaps} not covered line by line; ${splitErr} bad split indices`);
process.exit(missing + extra + gaps + over + splitErr > 0 ? 1 : 0);
