import fc from 'fast-check';
import iconv from 'iconv-lite';
import { type ErrorCode, INPUT_ERROR_CODES as INPUT_ERRORS } from '../../../src/errors.js';

/**
 * Hostile input for the fault suite: generators (fast-check arbitraries) of JSON Lines input lines
 * that try to break `doppel sign`, `doppel dedup` and the HTTP API, and a reference line splitter
 * so a test knows which output line answers which input line.
 *
 * Every generated case is one input line (no raw line break in it) except `randomBytes`, which may
 * hold "\n" and "\r" and so become several lines; tests split the whole file with `splitLines`
 * (the CLI's rules) to know what to expect.
 */

/** The error codes an input line may get (src/errors.ts isInputError). Anything else (INTERNAL above all) is a bug. */
export const INPUT_ERROR_CODES: readonly ErrorCode[] = [...INPUT_ERRORS];

export interface HostileCase {
  /** What made it (for failure messages and the per-kind counts). */
  kind: string;
  line: Buffer;
  /** The codes this line may get when it is invalid; when `mustFail`, it must get one of them. */
  codes?: readonly string[];
  mustFail?: boolean;
}

/** Words in the languages doppel reads, to put real text among the junk. */
export const SAMPLES = {
  ru: 'Правительство объявило о новых мерах поддержки малого бизнеса в регионах страны. Министр финансов заявил, что программа начнёт работать весной и охватит тысячи предприятий, а банки получат субсидии.',
  uk: 'Уряд оголосив про нові заходи підтримки малого бізнесу в регіонах країни. Міністр фінансів заявив, що програма почне працювати навесні, охопить тисячі підприємств; їхні ґанки і євроремонт теж.',
  en: 'The government announced new measures to support small businesses in the regions. The finance minister said the programme would start in spring and reach thousands of firms across the country.',
  fa: 'دولت از اقدامات جدید برای حمایت از کسب و کارهای کوچک در مناطق کشور خبر داد. وزیر دارایی گفت که این برنامه در بهار آغاز می‌شود و هزاران شرکت را در سراسر کشور پوشش می‌دهد.',
} as const;
export type SampleLanguage = keyof typeof SAMPLES;

/**
 * Every charset doppel reads, with the languages each can carry. KOI8-U is Ukrainian's KOI8 (і,
 * ї, є, ґ where KOI8-R has box drawing): a KOI8-U page read as KOI8-R loses those letters.
 */
export const CHARSET_LANGUAGES: ReadonlyArray<[string, SampleLanguage[]]> = [
  ['utf-8', ['ru', 'uk', 'en', 'fa']],
  ['windows-1251', ['ru', 'uk']],
  ['koi8-r', ['ru']],
  ['koi8-u', ['uk']],
  ['ibm866', ['ru']],
  ['iso-8859-5', ['ru']],
  ['windows-1256', ['fa']],
];

export function encode(text: string, charset: string): Buffer {
  return charset === 'utf-8' ? Buffer.from(text, 'utf8') : iconv.encode(text, charset);
}

/** The text an ideal decoder returns: what the charset cannot hold was already lost to "?". */
export function roundTrip(text: string, charset: string): string {
  return charset === 'utf-8' ? text : iconv.decode(encode(text, charset), charset);
}

const b64 = (bytes: Uint8Array | string) => Buffer.from(bytes).toString('base64');
const json = (value: unknown) => Buffer.from(JSON.stringify(value), 'utf8');

/** An RFC 822 mail, multipart with a base64 text part and a quoted-printable HTML part. */
export function sampleMail(charset = 'utf-8', language: SampleLanguage = 'en', boundary = 'b1'): Buffer {
  const text = SAMPLES[language];
  const body = encode(text, charset);
  const qp = Array.from(encode(`<p>${text}</p>`, charset))
    .map((b) =>
      b >= 33 && b <= 126 && b !== 61
        ? String.fromCharCode(b)
        : `=${b.toString(16).toUpperCase().padStart(2, '0')}`,
    )
    .join('')
    .replace(/(.{70})/g, '$1=\r\n');
  return Buffer.concat([
    Buffer.from(
      [
        'From: Sender <sender@example.com>',
        'To: someone@example.org',
        `Subject: =?${charset}?B?${b64(encode(text.slice(0, 40), charset))}?=`,
        'Message-ID: <m1@example.com>',
        'MIME-Version: 1.0',
        `Content-Type: multipart/alternative; boundary="${boundary}"`,
        '',
        `--${boundary}`,
        `Content-Type: text/plain; charset=${charset}`,
        'Content-Transfer-Encoding: base64',
        '',
        b64(body).replace(/(.{76})/g, '$1\r\n'),
        `--${boundary}`,
        `Content-Type: text/html; charset=${charset}`,
        'Content-Transfer-Encoding: quoted-printable',
        '',
        qp,
        `--${boundary}--`,
        '',
      ].join('\r\n'),
      'latin1',
    ),
  ]);
}

