import { describe, expect, it } from 'vitest';
import { createDoppel } from '../../src/embed.js';
import { parseMessageObject } from '../../src/input/message.js';
import { signRecord } from '../../src/output/sign-record.js';
import { signMessage } from '../../src/pipeline/sign.js';
import { createSigner } from '../../src/signatures/create.js';

// A Fars item of 2008 whose body is only the agency's dateline, and another title of the same agency.
const TITLE = 'تظاهرات جوانان فلسطيني عليه بان كي مون در رام الله';
const OTHER_TITLE = 'افزایش قیمت نفت در بازار جهانی پس از نشست اوپک';
const STUB = 'خبرگزاري فارس:\n.';

function mail(subject: string, body: string): string {
  const lines = [
    'From: Alice <alice@example.com>',
    'To: team@example.org',
    `Subject: ${subject}`,
    'MIME-Version: 1.0',
    'Content-Type: text/plain; charset=utf-8',
    '',
    body,
    '',
  ];
  return Buffer.from(lines.join('\r\n')).toString('base64');
}

describe('stub bodies: signed with the title on every input path', () => {
  it('links a copy of a stub item and keeps stub items of other titles apart', async () => {
    const doppel = await createDoppel({ profile: 'news' });
    try {
      const results = await doppel.process([
        { id: 'stub-original', lang: 'fa', title: TITLE, text: STUB, ts: '2026-11-20T08:00:00Z' },
        { id: 'stub-other-title', lang: 'fa', title: OTHER_TITLE, text: STUB, ts: '2026-11-20T08:05:00Z' },
        // The word-edited copy of the evaluation set: one word of the dateline gone.
        { id: 'stub-edited', lang: 'fa', title: TITLE, text: 'فارس:\n.', ts: '2026-11-20T08:10:00Z' },
        // The same page as HTML: its <title> (without the site name) is the title.
        {
          id: 'stub-html',
          lang: 'fa',
          html: `<html><head><title>${TITLE} | خبرنامه</title></head><body><p>${STUB}</p></body></html>`,
          ts: '2026-11-20T08:15:00Z',
        },
        // ...and inside a site's menu and footer: its one <article> is the stub, not the chrome.
        {
          id: 'stub-site-page',
          lang: 'fa',
          html: `<html><head><title>${TITLE} | خبرنامه شهر</title></head><body><header><a href="/">خبرنامه شهر</a><nav><a href="/1">سیاسی</a> <a href="/2">اقتصادی</a> <a href="/3">ورزشی</a></nav></header><main><article><p>${STUB}</p></article></main><footer><p>کلیه حقوق این سایت محفوظ است.</p></footer></body></html>`,
          ts: '2026-11-20T08:20:00Z',
        },
      ]);
      expect(results.map((r) => [r.id, r.verdict])).toEqual([
        ['stub-original', 'unique'],
        ['stub-other-title', 'unique'],
        ['stub-edited', 'near_duplicate'],
        ['stub-html', 'duplicate'],
        ['stub-site-page', 'duplicate'],
      ]);
      expect(results[2]).toMatchObject({ duplicateOf: 'stub-original' });
      expect(results[3]).toMatchObject({ duplicateOf: 'stub-original', method: 'exact' });
      expect(results[4]).toMatchObject({ duplicateOf: 'stub-original', method: 'exact' });
    } finally {
      await doppel.close();
    }
  });

  it('signs a MIME mail stub with its Subject, and a real body as before', async () => {
    const signer = await createSigner();
    const sign = async (id: string, raw: string) =>
      signRecord(await signMessage(parseMessageObject({ id, raw }), signer));
    const lunch = await sign('stub-mail-lunch', mail('Friday lunch', 'Sounds good, see you there.'));
    const review = await sign('stub-mail-review', mail('Budget review', 'Sounds good, see you there.'));
    expect(lunch).toMatchObject({ kind: 'mail', titleSigned: 'stub-body', bodyTokens: 5, tokens: 7 });
    expect(review.exact).not.toBe(lunch.exact);
    const body =
      'The quarterly budget review moves to Thursday afternoon because the finance team needs two more days for the figures.';
    const withSubject = await sign('stub-mail-real', mail('Budget review', body));
    const plain = signRecord(
      await signMessage(parseMessageObject({ id: 'stub-mail-text', text: body }), signer),
    );
    expect(withSubject.titleSigned).toBeUndefined();
    expect(withSubject.bodyTokens).toBeUndefined();
    expect(withSubject.exact).toBe(plain.exact);
  });
});
