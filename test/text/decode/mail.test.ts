import iconv from 'iconv-lite';
import { describe, expect, it } from 'vitest';
import { isDoppelError } from '../../../src/errors.js';
import { type Charset, encodeText } from '../../../src/text/decode/charset.js';
import {
  capDelimiterLines,
  looksLikeMail,
  MAX_DELIMITER_LINES,
  parseMail,
} from '../../../src/text/decode/mail.js';
import { expectCpuUnder } from '../../support/cpu-budget.js';
import { hasSharedData, readSharedJsonl, warnIfNoSharedData } from '../../support/shared-data.js';

// Mails are assembled from byte pieces: strings are ASCII/UTF-8 header and structure lines,
// Uint8Arrays are bodies already in their charset or transfer encoding.
type Piece = string | Uint8Array;
function mail(...pieces: Piece[]): Uint8Array {
  return Buffer.concat(pieces.map((p) => (typeof p === 'string' ? Buffer.from(p, 'utf8') : Buffer.from(p))));
}
const lines = (...ls: string[]): string => ls.map((l) => `${l}\r\n`).join('');

function base64(bytes: Uint8Array): string {
  return Buffer.from(bytes).toString('base64').replace(/.{76}/g, '$&\r\n');
}

/** Quoted-printable (RFC 2045): 8-bit bytes and "=" escaped, lines soft-broken before 76. */
function quotedPrintable(bytes: Uint8Array): string {
  const out: string[] = [];
  let line = '';
  for (const b of bytes) {
    if (b === 0x0a) {
      out.push(line);
      line = '';
      continue;
    }
    if (b === 0x0d) continue;
    const token =
      b >= 0x80 || b === 0x3d || b < 0x20
        ? `=${b.toString(16).toUpperCase().padStart(2, '0')}`
        : String.fromCharCode(b);
    if (line.length + token.length > 75) {
      out.push(`${line}=`);
      line = '';
    }
    line += token;
  }
  out.push(line);
  return out.join('\r\n');
}

const encodedWord = (text: string, charset: Charset): string =>
  `=?${charset}?B?${Buffer.from(encodeText(text, charset)).toString('base64')}?=`;

const RU = 'Коллеги, добрый день!\nЗавтра совещание переносится на 15:00. Просьба не опаздывать.';
const RU2 = 'Отчёт за третий квартал готов: выручка выросла на 12%, расходы сократились.';

async function invalidMailCode(bytes: Uint8Array): Promise<string | undefined> {
  try {
    await parseMail(bytes);
    return undefined;
  } catch (error) {
    return isDoppelError(error) ? error.code : 'not a DoppelError';
  }
}

describe('looksLikeMail', () => {
  it('accepts a header block followed by a blank line, with or without an mbox line', () => {
    expect(looksLikeMail(mail(lines('From: a@example.com', 'Subject: hi', ''), 'body'))).toBe(true);
    expect(
      looksLikeMail(
        mail(lines('From MAILER-DAEMON Fri Jul  8 12:08:34 2011', 'Received: from x', '\tby y', ''), 'b'),
      ),
    ).toBe(true);
    expect(looksLikeMail(mail('X-Spam: no\nMessage-ID: <a@b>\n\nbody'))).toBe(true);
  });

  it('rejects text that is not a header block', () => {
    expect(looksLikeMail(mail('Москва: сегодня в столице прошёл парад.\n\nТекст.'))).toBe(false);
    expect(looksLikeMail(mail('Note: only unknown headers\n\nbody'))).toBe(false);
    expect(looksLikeMail(mail('Subject: no blank line follows\nFrom: a@b'))).toBe(false);
    expect(looksLikeMail(mail(' Subject: starts folded\n\nbody'))).toBe(false);
    expect(looksLikeMail(mail('<html><body>Subject: x</body></html>'))).toBe(false);
    expect(looksLikeMail(new Uint8Array([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a]))).toBe(false);
  });
});