/** A mail whose multipart body nests `depth` multiparts deep. */
export function nestedMail(depth: number): Buffer {
  const head = ['From: a@example.com', 'Subject: nested', 'MIME-Version: 1.0'];
  const open: string[] = [];
  const close: string[] = [];
  for (let i = 0; i < depth; i++) {
    open.push(`Content-Type: multipart/mixed; boundary="n${i}"`, '', `--n${i}`);
    close.unshift(`--n${i}--`);
  }
  return Buffer.from(
    [...head, ...open, 'Content-Type: text/plain', '', SAMPLES.en, ...close, ''].join('\r\n'),
    'latin1',
  );
}

const MAIL_TOKENS = [
  '\r\n',
  '\n',
  '\r\n\r\n',
  '--b1',
  '--b1--',
  '--',
  'Content-Type: multipart/mixed; boundary=',
  'Content-Type: text/plain; charset=',
  'Content-Type: message/rfc822',
  'Content-Transfer-Encoding: base64',
  'Content-Transfer-Encoding: quoted-printable',
  'Content-Transfer-Encoding: x-uuencode',
  'charset=koi8-u',
  'charset=unknown-8bit',
  'charset="',
  '=?utf-8?B?',
  '=?koi8-r?Q?=F0=D2?=',
  '?=',
  '=\r\n',
  '=ZZ',
  '====',
  ': ',
  ';',
  '"',
  '\t',
  ' ',
  '\x00',
  '\xff\xfe',
  'begin 644 x\r\n',
  '@',
  '<',
];

/** A well-formed mail mutated: truncated, cut, repeated, spliced with MIME syntax and junk bytes. */
export const brokenMail: fc.Arbitrary<Buffer> = fc
  .tuple(
    fc.constantFrom(...CHARSET_LANGUAGES.map(([charset, langs]) => [charset, langs[0]] as const)),
    fc.array(
      fc.tuple(
        fc.constantFrom('truncate', 'delete', 'repeat', 'insert', 'junk'),
        fc.nat(),
        fc.nat(400),
        fc.constantFrom(...MAIL_TOKENS),
      ),
      { minLength: 1, maxLength: 6 },
    ),
  )
  .map(([[charset, lang], edits]) => {
    let mail = sampleMail(charset, lang as SampleLanguage);
    for (const [op, at, length, token] of edits) {
      const i = mail.length === 0 ? 0 : at % mail.length;
      const tokenBytes = Buffer.from(token, 'latin1');
      if (op === 'truncate') mail = mail.subarray(0, i);
      else if (op === 'delete') mail = Buffer.concat([mail.subarray(0, i), mail.subarray(i + length)]);
      else if (op === 'repeat')
        mail = Buffer.concat([
          mail.subarray(0, i + length),
          mail.subarray(i, i + length),
          mail.subarray(i + length),
        ]);
      else if (op === 'insert') mail = Buffer.concat([mail.subarray(0, i), tokenBytes, mail.subarray(i)]);
      else {
        const junk = Buffer.alloc(Math.min(length, 64));
        for (let k = 0; k < junk.length; k++) junk[k] = (at * 31 + k * 131) & 0xff;
        mail = Buffer.concat([mail.subarray(0, i), junk, mail.subarray(i)]);
      }
    }
    return mail;
  });

const HTML_TOKENS = [
  '<',
  '>',
  '</',
  '/>',
  '<p>',
  '<div>',
  '</div>',
  '<a href="',
  '<img src=x onerror=',
  '<script>',
  '</script>',
  '<style>',
  '<!--',
  '-->',
  '<![CDATA[',
  ']]>',
  '<!DOCTYPE',
  '<?xml',
  '&',
  '&amp',
  '&#x',
  '&#99999999;',
  '&#xD800;',
  '&nbsp;',
  '"',
  "'",
  '=',
  '<meta charset="koi8-u">',
  '<meta http-equiv="Content-Type" content="text/html; charset=',
  '<title>',
  '<table><tr><td>',
  '<br>',
  '\u0000',
  '\ufffd',
  '\u202e',
  '\u200d',
  ' ',
  '-',
  '@',
  'слово',
  'word',
  'واژه',
];

/** Tag soup: markup pieces in any order, with real words between them. */
export const brokenHtml: fc.Arbitrary<string> = fc
  .array(fc.oneof(fc.constantFrom(...HTML_TOKENS), fc.string({ maxLength: 12 })), { maxLength: 200 })
  .map((parts) => parts.join(''));

