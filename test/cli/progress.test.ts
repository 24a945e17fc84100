import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { Readable } from 'node:stream';
import { afterAll, describe, expect, it } from 'vitest';
import { readLineBatches } from '../../src/cli/jsonl.js';
import { duration, knownInputSize, progressLine } from '../../src/cli/progress.js';

const dir = mkdtempSync(join(tmpdir(), 'doppel-progress-'));
afterAll(() => rmSync(dir, { recursive: true, force: true }));

describe('doppel dedup progress', () => {
  it('knows the input size only for a file with stderr on a terminal', () => {
    const file = join(dir, 'in.jsonl');
    writeFileSync(file, 'x'.repeat(1234));
    expect(knownInputSize(file, true)).toBe(1234);
    expect(knownInputSize(file, false)).toBeNull();
    expect(knownInputSize('-', true)).toBeNull();
    expect(knownInputSize(join(dir, 'missing.jsonl'), true)).toBeNull();
    expect(knownInputSize(dir, true)).toBeNull();
  });

  it('shows percent, bytes and ETA with a known size; counts and rate otherwise (as before)', () => {
    const base = {
      messages: 5000,
      elapsedMs: 10_000,
      rssBytes: 200 * 1024 * 1024,
      bytesRead: 25 * 1024 * 1024,
    };
    expect(progressLine({ ...base, totalBytes: 100 * 1024 * 1024 })).toBe(
      'doppel dedup: 25.0% (25.0 of 100.0 MB), 5000 messages, 500/s, ETA 30s, RSS 200 MB',
    );
    expect(progressLine({ ...base, totalBytes: null })).toBe(
      'doppel dedup: 5000 messages, 500/s, RSS 200 MB',
    );
    expect(progressLine({ ...base, bytesRead: 0, totalBytes: 10 })).toMatch(/0\.0% .* ETA unknown/);
    // A file that grew while read never shows more than 100%.
    expect(progressLine({ ...base, totalBytes: 1024 })).toMatch(/^doppel dedup: 100\.0% .* ETA 0s/);
    expect([duration(9.4), duration(75), duration(3725)]).toEqual(['9s', '1m 15s', '1h 02m']);
  });

  it('counts the bytes read per chunk, whatever the lines', async () => {
    const chunks = ['{"id":"a"}\n{"id', '":"b"}\r\n', '\n{"id":"c"}'];
    const counter = { bytes: 0 };
    const lines: unknown[] = [];
    for await (const batch of readLineBatches('-', Readable.from(chunks.map((c) => Buffer.from(c))), {
      counter,
    }))
      lines.push(...batch);
    expect(lines).toEqual(['{"id":"a"}', '{"id":"b"}', '', '{"id":"c"}']);
    expect(counter.bytes).toBe(chunks.join('').length);
  });
});