describe('parseMail', () => {
  it('prefers text/plain in multipart/alternative; reads headers', async () => {
    const bytes = mail(
      lines(
        'Return-Path: <ivan@example.ru>',
        'From: =?utf-8?B?0JjQstCw0L0=?= <ivan@example.ru>',
        'To: team@example.ru',
        `Subject: ${encodedWord('Совещание', 'koi8-r')}`,
        'Date: Tue, 5 Nov 2019 10:00:00 +0300',
        'Message-ID: <20191105.abc123@mail.example.ru>',
        'MIME-Version: 1.0',
        'Content-Type: multipart/alternative; boundary="alt-1"',
        '',
        'This is a multi-part message in MIME format.',
        '--alt-1',
        'Content-Type: text/plain; charset=utf-8',
        'Content-Transfer-Encoding: quoted-printable',
        '',
      ),
      quotedPrintable(new TextEncoder().encode(RU)),
      lines('', '--alt-1', 'Content-Type: text/html; charset=utf-8', 'Content-Transfer-Encoding: base64', ''),
      base64(new TextEncoder().encode('<p>HTML version: should not be used</p>')),
      lines('', '--alt-1--'),
    );
    const parsed = await parseMail(bytes);
    expect(parsed).toEqual({
      text: RU,
      subject: 'Совещание',
      messageId: '20191105.abc123@mail.example.ru',
      from: 'ivan@example.ru',
      charset: 'utf-8',
      hadHtmlOnly: false,
    });
  });

  it('decodes a KOI8-R base64 part', async () => {
    const bytes = mail(
      lines(
        'From: a@example.ru',
        'Subject: test',
        'MIME-Version: 1.0',
        'Content-Type: text/plain; charset="koi8-r"',
        'Content-Transfer-Encoding: base64',
        '',
      ),
      base64(encodeText(RU, 'koi8-r')),
    );
    expect(await parseMail(bytes)).toMatchObject({ text: RU, charset: 'koi8-r', hadHtmlOnly: false });
  });

  it('decodes a windows-1251 quoted-printable part', async () => {
    const bytes = mail(
      lines(
        'From: a@example.ru',
        'MIME-Version: 1.0',
        'Content-Type: text/plain; charset=windows-1251',
        'Content-Transfer-Encoding: quoted-printable',
        '',
      ),
      quotedPrintable(encodeText(RU2, 'windows-1251')),
    );
    expect(await parseMail(bytes)).toMatchObject({ text: RU2, charset: 'windows-1251' });
  });

  it('converts an HTML-only mail and says so', async () => {
    const html =
      '<html><head><title>Newsletter</title><style>p{}</style></head>' +
      '<body><h1>Новости</h1><p>Первый <b>абзац</b>.</p><p>Второй&nbsp;абзац.</p></body></html>';
    const bytes = mail(
      lines(
        'From: news@example.com',
        'Subject: Weekly',
        'Content-Type: text/html; charset=utf-8',
        'Content-Transfer-Encoding: quoted-printable',
        '',
      ),
      quotedPrintable(new TextEncoder().encode(html)),
    );
    expect(await parseMail(bytes)).toMatchObject({
      text: 'Новости\n\nПервый абзац.\n\nВторой\u00a0абзац.',
      hadHtmlOnly: true,
    });
  });

  it('reads nested multipart/mixed: alternative inside, attachments left out', async () => {
    const bytes = mail(
      lines(
        'From: boss@example.ru',
        'To: all@example.ru',
        'Subject: report',
        'MIME-Version: 1.0',
        'Content-Type: multipart/mixed; boundary="mix"',
        '',
        '--mix',
        'Content-Type: multipart/alternative; boundary="alt"',
        '',
        '--alt',
        'Content-Type: text/plain; charset=koi8-r',
        'Content-Transfer-Encoding: 8bit',
        '',
      ),
      encodeText(RU2, 'koi8-r'),
      lines(
        '',
        '--alt',
        'Content-Type: multipart/related; boundary="rel"',
        '',
        '--rel',
        'Content-Type: text/html; charset=koi8-r',
        '',
      ),
      encodeText(`<p>${RU2}</p><img src="cid:logo">`, 'koi8-r'),
      lines(
        '',
        '--rel',
        'Content-Type: image/png',
        'Content-ID: <logo>',
        'Content-Transfer-Encoding: base64',
        '',
        'iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAYAAAAfFcSJAAAADUlEQVR42mNkYPhfDwAChwGA60e6kgAAAABJRU5ErkJggg==',
        '--rel--',
        '',
        '--alt--',
        '',
        '--mix',
        'Content-Type: text/plain; charset=utf-8; name="notes.txt"',
        'Content-Disposition: attachment; filename="notes.txt"',
        '',
        'attached notes must not be in the body',
        '--mix',
        'Content-Type: application/pdf; name="report.pdf"',
        'Content-Disposition: attachment; filename="report.pdf"',
        'Content-Transfer-Encoding: base64',
        '',
        'JVBERi0xLjQKJcfsj6IKNSAwIG9iago8PC9MZW5ndGggNiAwIFI+PgpzdHJlYW0K',
        '--mix--',
      ),
    );
    expect(await parseMail(bytes)).toEqual({
      text: RU2,
      subject: 'report',
      from: 'boss@example.ru',
      charset: 'koi8-r',
      hadHtmlOnly: false,
    });
  });

  it('joins a plain part and an HTML-only part of multipart/mixed in order', async () => {
    const bytes = mail(
      lines(
        'From: a@example.com',
        'Content-Type: multipart/mixed; boundary=b',
        '',
        '--b',
        'Content-Type: text/plain',
        '',
        'Intro in plain text.',
        '--b',
        'Content-Type: text/html',
        '',
        '<div>Then <i>HTML</i>.</div>',
        '--b--',
      ),
    );
    expect(await parseMail(bytes)).toMatchObject({
      text: 'Intro in plain text.\n\nThen HTML.',
      hadHtmlOnly: false,
    });
  });

  it('detects the charset of an 8-bit part that declares none', async () => {
    const bytes = mail(
      lines('From: a@example.ru', 'Subject: no charset', 'Content-Transfer-Encoding: 8bit', ''),
      encodeText(RU, 'koi8-r'),
    );
    expect(await parseMail(bytes)).toMatchObject({ text: RU, charset: 'koi8-r' });
  });

  it('re-decodes a part whose declared UTF-8 yields U+FFFD', async () => {
    const bytes = mail(
      lines('From: a@example.ru', 'Content-Type: text/plain; charset=utf-8', ''),
      encodeText(RU2, 'windows-1251'),
    );
    const parsed = await parseMail(bytes);
    expect(parsed.text).not.toContain('\ufffd');
    expect(parsed).toMatchObject({ text: RU2, charset: 'windows-1251' });
  });

  it('corrects a mislabelled Cyrillic part (cp1251 declared as KOI8-R)', async () => {
    const bytes = mail(
      lines('From: a@example.ru', 'Content-Type: text/plain; charset=koi8-r', ''),
      encodeText(RU, 'windows-1251'),
    );
    expect(await parseMail(bytes)).toMatchObject({ text: RU, charset: 'windows-1251' });
  });

  it('corrects Cyrillic sent as ISO-8859-1, but leaves real Latin-1 alone', async () => {
    const cyrillic = mail(
      lines('From: a@example.ru', 'Content-Type: text/plain; charset=iso-8859-1', ''),
      encodeText(RU2, 'windows-1251'),
    );
    expect(await parseMail(cyrillic)).toMatchObject({ text: RU2, charset: 'windows-1251' });

    const french = 'Le café est prêt à être servi, déjà chaud.';
    const latin = mail(
      lines('From: a@example.fr', 'Content-Type: text/plain; charset=iso-8859-1', ''),
      iconv.encode(french, 'latin1'),
    );
    expect(await parseMail(latin)).toMatchObject({ text: french, charset: 'iso-8859-1' });
  });

  it('repairs a raw 8-bit Subject with no encoded words', async () => {
    const bytes = mail(
      'From: a@example.ru\r\nSubject: ',
      encodeText('Квартальный отчёт', 'windows-1251'),
      '\r\nContent-Type: text/plain; charset=utf-8\r\n\r\nbody',
    );
    expect(await parseMail(bytes)).toMatchObject({ subject: 'Квартальный отчёт', text: 'body' });
  });

  it('includes an inline forwarded message/rfc822 with its own charset', async () => {
    const inner = mail(
      lines('From: c@example.ru', 'Subject: inner', 'Content-Type: text/plain; charset=windows-1251', ''),
      encodeText(RU2, 'windows-1251'),
    );
    const bytes = mail(
      lines(
        'From: b@example.ru',
        'Content-Type: multipart/mixed; boundary=fw',
        '',
        '--fw',
        'Content-Type: text/plain',
        '',
        'See below.',
        '--fw',
        'Content-Type: message/rfc822',
        '',
      ),
      inner,
      lines('', '--fw--'),
    );
    expect((await parseMail(bytes)).text).toBe(`See below.\n\n${RU2}`);
  });

  it('unfolds format=flowed text', async () => {
    const bytes = mail(
      lines(
        'From: a@example.com',
        'Content-Type: text/plain; charset=utf-8; format=flowed',
        '',
        'This paragraph was wrapped ',
        'by the sender.',
        '',
        '-- ',
        'Signature',
      ),
    );
    expect((await parseMail(bytes)).text).toBe('This paragraph was wrapped by the sender.\n\n-- \nSignature');
  });

  it('rejects what is not a mail with INVALID_MAIL', async () => {
    expect(await invalidMailCode(mail('hello world'))).toBe('INVALID_MAIL');
    expect(await invalidMailCode(new Uint8Array([0, 1, 2, 3, 0xff, 0xfe]))).toBe('INVALID_MAIL');
    expect(await invalidMailCode(new Uint8Array())).toBe('INVALID_MAIL');
  });

  it('turns a postal-mime rejection (nesting beyond its limit) into INVALID_MAIL', async () => {
    const depth = 300;
    const opens = Array.from({ length: depth }, (_, i) =>
      lines(`Content-Type: multipart/mixed; boundary="b${i}"`, '', `--b${i}`),
    ).join('');
    expect(
      await invalidMailCode(mail('From: a@example.com\r\n', opens, 'Content-Type: text/plain\r\n\r\nx\r\n')),
    ).toBe('INVALID_MAIL');
  });
});

