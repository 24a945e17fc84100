import fc from 'fast-check';
import iconv from 'iconv-lite';
import { describe, expect, it } from 'vitest';
import { isDoppelError } from '../../../src/errors.js';
import {
  type Charset,
  decodeBytes,
  encodeText,
  normalizeCharsetLabel,
  scoreCharsets,
} from '../../../src/text/decode/charset.js';
import { hasSharedData, readSharedJsonl, warnIfNoSharedData } from '../../support/shared-data.js';

const CYRILLIC: Charset[] = ['windows-1251', 'koi8-r', 'ibm866', 'iso-8859-5'];
const utf8 = (s: string): Uint8Array => new TextEncoder().encode(s);
/** What an ideal decoder can return: characters the charset lacks were already lost to "?". */
const roundTrip = (text: string, charset: Charset): string =>
  iconv.decode(Buffer.from(encodeText(text, charset)), charset);

function undecodableCode(bytes: Uint8Array): string | undefined {
  try {
    decodeBytes(bytes);
    return undefined;
  } catch (error) {
    return isDoppelError(error) ? error.code : 'not a DoppelError';
  }
}

/** Deterministic pseudo-random bytes (LCG), so failures reproduce. */
function lcgBytes(length: number, seed: number, map: (r: number) => number): Uint8Array {
  const out = new Uint8Array(length);
  let state = seed >>> 0;
  for (let i = 0; i < length; i++) {
    state = (Math.imul(state, 1103515245) + 12345) >>> 0;
    out[i] = map(state >>> 24);
  }
  return out;
}

describe('decodeBytes: UTF-8', () => {
  it('treats pure ASCII as UTF-8', () => {
    expect(decodeBytes(utf8('Plain ASCII, nothing else.\n'))).toEqual({
      text: 'Plain ASCII, nothing else.\n',
      charset: 'utf-8',
    });
  });

  it('decodes valid UTF-8 Cyrillic and Persian as UTF-8', () => {
    for (const text of ['Привет, мир! «Ёлки»', 'سلام دنیا، می‌خواهم']) {
      expect(decodeBytes(utf8(text))).toEqual({ text, charset: 'utf-8' });
    }
  });

  it('honours and strips a UTF-8 BOM', () => {
    const bytes = new Uint8Array([0xef, 0xbb, 0xbf, ...utf8('Привет')]);
    expect(decodeBytes(bytes)).toEqual({ text: 'Привет', charset: 'utf-8' });
  });

  it('keeps a BOM-declared text UTF-8 even with a bad sequence in it', () => {
    const bytes = new Uint8Array([0xef, 0xbb, 0xbf, 0x61, 0xff, 0x62]);
    expect(decodeBytes(bytes)).toEqual({ text: 'a\ufffdb', charset: 'utf-8' });
  });

  it('returns any UTF-8 text without control characters unchanged (property)', () => {
    // C0 controls other than white space mark binary data, by design
    const isBinaryControl = (c: string): boolean => c < ' ' && !'\t\n\v\f\r\u001b'.includes(c);
    const text = fc.string({ unit: 'grapheme', maxLength: 200 }).filter((s) => ![...s].some(isBinaryControl));
    fc.assert(
      fc.property(text, (s) => {
        const r = decodeBytes(utf8(s));
        return r.charset === 'utf-8' && r.text === s;
      }),
      { numRuns: 300 },
    );
  });
});

