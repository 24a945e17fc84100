import fc from 'fast-check';
import { beforeAll, describe, expect, it } from 'vitest';
import { DoppelError } from '../../src/errors.js';
import { parseMessageObject } from '../../src/input/message.js';
import { signRecord } from '../../src/output/sign-record.js';
import { signMessage } from '../../src/pipeline/sign.js';
import type { Signer } from '../../src/signatures/signer.js';
import { testEngine } from '../support/engine.js';

/**
 * Whatever arrives, decode -> canonicalise -> sign either returns signatures or throws a
 * DoppelError (a typed, non-retryable input error), and does the same thing every time.
 */

let engine: Signer;
beforeAll(async () => {
  engine = await testEngine();
});

type Outcome = { ok: string } | { error: string };

async function run(fields: Record<string, unknown>): Promise<Outcome> {
  try {
    const signed = await signMessage(parseMessageObject({ id: 'p', ...fields }), engine);
    return { ok: JSON.stringify(signRecord(signed)) };
  } catch (error) {
    if (!(error instanceof DoppelError)) throw error; // anything else fails the property
    expect(error.retryable).toBe(false);
    return { error: error.code };
  }
}

async function deterministic(fields: Record<string, unknown>): Promise<void> {
  expect(await run(fields)).toEqual(await run(fields));
}

const b64 = (bytes: Uint8Array) => Buffer.from(bytes).toString('base64');

const htmlPiece = fc.constantFrom(
  '<p>',
  '</p>',
  '<b>',
  '</b>',
  '<div>',
  '</div>',
  '<br>',
  '<script>',
  '</script>',
  '<style>',
  '<svg>',
  '</svg>',
  '<title>',
  '</title>',
  '<pre>',
  '</pre>',
  '<td>',
  '<!--',
  '-->',
  '<!doctype html>',
  '&amp;',
  '&#x41;',
  '&#99999999;',
  '&',
  '<',
  '>',
  '"',
  ' ',
  '\n',
  'слово',
  'word',
  'واژه',
  '-\n',
  '12\n',
);
const html = fc
  .array(fc.oneof(htmlPiece, fc.string({ maxLength: 8 })), { maxLength: 40 })
  .map((p) => p.join(''));

const headerLine = fc.oneof(
  fc.constantFrom(
    'From: a@example.com',
    'Subject: =?utf-8?B?0J/RgNC40LLQtdGC?=',
    'Subject: =?koi8-r?Q?=F0=D2=C9?=',
    'Content-Type: text/plain; charset=koi8-u',
    'Content-Type: text/html',
    'Content-Type: multipart/alternative; boundary="b"',
    'Content-Type: multipart/mixed; boundary=b',
    'Content-Type: message/rfc822',
    'Content-Transfer-Encoding: base64',
    'Content-Transfer-Encoding: quoted-printable',
    'Message-ID: <x@y>',
    ' folded continuation',
  ),
  fc.string({ maxLength: 20 }).map((s) => `X-${s.replace(/[\r\n:]/g, '')}: ${s}`),
);
const bodyLine = fc.oneof(
  fc.constantFrom(
    '--b',
    '--b--',
    '',
    'Content-Type: text/plain',
    '0J/RgNC40LLQtdGC',
    '=D0=9F=',
    '> quoted',
    '-- ',
  ),
  fc.string({ maxLength: 30 }),
  html,
);
const mime = fc
  .tuple(fc.array(headerLine, { minLength: 1, maxLength: 6 }), fc.array(bodyLine, { maxLength: 12 }))
  .map(([headers, body]) => Buffer.from(`${headers.join('\r\n')}\r\n\r\n${body.join('\n')}`));

const SETTINGS = { numRuns: 300, seed: 1212 };

describe('decode -> canonicalise -> sign throws only typed errors and is deterministic', () => {
  it('random bytes as raw', async () => {
    await fc.assert(
      fc.asyncProperty(fc.uint8Array({ maxLength: 300 }), (bytes) => deterministic({ raw: b64(bytes) })),
      SETTINGS,
    );
  });

  it('random high-half bytes with spaces (legacy-charset-like) as raw', async () => {
    const legacy = fc
      .array(fc.oneof(fc.integer({ min: 0x80, max: 0xff }), fc.constant(0x20), fc.constant(0x0a)), {
        maxLength: 200,
      })
      .map((codes) => Uint8Array.from(codes));
    await fc.assert(
      fc.asyncProperty(legacy, (bytes) => deterministic({ raw: b64(bytes) })),
      SETTINGS,
    );
  });

  it('random unicode as text, html and UTF-8 raw', async () => {
    await fc.assert(
      fc.asyncProperty(
        fc.string({ unit: 'grapheme', maxLength: 80 }),
        fc.string({ unit: 'binary', maxLength: 40 }),
        async (a, b) => {
          const text = a + b;
          await deterministic({ text });
          await deterministic({ html: text });
          await deterministic({ raw: b64(Buffer.from(text)) });
        },
      ),
      SETTINGS,
    );
  });

  it('random HTML fragments as html and raw', async () => {
    await fc.assert(
      fc.asyncProperty(html, async (page) => {
        await deterministic({ html: page });
        await deterministic({ raw: b64(Buffer.from(page)) });
      }),
      SETTINGS,
    );
  });

  it('random MIME fragments as raw', async () => {
    await fc.assert(
      fc.asyncProperty(mime, (bytes) => deterministic({ raw: b64(bytes) })),
      SETTINGS,
    );
  });
});
