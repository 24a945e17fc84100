import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { Readable } from 'node:stream';
import { describe, expect, it } from 'vitest';
import {
  type InputLine,
  isBlankLine,
  OversizedLine,
  readLineBatches,
  readLines,
  readRawLineBatches,
} from '../../src/cli/jsonl.js';
import { jsonLines, runCli } from '../support/cli.js';
import { expectCpuUnder } from '../support/cpu-budget.js';
import { rng } from '../support/engine.js';

async function collect(lines: AsyncIterable<InputLine>): Promise<InputLine[]> {
  const out: InputLine[] = [];
  for await (const line of lines) out.push(line);
  return out;
}

/** The bytes as a stream of chunks cut at random places (through multi-byte characters too). */
function chunked(bytes: Buffer, random: () => number, most = 12): Readable {
  const chunks: Buffer[] = [];
  for (let at = 0; at < bytes.length; ) {
    const size = 1 + Math.floor(random() * most);
    chunks.push(bytes.subarray(at, at + size));
    at += size;
  }
  return Readable.from(chunks);
}

/** The reader's rule: only "\n" ends a line, one "\r" before it is dropped, a last non-empty line is kept. */
function reference(text: string): string[] {
  const lines = text.split('\n');
  if (lines[lines.length - 1] === '') lines.pop();
  return lines.map((line) => (line.endsWith('\r') ? line.slice(0, -1) : line));
}

describe('readLines', () => {
  it('splits at "\\n" only (CRLF files lose the "\\r"), across chunks, UTF-8 cut in chunks', async () => {
    const random = rng(5);
    const pieces = ['a', 'ж', '€', '😀', ' ', '{"id":1}', '\n', '\r', '\r\n', '\n\n', '\r\r\n'];
    for (let n = 0; n < 300; n++) {
      let text = '';
      const length = Math.floor(random() * 40);
      for (let i = 0; i < length; i++) text += pieces[Math.floor(random() * pieces.length)];
      const bytes = Buffer.from(text, 'utf8');
      expect(await collect(readLines('-', chunked(bytes, random)))).toEqual(reference(text));
    }
  });

  it('keeps a raw CR inside a JSON line in that line (it used to split it in two)', async () => {
    const text = '{"id":"a","text":"x\ry"}\r\n{"id":"b","text":"z"}\n';
    expect(await collect(readLines('-', Readable.from([Buffer.from(text)])))).toEqual([
      '{"id":"a","text":"x\ry"}',
      '{"id":"b","text":"z"}',
    ]);
  });

  it('turns a line over the limit into an OversizedLine (its length and head) and goes on', async () => {
    const random = rng(9);
    for (let n = 0; n < 100; n++) {
      const limit = 1 + Math.floor(random() * 50);
      const lengths = Array.from({ length: 6 }, () => Math.floor(random() * 2 * limit));
      const lines = lengths.map((len, i) => `${i}`.padEnd(Math.max(len, 1), 'x'));
      const cr = random() < 0.5 ? '\r' : '';
      const bytes = Buffer.from(lines.map((l) => `${l}${cr}\n`).join(''));
      const read = await collect(readLines('-', chunked(bytes, random, 2 * limit), { maxLineBytes: limit }));
      expect(read).toHaveLength(lines.length);
      read.forEach((line, i) => {
        const original = lines[i] as string;
        if (original.length > limit) {
          expect(line).toBeInstanceOf(OversizedLine);
          const big = line as OversizedLine;
          expect(big.bytes).toBe(original.length);
          expect(original.startsWith(big.head)).toBe(true);
          expect(big.error().code).toBe('TOO_LARGE');
        } else expect(line).toBe(original);
      });
    }
  });

  it('reads a 64 MiB line in bounded memory and linear time, then the next line', async () => {
    const chunk = Buffer.alloc(1 << 16, 0x61);
    const chunks = function* () {
      yield Buffer.from('{"id":"big","text":"');
      for (let i = 0; i < 1024; i++) yield chunk;
      yield Buffer.from('"}\n{"id":"next","text":"ok"}\n');
    };
    const before = process.memoryUsage().rss;
    const batches: InputLine[][] = [];
    const cpu = process.cpuUsage();
    for await (const batch of readLineBatches('-', Readable.from(chunks()))) batches.push(batch);
    const used = process.cpuUsage(cpu);
    const seconds = (used.user + used.system) / 1e6;
    const lines = batches.flat();
    expect(lines).toHaveLength(2);
    expect(lines[0]).toBeInstanceOf(OversizedLine);
    expect((lines[0] as OversizedLine).bytes).toBe(20 + (1 << 26) + 2);
    expect((lines[0] as OversizedLine).head.startsWith('{"id":"big"')).toBe(true);
    expect(lines[1]).toBe('{"id":"next","text":"ok"}');
    // The line is not kept: far less than its 64 MiB stays resident (4 MiB limit plus slack).
    expect(process.memoryUsage().rss - before).toBeLessThan(48 << 20);
    expect(seconds).toBeLessThan(10);
  });

  it('joins the pieces of a long line once (a 4 MiB line in 1 KiB chunks)', async () => {
    const line = `{"id":"x","text":"${'b'.repeat((4 << 20) - 40)}"}`;
    const bytes = Buffer.from(`${line}\n`);
    const chunks: Buffer[] = [];
    for (let at = 0; at < bytes.length; at += 1024) chunks.push(bytes.subarray(at, at + 1024));
    let read: InputLine[] = [];
    await expectCpuUnder(3000, async () => {
      read = await collect(readLines('-', Readable.from(chunks)));
    });
    expect(read).toEqual([line]);
  });
});

