/**
 * `node dist/bench/sentences.js SET.jsonl [--lead]`: the CPU that sentence fingerprints add to a
 * message's way before the store (decode, canonicalize, sign, index keys, record), news profile
 * with and without them, alternating in one process (process.cpuUsage, four rounds each after a
 * warm-up), and the index keys and fingerprints they add per message. With --lead: the lead
 * passages alone (sentence fingerprints on both sides, lead passages on one). Then the
 * containment verification of each message against the 22 before it (about the candidates a
 * message of the news profile verifies), with and without them, alternating.
 */
import { readFileSync } from 'node:fs';
import type { DedupConfig } from '../config/dedup.js';
import { resolveDedupConfig } from '../config/profiles.js';
import { IndexKeyBuilder } from '../engine/index-keys.js';
import { compactRecord } from '../engine/record.js';
import type { SignatureRecord } from '../engine/types.js';
import { type Message, parseMessageLine } from '../input/message.js';
import { signMessage } from '../pipeline/sign.js';
import { createSigner } from '../signatures/create.js';
import { emptySentenceContainment, NO_CUT, sentenceContainment } from '../signatures/sentences.js';
import type { Signer } from '../signatures/signer.js';

interface Setup {
  signer: Signer;
  keys: IndexKeyBuilder;
}

async function setup(config: DedupConfig): Promise<Setup> {
  const signer = await createSigner({ signatures: config.signatures });
  return {
    signer,
    keys: new IndexKeyBuilder(config.signatures, new Set(config.index.methods), config.index.topicKeys),
  };
}

const file = process.argv[2];
const leadOnly = process.argv[3] === '--lead';
if (file === undefined) {
  process.stderr.write('usage: node dist/bench/sentences.js SET.jsonl [--lead]\n');
  process.exit(2);
}
const messages: Message[] = readFileSync(file, 'utf8')
  .split('\n')
  .filter((l) => l.trim() !== '')
  .map((l) => parseMessageLine(l));
const on = await setup(resolveDedupConfig('news'));
const off = await setup(
  resolveDedupConfig(
    'news',
    leadOnly
      ? { signatures: { sentences: { leadTokens: 0 } } }
      : { signatures: { sentences: { enabled: false } }, index: { methods: ['exact', 'bands', 'topic'] } },
  ),
);

const counts = { keys: 0, fingerprints: 0, signed: 0 };
async function round(s: Setup, count = false): Promise<number> {
  const started = process.cpuUsage();
  for (const m of messages) {
    try {
      const signed = await signMessage(m, s.signer);
      const keys = s.keys.keys(signed.signatures);
      const record = compactRecord(signed.signatures, signed.doc.lang);
      if (count) {
        counts.keys += keys.length;
        if (s === on) {
          counts.fingerprints += record.sentences?.length ?? 0;
          counts.signed++;
        }
      }
    } catch {
      // An input error (an `invalid` verdict) costs the same on both sides.
    }
  }
  const used = process.cpuUsage(started);
  return (used.user + used.system) / messages.length;
}

await round(on);
await round(off);
const without: number[] = [];
const withSentences: number[] = [];
let offKeys = 0;
for (let i = 0; i < 4; i++) {
  const before = counts.keys;
  without.push(await round(off, i === 0));
  if (i === 0) offKeys = counts.keys - before;
  withSentences.push(await round(on, i === 0));
}
const mean = (xs: number[]) => xs.reduce((a, b) => a + b, 0) / xs.length;
const f = (xs: number[]) => xs.map((x) => x.toFixed(1)).join(' ');
const n = messages.length;
const what = leadOnly ? 'lead passages' : 'sentence fingerprints';
process.stdout.write(
  `${n} messages; CPU µs per message without ${what} ${f(without)} (mean ${mean(without).toFixed(1)}), ` +
    `with ${f(withSentences)} (mean ${mean(withSentences).toFixed(1)})\n` +
    `index keys per message ${(offKeys / n).toFixed(1)} -> ${((counts.keys - offKeys) / n).toFixed(1)}; ` +
    `fingerprints per record ${(counts.fingerprints / Math.max(1, counts.signed)).toFixed(1)}\n`,
);

/** Each message's records, as the store keeps them. */
async function records(s: Setup): Promise<SignatureRecord[]> {
  const out: SignatureRecord[] = [];
  for (const m of messages) {
    try {
      const signed = await signMessage(m, s.signer);
      out.push(compactRecord(signed.signatures, signed.doc.lang));
    } catch {
      // An invalid message has no record.
    }
  }
  return out;
}

const CANDIDATES = 22;
const scratch = emptySentenceContainment();
/** CPU µs per message of sentenceContainment against the CANDIDATES records before it. */
function verify(rs: readonly SignatureRecord[]): number {
  const started = process.cpuUsage();
  let sink = 0;
  for (let i = 0; i < rs.length; i++) {
    const a = rs[i] as SignatureRecord;
    if (a.sentences === undefined) continue;
    for (let j = Math.max(0, i - CANDIDATES); j < i; j++) {
      const b = rs[j] as SignatureRecord;
      if (b.sentences === undefined) continue;
      sentenceContainment(
        a.sentences,
        a.sentenceCut ?? NO_CUT,
        a.tokens,
        b.sentences,
        b.sentenceCut ?? NO_CUT,
        b.tokens,
        scratch,
      );
      sink += scratch.share + scratch.leadShare;
    }
  }
  const used = process.cpuUsage(started);
  verifySink += sink;
  return (used.user + used.system) / rs.length;
}
let verifySink = 0;

const onRecords = await records(on);
const offRecords = await records(off);
verify(onRecords);
verify(offRecords);
const verifyOff: number[] = [];
const verifyOn: number[] = [];
for (let i = 0; i < 4; i++) {
  verifyOff.push(verify(offRecords));
  verifyOn.push(verify(onRecords));
}
process.stdout.write(
  `containment against ${CANDIDATES} candidates, CPU µs per message: without ${what} ${f(verifyOff)} ` +
    `(mean ${mean(verifyOff).toFixed(2)}), with ${f(verifyOn)} (mean ${mean(verifyOn).toFixed(2)})` +
    `${verifySink < 0 ? ' ' : ''}\n`,
);
