import { readFileSync } from 'node:fs';
import { resolve } from 'node:path';
import { beforeAll, describe, expect, it } from 'vitest';
import { parseMessageObject } from '../../src/input/message.js';
import { signRecord } from '../../src/output/sign-record.js';
import { signMessage } from '../../src/pipeline/sign.js';
import { createSigner } from '../../src/signatures/create.js';
import type { Signer } from '../../src/signatures/signer.js';
import { encodeText } from '../../src/text/decode/charset.js';
import { hasSharedData, readSharedJsonl, warnIfNoSharedData } from '../support/shared-data.js';

/**
 * Golden vectors: every signature of a fixed set of texts, pinned in files under
 * test/signatures/__golden__. A change to canonicalization, hashing, seeds, parameters or the
 * shipped lexicons shows up here as a diff. If the change is intended, regenerate with
 * `npx vitest run test/signatures/golden.test.ts -u`, say why in the commit, and treat it as a
 * new signature scheme (stored signatures of the old one no longer match).
 */

let engine: Signer;
beforeAll(async () => {
  engine = await createSigner();
});

const fixtures = readFileSync(resolve(import.meta.dirname, '../fixtures/articles.jsonl'), 'utf8')
  .split('\n')
  .filter((l) => l.trim() !== '')
  .map((l) => JSON.parse(l) as { id: string; lang: string; title?: string; text: string });

async function lines(messages: Record<string, unknown>[]): Promise<string> {
  const out: string[] = [];
  for (const m of messages)
    out.push(JSON.stringify(signRecord(await signMessage(parseMessageObject(m), engine))));
  return `${out.join('\n')}\n`;
}

describe('golden vectors', () => {
  it('own fixtures: text, HTML, legacy bytes and mail', async () => {
    const messages: Record<string, unknown>[] = [];
    for (const f of fixtures) {
      messages.push({ id: f.id, text: f.text, lang: f.lang });
      messages.push({ id: `${f.id}:nolang`, text: f.text });
      messages.push({
        id: `${f.id}:html`,
        html: `<html><body><p>${f.text.replaceAll('\n', '</p><p>')}</p></body></html>`,
      });
    }
    const ru = fixtures.find((f) => f.lang === 'ru')!;
    messages.push({ id: 'ru:koi8', raw: Buffer.from(encodeText(ru.text, 'koi8-r')).toString('base64') });
    messages.push({ id: 'ru:cp866', raw: Buffer.from(encodeText(ru.text, 'ibm866')).toString('base64') });
    const mail = fixtures.find((f) => f.id === 'mail-campaign')!;
    const rfc822 = `From: Rewards <news@example.com>\r\nTo: alice@example.org\r\nSubject: Winter offer\r\nMessage-ID: <abc123@example.com>\r\nMIME-Version: 1.0\r\nContent-Type: text/plain; charset=utf-8\r\n\r\n${mail.text.replaceAll('\n', '\r\n')}\r\n`;
    messages.push({ id: 'mail:rfc822', raw: Buffer.from(rfc822).toString('base64') });
    await expect(await lines(messages)).toMatchFileSnapshot('./__golden__/fixtures.jsonl');
  });

  it('stub bodies signed with their title: text, HTML, mail, an empty body', async () => {
    const title = 'Council approves tram budget';
    const stub = 'CITY, Nov 26 (Wire) -';
    const rfc822 = `From: Desk <desk@example.com>\r\nSubject: ${title}\r\nMIME-Version: 1.0\r\nContent-Type: text/plain; charset=utf-8\r\n\r\n${stub}\r\n`;
    const messages: Record<string, unknown>[] = [
      { id: 'stub:fa', lang: 'fa', title: 'تظاهرات جوانان فلسطيني در رام الله', text: 'خبرگزاري فارس:\n.' },
      { id: 'stub:text', lang: 'en', title, text: stub },
      { id: 'stub:empty', lang: 'en', title, text: ' . ' },
      {
        id: 'stub:html',
        html: `<html><head><title>${title} | City News</title></head><body><p>${stub}</p></body></html>`,
      },
      { id: 'stub:mail', raw: Buffer.from(rfc822).toString('base64') },
    ];
    await expect(await lines(messages)).toMatchFileSnapshot('./__golden__/stubs.jsonl');
  });

  describe.skipIf(!hasSharedData())(
    'real articles (evaluation corpus: only ids and signatures are pinned)',
    () => {
      warnIfNoSharedData();
      it('first articles of each shared set', async () => {
        const messages: Record<string, unknown>[] = [];
        for (const file of ['news-ru.jsonl', 'news-en.jsonl', 'news-fa.jsonl', 'mail-en.jsonl']) {
          for (const a of readSharedJsonl(file).slice(0, 8))
            messages.push({ id: a.id, text: a.text, lang: a.lang });
        }
        await expect(await lines(messages)).toMatchFileSnapshot('./__golden__/shared-data.jsonl');
      });
    },
  );
});
