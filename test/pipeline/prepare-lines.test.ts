import { beforeAll, describe, expect, it } from 'vitest';
import { resolveDedupConfig } from '../../src/config/profiles.js';
import { RequestPreparer } from '../../src/engine/engine.js';
import { initHashing } from '../../src/hash/xxhash.js';
import { LexiconSet } from '../../src/lexicon/lexicon.js';
import { prepareLines } from '../../src/pipeline/prepare-lines.js';
import { Signer } from '../../src/signatures/signer.js';

beforeAll(async () => {
  await initHashing();
});

const paragraph = (day: string) =>
  `Officials said on ${day} that the new bridge over the river will open next spring after two years of delays caused by flooding, higher steel prices and a dispute with the original contractor.`;
const article = `${paragraph('Tuesday')}\n\n${paragraph('Wednesday')}`;
const page = `<html><body><nav><a href="/">Home</a> <a href="/world">World news</a></nav>
<article><p>${paragraph('Tuesday')}</p><p>${paragraph('Wednesday')}</p></article>
<footer><p>Unsubscribe from these e-mails or change your settings here at any time.</p></footer></body></html>`;
const wholePage = `Home World news\n\n${article}\n\nUnsubscribe from these e-mails or change your settings here at any time.`;

/** The exact signature of each line, prepared as the dedup CLI's sign threads prepare them. */
async function exacts(profile: 'news' | 'mail', lines: string[]): Promise<string[]> {
  const config = resolveDedupConfig(profile);
  const items = await prepareLines(
    lines,
    new Signer(config.signatures, LexiconSet.defaults()),
    new RequestPreparer(config),
  );
  return items.map((item) => (item.status === 0 ? item.request.record.exact : `error ${item.error.code}`));
}

describe("prepareLines (the sign threads' line path)", () => {
  it("decodes HTML lines as the profile's canonical.html says: news the article, mail the whole page", async () => {
    const lines = (text: string) => [
      JSON.stringify({ id: 'page', html: page, lang: 'en' }),
      JSON.stringify({ id: 'text', text, lang: 'en' }),
    ];
    const [newsPage, newsArticle] = await exacts('news', lines(article));
    expect(newsPage).toBe(newsArticle);
    const [mailPage, mailWhole] = await exacts('mail', lines(wholePage));
    expect(mailPage).toBe(mailWhole);
    expect(mailPage).not.toBe(newsPage);
  });
});
