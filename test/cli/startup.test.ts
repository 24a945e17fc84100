import { copyFileSync, mkdtempSync, readFileSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { describe, expect, it } from 'vitest';
import { jsonLines, REPO_ROOT, runCli } from '../support/cli.js';

const RECORDER = resolve(REPO_ROOT, 'test/fixtures/startup/record-modules.mjs');

/**
 * Runs the CLI with the module recorder: what it loaded (package names and dist/ paths). Start-up CPU
 * itself is a benchmark figure (`npm run bench:stages`, docs/benchmarks.md), not a timed test.
 */
async function recorded(args: string[], input = ''): Promise<{ stdout: string; modules: string[] }> {
  const file = join(mkdtempSync(join(tmpdir(), 'doppel-startup-')), 'modules.json');
  const result = await runCli(args, input, {
    NODE_OPTIONS: `${process.env.NODE_OPTIONS ?? ''} --import=${RECORDER}`,
    DOPPEL_TEST_MODULES_FILE: file,
  });
  expect(result.code, result.stderr).toBe(0);
  const { urls } = JSON.parse(readFileSync(file, 'utf8')) as { urls: string[] };
  const modules = urls.map((u) => /node_modules\/((?:@[^/]+\/)?[^/]+)\//.exec(u)?.[1] ?? u);
  return { stdout: result.stdout, modules };
}

const DECODERS = ['htmlparser2', 'postal-mime', 'iconv-lite'];
// zod: the default config was validated by the build; a plain message needs no schema.
const NOT_AT_START = [...DECODERS, 'zod'];

describe('start-up (docs/benchmarks.md): a run loads only what its input needs', () => {
  it('dedup and sign on text messages load no HTML, MIME or charset decoder and no zod', async () => {
    for (const command of ['dedup', 'sign']) {
      const run = await recorded(
        [command],
        `${JSON.stringify({ id: 'startup-1', text: 'Rates rose again on Friday.' })}\n`,
      );
      for (const name of NOT_AT_START) expect(run.modules, `${command} loaded ${name}`).not.toContain(name);
      expect(jsonLines(run.stdout)).toHaveLength(1);
    }
  });

  it('the first HTML message loads the decoders, and is decoded as before', async () => {
    const input = [
      {
        id: 'startup-html',
        html: '<html><body><article><p>The central bank raised its key rate.</p></article></body></html>',
      },
      { id: 'startup-raw', raw: Buffer.from('Центральный банк повысил ставку.', 'utf8').toString('base64') },
    ]
      .map((m) => JSON.stringify(m))
      .join('\n');
    const run = await recorded(['dedup', '--threads', '1'], input);
    expect(run.modules).toContain('htmlparser2');
    expect(jsonLines(run.stdout).map((l) => l.verdict)).toEqual(['unique', 'unique']);
  });

  it('a config file, a message that is not plain and a JSON lexicon are checked by their schemas', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'doppel-startup-'));
    const config = join(dir, 'config.json');
    writeFileSync(config, JSON.stringify({ batchSize: 0 }));
    const bad = await runCli(['dedup', '--config', config], '');
    expect(bad.code).toBe(1);
    expect(bad.stderr).toContain('batchSize');
    writeFileSync(config, JSON.stringify({ batchSize: 16 }));
    const numbered = { id: 7, text: 'Rates rose again on Friday.' };
    const run = await recorded(
      ['dedup', '--threads', '1', '--config', config],
      `${JSON.stringify(numbered)}\n{"id":"x","text":5}\n`,
    );
    expect(run.modules).toContain('zod');
    const lines = jsonLines(run.stdout);
    expect(lines[0]?.id).toBe('7');
    expect((lines[1]?.error as { message?: string } | undefined)?.message).toBe(
      'text: Invalid input: expected string, received number',
    );

    // A lexicon read from JSON (not the shipped compact form), and a broken one.
    const lexicon = join(dir, 'en.json');
    copyFileSync(resolve(REPO_ROOT, 'data/lexicons/en.json'), lexicon);
    const english = {
      id: 'startup-en',
      text: 'The central bank raised its key interest rate by half a point on Friday.',
    };
    const signed = await recorded(['sign', '--lexicon', `en=${lexicon}`], `${JSON.stringify(english)}\n`);
    expect(signed.modules).toContain('zod');
    expect(jsonLines(signed.stdout)[0]?.error).toBeUndefined();
    const broken = join(dir, 'broken.json');
    writeFileSync(broken, JSON.stringify({ format: 'doppel-lexicon/1' }));
    const refused = await runCli(['sign', '--lexicon', `en=${broken}`], `${JSON.stringify(english)}\n`);
    expect(refused.stdout + refused.stderr).toContain('INVALID_LEXICON');
  });
});