describe('readRawLineBatches and isBlankLine (the dedup CLI with sign workers)', () => {
  it("gives each line's bytes, which decode to readLines' string, and the same oversized lines", async () => {
    const random = rng(17);
    const pieces = ['a', 'ж', '€', '😀', ' ', '{"id":1}', '\n', '\r', '\r\n', '\n\n', '\u3000', '\xa0'];
    const invalid = [Buffer.from([0xff]), Buffer.from([0xe2, 0x82]), Buffer.from([0xc3])];
    for (let n = 0; n < 300; n++) {
      const parts: Buffer[] = [];
      const length = Math.floor(random() * 40);
      for (let i = 0; i < length; i++)
        parts.push(
          random() < 0.1
            ? (invalid[Math.floor(random() * invalid.length)] as Buffer)
            : Buffer.from(pieces[Math.floor(random() * pieces.length)] as string),
        );
      const bytes = Buffer.concat(parts);
      const limit = 5 + Math.floor(random() * 30);
      const text: InputLine[] = [];
      // The same chunks for both (an oversized line's head is what the chunks held when it overflowed).
      const seed = Math.floor(random() * 1e9);
      for await (const batch of readLineBatches('-', chunked(bytes, rng(seed)), { maxLineBytes: limit }))
        text.push(...batch);
      const raw: Array<Buffer | OversizedLine> = [];
      for await (const batch of readRawLineBatches('-', chunked(bytes, rng(seed)), { maxLineBytes: limit }))
        raw.push(...batch);
      expect(raw).toHaveLength(text.length);
      raw.forEach((line, i) => {
        const expected = text[i] as InputLine;
        if (line instanceof OversizedLine) expect(line).toEqual(expected);
        else {
          expect(line.toString('utf8')).toBe(expected);
          expect(isBlankLine(line)).toBe((expected as string).trim() === '');
        }
      });
    }
  });

  it('calls a line blank exactly when its decoded text trims to nothing', () => {
    const cases: Array<[string, boolean]> = [
      ['', true],
      [' \t\v\f\r', true],
      ['\u3000\xa0 \u2028\ufeff', true],
      ['\u3000x', false],
      [' {"id":"a"}', false],
      ['ж', false],
      ['\u200b', false], // zero-width space is not white space to trim()
    ];
    for (const [text, blank] of cases) {
      expect(isBlankLine(Buffer.from(text)), JSON.stringify(text)).toBe(blank);
      expect(text.trim() === '').toBe(blank);
    }
    expect(isBlankLine(Buffer.from([0x20, 0xff, 0x20]))).toBe(false);
  });
});

