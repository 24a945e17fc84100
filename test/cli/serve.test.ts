import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { apiToken } from '../../src/cli/serve.js';
import { spawnServe } from '../support/serve-process.js';

const TOKEN = 'file-token-0123456789abcdef';

describe('doppel serve: API token', () => {
  it('comes from DOPPEL_API_TOKEN or the file DOPPEL_API_TOKEN_FILE names (not both, not short)', () => {
    const dir = mkdtempSync(join(tmpdir(), 'doppel-token-'));
    const file = join(dir, 'token');
    writeFileSync(file, `${TOKEN}\n`);
    expect(apiToken({})).toBeNull();
    expect(apiToken({ DOPPEL_API_TOKEN: '' })).toBeNull();
    expect(apiToken({ DOPPEL_API_TOKEN: TOKEN })).toBe(TOKEN);
    expect(apiToken({ DOPPEL_API_TOKEN_FILE: file })).toBe(TOKEN);
    expect(() => apiToken({ DOPPEL_API_TOKEN: TOKEN, DOPPEL_API_TOKEN_FILE: file })).toThrow(/not both/);
    expect(() => apiToken({ DOPPEL_API_TOKEN: 'short' })).toThrow(/at least 16/);
    expect(() => apiToken({ DOPPEL_API_TOKEN_FILE: join(dir, 'missing') })).toThrow(/cannot read/);
  });

  it('listens on 127.0.0.1 unless --host says otherwise, and requires the token on /v1', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'doppel-token-'));
    writeFileSync(join(dir, 'token'), TOKEN);
    const serve = await spawnServe({ env: { DOPPEL_API_TOKEN_FILE: join(dir, 'token') } });
    try {
      expect([serve.line?.host, serve.line?.auth]).toEqual(['127.0.0.1', 'bearer']);
      const { url } = serve;
      const check = (authorization?: string) =>
        fetch(`${url}/v1/check`, {
          method: 'POST',
          headers: { 'content-type': 'application/json', ...(authorization ? { authorization } : {}) },
          body: '{"id":"a","text":"the council voted to expand the tram line"}',
        });
      expect((await check()).status).toBe(401);
      expect((await check(`Bearer ${TOKEN}`)).status).toBe(200);
      expect((await fetch(`${url}/healthz`)).status).toBe(200);
      expect(serve.output()).not.toContain(TOKEN);
    } finally {
      await serve.stop();
    }
  });
});