/** Strings of every kind of code unit: lone surrogates, controls, combining marks, RTL. */
export const hostileString: fc.Arbitrary<string> = fc.oneof(
  fc.string({ unit: 'binary', maxLength: 300 }),
  fc.string({ unit: 'grapheme', maxLength: 300 }),
  fc.string({
    unit: fc.constantFrom(
      '\u0301',
      '\u200b',
      '\u200f',
      '\u202e',
      '\ufeff',
      '\ud800',
      '\udfff',
      'а',
      '-',
      '\u00ad',
      ' ',
      '\t',
      '@',
      '<',
      '>',
      '&',
    ),
    maxLength: 400,
  }),
  fc.constantFrom(...Object.values(SAMPLES)),
);

/** Legal-looking message objects with hostile field values and types. */
export const hostileMessage = (id: string, n: number): fc.Arbitrary<Record<string, unknown>> =>
  fc.record(
    {
      id: fc.oneof(
        { weight: 6, arbitrary: fc.constant(id) },
        fc.constant(''),
        fc.constant('x'.repeat(1025)),
        fc.constant(null),
        fc.constant([id]),
        // Numbers are ids too (read as their decimal string); unique per case like the strings.
        fc.constant(n),
        fc.constant(n + 0.5),
        fc.constant(Number.NaN),
        fc.constant({ id }),
      ),
      text: fc.oneof(hostileString, fc.anything({ maxDepth: 2 })),
      title: hostileString,
      html: fc.oneof(brokenHtml, fc.anything({ maxDepth: 1 })),
      raw: fc.oneof(
        fc.uint8Array({ maxLength: 600 }).map(b64),
        fc.base64String({ maxLength: 200 }),
        fc.string({ maxLength: 50 }),
        brokenMail.map(b64),
      ),
      lang: fc.oneof(
        fc.constantFrom('ru', 'uk', 'en', 'fa', 'ru-RU', 'zz', ''),
        fc.string({ maxLength: 40 }),
      ),
      ts: fc.oneof(
        fc.integer(),
        fc.double(),
        fc.string({ maxLength: 30 }),
        fc.date({ noInvalidDate: true }).map((d) => d.toISOString()),
      ),
      extra: fc.anything({ maxDepth: 4 }),
    },
    { requiredKeys: ['id'] },
  );

/** Nested to `depth` levels, closed or not. */
export function deepJson(depth: number, closed: boolean, shape: 'array' | 'object'): string {
  const open = shape === 'array' ? '['.repeat(depth) : '{"a":'.repeat(depth);
  if (!closed) return open;
  return shape === 'array' ? `${open}${']'.repeat(depth)}` : `${open}1${'}'.repeat(depth)}`;
}

/**
 * One hostile input line (case) with index `i`: message-shaped cases carry the id `<prefix>-<i>`
 * so the output can be matched to the input.
 */