describe('decodeBytes: legacy charsets (toy strings)', () => {
  const sentence = 'Сегодня в Москве открылась новая выставка.'; // 42 chars

  it.each(CYRILLIC)('detects a one-sentence Russian text in %s', (charset) => {
    expect(decodeBytes(encodeText(sentence, charset))).toEqual({ text: sentence, charset });
  });

  it.each(CYRILLIC)('detects an all-caps headline in %s (case cannot decide it)', (charset) => {
    const headline = 'ПРАВИТЕЛЬСТВО УТВЕРДИЛО НОВЫЕ ПРАВИЛА ВЪЕЗДА В СТРАНУ';
    expect(decodeBytes(encodeText(headline, charset))).toEqual({ text: headline, charset });
  });

  it.each([
    ['windows-1251', 'Київ готується до зими: у місті відкриють пункти обігріву, а ґанки пофарбують.'],
    [
      'iso-8859-5',
      'Київ готується до зими: у місті відкриють пункти обігріву, а енергетики обіцяють світло.',
    ],
  ] as const)('detects Ukrainian in %s', (charset, text) => {
    expect(decodeBytes(encodeText(text, charset))).toEqual({ text, charset });
  });

  it('detects Persian and Arabic in windows-1256', () => {
    const persian = 'سازمان هواشناسي براي فردا بارش باران را پيش بيني کرد.'; // Arabic yeh: cp1256 has no Persian one
    const arabic = 'قالت وزارة الخارجية إن المحادثات ستستأنف الأسبوع المقبل.';
    for (const text of [persian, arabic]) {
      expect(decodeBytes(encodeText(text, 'windows-1256'))).toEqual({ text, charset: 'windows-1256' });
    }
  });

  it('detects very short words (7 letters, 2 letters) in the common pages', () => {
    expect(decodeBytes(encodeText('Сегодня', 'windows-1251')).charset).toBe('windows-1251');
    expect(decodeBytes(encodeText('Сегодня', 'koi8-r')).charset).toBe('koi8-r');
    expect(decodeBytes(encodeText('да', 'koi8-r')).text).toBe('да');
  });

  it('reads a cp866 pseudo-graphics table as ibm866, not as box-drawing-free KOI8-R', () => {
    const table = [
      '╔══════════════════════════════╗',
      '║  ОТЧЁТ О ПРОДАЖАХ ЗА КВАРТАЛ  ║',
      '╠════════════╤═════════════════╣',
      '║ Январь     │ 1200 руб.       ║',
      '║ Февраль    │ 1350 руб.       ║',
      '╚════════════╧═════════════════╝',
      'Данные подготовлены бухгалтерией.',
    ].join('\r\n');
    expect(decodeBytes(encodeText(table, 'ibm866'))).toEqual({ text: table, charset: 'ibm866' });
  });

  it('is deterministic', () => {
    const bytes = encodeText('Сегодня в Москве', 'koi8-r');
    const first = decodeBytes(bytes);
    for (let i = 0; i < 5; i++) expect(decodeBytes(bytes)).toEqual(first);
  });
});

describe('decodeBytes: hints', () => {
  it('uses a hint to break a near-tie', () => {
    const bytes = encodeText('Сегодня', 'koi8-r');
    const [best, second] = scoreCharsets(bytes);
    // precondition of this test: the two best candidates are within the 2-nat tie margin
    expect(best!.charset).toBe('koi8-r');
    expect(best!.score - second!.score).toBeLessThan(2);
    expect(decodeBytes(bytes, { hint: second!.charset }).charset).toBe(second!.charset);
  });

  it('lets content win over a wrong hint', () => {
    const text = 'В Москве открылась выставка современного искусства.';
    expect(decodeBytes(encodeText(text, 'windows-1251'), { hint: 'koi8-r' }).charset).toBe('windows-1251');
    // even with the per-byte margin given to MIME-declared charsets
    const declared = decodeBytes(encodeText(text, 'windows-1251'), {
      hint: 'KOI8-R',
      hintMarginPerByte: 0.5,
    });
    expect(declared).toEqual({ text, charset: 'windows-1251' });
  });

  it('ignores unknown and UTF-8 hints for non-UTF-8 bytes', () => {
    const text = 'Привет из прошлого века';
    expect(decodeBytes(encodeText(text, 'ibm866'), { hint: 'utf-8' }).charset).toBe('ibm866');
    expect(decodeBytes(encodeText(text, 'ibm866'), { hint: 'x-unknown' }).charset).toBe('ibm866');
  });
});

describe('decodeBytes: undecodable input', () => {
  it('rejects bytes with NUL (a PNG header)', () => {
    const png = new Uint8Array([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a, 0, 0, 0, 0x0d, 0x49, 0x48]);
    expect(undecodableCode(png)).toBe('UNDECODABLE');
  });

  it('rejects text with many control bytes', () => {
    const bytes = utf8('abc\u0001\u0002\u0003def\u0004\u0005');
    expect(undecodableCode(bytes)).toBe('UNDECODABLE');
  });

  it('rejects seeded random binary of several sizes', () => {
    for (const [length, seed] of [
      [64, 1],
      [1024, 2],
      [65536, 3],
    ] as const) {
      expect(undecodableCode(lcgBytes(length, seed, (r) => r))).toBe('UNDECODABLE');
    }
  });

  it('rejects random upper-half bytes with spaces (no NUL, no controls) by score', () => {
    for (let seed = 1; seed <= 20; seed++) {
      const bytes = lcgBytes(256, seed, (r) => (r % 7 === 0 ? 0x20 : 0x80 | r));
      expect(undecodableCode(bytes)).toBe('UNDECODABLE');
    }
  });

  it('raises non-retryable DoppelErrors only, whatever the bytes (property)', () => {
    fc.assert(
      fc.property(fc.uint8Array({ maxLength: 300 }), (bytes) => {
        try {
          const r = decodeBytes(bytes);
          return typeof r.text === 'string';
        } catch (error) {
          return isDoppelError(error) && error.code === 'UNDECODABLE' && !error.retryable;
        }
      }),
      { numRuns: 500 },
    );
  });
});

