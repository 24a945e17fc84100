import { beforeAll, describe, expect, it } from 'vitest';
import { resolveDedupConfig } from '../../src/config/profiles.js';
import { DedupEngine } from '../../src/engine/engine.js';
import { isInputError } from '../../src/errors.js';
import { initHashing } from '../../src/hash/xxhash.js';
import { parseMessageObject } from '../../src/input/message.js';
import { LexiconSet } from '../../src/lexicon/lexicon.js';
import { engineMessage, MessageFlow } from '../../src/pipeline/flow.js';
import { signMessage } from '../../src/pipeline/sign.js';
import { Signer } from '../../src/signatures/signer.js';
import { MemoryStore } from '../../src/store/memory/store.js';

const config = resolveDedupConfig('news');
let signer: Signer;
beforeAll(async () => {
  await initHashing();
  signer = new Signer(config.signatures, LexiconSet.defaults());
});

/** A flow whose signer has `c`'s signature config (the engine is not used by decode). */
const f0 = (c: ReturnType<typeof resolveDedupConfig>) =>
  new MessageFlow(
    new DedupEngine(c, new MemoryStore(c.window, c.index)),
    new Signer(c.signatures, LexiconSet.defaults()),
  );
const flow = () =>
  new MessageFlow(new DedupEngine(config, new MemoryStore(config.window, config.index)), signer);
const text =
  'Officials said on Tuesday that the new bridge over the river will open next spring after two years of ' +
  'delays caused by flooding, higher steel prices and a dispute with the original contractor.';

describe('MessageFlow', () => {
  it('prepares a text message without a promise, others with one, into the same request as the stages', async () => {
    const f = flow();
    const message = parseMessageObject({ id: 'a', text, lang: 'en' });
    const prepared = f.prepare(message, 5);
    expect(prepared).not.toBeInstanceOf(Promise);
    const staged = f.engine.indexRequest(engineMessage(await signMessage(message, signer), 5));
    expect(prepared).toEqual(staged);
    const html = parseMessageObject({ id: 'h', html: `<p>${text}</p>`, lang: 'en' });
    const fromHtml = f.prepare(html, 5);
    expect(fromHtml).toBeInstanceOf(Promise);
    expect((await fromHtml).record.exact).toBe((prepared as Awaited<typeof fromHtml>).record.exact);
    // The title the stores keep for display: the message's, or the one decoding found.
    const titled = parseMessageObject({ id: 't', text, title: '  Bridge\n opens ', lang: 'en' });
    expect((f.prepare(titled, 5) as Awaited<typeof fromHtml>).title).toBe('Bridge opens');
    const page = parseMessageObject({
      id: 'p',
      html: `<title>Bridge page</title><p>${text}</p>`,
      lang: 'en',
    });
    expect((await f.prepare(page, 5)).title).toBe('Bridge page');
  });

  it("decodes HTML as the profile's canonical.html says: news signs the article, mail the whole page", async () => {
    const page = `<html><body><nav><a href="/">Home</a> <a href="/world">World news</a></nav>
<article><p>${text}</p><p>${text.replace('Tuesday', 'Wednesday')}</p></article>
<footer><p>Unsubscribe from these e-mails or change your settings here at any time.</p></footer></body></html>`;
    const message = parseMessageObject({ id: 'page', html: page, lang: 'en' });
    const news = await f0(config).decode(message);
    expect(news.extraction).toBe('article');
    expect(news.text).not.toContain('Unsubscribe');
    const mail = resolveDedupConfig('mail');
    const whole = await f0(mail).decode(message);
    expect(whole.extraction).toBe('page');
    expect(whole.text).toContain('Unsubscribe');
    expect(whole.text).toContain('World news');
  });

  it('processes, checks and replays through the engine: check indexes nothing, a replay keeps its verdict', async () => {
    const f = flow();
    const a = await f.prepare(parseMessageObject({ id: 'a', text, lang: 'en' }), 1);
    const b = await f.prepare(parseMessageObject({ id: 'b', text: `${text} More at 11.`, lang: 'en' }), 2);
    expect(await f.process([])).toEqual([]);
    const [checked] = await f.check([a]);
    expect(checked).toMatchObject({ id: 'a', verdict: 'unique' });
    expect((await f.engine.store.stats()).messages).toBe(0);
    const verdicts = await f.process([a, b]);
    expect(verdicts.map((v) => [v.verdict, v.clusterId])).toEqual([
      ['unique', 'a'],
      ['near_duplicate', 'a'],
    ]);
    const [again] = await f.process([b]);
    expect(again).toMatchObject({ verdict: 'near_duplicate', clusterId: 'a', replay: true });
    expect(again?.events.map((e) => e.type)).toEqual(['grown']);
  });

  it('throws input errors from the decode and sign stages (the entry point makes them invalid)', async () => {
    const f = flow();
    const empty = parseMessageObject({ id: 'e', text: '!!! ... ???', lang: 'en' });
    const error = await Promise.resolve()
      .then(() => f.prepare(empty, 0))
      .then(
        () => null,
        (e: unknown) => e,
      );
    expect(isInputError(error)).toBe(true);
  });
});