export const hostileCase = (prefix: string, i: number): fc.Arbitrary<HostileCase> => {
  const id = `${prefix}-${i}`;
  const charsetText = fc
    .tuple(
      fc.constantFrom(...CHARSET_LANGUAGES.flatMap(([c, langs]) => langs.map((l) => [c, l] as const))),
      fc.constantFrom('plain', 'html', 'mail'),
    )
    .map(([[charset, lang], wrap]) => {
      const text = SAMPLES[lang];
      const bytes =
        wrap === 'mail'
          ? sampleMail(charset, lang)
          : encode(
              wrap === 'html'
                ? `<html><head><meta charset="${charset}"></head><body><p>${text}</p></body></html>`
                : text,
              charset,
            );
      return { kind: `charset:${charset}:${wrap}`, line: json({ id, raw: b64(bytes) }) };
    });
  return fc.oneof(
    // Random bytes: not JSON, maybe not UTF-8, maybe several lines.
    fc.uint8Array({ maxLength: 2000 }).map((bytes) => ({ kind: 'random-bytes', line: Buffer.from(bytes) })),
    // JSON that is not a message, or a message with hostile fields.
    fc.jsonValue({ maxDepth: 4 }).map((v) => ({ kind: 'json-value', line: json(v) })),
    hostileMessage(id, i).map((m) => ({ kind: 'hostile-message', line: json(m) })),
    // A message cut short: never valid JSON.
    fc.tuple(hostileMessage(id, i), fc.nat()).map(([m, at]) => {
      const full = JSON.stringify(m);
      return {
        kind: 'truncated-json',
        line: Buffer.from(full.slice(0, at % full.length), 'utf8'),
        codes: ['INVALID_JSON'],
        mustFail: true,
      };
    }),
    fc
      .tuple(
        fc.integer({ min: 1, max: 50_000 }),
        fc.boolean(),
        fc.constantFrom('array', 'object') as fc.Arbitrary<'array' | 'object'>,
      )
      .map(([depth, closed, shape]) => ({
        kind: `deep-json-${closed ? 'closed' : 'open'}`,
        line: Buffer.from(deepJson(depth, closed, shape)),
        codes: closed ? ['INVALID_MESSAGE'] : ['INVALID_JSON'],
        mustFail: true,
      })),
    fc.integer({ min: 1, max: 50_000 }).map((depth) => ({
      kind: 'deep-extra-field',
      // Valid: the message ignores fields it does not know, however deep.
      line: Buffer.from(
        `{"id":${JSON.stringify(id)},"text":${JSON.stringify(SAMPLES.en)},"extra":${deepJson(depth, true, 'array')}}`,
      ),
    })),
    fc.integer({ min: 1, max: 5_000 }).map((depth) => ({
      kind: 'deep-html',
      line: json({
        id,
        html: `${'<div>'.repeat(depth)}${SAMPLES.ru}${'</div>'.repeat(depth % 3 === 0 ? depth : 0)}`,
      }),
    })),
    fc
      .integer({ min: 1, max: 1_000 })
      .map((depth) => ({ kind: 'deep-mime', line: json({ id, raw: b64(nestedMail(depth)) }) })),
    brokenHtml.map((html) => ({ kind: 'broken-html', line: json({ id, html }) })),
    brokenMail.map((mail) => ({ kind: 'broken-mail', line: json({ id, raw: b64(mail) }) })),
    charsetText,
    fc.constantFrom('%%%', 'a===', '====', '\u0430\u0431').map((raw) => ({
      kind: 'bad-base64',
      line: json({ id, raw }),
      codes: ['INVALID_BASE64'],
      mustFail: true,
    })),
    fc.constantFrom(' ', '... --- !!!', '\u200b\u200b', '<p></p>', '<script>x()</script>').map((text) => ({
      kind: 'no-words',
      line: json({ id, html: text }),
      codes: ['EMPTY_TEXT', 'MISSING_CONTENT'],
      mustFail: true,
    })),
  );
};

/**
 * The CLI's line rules (src/cli/jsonl.ts): only "\n" ends a line, one "\r" before it
 * is dropped (CRLF files), a "\r" anywhere else is part of the line (JSON reads it as white
 * space between tokens, or it is in a string), and a last line without "\n" counts.
 */
export function splitLines(data: Buffer): string[] {
  const lines: string[] = [];
  let start = 0;
  for (let i = data.indexOf(0x0a); i >= 0; i = data.indexOf(0x0a, start)) {
    lines.push(data.toString('utf8', start, i > start && data[i - 1] === 0x0d ? i - 1 : i));
    start = i + 1;
  }
  if (start < data.length) lines.push(data.toString('utf8', start));
  return lines;
}

export interface ExpectedLine {
  /** 1-based line number in the file. */
  line: number;
  /** The id the output must carry when the line is valid (its JSON `id`), if it has one. */
  id: string | null;
  /** The case it came from. */
  source: HostileCase;
}

/**
 * The input file for a list of cases (one per line) and what each non-empty line of it is: the
 * output must have exactly one line for each, in this order.
 */
export function buildInput(cases: readonly HostileCase[]): { data: Buffer; expected: ExpectedLine[] } {
  const expected: ExpectedLine[] = [];
  const parts: Buffer[] = [];
  let lineNo = 0;
  for (const c of cases) {
    parts.push(c.line, Buffer.from('\n'));
    const lines = splitLines(Buffer.concat([c.line, Buffer.from('\n')]));
    for (const text of lines) {
      lineNo++;
      if (text.trim() === '') continue;
      expected.push({ line: lineNo, id: jsonId(text), source: c });
    }
  }
  return { data: Buffer.concat(parts), expected };
}

function jsonId(text: string): string | null {
  try {
    const v = JSON.parse(text) as unknown;
    if (typeof v !== 'object' || v === null || Array.isArray(v)) return null;
    const id = (v as Record<string, unknown>).id;
    if (typeof id === 'string') return id;
    if (typeof id === 'number' && Number.isFinite(id)) return String(id);
    return null;
  } catch {
    return null;
  }
}

/**
 * `count` cases from one seed (printed by the tests so a failure can be replayed); case `k` has
 * the ids `<prefix>-<k>` / `k`, so no two lines share an id (a repeated id is tested on its own).
 */
export function sampleCases(seed: number, count: number, prefix = `s${seed}`): HostileCase[] {
  const cases: HostileCase[] = [];
  for (let k = 0; k < count; k++) {
    const [c] = fc.sample(hostileCase(prefix, k), { seed: seed + k, numRuns: 1 });
    cases.push(c as HostileCase);
  }
  return cases;
}
