import { describe, expect, it } from 'vitest';
import { canonicalSchema } from '../../src/config/signatures.js';
import { isDoppelError } from '../../src/errors.js';
import { canonicalize, type TextSource } from '../../src/text/canonical.js';

const config = canonicalSchema.parse({});
const TITLE = 'تظاهرات جوانان فلسطيني عليه بان كي مون در رام الله';
const OTHER_TITLE = 'افزایش قیمت نفت در بازار جهانی';
const STUB = 'خبرگزاري فارس:\n.';
const BODY =
  'The city council voted on Tuesday to extend the northern tram line by four stops, the mayor said.';

function doc(source: TextSource, lang = 'fa', canonical = config) {
  return canonicalize(source, canonical, lang);
}

describe('canonicalize: a stub body is signed with its title', () => {
  it('puts the title in front of a body of fewer than stubBodyTokens tokens and says why', () => {
    const titled = doc({ text: STUB, kind: 'text', title: TITLE });
    const alone = doc({ text: STUB, kind: 'text' });
    expect(alone.canonical).toBe('خبرگزاری فارس');
    expect(alone.signedTitle).toBeNull();
    expect(titled.canonical).toBe(`${doc({ text: TITLE, kind: 'text' }).canonical} خبرگزاری فارس`);
    expect(titled.signedTitle).toEqual({ reason: 'stub-body', bodyTokens: 2 });
  });

  it('gives two stub items of one agency with different titles different canonical texts', () => {
    const a = doc({ text: STUB, kind: 'text', title: TITLE });
    const b = doc({ text: STUB, kind: 'text', title: OTHER_TITLE });
    expect(a.canonical).not.toBe(b.canonical);
  });

  it('signs a real body as it does without a title', () => {
    const titled = doc({ text: BODY, kind: 'text', title: 'Tram line to grow' }, 'en');
    const alone = doc({ text: BODY, kind: 'text' }, 'en');
    expect(titled.canonical).toBe(alone.canonical);
    expect(titled.signedTitle).toBeNull();
  });

  it('counts tokens at the threshold: 8 tokens are a body, 7 a stub', () => {
    const seven = 'Moscow, 26 November (Wire) - by our staff';
    const eight = `${seven} reporter`;
    expect(doc({ text: seven, kind: 'text' }, 'en').tokenCount).toBe(7);
    expect(doc({ text: seven, kind: 'text', title: 'Rates up' }, 'en').signedTitle).toEqual({
      reason: 'stub-body',
      bodyTokens: 7,
    });
    expect(doc({ text: eight, kind: 'text', title: 'Rates up' }, 'en').signedTitle).toBeNull();
  });

  it('signs an empty body by its title instead of failing, and fails without one', () => {
    expect(doc({ text: ' . - ', kind: 'text', title: 'Rates up' }, 'en')).toMatchObject({
      canonical: 'rates up',
      signedTitle: { reason: 'stub-body', bodyTokens: 0 },
    });
    for (const title of [undefined, '', ' — '])
      expect(() =>
        doc({ text: ' . - ', kind: 'text', ...(title === undefined ? {} : { title }) }, 'en'),
      ).toThrow(expect.objectContaining({ code: 'EMPTY_TEXT' }));
  });

  it('leaves a stub as it is when the title has no word', () => {
    const titled = doc({ text: STUB, kind: 'text', title: '— | —' });
    expect(titled.canonical).toBe('خبرگزاری فارس');
    expect(titled.signedTitle).toBeNull();
  });

  it('signs a mail stub with its subject after the mail clean-up', () => {
    const mail = doc(
      { text: 'See you there.\n\n-- \nAlice Example\nSales', kind: 'mail', title: 'Friday lunch' },
      'en',
    );
    expect(mail.canonical).toBe('friday lunch see you there');
    expect(mail.signedTitle).toEqual({ reason: 'stub-body', bodyTokens: 3 });
  });

  it('never with stubBodyTokens 0; always, for any body, with includeTitle', () => {
    const off = canonicalSchema.parse({ stubBodyTokens: 0 });
    expect(doc({ text: STUB, kind: 'text', title: TITLE }, 'fa', off).canonical).toBe('خبرگزاری فارس');
    try {
      doc({ text: '.', kind: 'text', title: TITLE }, 'fa', off);
      expect.unreachable('an empty body with stubBodyTokens 0 is EMPTY_TEXT');
    } catch (error) {
      expect(isDoppelError(error) && error.code).toBe('EMPTY_TEXT');
    }
    const always = canonicalSchema.parse({ includeTitle: true });
    const titled = doc({ text: BODY, kind: 'text', title: 'Tram line to grow' }, 'en', always);
    expect(titled.canonical.startsWith('tram line to grow the city council')).toBe(true);
    expect(titled.signedTitle).toEqual({ reason: 'always' });
  });
});
