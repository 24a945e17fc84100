import { readFileSync } from 'node:fs';
import { resolve } from 'node:path';
import { beforeAll, describe, expect, it } from 'vitest';
import { parseMessageObject } from '../../src/input/message.js';
import { signRecord } from '../../src/output/sign-record.js';
import { signMessage } from '../../src/pipeline/sign.js';
import { createSigner } from '../../src/signatures/create.js';
import type { Signer } from '../../src/signatures/signer.js';
import { type Charset, encodeText } from '../../src/text/decode/charset.js';
import { hasSharedData, readSharedJsonl, warnIfNoSharedData } from '../support/shared-data.js';

/**
 * Ukrainian text in its legacy code pages (KOI8-U, cp1125 = IBM 1125, and
 * cp1251) must decode to the UTF-8 original's canonical text, signatures and language. KOI8-U
 * used to be read as KOI8-R: і ї є ґ were lost (box drawing), the language became ru, and none of
 * 150 copies matched. Bytes are detected, never declared.
 */

let engine: Signer;
beforeAll(async () => {
  engine = await createSigner();
});

const UKRAINIAN: Charset[] = ['koi8-u', 'cp1125', 'windows-1251', 'utf-8'];

/**
 * How legacy Ukrainian text is written: KOI8-U and cp1125 have no typographic apostrophe, quotes
 * or dashes, so writers use the ASCII ones. Canonicalization maps ’ ʼ to ', so this does not
 * change the canonical text; without it a charset would turn the apostrophe into "?" and split
 * "п’ять" in two before doppel ever saw the bytes. (• − ° are lost too, but are not words.)
 */
function asLegacyUkrainian(text: string): string {
  return text
    .replace(/[’ʼ‘`´]/g, "'")
    .replace(/[«»“”„]/g, '"')
    .replace(/[—–]/g, '-')
    .replace(/…/g, '...')
    .replace(/№/g, 'No'); // KOI8-U lacks it; NFKC makes it "No" anyway
}

async function sign(fields: Record<string, unknown>) {
  const signed = await signMessage(parseMessageObject({ id: 'x', ...fields }), engine);
  const { kind: _k, charset, ...signatures } = signRecord(signed);
  return { canonical: signed.doc.canonical, charset, signatures };
}

interface Outcome {
  compared: number;
  failures: string[];
}

/** Every text in every charset, as raw bytes with no language given, against the UTF-8 text. */
async function compare(texts: Array<{ id: string; text: string }>): Promise<Outcome> {
  const failures: string[] = [];
  let compared = 0;
  for (const { id, text } of texts) {
    const original = await sign({ text });
    expect(original.signatures.lang).toBe('uk');
    for (const charset of UKRAINIAN) {
      compared++;
      const bytes = charset === 'utf-8' ? Buffer.from(text) : encodeText(asLegacyUkrainian(text), charset);
      const raw = await sign({ raw: Buffer.from(bytes).toString('base64') });
      const problems: string[] = [];
      if (raw.signatures.lang !== 'uk') problems.push(`lang ${raw.signatures.lang}`);
      if (raw.charset !== charset) problems.push(`read as ${raw.charset}`);
      if (raw.canonical !== original.canonical) problems.push('canonical text differs');
      else expect(raw.signatures).toEqual(original.signatures); // same text, same signatures
      if (problems.length > 0) failures.push(`${id} in ${charset}: ${problems.join(', ')}`);
    }
  }
  return { compared, failures };
}

function report(name: string, { compared, failures }: Outcome): void {
  const share = 1 - failures.length / compared;
  console.log(
    `[ukrainian encodings] ${name}: ${compared - failures.length}/${compared} match (${(share * 100).toFixed(1)}%)` +
      (failures.length > 0 ? `; failing: ${failures.join('; ')}` : ''),
  );
  expect(share).toBeGreaterThanOrEqual(0.98);
}

describe('Ukrainian in KOI8-U, cp1125, cp1251 and UTF-8 (own fixture, always runs)', () => {
  const texts = readFileSync(resolve(import.meta.dirname, '../fixtures/uk-texts.jsonl'), 'utf8')
    .split('\n')
    .filter((line) => line.trim() !== '')
    .map((line) => JSON.parse(line) as { id: string; text: string });

  it('gives the UTF-8 original’s canonical text, signatures and lang uk', async () => {
    expect(texts.length).toBeGreaterThanOrEqual(16);
    report('fixture', await compare(texts));
  });

  it('decodes і ї є ґ (and capitals) in every Ukrainian page', async () => {
    const letters = 'Ґанок і їжак: Єва, Іван та Їжакевич ґречно їдять';
    for (const charset of ['koi8-u', 'cp1125'] as const) {
      const raw = await sign({ raw: Buffer.from(encodeText(letters, charset)).toString('base64') });
      expect(raw.charset).toBe(charset);
      expect(raw.canonical).toBe('ґанок і їжак єва іван та їжакевич ґречно їдять');
    }
  });

  it('keeps Russian text in its Russian page (KOI8-R, cp866, cp1251)', async () => {
    const text =
      'Экспорт зерна из России с начала сельскохозяйственного года вырос почти на пятую часть. ' +
      'Температура воды в порту +25°, отгрузка идёт круглосуточно.';
    const utf8 = await sign({ text });
    for (const charset of ['koi8-r', 'ibm866', 'windows-1251'] as const) {
      const raw = await sign({ raw: Buffer.from(encodeText(text, charset)).toString('base64') });
      expect(raw.charset).toBe(charset);
      expect(raw.signatures.lang).toBe('ru');
      expect(raw.canonical).toBe(utf8.canonical);
    }
  });
});

describe.skipIf(!hasSharedData())(
  'Ukrainian news in KOI8-U, cp1125, cp1251 and UTF-8 (evaluation corpus)',
  () => {
    warnIfNoSharedData();

    it('at least 98% of the copies give the UTF-8 original’s canonical text, signatures and lang uk', async () => {
      const articles = readSharedJsonl('news-uk.jsonl');
      expect(articles.length).toBeGreaterThan(100);
      report(
        'news-uk.jsonl',
        await compare(articles.map((a, i) => ({ id: a.id ?? `line ${i + 1}`, text: a.text }))),
      );
    }, 120_000);
  },
);
