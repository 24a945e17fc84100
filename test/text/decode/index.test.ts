import iconv from 'iconv-lite';
import { describe, expect, it } from 'vitest';
import { isDoppelError } from '../../../src/errors.js';
import { type Charset, decodeHtml, decodeRaw, encodeText } from '../../../src/text/decode/index.js';
import { hasSharedData, readSharedJsonl, warnIfNoSharedData } from '../../support/shared-data.js';

const utf8 = (s: string): Uint8Array => new TextEncoder().encode(s);
const CYRILLIC: Charset[] = ['windows-1251', 'koi8-r', 'ibm866', 'iso-8859-5'];

describe('decodeRaw', () => {
  it('returns UTF-8 plain text as text', async () => {
    expect(await decodeRaw(utf8('Просто текст.\nВторая строка.'))).toEqual({
      text: 'Просто текст.\nВторая строка.',
      kind: 'text',
      charset: 'utf-8',
    });
  });

  it('detects a legacy charset in plain text', async () => {
    const text = 'Погода на выходные: в Москве ожидается до плюс пяти градусов.';
    expect(await decodeRaw(encodeText(text, 'ibm866'))).toEqual({ text, kind: 'text', charset: 'ibm866' });
  });

  it('decodes an HTML page and converts it, with its title', async () => {
    const page =
      '<!DOCTYPE html><html><head><meta charset="koi8-r"><title>Новости дня</title></head>' +
      '<body><h1>Главное</h1><p>Сегодня в столице открылся новый парк.</p></body></html>';
    expect(await decodeRaw(encodeText(page, 'koi8-r'))).toEqual({
      text: 'Главное\n\nСегодня в столице открылся новый парк.',
      kind: 'html',
      charset: 'koi8-r',
      // One sentence is no article: the whole page's text.
      extraction: 'page',
      title: 'Новости дня',
    });
  });

  it('lets content detection win over a wrong <meta charset>', async () => {
    const page =
      '<html><head><meta http-equiv="Content-Type" content="text/html; charset=windows-1251"></head>' +
      '<body><p>Сегодня в столице открылся новый парк.</p></body></html>';
    expect(await decodeRaw(encodeText(page, 'koi8-r'))).toMatchObject({
      text: 'Сегодня в столице открылся новый парк.',
      charset: 'koi8-r',
    });
  });

  it('uses <meta charset> to break a near-tie', async () => {
    // "Мир" alone in KOI8-R scores slightly better as windows-1256 (checked first, as a precondition)
    const bare = await decodeRaw(encodeText('<html><body><p>Мир</p></body></html>', 'koi8-r'));
    expect(bare.charset).toBe('windows-1256');
    const labelled = await decodeRaw(
      encodeText('<html><head><meta charset="KOI8-R"></head><body><p>Мир</p></body></html>', 'koi8-r'),
    );
    expect(labelled).toEqual({ text: 'Мир', kind: 'html', charset: 'koi8-r', extraction: 'page' });
  });

  it('parses mail: subject as title, message id', async () => {
    const bytes = Buffer.concat([
      Buffer.from(
        'From: a@example.ru\r\nSubject: Hello\r\nMessage-ID: <m1@example.ru>\r\n' +
          'Content-Type: text/plain; charset=windows-1251\r\n\r\n',
      ),
      encodeText('Текст письма в кодировке windows-1251.', 'windows-1251'),
    ]);
    expect(await decodeRaw(bytes)).toEqual({
      text: 'Текст письма в кодировке windows-1251.',
      kind: 'mail',
      charset: 'windows-1251',
      title: 'Hello',
      messageId: 'm1@example.ru',
    });
  });

  it('rejects binary data with UNDECODABLE', async () => {
    const zip = new Uint8Array([0x50, 0x4b, 0x03, 0x04, 0x14, 0, 0, 0, 0x08, 0, 0x21, 0x9c]);
    await expect(decodeRaw(zip)).rejects.toSatisfy(
      (e: unknown) => isDoppelError(e) && e.code === 'UNDECODABLE',
    );
  });
});

describe('decodeHtml', () => {
  it('converts an HTML string', () => {
    expect(decodeHtml('<title>T</title><p>a&amp;b</p><script>x</script>')).toEqual({
      text: 'a&b',
      kind: 'html',
      charset: 'utf-8',
      extraction: 'page',
      title: 'T',
    });
  });
});

const sharedDataPresent = warnIfNoSharedData();

describe.skipIf(!hasSharedData())(
  'decodeRaw on real articles as legacy-encoded pages (../shared/data)',
  () => {
    const ru = sharedDataPresent ? readSharedJsonl('news-ru.jsonl') : [];
    const words = (s: string): string[] => s.split(/\s+/).filter((w) => w !== '');
    const escapeHtml = (s: string): string => s.replace(/&/g, '&amp;').replace(/</g, '&lt;');

    it.each(CYRILLIC)('recovers every article page encoded in %s and labelled as UTF-8', async (charset) => {
      expect(ru.length).toBeGreaterThan(100);
      for (const article of ru) {
        const page =
          '<html><head><meta charset="utf-8"></head><body>' +
          article.text
            .split(/\n+/)
            .map((p) => `<p>${escapeHtml(p)}</p>`)
            .join('') +
          '</body></html>';
        // characters the charset lacks (« » in KOI8-R...) are lost to "?" by the encoder itself
        const expectedText = decodeHtml(iconv.decode(Buffer.from(encodeText(page, charset)), charset)).text;
        const decoded = await decodeRaw(encodeText(page, charset));
        expect(decoded.charset).toBe(charset);
        expect(decoded.kind).toBe('html');
        expect(words(decoded.text)).toEqual(words(expectedText));
      }
    });
  },
);
