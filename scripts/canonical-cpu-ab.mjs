// CPU per message of canonicalize (with the lexicons' known words, as signing runs it) in two
// builds, alternating rounds over the same messages in one process (process.cpuUsage, median).
// Usage: node scripts/canonical-cpu-ab.mjs BASE_ROOT NEW_ROOT MESSAGES.jsonl [profile] [rounds]
// (each ROOT a built checkout: ROOT/dist/...). A build whose canonicalize takes no known words
// ignores them.
import fs from 'node:fs';
import path from 'node:path';
import { pathToFileURL } from 'node:url';

const [baseRoot, newRoot, file, profile = 'news', rounds = '10'] = process.argv.slice(2);
if (!baseRoot || !newRoot || !file) {
  console.error(
    'usage: node scripts/canonical-cpu-ab.mjs BASE_ROOT NEW_ROOT MESSAGES.jsonl [profile] [rounds]',
  );
  process.exit(2);
}
const load = async (root) => {
  const at = (p) => pathToFileURL(path.resolve(root, 'dist', p)).href;
  const { canonicalize } = await import(at('text/canonical.js'));
  const { LexiconSet } = await import(at('lexicon/lexicon.js'));
  const { resolveDedupConfig } = await import(at('config/profiles.js'));
  const lexicons = LexiconSet.defaults();
  const config = resolveDedupConfig(profile).signatures.canonical;
  const known = (lang) => lexicons.get(lang);
  return (d) => canonicalize({ text: d.text, kind: 'text' }, config, d.lang, known);
};
const docs = fs
  .readFileSync(file, 'utf8')
  .split('\n')
  .filter((l) => l.trim())
  .map((l) => JSON.parse(l))
  .filter((d) => typeof d.text === 'string' && d.text);
const arms = { base: await load(baseRoot), new: await load(newRoot) };
const time = (f) => {
  const start = process.cpuUsage();
  for (const d of docs)
    try {
      f(d);
    } catch {
      // an EMPTY_TEXT message costs the same in both builds
    }
  const used = process.cpuUsage(start);
  return (used.user + used.system) / docs.length;
};
for (const f of Object.values(arms)) time(f);
const runs = { base: [], new: [] };
for (let r = 0; r < Number(rounds); r++) for (const k of ['base', 'new']) runs[k].push(time(arms[k]));
const median = (xs) => [...xs].sort((a, b) => a - b)[xs.length >> 1];
const [b, n] = [median(runs.base), median(runs.new)];
console.log(
  `${file} (${docs.length} messages, ${profile}): base ${b.toFixed(2)} µs, new ${n.toFixed(2)} µs, added ${(n - b).toFixed(2)} µs a message`,
);
