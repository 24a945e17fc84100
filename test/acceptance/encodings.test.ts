import { beforeAll, describe, expect, it } from 'vitest';
import { parseMessageObject } from '../../src/input/message.js';
import { signRecord } from '../../src/output/sign-record.js';
import { signMessage } from '../../src/pipeline/sign.js';
import { createSigner } from '../../src/signatures/create.js';
import type { Signer } from '../../src/signatures/signer.js';
import { type Charset, decodeBytes, encodeText } from '../../src/text/decode/charset.js';
import { hasSharedData, readSharedJsonl, warnIfNoSharedData } from '../support/shared-data.js';

/**
 * Acceptance: the same article given as UTF-8 text, as cp1251, KOI8-R, cp866 and
 * ISO-8859-5 bytes (detected, not declared) and wrapped in an HTML page yields the same
 * canonical text and the same signatures, on real articles. A charset that cannot represent a
 * character loses it before doppel sees the bytes, so the reference for each charset is the
 * UTF-8 text after an encode/decode round trip through that charset.
 */

let engine: Signer;
beforeAll(async () => {
  engine = await createSigner();
});

const CYRILLIC: Charset[] = ['windows-1251', 'koi8-r', 'ibm866', 'iso-8859-5'];

function htmlPage(title: string, text: string): string {
  const escapeHtml = (s: string) => s.replace(/&/g, '&amp;').replace(/</g, '&lt;').replace(/>/g, '&gt;');
  const paragraphs = text
    .split('\n')
    .map((p) => `<p>${escapeHtml(p)}</p>`)
    .join('\n');
  return `<!DOCTYPE html><html><head><meta charset="utf-8"><title>${escapeHtml(title)}</title><style>p{margin:0}</style><script>var x = "<p>not text</p>";</script></head><body><article>\n${paragraphs}</article></body></html>`;
}

/**
 * How a windows-1256 page writes Persian: the Arabic yeh and kaf (it lacks the Persian ones),
 * ASCII digits (it has no Persian or Arabic-Indic digits), heh for heh-with-yeh. Canonicalization
 * maps all of these to one form, so the page must give the UTF-8 article's canonical text.
 */
function asLegacyPersian(text: string): string {
  return text
    .replaceAll('ی', 'ي')
    .replaceAll('ک', 'ك')
    .replaceAll('ۀ', 'ه')
    .replace(/[\u06f0-\u06f9]/g, (d) => String.fromCharCode(d.charCodeAt(0) - 0x06f0 + 48))
    .replace(/[\u0660-\u0669]/g, (d) => String.fromCharCode(d.charCodeAt(0) - 0x0660 + 48));
}

async function sign(fields: Record<string, unknown>) {
  const signed = await signMessage(parseMessageObject({ id: 'x', ...fields }), engine);
  return { canonical: signed.doc.canonical, record: signRecord(signed) };
}

const b64 = (bytes: Uint8Array) => Buffer.from(bytes).toString('base64');
// How the content was given (kind, charset, and for HTML whether its article was found).
const withoutProvenance = ({
  kind: _k,
  charset: _c,
  extraction: _e,
  ...rest
}: ReturnType<typeof signRecord>) => rest;

describe.skipIf(!hasSharedData())('same article, any encoding or wrapping (evaluation corpus)', () => {
  warnIfNoSharedData();

  it('Russian news: UTF-8, cp1251, KOI8-R, cp866, ISO-8859-5 and HTML give one canonical text and signature set', async () => {
    const articles = readSharedJsonl('news-ru.jsonl');
    expect(articles.length).toBeGreaterThan(100);
    let identicalToUtf8 = 0;
    let comparisons = 0;
    for (const article of articles) {
      const utf8 = await sign({ text: article.text, lang: 'ru' });
      // HTML keeps every character: identical to the plain text.
      const html = await sign({ html: htmlPage(article.title ?? '', article.text), lang: 'ru' });
      expect(html.canonical).toBe(utf8.canonical);
      expect(withoutProvenance(html.record)).toEqual(withoutProvenance(utf8.record));
      for (const charset of CYRILLIC) {
        const bytes = encodeText(article.text, charset);
        const reference = await sign({ text: decodeBytes(bytes, { hint: charset }).text, lang: 'ru' });
        const raw = await sign({ raw: b64(bytes), lang: 'ru' });
        expect(raw.record.charset).toBe(charset);
        expect(raw.canonical).toBe(reference.canonical);
        expect(withoutProvenance(raw.record)).toEqual(withoutProvenance(reference.record));
        comparisons++;
        if (raw.record.exact === utf8.record.exact) identicalToUtf8++;
      }
    }
    // Punctuation a charset lacks (« » — in cp866/KOI8-R) is not in the canonical text, so nearly
    // every article is byte-for-byte the same exact signature as its UTF-8 original.
    expect(identicalToUtf8 / comparisons).toBeGreaterThan(0.95);
  });

  it('Persian news: UTF-8, windows-1256 bytes and HTML give one canonical text and signature set', async () => {
    const articles = readSharedJsonl('news-fa.jsonl').slice(0, 300);
    let identical = 0;
    for (const article of articles) {
      // With its title, as a feed gives it: a stub body (fa-00148, the agency's dateline alone)
      // is signed with its title, which the HTML page carries in its <title>.
      const title = article.title ?? '';
      const utf8 = await sign({ text: article.text, title, lang: 'fa' });
      const html = await sign({ html: htmlPage(title, article.text), lang: 'fa' });
      expect(html.canonical).toBe(utf8.canonical);
      const bytes = encodeText(asLegacyPersian(article.text), 'windows-1256');
      const raw = await sign({ raw: b64(bytes), title, lang: 'fa' });
      expect(raw.record.charset).toBe('windows-1256');
      if (raw.canonical === utf8.canonical) identical++;
      else {
        const reference = await sign({
          text: decodeBytes(bytes, { hint: 'windows-1256' }).text,
          title,
          lang: 'fa',
        });
        expect(raw.canonical).toBe(reference.canonical);
      }
    }
    expect(identical / articles.length).toBeGreaterThan(0.95);
  });

  it('detects the language and charset without being told', async () => {
    const [ru] = readSharedJsonl('news-ru.jsonl');
    const raw = await sign({ raw: b64(encodeText(ru!.text, 'koi8-r')) });
    const utf8 = await sign({ text: ru!.text });
    expect(raw.record.lang).toBe('ru');
    expect(raw.record.charset).toBe('koi8-r');
    expect(raw.record.exact).toBe(utf8.record.exact);
  });
});

describe('same text, any encoding (own fixture, always runs)', () => {
  const text =
    'Экспорт зерна из России с начала сельскохозяйственного года вырос почти на пятую часть.\n' +
    'Основными покупателями остаются Египет, Турция и Иран; ёмкость портов позволяет отгружать больше.';

  it('gives one exact signature for text, four legacy charsets, HTML, and hyphenated layout', async () => {
    const expected = (await sign({ text })).record.exact;
    for (const charset of CYRILLIC)
      expect((await sign({ raw: b64(encodeText(text, charset)) })).record.exact).toBe(expected);
    expect((await sign({ html: htmlPage('Заголовок', text) })).record.exact).toBe(expected);
    const hyphenated = text
      .replace('сельскохозяйственного', 'сельскохозяй-\nственного')
      .replace('Египет', 'Еги\u00adпет');
    expect((await sign({ text: `${hyphenated}\n\n- 1 -\n` })).record.exact).toBe(expected);
  });
});
