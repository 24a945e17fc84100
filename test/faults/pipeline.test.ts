import fc from 'fast-check';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { resolveDedupConfig } from '../../src/config/profiles.js';
import { type LocalRedis, startLocalRedis } from '../../src/dev/redis-server.js';
import { DedupEngine, type EngineMessage } from '../../src/engine/engine.js';
import type { DedupStore } from '../../src/engine/types.js';
import { isDoppelError } from '../../src/errors.js';
import { initHashing } from '../../src/hash/xxhash.js';
import { parseMessageLine, parseMessageObject } from '../../src/input/message.js';
import { LexiconSet } from '../../src/lexicon/lexicon.js';
import { engineMessage } from '../../src/pipeline/flow.js';
import { signMessage } from '../../src/pipeline/sign.js';
import { Signer } from '../../src/signatures/signer.js';
import { MemoryStore } from '../../src/store/memory/store.js';
import { openStore } from '../../src/store/open.js';
import { runCli } from '../support/cli.js';
import { uniqueNamespace } from '../support/redis.js';
import {
  CHARSET_LANGUAGES,
  encode,
  hostileCase,
  INPUT_ERROR_CODES,
  roundTrip,
  SAMPLES,
  type SampleLanguage,
  sampleMail,
  splitLines,
} from './support/hostile.js';
import { faultSeed } from './support/seed.js';

/**
 * The decode / sign / decide pipeline in process, where fast-check can shrink a failing input to
 * its smallest form: any line either signs or fails with an input error code; a repeated id gets
 * its first verdict, on both stores; every supported charset gives the UTF-8 text's signature.
 */

const config = resolveDedupConfig('news');
let signer: Signer;
beforeAll(async () => {
  await initHashing();
  signer = new Signer(config.signatures, LexiconSet.defaults({}));
});

/** What `doppel sign` does with one line: its signature, or the code it fails with. */
async function signLine(line: string): Promise<{ code: string | null; exact?: string }> {
  try {
    const signed = await signMessage(parseMessageLine(line), signer);
    return { code: null, exact: signed.signatures.exact };
  } catch (error) {
    if (!isDoppelError(error)) throw new Error(`not a DoppelError: ${String(error)}`, { cause: error });
    return { code: error.code };
  }
}

describe('any hostile line (fast-check, shrinking)', () => {
  const seed = faultSeed('pipeline property', 7_301);
  it('signs, or fails with an input error code (never INTERNAL, never a raw exception)', async () => {
    await fc.assert(
      fc.asyncProperty(
        fc.nat(1000).chain((i) => hostileCase('p', i)),
        async (c) => {
          for (const line of splitLines(c.line)) {
            if (line.trim() === '') continue;
            const { code } = await signLine(line);
            if (code === null) {
              expect(c.mustFail, `${c.kind} signed`).not.toBe(true);
            } else {
              expect(INPUT_ERROR_CODES as readonly string[], c.kind).toContain(code);
              if (c.codes) expect(c.codes, c.kind).toContain(code);
            }
          }
        },
      ),
      { seed, numRuns: Number(process.env.DOPPEL_FAULTS_RUNS ?? 1500) },
    );
  }, 600_000);
});

describe('every supported charset, plain, as HTML and as a mail', () => {
  const utf8Exact = async (text: string, lang: string) =>
    (await signLine(JSON.stringify({ id: 'u', text, lang }))).exact;
  for (const [charset, languages] of CHARSET_LANGUAGES) {
    for (const lang of languages) {
      it(`${charset} ${lang}: the same exact signature as the UTF-8 text`, async () => {
        // The reference keeps only what the charset can hold (a "?" for the rest).
        const text = roundTrip(SAMPLES[lang as SampleLanguage], charset);
        const want = await utf8Exact(text, lang);
        const page = `<html><head><meta charset="${charset}"><title>t</title></head><body><p>${text}</p></body></html>`;
        const forms: Array<[string, Buffer]> = [
          ['plain', encode(text, charset)],
          ['html', encode(page, charset)],
        ];
        for (const [form, bytes] of forms) {
          const got = await signLine(JSON.stringify({ id: 'c', raw: bytes.toString('base64'), lang }));
          expect(got.code, `${charset} ${form}`).toBeNull();
          expect(got.exact, `${charset} ${lang} ${form}`).toBe(want);
        }
        // A mail: base64 text part (and a quoted-printable HTML alternative) in that charset.
        const mail = await signLine(
          JSON.stringify({
            id: 'm',
            raw: sampleMail(charset, lang as SampleLanguage).toString('base64'),
            lang,
          }),
        );
        expect(mail.code, `${charset} mail`).toBeNull();
        expect(mail.exact, `${charset} ${lang} mail`).toBe(want);
      });
    }
  }
});

