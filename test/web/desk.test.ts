import { type ChildProcess, execFileSync, spawn } from 'node:child_process';
import { mkdirSync, mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { DomUtils, parseDocument } from 'htmlparser2';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { DOPPEL_BIN, REPO_ROOT } from '../support/cli.js';
import { decodePng, pixelStats } from '../support/png.js';

/**
 * The story desk (GET /) in a real headless Chromium (Debian's `chromium`, installed by
 * scripts/ensure-servers.sh): `doppel serve` on a free loopback port with the demo feed
 * (demo/feed.jsonl) posted to it, the page rendered with --dump-dom (after its fetches, by virtual
 * time) and a PNG screenshot checked for size and content. No browser driver is needed.
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

const WIDTH = 1280;
const HEIGHT = 800;
const HOSTILE =
  '<img src=x onerror="document.title=\'pwned\'"><script>document.title="pwned"</script> Rates & "quotes"';

function browse(profile: string, args: string[], url: string): string {
  return execFileSync(
    CHROMIUM as string,
    [
      '--headless',
      '--no-sandbox',
      '--disable-gpu',
      '--hide-scrollbars',
      '--no-first-run',
      `--user-data-dir=${profile}`,
      `--window-size=${WIDTH},${HEIGHT}`,
      // Virtual time runs until the page's fetches are done (and its first refreshes), then dumps.
      '--virtual-time-budget=4000',
      ...args,
      url,
    ],
    { encoding: 'utf8', timeout: 60_000, stdio: ['ignore', 'pipe', 'pipe'] },
  );
}

describe.skipIf(!CHROMIUM)('the story desk in headless Chromium', () => {
  let child: ChildProcess;
  let url = '';
  let profile = '';
  let artifacts = '';
  const stories: Array<{ id: string; title: string | null; size: number }> = [];

  beforeAll(async () => {
    child = spawn(process.execPath, [DOPPEL_BIN, 'serve', '--port', '0', '--host', '127.0.0.1'], {
      cwd: REPO_ROOT,
      env: { ...process.env, DOPPEL_LOG_LEVEL: 'info', OTEL_EXPORTER_OTLP_ENDPOINT: '' },
    });
    let out = '';
    const port = await new Promise<number>((resolve, reject) => {
      const timer = setTimeout(() => reject(new Error(`no listening line: ${out}`)), 20_000);
      child.stdout?.setEncoding('utf8').on('data', (d: string) => {
        out += d;
        const line = out.split('\n').find((l) => l.includes('doppel serve listening'));
        if (line) {
          clearTimeout(timer);
          resolve((JSON.parse(line) as { port: number }).port);
        }
      });
      child.on('exit', (code) => reject(new Error(`exited ${code}: ${out}`)));
    });
    url = `http://127.0.0.1:${port}`;
    const lines = readFileSync(join(REPO_ROOT, 'demo/feed.jsonl'), 'utf8').split('\n').filter(Boolean);
    // The demo feed, and a story whose titles are an attack on the page.
    const hostile =
      'A storm cut power to forty thousand homes along the coast overnight and crews worked through the morning to restore lines, the utility said on Saturday.';
    lines.push(
      JSON.stringify({ id: 'x-1', title: HOSTILE, text: hostile, ts: '2026-11-20T11:00:00Z' }),
      JSON.stringify({ id: 'x-2', title: HOSTILE, text: hostile, ts: '2026-11-20T11:05:00Z' }),
    );
    for (const line of lines) {
      await fetch(`${url}/v1/messages`, {
        method: 'POST',
        headers: { 'content-type': 'application/json' },
        body: line,
      });
    }
    const list = (await (await fetch(`${url}/v1/clusters?order=recent`)).json()) as { items: typeof stories };
    stories.push(...list.items);
    profile = mkdtempSync(join(tmpdir(), 'doppel-chromium-'));
    artifacts = process.env.DOPPEL_ARTIFACTS_DIR ?? join(tmpdir(), 'doppel-artifacts');
    mkdirSync(artifacts, { recursive: true });
  }, 60_000);

  afterAll(() => {
    child?.kill('SIGTERM');
    if (profile) rmSync(profile, { recursive: true, force: true });
  });

  it('lists the demo feed stories with their titles and sizes, escaping hostile titles', () => {
    // The demo feed has three stories of two (a rate rise, Russian grain, a Persian story) and ours.
    expect(stories.map((s) => s.size)).toEqual([2, 2, 2, 2]);
    expect(stories.map((s) => s.title)).toContain('Central bank raises rates');
    const dom = parseDocument(browse(profile, ['--dump-dom'], `${url}/`));
    const table = DomUtils.getElementById('stories', dom.children);
    expect(table, 'the stories table').toBeTruthy();
    const rows = DomUtils.getElementsByTagName('tr', table!.children).filter((r) => r.attribs['data-id']);
    expect(rows.map((r) => r.attribs['data-id'])).toEqual(stories.map((s) => s.id));
    for (const [i, row] of rows.entries()) {
      const cells = DomUtils.getElementsByTagName('td', row.children).map((c) => DomUtils.textContent(c));
      const story = stories[i]!;
      expect(cells[0]).toBe(`${story.title ?? '(no title)'}${story.id}`);
      expect(cells[1]).toBe(String(story.size));
    }
    // The hostile title is text: no element came from it, and its script never ran.
    const x = rows.find((r) => r.attribs['data-id'] === 'x-1')!;
    expect(DomUtils.getElementsByTagName('img', x.children)).toHaveLength(0);
    expect(DomUtils.getElementsByTagName('script', x.children)).toHaveLength(0);
    expect(DomUtils.textContent(x)).toContain(HOSTILE);
    expect(DomUtils.textContent(DomUtils.getElementsByTagName('title', dom.children)[0]!)).toBe(
      'doppel · story desk',
    );
  });

  it("shows a story's members with verdicts and similarity, and a message's explanation", () => {
    const dom = parseDocument(browse(profile, ['--dump-dom'], `${url}/?id=portal-7`));
    const text = (id: string) => DomUtils.textContent(DomUtils.getElementById(id, dom.children)!);
    expect(text('story-title')).toBe('Central bank raises rates');
    const members = DomUtils.getElementsByTagName(
      'tr',
      DomUtils.getElementById('members', dom.children)!.children,
    )
      .filter((r) => r.attribs['data-id'])
      .map((r) => DomUtils.getElementsByTagName('td', r.children).map((c) => DomUtils.textContent(c)));
    expect(members.map((m) => m.slice(1, 4))).toEqual([
      ['unique', '', ''],
      ['near duplicate', '0.916', 'wire-1'],
    ]);
    expect(text('explain-text')).toBe(
      'A near-duplicate of wire-1, the earliest close match (similarity 0.916, minhash).',
    );
  });

  it('renders a non-blank screenshot of the expected size', () => {
    const file = join(artifacts, 'story-desk.png');
    browse(profile, [`--screenshot=${file}`], `${url}/?id=portal-7`);
    console.log(`story desk screenshot: ${file}`);
    const png = decodePng(readFileSync(file));
    expect([png.width, png.height]).toEqual([WIDTH, HEIGHT]);
    const { variance, colors } = pixelStats(png);
    // A blank or error page is one or two colours; the desk has text, badges and tables.
    expect(variance).toBeGreaterThan(100);
    expect(colors).toBeGreaterThan(50);
  });
});
