import { describe, expect, it } from 'vitest';
import { capParts, MAX_DELIMITER_LINES, parseMail } from '../../../src/text/decode/mail.js';
import { jsonLines, runCli } from '../../support/cli.js';

/**
 * Defect 5 (hostile input, round 3): the 1,000-part MIME cap dropped content without a word. Text
 * parts are preferred (attachments and other non-text parts are dropped first), and text parts
 * the cap still cuts are reported (MAIL_TRUNCATED on the verdict).
 */
const head = 'From: a@example.com\r\nSubject: s\r\nContent-Type: multipart/mixed; boundary="b"\r\n\r\n';
const attachment = (i: number) =>
  `--b\r\nContent-Type: application/octet-stream\r\nContent-Disposition: attachment; filename="f${i}.bin"\r\nContent-Transfer-Encoding: base64\r\n\r\nAAEC\r\n`;
const image = (i: number) => `--b\r\nContent-Type: image/png\r\n\r\nimage${i}\r\n`;
const text = (body: string) => `--b\r\nContent-Type: text/plain; charset=utf-8\r\n\r\n${body}\r\n`;
const BODY =
  'The quarterly report shows revenue rising in every region, led by strong demand for the new product line and lower shipping costs.';

function mail(parts: string[]): Buffer {
  return Buffer.from(`${head}${parts.join('')}--b--\r\n`);
}

describe('defect 5: the MIME part cap prefers text parts and reports a truncation', () => {
  it('a mail with 1,000 attachments before its text/plain body keeps the body', async () => {
    const parts = [
      ...Array.from({ length: 600 }, (_, i) => attachment(i)),
      ...Array.from({ length: 600 }, (_, i) => image(i)),
      text(BODY),
    ];
    const decoded = await parseMail(mail(parts));
    expect(decoded.text).toContain('quarterly report');
    expect(decoded.text).not.toContain('image');
    // Only non-text parts were dropped: no text part was lost.
    expect(decoded.truncatedParts).toBeUndefined();
  });

  it('counts the text parts the cap cuts', async () => {
    const parts = Array.from({ length: MAX_DELIMITER_LINES + 250 }, (_, i) => text(`word${i}`));
    const decoded = await parseMail(mail(parts));
    expect(decoded.text).toContain('word0');
    expect(decoded.text).toContain(`word${MAX_DELIMITER_LINES - 1}`);
    expect(decoded.text).not.toContain(`word${MAX_DELIMITER_LINES}`);
    expect(decoded.truncatedParts).toBe(250);
  });

  it('keeps an ordinary mail byte for byte, and closing boundaries after dropped parts', () => {
    const small = mail([text(BODY), attachment(1)]);
    const from = head.length;
    expect(capParts(small, from)).toEqual({ bytes: small, truncatedParts: 0 });
    const big = mail([
      ...Array.from({ length: MAX_DELIMITER_LINES + 5 }, (_, i) => attachment(i)),
      text(BODY),
    ]);
    const capped = Buffer.from(capParts(big, from).bytes).toString('latin1');
    expect(capped).not.toContain('application/octet-stream');
    expect(capped).toContain(BODY);
    expect(capped.endsWith('--b--\r\n')).toBe(true);
  });

  it.each(['1', '2'])(
    'a mail cut by the cap gets a valid verdict with warning MAIL_TRUNCATED through doppel dedup --threads %s',
    async (threads) => {
      const many = Array.from({ length: MAX_DELIMITER_LINES + 10 }, (_, i) => text(`${BODY} part ${i}`));
      const lines = [
        {
          id: 'attachments-first',
          raw: mail([...Array.from({ length: 1_000 }, (_, i) => attachment(i)), text(BODY)]),
        },
        { id: 'cut', raw: mail(many) },
      ].map((m) => JSON.stringify({ id: m.id, raw: m.raw.toString('base64') }));
      const result = await runCli(
        ['dedup', '--profile', 'mail', '--threads', threads],
        `${lines.join('\n')}\n`,
      );
      expect(result.code).toBe(0);
      const out = jsonLines(result.stdout);
      expect(out[0]).toMatchObject({ id: 'attachments-first', verdict: 'unique' });
      expect(out[0]).not.toHaveProperty('warning');
      expect(out[1]).toMatchObject({ id: 'cut', warning: { code: 'MAIL_TRUNCATED', parts: 10 } });
      expect(out[1]?.verdict).not.toBe('invalid');
    },
  );
});