describe('encodeText and labels', () => {
  it('round-trips and replaces unrepresentable characters with "?"', () => {
    const bytes = encodeText('«Да»', 'koi8-r');
    expect(iconv.decode(Buffer.from(bytes), 'koi8-r')).toBe('?Да?');
    expect(Array.from(encodeText('Да', 'windows-1251'))).toEqual([0xc4, 0xe0]);
    expect(encodeText('Да', 'utf-8')).toEqual(utf8('Да'));
  });

  it('normalises MIME and HTML charset labels', () => {
    expect(normalizeCharsetLabel('CP1251')).toBe('windows-1251');
    expect(normalizeCharsetLabel('x-cp1251')).toBe('windows-1251');
    expect(normalizeCharsetLabel('"KOI8-R"')).toBe('koi8-r');
    expect(normalizeCharsetLabel('cp866')).toBe('ibm866');
    expect(normalizeCharsetLabel('ISO_8859-5')).toBe('iso-8859-5');
    expect(normalizeCharsetLabel('windows-1256')).toBe('windows-1256');
    expect(normalizeCharsetLabel('US-ASCII')).toBe('utf-8');
    expect(normalizeCharsetLabel('KOI8-U')).toBe('koi8-u');
    expect(normalizeCharsetLabel('IBM1125')).toBe('cp1125');
    expect(normalizeCharsetLabel('koi8-t')).toBeUndefined();
    expect(normalizeCharsetLabel(undefined)).toBeUndefined();
  });
});

const sharedDataPresent = warnIfNoSharedData();

describe.skipIf(!hasSharedData())('decodeBytes on real articles (evaluation corpus)', () => {
  const ru = sharedDataPresent ? readSharedJsonl('news-ru.jsonl') : [];
  const fa = sharedDataPresent ? readSharedJsonl('news-fa.jsonl') : [];

  it.each(CYRILLIC)(
    'decodes every Russian article encoded in %s exactly, with the right charset',
    (charset) => {
      expect(ru.length).toBeGreaterThan(100);
      const failures: string[] = [];
      for (const article of ru) {
        const r = decodeBytes(encodeText(article.text, charset));
        if (r.charset !== charset || r.text !== roundTrip(article.text, charset)) {
          failures.push(`${article.id ?? article.url}: ${r.charset}`);
        }
      }
      expect(failures).toEqual([]);
    },
  );

  it('decodes a 200-article Persian sample in windows-1256 (as encoded, and with Arabic yeh)', () => {
    const sample = fa.filter((_, i) => i % 4 === 0);
    expect(sample.length).toBe(200);
    const failures: string[] = [];
    for (const article of sample) {
      // iconv-lite turns Persian yeh (absent from cp1256) into "?"; Windows writes Arabic yeh
      for (const text of [article.text, article.text.replace(/ی/g, 'ي')]) {
        const r = decodeBytes(encodeText(text, 'windows-1256'));
        if (r.charset !== 'windows-1256' || r.text !== roundTrip(text, 'windows-1256')) {
          failures.push(`${article.url}: ${r.charset}`);
        }
      }
    }
    expect(failures).toEqual([]);
  });

  /** Sentence openings of a given length with at least `letters` letters of the script. */
  function snippets(texts: string[], length: number, letters: number, script: RegExp): string[] {
    return texts
      .flatMap((t) => t.split(/(?<=[.!?])\s+/))
      .filter((s) => s.length >= length)
      .map((s) => s.slice(0, length))
      .filter((s) => (s.match(script) ?? []).length >= letters);
  }

  function errorRate(texts: string[], charset: Charset): number {
    let wrong = 0;
    for (const text of texts) {
      try {
        if (decodeBytes(encodeText(text, charset)).charset !== charset) wrong++;
      } catch {
        wrong++;
      }
    }
    return wrong / texts.length;
  }

  it.each(CYRILLIC)('detects every 30-character Russian sentence opening in %s', (charset) => {
    const texts = snippets(
      ru.map((a) => a.text),
      30,
      15,
      /\p{Script=Cyrillic}/gu,
    );
    expect(texts.length).toBeGreaterThan(1000);
    expect(errorRate(texts, charset)).toBe(0);
  });

  it.each(CYRILLIC)('detects 20-character Russian openings in %s at least 99% of the time', (charset) => {
    const texts = snippets(
      ru.map((a) => a.text),
      20,
      10,
      /\p{Script=Cyrillic}/gu,
    );
    expect(errorRate(texts, charset)).toBeLessThanOrEqual(0.01);
  });

  it('detects every 30-character Persian opening in windows-1256', () => {
    const texts = snippets(
      fa.map((a) => a.text),
      30,
      15,
      /\p{Script=Arabic}/gu,
    );
    expect(texts.length).toBeGreaterThan(1000);
    expect(errorRate(texts, 'windows-1256')).toBe(0);
  });
});