const sharedDataPresent = warnIfNoSharedData();

describe.skipIf(!hasSharedData())('parseMail on real text (evaluation corpus)', () => {
  const ru = sharedDataPresent ? readSharedJsonl('news-ru.jsonl') : [];
  const en = sharedDataPresent ? readSharedJsonl('mail-en.jsonl') : [];
  const expected = (text: string, charset: Charset): string =>
    iconv
      .decode(Buffer.from(encodeText(text, charset)), charset)
      .replace(/\r\n?/g, '\n')
      .trim();

  it('recovers Russian articles sent as KOI8-R base64 and windows-1251 quoted-printable parts', async () => {
    expect(ru.length).toBeGreaterThan(100);
    for (const [i, article] of ru.entries()) {
      const bytes = mail(
        lines(
          'From: editor@example.ru',
          `Subject: ${encodedWord(article.title ?? 'news', 'windows-1251')}`,
          `Message-ID: <ru-${i}@example.ru>`,
          'MIME-Version: 1.0',
          'Content-Type: multipart/mixed; boundary="part"',
          '',
          '--part',
          'Content-Type: text/plain; charset=koi8-r',
          'Content-Transfer-Encoding: base64',
          '',
        ),
        base64(encodeText(article.text, 'koi8-r')),
        lines(
          '',
          '--part',
          'Content-Type: text/plain; charset=windows-1251',
          'Content-Transfer-Encoding: quoted-printable',
          '',
        ),
        quotedPrintable(encodeText(article.text, 'windows-1251')),
        lines('', '--part--'),
      );
      const parsed = await parseMail(bytes);
      expect(parsed.text).toBe(
        `${expected(article.text, 'koi8-r')}\n\n${expected(article.text, 'windows-1251')}`,
      );
      expect(parsed.messageId).toBe(`ru-${i}@example.ru`);
    }
  });

  it('recovers 200 English mails from the SpamAssassin sample as HTML-only mails', async () => {
    const sample = en.slice(0, 200);
    expect(sample.length).toBe(200);
    for (const { text } of sample) {
      const html = `<html><body>${text
        .split(/(?<=\.) /)
        .map((s) => `<p>${s.replace(/&/g, '&amp;').replace(/</g, '&lt;')}</p>`)
        .join('')}</body></html>`;
      const bytes = mail(
        lines(
          'From: list@example.com',
          'Content-Type: text/html; charset=us-ascii',
          'Content-Transfer-Encoding: 7bit',
          '',
        ),
        html.replace(/.{1,900}/g, '$&\r\n'),
      );
      const parsed = await parseMail(bytes);
      expect(parsed.hadHtmlOnly).toBe(true);
      // line folding of the HTML source may only add white space
      expect(parsed.text.replace(/\s+/g, '')).toBe(text.replace(/\s+/g, ''));
    }
  });
});