const signedInput = async (id: string, text: string, ts = 1_800_000_000_000): Promise<EngineMessage> =>
  engineMessage(await signMessage(parseMessageObject({ id, text, lang: 'en' }), signer), ts);

/** A repeated id inside a batch, and a repeat of an id decided in an earlier batch. */
async function checkRepeatedIds(store: DedupStore): Promise<void> {
  const engine = new DedupEngine(config, store);
  const a = await signedInput('rep-a', SAMPLES.en);
  const b = await signedInput('rep-b', `${SAMPLES.en} And one more sentence about the regions.`);
  const c = await signedInput('rep-c', SAMPLES.ru);
  // Same id, other content: the id decides, the first verdict stands.
  const aOther = await signedInput('rep-a', SAMPLES.fa);

  const first = await engine.processMessages([a, b, a, aOther, c, b]);
  expect(first.map((v) => v.id)).toEqual(['rep-a', 'rep-b', 'rep-a', 'rep-a', 'rep-c', 'rep-b']);
  const pick = (v: (typeof first)[number]) => [v.verdict, v.clusterId, v.duplicateOf];
  expect(pick(first[2]!)).toEqual(pick(first[0]!));
  expect(pick(first[3]!)).toEqual(pick(first[0]!));
  expect(pick(first[5]!)).toEqual(pick(first[1]!));
  // The same content repeated is a replay; other content under the id is flagged a conflict.
  expect(first.map((v) => v.conflict ?? false)).toEqual([false, false, false, true, false, false]);

  // The next batch: the ids again, one of them twice (the case that crashed).
  const second = await engine.processMessages([c, a, a, b, aOther]);
  expect(second.map((v) => v.id)).toEqual(['rep-c', 'rep-a', 'rep-a', 'rep-b', 'rep-a']);
  const firstOf = new Map(first.map((v) => [v.id, pick(v)]));
  for (const v of second) {
    expect(v.replay, v.id).toBe(true);
    expect(v.conflict ?? false, v.id).toBe(v === second[4]);
    expect([v.verdict, v.duplicateOf], v.id).toEqual(firstOf.get(v.id)!.filter((_, i) => i !== 1));
  }
}

describe('repeated ids (idempotent verdicts)', () => {
  it('memory store: a repeated id in a batch, and in a later batch, gets the first verdict', async () => {
    await checkRepeatedIds(new MemoryStore(config.window, config.index));
  });

  let redis: LocalRedis;
  beforeAll(async () => {
    redis = await startLocalRedis();
  });
  afterAll(async () => {
    await redis?.stop();
  });

  it('Redis store: the same', async () => {
    const store = await openStore(redis.url, { config, namespace: uniqueNamespace('faults-rep') });
    try {
      await checkRepeatedIds(store);
    } finally {
      await store.close();
    }
  });

  it('doppel dedup: an id repeated within a later batch answers every line, exit 0', async () => {
    const line = (id: string, text: string) => JSON.stringify({ id, text, lang: 'en' });
    const lines = [line('dup-0', SAMPLES.en)];
    // Past the first batch (256 lines), then the first id twice in the second batch.
    for (let i = 1; i < 300; i++)
      lines.push(line(`dup-${i}`, `${SAMPLES.en} number ${i} ${'x'.repeat(i % 7)}`));
    lines.push(line('dup-0', SAMPLES.en), line('dup-0', SAMPLES.ru), line('dup-5', SAMPLES.fa));
    const result = await runCli(['dedup', '--quiet'], `${lines.join('\n')}\n`);
    expect(result.code, result.stderr.slice(-2000)).toBe(0);
    const out = result.stdout
      .trim()
      .split('\n')
      .map((l) => JSON.parse(l) as Record<string, unknown>);
    expect(out.length).toBe(lines.length);
    const firstOf = new Map<string, Record<string, unknown>>();
    for (const [i, record] of out.entries()) {
      expect(record.id, `line ${i + 1}`).toBe(JSON.parse(lines[i]!).id);
      const first = firstOf.get(record.id as string);
      if (!first) firstOf.set(record.id as string, record);
      else {
        expect(record.verdict, `line ${i + 1}`).toBe(first.verdict);
        expect(record.duplicateOf, `line ${i + 1}`).toBe(first.duplicateOf);
        expect(record.replay, `line ${i + 1}`).toBe(true);
      }
    }
  });
});
