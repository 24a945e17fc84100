import { mkdtempSync, readFileSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { jsonLines, runCli } from '../support/cli.js';

const good = (id: string, text: string) => JSON.stringify({ id, text });

describe('doppel sign (the CLI, as a user runs it)', () => {
  it('writes one line per input line, in order, and never stops on a bad line', async () => {
    const input = [
      good('a', 'Экспорт зерна из России вырос почти на пятую часть за сезон.'),
      'this is not json',
      JSON.stringify({ id: 'no-content' }),
      JSON.stringify({ text: 'no id' }),
      JSON.stringify({ id: 'bad-b64', raw: '%%%' }),
      JSON.stringify({
        id: 'binary',
        raw: Buffer.from([0, 1, 2, 3, 0, 255, 254, 0, 7, 8, 0, 0]).toString('base64'),
      }),
      JSON.stringify({ id: 'empty', text: ' ... !!! ' }),
      '',
      good('b', 'The central bank raised its key interest rate by half a point.'),
    ].join('\n');
    const result = await runCli(['sign'], input);
    expect(result.code).toBe(0);
    const lines = jsonLines(result.stdout);
    expect(lines.map((l) => l.id)).toEqual([
      'a',
      null,
      'no-content',
      null,
      'bad-b64',
      'binary',
      'empty',
      'b',
    ]);
    const codes = lines.map((l) => (l.error as { code?: string } | undefined)?.code ?? 'ok');
    expect(codes).toEqual([
      'ok',
      'INVALID_JSON',
      'MISSING_CONTENT',
      'INVALID_MESSAGE',
      'INVALID_BASE64',
      'UNDECODABLE',
      'EMPTY_TEXT',
      'ok',
    ]);
    expect(lines[1]).toMatchObject({ line: 2 });
    expect(result.stderr).toContain('2 signed, 6 invalid');
  });

  it('writes the documented record for a good line', async () => {
    const result = await runCli(
      ['sign'],
      good('a', 'Экспорт зерна из России вырос почти на пятую часть за сезон уборки урожая.'),
    );
    const [record] = jsonLines(result.stdout);
    expect(record).toMatchObject({ id: 'a', lang: 'ru', kind: 'text', charset: 'utf-8' });
    expect(record!.exact).toMatch(/^[0-9a-f]{16}$/);
    expect(record!.simhash).toMatch(/^[0-9a-f]{16}$/);
    expect(Array.isArray(record!.imatch)).toBe(true);
    const minhash = record!.minhash as { super: string[]; mega: string[] };
    expect(minhash.super).toHaveLength(6);
    expect(minhash.mega).toHaveLength(15);
    expect(record!.tokens).toBe(13);
    expect(record!.lexicon).toMatch(/^ru-/);
  });

  it('says whether an HTML message was signed as its article or as the whole page', async () => {
    const body = Array.from(
      { length: 4 },
      (_, i) =>
        `<p>Paragraph ${i + 1} of the report: the harbour bridge closes to cars next spring, the council said, after engineers found rusted supports.</p>`,
    ).join('');
    const page = `<html><body><nav><a href="/">Home</a> <a href="/news">News</a></nav><article>${body}</article><footer><p>All rights reserved by the Daily Courier media group, 2026.</p></footer></body></html>`;
    const lines = [
      JSON.stringify({ id: 'page', html: page }),
      JSON.stringify({ id: 'fragment', html: '<p>Too short to be an article.</p>' }),
      good('plain', 'Plain text has no extraction at all.'),
    ].join('\n');
    const records = jsonLines((await runCli(['sign'], lines)).stdout);
    expect(records.map((r) => [r.id, r.kind, r.extraction])).toEqual([
      ['page', 'html', 'article'],
      ['fragment', 'html', 'page'],
      ['plain', 'text', undefined],
    ]);
  });

  it('reads --input and writes --output files', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'doppel-sign-'));
    const input = join(dir, 'in.jsonl');
    const output = join(dir, 'out.jsonl');
    writeFileSync(
      input,
      `${good('x', 'one two three four five')}\n${good('y', 'one two three four five')}\n`,
    );
    const result = await runCli(['sign', '--input', input, '--output', output]);
    expect(result.code).toBe(0);
    const [x, y] = jsonLines(readFileSync(output, 'utf8'));
    expect(x!.exact).toBe(y!.exact);
  });

  it('rejects an unknown flag with a usage error and exit code 2', async () => {
    const result = await runCli(['sign', '--bogus']);
    expect(result.code).toBe(2);
    expect(result.stderr).toContain('USAGE');
  });

  it('fails clearly on a missing input file', async () => {
    const result = await runCli(['sign', '--input', '/nonexistent/file.jsonl']);
    expect(result.code).toBe(1);
    expect(result.stderr).toMatch(/IO: cannot read/);
  });

  it('rejects an invalid config with the field that is wrong', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'doppel-sign-'));
    const config = join(dir, 'config.json');
    writeFileSync(config, JSON.stringify({ signatures: { minhash: { bands: 50, rows: 4 } } }));
    const result = await runCli(['sign', '--config', config], good('a', 'text'));
    expect(result.code).toBe(1);
    expect(result.stderr).toContain('INVALID_CONFIG');
    expect(result.stderr).toContain('bands');
  });
});