describe('mails of countless MIME parts (the fault suite: 600k empty parts took ~26 s)', () => {
  it('reads the first MAX_DELIMITER_LINES boundary lines and keeps those parts text', async () => {
    const head = 'From: a@example.com\r\nSubject: s\r\nContent-Type: multipart/mixed; boundary="b"\r\n\r\n';
    const part = (i: number) => `--b\r\nContent-Type: text/plain\r\n\r\npart${i}\r\n`;
    const mail = `${head}${part(1)}${part(2)}${'--b\r\n'.repeat(50_000)}${part(3)}--b--\r\n`;
    const bytes = Buffer.from(mail);
    const capped = capDelimiterLines(bytes, head.length);
    // Cut at the first boundary line past the cap: two real parts and 998 empty ones kept.
    expect(capped.length).toBe(head.length + part(1).length + part(2).length + 5 * (MAX_DELIMITER_LINES - 2));
    let decoded = await parseMail(bytes);
    await expectCpuUnder(3000, async () => {
      decoded = await parseMail(bytes);
    });
    expect(decoded.text).toContain('part1');
    expect(decoded.text).toContain('part2');
    expect(decoded.text).not.toContain('part3');
    // An ordinary mail is untouched.
    const small = Buffer.from(`${head}${part(1)}--b--\r\n`);
    expect(capDelimiterLines(small, head.length)).toBe(small);
  });
});