describe('dedup with sign workers on awkward lines', () => {
  it('writes the same verdict lines as --threads 1: blank, Unicode-blank, invalid UTF-8, CRLF, bad JSON', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'doppel-jsonl-raw-'));
    const input = join(dir, 'in.jsonl');
    const lines: Buffer[] = [];
    for (let i = 0; i < 150; i++) {
      const text = `awkward line story ${i % 7} about the harbour bridge and the ferry timetable number ${i % 3}`;
      lines.push(Buffer.from(JSON.stringify({ id: `raw-${i}`, text })));
      if (i % 10 === 1) lines.push(Buffer.from('   \t'));
      if (i % 10 === 2) lines.push(Buffer.from('\u3000\xa0'));
      if (i % 10 === 3)
        lines.push(
          Buffer.concat([
            Buffer.from('{"id":"bad-utf8-'),
            Buffer.from(`${i}","text":"caf`),
            Buffer.from([0xc3, 0x28]),
            Buffer.from(' and more words here"}'),
          ]),
        );
      if (i % 10 === 4)
        lines.push(
          Buffer.from(`{"id":"crlf-${i}","text":"a line that ends with a carriage return and a newline"}\r`),
        );
      if (i % 10 === 5) lines.push(Buffer.from(`{"id":"broken-${i}","text":`));
      if (i % 10 === 6) lines.push(Buffer.from([0xff, 0xfe, 0x7b]));
      if (i % 10 === 7) lines.push(Buffer.from('\u200b'));
    }
    writeFileSync(input, Buffer.concat(lines.flatMap((l) => [l, Buffer.from('\n')])));
    const one = await runCli(['dedup', '--threads', '1', '--quiet', '--input', input]);
    const two = await runCli(['dedup', '--threads', '2', '--quiet', '--input', input]);
    expect(one.code).toBe(0);
    expect(two.code).toBe(0);
    expect(two.stdout).toBe(one.stdout);
    const verdicts = jsonLines(one.stdout);
    // Blank and Unicode-blank lines get no line; the others get one each, invalid ones with a reason.
    expect(verdicts).toHaveLength(lines.length - 15 - 15);
    expect(verdicts.filter((v) => v.verdict === 'invalid').length).toBeGreaterThanOrEqual(45);
    expect(verdicts.some((v) => v.verdict === 'duplicate' || v.verdict === 'near_duplicate')).toBe(true);
  });
});

describe('the CLI on a line over the limit', () => {
  it('dedup and sign write a TOO_LARGE record with its line number and id, and go on', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'doppel-jsonl-'));
    const input = join(dir, 'in.jsonl');
    const big = `{"id":"huge","text":"${'word '.repeat(1_000_000)}"}`;
    writeFileSync(input, `{"id":"a","text":"one two three"}\r\n${big}\n{"id":"b","text":"four five six"}\n`);
    // dedup with sign workers too: an over-limit line must not overtake the lines still in them.
    for (const args of [['dedup'], ['dedup', '--threads', '2'], ['dedup', '--threads', '1'], ['sign']]) {
      const result = await runCli([...args, '--input', input]);
      expect(result.code).toBe(0);
      const lines = jsonLines(result.stdout);
      expect(lines).toHaveLength(3);
      expect(lines[0]?.id).toBe('a');
      expect(lines[0]?.error).toBeUndefined();
      expect(lines[1]).toMatchObject({ id: 'huge', line: 2, error: { code: 'TOO_LARGE' } });
      expect(lines[2]?.id).toBe('b');
      expect(lines[2]?.error).toBeUndefined();
    }
  });

  it('a mail with a 130 KB header name is one line of the output, not the end of the run', async () => {
    // It overflowed the stack (String.fromCharCode(...bytes)): dedup wrote 0 of 201 lines.
    const dir = mkdtempSync(join(tmpdir(), 'doppel-jsonl-'));
    const input = join(dir, 'in.jsonl');
    const mail = Buffer.from(`${'X'.repeat(130_000)}: v\nFrom: a@example.com\n\nthe body of the mail\n`);
    const valid = (k: number) =>
      JSON.stringify({ id: `m${k}`, text: `message number ${k} about topic ${k * 7}` });
    const lines = [
      ...Array.from({ length: 100 }, (_, k) => valid(k)),
      JSON.stringify({ id: 'bad-mail', raw: mail.toString('base64') }),
      ...Array.from({ length: 100 }, (_, k) => valid(100 + k)),
    ];
    writeFileSync(input, `${lines.join('\n')}\n`);
    const result = await runCli(['dedup', '--input', input]);
    expect(result.code).toBe(0);
    const out = jsonLines(result.stdout);
    expect(out).toHaveLength(201);
    expect(out[100]?.id).toBe('bad-mail');
    expect(out.filter((r) => r.verdict === 'invalid').map((r) => r.id)).toEqual(
      out[100]?.verdict === 'invalid' ? ['bad-mail'] : [],
    );
  });
});
