import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { spawnServe } from '../support/serve-process.js';

/** ~`bytes` of text over a vocabulary of 5,000 words. */
function bigText(bytes: number): string {
  const words: string[] = [];
  let n = 0;
  let length = 0;
  while (length < bytes) {
    const w = `w${(n * 2654435761) % 5_003}`;
    words.push(w);
    length += w.length + 1;
    n++;
    if (n % 15 === 0) words.push('and the council said.');
  }
  return words.join(' ');
}

/**
 * Fires one large body and polls /healthz every 10 ms until it is answered: the longest /healthz
 * answer while the body was being signed, and how long the large request took.
 */
async function healthDuringBigBody(
  url: string,
  body: string,
): Promise<{ bigMs: number; worstHealthMs: number; polls: number }> {
  const started = performance.now();
  let done = false;
  const big = fetch(`${url}/v1/check`, {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body,
  })
    .then(async (r) => {
      await r.json();
      return { status: r.status, ms: performance.now() - started };
    })
    .finally(() => {
      done = true;
    });
  let worst = 0;
  let polls = 0;
  // Give the body time to arrive and parse: what is measured is the signing that follows.
  await new Promise((r) => setTimeout(r, 150));
  while (!done) {
    const t = performance.now();
    const r = await fetch(`${url}/healthz`);
    expect(r.status).toBe(200);
    await r.text();
    if (!done) {
      worst = Math.max(worst, performance.now() - t);
      polls++;
    }
    await new Promise((r) => setTimeout(r, 10));
  }
  const answer = await big;
  expect(answer.status).toBe(200);
  return { bigMs: answer.ms, worstHealthMs: worst, polls };
}

describe('doppel serve signs bodies off the event loop', () => {
  it('answers /healthz quickly while a large body is being signed (sign workers)', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'doppel-offload-'));
    const config = join(dir, 'config.json');
    writeFileSync(
      config,
      JSON.stringify({ api: { bodyLimitBytes: 32 * 1024 * 1024, requestTimeoutMs: 120_000 } }),
    );
    const body = JSON.stringify({ id: 'big', lang: 'en', text: bigText(16 * 1024 * 1024) });
    const serve = await spawnServe({
      args: ['--config', config, '--threads', '2'],
      env: { DOPPEL_API_TOKEN: '', DOPPEL_API_TOKEN_FILE: '' },
    });
    try {
      expect(serve.line?.signThreads).toBe(2);
      const r = await healthDuringBigBody(serve.url, body);
      // Signing 16 MB takes a second or more here; /healthz waits on nothing but the event loop.
      expect(r.polls).toBeGreaterThanOrEqual(3);
      expect(r.worstHealthMs).toBeLessThan(r.bigMs / 4);
    } finally {
      await serve.stop();
    }
  }, 180_000);
});
