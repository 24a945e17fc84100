import { execFileSync } from 'node:child_process';
import { mkdirSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { Browser } from '../support/cdp.js';
import { deskFeed, HOSTILE_TITLE } from '../support/desk-feed.js';
import { decodePng, pixelStats } from '../support/png.js';
import { type ServeProcess, spawnServe } from '../support/serve-process.js';

/**
 * The story desk (GET /) in a real headless Chromium (Debian's `chromium`, installed by
 * scripts/ensure-servers.sh), driven over the DevTools protocol (test/support/cdp.ts): `doppel
 * serve` on a free loopback port with a few hundred generated news messages
 * (test/support/desk-feed.ts) posted to it, then the page at 1280x800 and as a 390x844 phone.
 * The tests assert what is visible (full titles, no horizontal overflow, the story panel on the
 * phone, keys, the address bar, search, refresh in place) and save screenshots
 * ($DOPPEL_ARTIFACTS_DIR, default $TMPDIR/doppel-artifacts) for people to look at.
 */

function findChromium(): string | null {
  for (const name of [process.env.DOPPEL_CHROMIUM, 'chromium', 'chromium-browser', 'google-chrome']) {
    if (!name) continue;
    try {
      execFileSync('sh', ['-c', `command -v "${name}"`], { stdio: 'pipe' });
      return name;
    } catch {}
  }
  return null;
}

const CHROMIUM = findChromium();
if (!CHROMIUM)
  console.warn(
    'test/web/desk.test.ts skipped: no chromium on PATH (scripts/ensure-servers.sh installs it with `apt-get install -y chromium` when run as root; or set DOPPEL_CHROMIUM)',
  );

interface Story {
  id: string;
  title: string | null;
  size: number;
}

/** In the page: the horizontal overflow of the document (0: none). */
const OVERFLOW = 'document.documentElement.scrollWidth - window.innerWidth';
/** In the page: titles of the listed stories, as rendered. */
const ROW_TITLES = "[...document.querySelectorAll('#stories li .title')].map((e) => e.textContent)";
/** In the page: titles cut off by their box (text wider than the element shows). */
const CLIPPED =
  "[...document.querySelectorAll('.title')].filter((e) => e.scrollWidth > e.clientWidth + 1).length";

describe.skipIf(!CHROMIUM)('the story desk in headless Chromium', () => {
  let server: ServeProcess | undefined;
  let url = '';
  let browser: Browser;
  let artifacts = '';
  let firstPage: Story[] = [];
  const feed = deskFeed(11, 120);

  const api = async <T>(path: string): Promise<T> => (await (await fetch(`${url}${path}`)).json()) as T;
  const post = (body: unknown) =>
    fetch(`${url}/v1/messages`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify(body),
    });
  const shot = async (name: string) => {
    const file = join(artifacts, name);
    const png = await browser.screenshot();
    writeFileSync(file, png);
    console.log(`story desk screenshot: ${file}`);
    return decodePng(png);
  };

  beforeAll(async () => {
    server = await spawnServe({ args: ['--host', '127.0.0.1'], env: { DOPPEL_LOG_LEVEL: 'info' } });
    url = server.url;
    expect(feed.length).toBeGreaterThan(250);
    for (const message of feed) expect((await post(message)).status).toBe(200);
    firstPage = (await api<{ items: Story[] }>('/v1/clusters?order=recent&limit=50')).items;
    expect(firstPage.length).toBe(50);
    artifacts = process.env.DOPPEL_ARTIFACTS_DIR ?? join(tmpdir(), 'doppel-artifacts');
    mkdirSync(artifacts, { recursive: true });
    browser = await Browser.launch(CHROMIUM as string);
  }, 300_000);

  afterAll(async () => {
    await browser?.close();
    await server?.stop();
  });

  const load = async (path: string) => {
    await browser.goto(`${url}${path}`);
    await browser.until("document.querySelectorAll('#stories li').length >= 50");
  };

  it('at 1280x800 lists stories with full titles and sizes, hostile titles as text, nothing cut or overflowing', async () => {
    await browser.viewport(1280, 800, false);
    await load('/');
    expect(await browser.eval<Array<string | null>>(ROW_TITLES)).toEqual(
      firstPage.map((s) => s.title ?? '(no title)'),
    );
    // Long titles (over 100 characters) are there in full, wrapped, not cut with an ellipsis.
    expect(firstPage.some((s) => (s.title?.length ?? 0) > 100)).toBe(true);
    expect(await browser.eval<number>(CLIPPED)).toBe(0);
    expect(await browser.eval<number>(OVERFLOW)).toBeLessThanOrEqual(0);
    const sizes = await browser.eval<string[]>(
      "[...document.querySelectorAll('#stories li .size')].map((e) => e.textContent)",
    );
    expect(sizes).toEqual(firstPage.map((s) => `${s.size} messages`));
    // One time format: local time with the year, the ISO time in the tooltip.
    const time = await browser.eval<{ text: string; title: string }>(
      "(() => { const t = document.querySelector('#stories time'); return { text: t.textContent, title: t.title }; })()",
    );
    expect(time.text).toContain('2026');
    expect(time.title).toMatch(/^2026-11-\d\dT\d\d:\d\d:00\.000Z$/);
    // The hostile title is text: no element came from it, and its script never ran.
    await browser.eval("document.querySelector('#more').click()");
    await browser.until("document.querySelectorAll('#stories li').length > 50");
    expect(await browser.eval<string[]>(ROW_TITLES)).toContain(HOSTILE_TITLE);
    expect(
      await browser.eval<number>("document.querySelectorAll('#stories img, #stories script').length"),
    ).toBe(0);
    expect(await browser.eval<string>('document.title')).toBe('doppel · story desk');
    await browser.eval('window.scrollTo(0, 0)');
    const png = await shot('desk-1280-list.png');
    expect([png.width, png.height]).toEqual([1280, 800]);
    const { variance, colors } = pixelStats(png);
    expect(variance).toBeGreaterThan(100);
    expect(colors).toBeGreaterThan(50);
  });

  it('opens a story and a message from the keyboard; the address follows and reloads to the same view', async () => {
    await browser.viewport(1280, 800, false);
    await load('/');
    await browser.press('j');
    await browser.press('j');
    expect(await browser.eval<string>('document.activeElement.dataset.id')).toBe(firstPage[1]?.id);
    await browser.press('Enter');
    await browser.until(
      "!document.querySelector('#detail').hidden && document.querySelectorAll('#members li').length > 1",
    );
    const story = firstPage[1] as Story;
    expect(await browser.eval<string>("document.querySelector('#story-title').textContent")).toBe(
      story.title,
    );
    expect(await browser.eval<string>('location.search')).toBe(`?story=${encodeURIComponent(story.id)}`);
    // Focus is on the first member: j moves to the second (a copy), Enter explains it.
    expect(await browser.eval<string>('document.activeElement.closest("#members") !== null')).toBe(true);
    await browser.press('j');
    const member = await browser.eval<string>('document.activeElement.dataset.id');
    await browser.press('Enter');
    await browser.until(
      "!document.querySelector('#why').hidden && document.querySelector('#why-summary').textContent",
    );
    expect(await browser.eval<string>('location.search')).toBe(
      `?story=${encodeURIComponent(story.id)}&message=${encodeURIComponent(member)}`,
    );
    // Side by side: this message and the one it copies, with the shared passages marked.
    expect(
      await browser.eval<number>("document.querySelectorAll('#why-message mark').length"),
    ).toBeGreaterThan(0);
    expect(await browser.eval<string>("document.querySelector('#why-other .mono').textContent")).toBe(
      story.id,
    );
    expect(await browser.eval<number>("document.querySelectorAll('#why-reasons li').length")).toBeGreaterThan(
      0,
    );
    expect(await browser.eval<string>("document.querySelector('#why-summary').textContent")).toMatch(
      new RegExp(`duplicate of ${story.id}`),
    );
    expect(await browser.eval<number>(OVERFLOW)).toBeLessThanOrEqual(0);
    await shot('desk-1280-why.png');
    // A reload (a shared link) opens the same story and message.
    await browser.reload();
    await browser.until(
      "!document.querySelector('#why').hidden && document.querySelector('#why-summary').textContent",
    );
    expect(await browser.eval<string>("document.querySelector('#story-title').textContent")).toBe(
      story.title,
    );
    expect(await browser.eval<string>("document.querySelector('#members li.selected').dataset.id")).toBe(
      member,
    );
    // Escape closes the explanation, then the story; Back reopens it.
    await browser.eval("document.querySelector('#members li').focus()");
    await browser.press('Escape');
    expect(await browser.eval<boolean>("document.querySelector('#why').hidden")).toBe(true);
    expect(await browser.eval<string>('location.search')).toBe(`?story=${encodeURIComponent(story.id)}`);
    await browser.press('Escape');
    expect(await browser.eval<boolean>("document.querySelector('#detail').hidden")).toBe(true);
    expect(await browser.eval<string>('location.search')).toBe('');
    await browser.eval('history.back()');
    await browser.until("!document.querySelector('#detail').hidden");
    expect(await browser.eval<string>("document.querySelector('#story-title').textContent")).toBe(
      story.title,
    );
  });

  it('searches story titles: the list narrows to the titles holding the words, and the address keeps the query', async () => {
    await browser.viewport(1280, 800, false);
    await load('/');
    const word = 'Lisbon';
    const all = (await api<{ items: Story[] }>('/v1/clusters?limit=100')).items;
    const expected = all.filter((s) => s.title?.toLowerCase().includes(word.toLowerCase()));
    expect(expected.length).toBeGreaterThan(0);
    await browser.eval(
      `document.querySelector('#search-q').value = '${word.toLowerCase()}'; document.querySelector('#search').requestSubmit()`,
    );
    await browser.until(`document.querySelectorAll('#stories li').length === ${expected.length}`);
    expect(await browser.eval<string[]>(ROW_TITLES)).toEqual(expected.map((s) => s.title));
    expect(await browser.eval<string>('location.search')).toBe(`?q=${word.toLowerCase()}`);
  });

  it('as a 390x844 phone: no horizontal overflow, the search box fits, a story opens as a full-screen panel', async () => {
    await browser.viewport(390, 844, true);
    await load('/');
    expect(await browser.eval<number>(OVERFLOW)).toBeLessThanOrEqual(0);
    expect(await browser.eval<number>(CLIPPED)).toBe(0);
    expect(await browser.eval<Array<string | null>>(ROW_TITLES)).toEqual(
      firstPage.map((s) => s.title ?? '(no title)'),
    );
    const search = await browser.eval<{ left: number; right: number }>(
      "document.querySelector('#search').getBoundingClientRect().toJSON()",
    );
    expect(search.left).toBeGreaterThanOrEqual(0);
    expect(search.right).toBeLessThanOrEqual(390);
    await shot('desk-390-list.png');
    const story = firstPage.find((s) => s.size >= 3) as Story;
    await browser.eval(`document.querySelector('#stories li[data-id="${story.id}"]').click()`);
    await browser.until("document.querySelectorAll('#members li').length > 1");
    // The panel covers the screen, its title in view at the top.
    const panel = await browser.eval<{ top: number; left: number; width: number; height: number }>(
      "document.querySelector('#detail').getBoundingClientRect().toJSON()",
    );
    expect(panel).toMatchObject({ top: 0, left: 0, width: 390, height: 844 });
    const title = await browser.eval<{ top: number; bottom: number }>(
      "document.querySelector('#story-title').getBoundingClientRect().toJSON()",
    );
    expect(title.top).toBeGreaterThanOrEqual(0);
    expect(title.bottom).toBeLessThan(844);
    expect(await browser.eval<number>(OVERFLOW)).toBeLessThanOrEqual(0);
    expect(await browser.eval<number>(CLIPPED)).toBe(0);
    await shot('desk-390-story.png');
    await browser.eval("document.querySelectorAll('#members li')[1].click()");
    await browser.until("document.querySelector('#why-summary').textContent");
    expect(await browser.eval<number>(OVERFLOW)).toBeLessThanOrEqual(0);
    await browser.eval("document.querySelector('#why').scrollIntoView()");
    await shot('desk-390-why.png');
    await browser.eval("document.querySelector('#close').click()");
    expect(await browser.eval<boolean>("document.querySelector('#detail').hidden")).toBe(true);
  });

  it('refreshes in place: more stories stay loaded and the open story shows its new messages', async () => {
    await browser.viewport(1280, 800, false);
    await load('/');
    await browser.eval("document.querySelector('#more').click()");
    await browser.until("document.querySelectorAll('#stories li').length > 50");
    const shown = await browser.eval<number>("document.querySelectorAll('#stories li').length");
    const story = firstPage[2] as Story;
    await browser.eval(`document.querySelector('#stories li[data-id="${story.id}"]').click()`);
    await browser.until("document.querySelectorAll('#members li').length > 1");
    const before = await browser.eval<number>("document.querySelectorAll('#members li').length");
    const original = feed.find((m) => m.id === story.id);
    // A new copy of the open story arrives: the next refresh (every 5 s) shows it.
    const copy = await post({
      id: 'late-copy',
      title: 'A late copy',
      text: `LATE (Wire) - ${original?.text}`,
      url: 'https://late.example/copy',
      // After the feed's last message: the store's clock (and window) moves with event times.
      ts: '2026-11-20T21:00:00Z',
    });
    expect(await copy.json()).toMatchObject({ clusterId: story.id });
    await browser.until(`document.querySelectorAll('#members li').length === ${before + 1}`, 15_000);
    expect(
      await browser.eval<string>("[...document.querySelectorAll('#members li')].at(-1).dataset.id"),
    ).toBe('late-copy');
    expect(
      await browser.eval<number>("document.querySelectorAll('#stories li').length"),
    ).toBeGreaterThanOrEqual(shown);
    expect(
      await browser.eval<string>("document.querySelector('#members a.source').textContent"),
    ).toBeTruthy();
  }, 60_000);
});
