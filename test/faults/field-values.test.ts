import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { request } from 'node:http';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { type Admin, Kafka, logLevel } from 'kafkajs';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { httpStatus } from '../../src/api/errors.js';
import { type LocalKafka, startLocalKafka } from '../../src/dev/kafka-broker.js';
import { type LocalRedis, startLocalRedis } from '../../src/dev/redis-server.js';
import { type ErrorCode, INPUT_ERROR_CODES } from '../../src/errors.js';
import { runCli } from '../support/cli.js';
import { spawnConsumer } from '../support/consumer-process.js';
import { readTopic } from '../support/kafka.js';
import type { ServeProcess } from '../support/serve-process.js';
import {
  type FieldCase,
  idsWithTwoVerdicts,
  PROTOTYPE_NAMES,
  sampleFieldCases,
  verdictKey,
} from './support/field-values.js';
import { faultSeed } from './support/seed.js';
import { quietServe } from './support/serve.js';

/**
 * Hostile field values (test/faults/support/field-values.ts: Object.prototype names as ids,
 * languages and keys; numbers past 2^53; far-past and far-future times; lone surrogates) through
 * the three entry points: `doppel dedup`, `doppel serve` and the news Kafka consumer on a real
 * broker and redis-server. After each: no crash, exactly one output per input (a verdict, or an
 * error record / 4xx / dead letter with an input code), every refused id refused with its code,
 * no id with two different verdicts, and the consumer commits past every record (no partition
 * is blocked by a poison value).
 */

const SEED = faultSeed('field values', 31_337);
const CASES = Number(process.env.DOPPEL_FAULTS_FIELD_CASES ?? 400);

/** The checks every entry point shares, on its outputs in input order. */
function checkOutputs(
  where: string,
  cases: readonly FieldCase[],
  outputs: ReadonlyArray<{ id: string | null; verdict?: string; duplicateOf?: string; code?: string }>,
): void {
  expect(outputs.length, `${where}: one output per input`).toBe(cases.length);
  const wrong: string[] = [];
  const verdicts: Array<{ id: string; key: string }> = [];
  outputs.forEach((out, i) => {
    const c = cases[i] as FieldCase;
    const name = `${where} case ${i} ${c.line.slice(0, 120)}`;
    if (out.code !== undefined) {
      if (!INPUT_ERROR_CODES.has(out.code as ErrorCode))
        wrong.push(`${name}: not an input code: ${out.code}`);
      if (c.mustFail && out.code !== c.mustFail) wrong.push(`${name}: ${out.code}, wanted ${c.mustFail}`);
      return;
    }
    if (c.mustFail) wrong.push(`${name}: judged ${out.verdict}, must be refused (${c.mustFail})`);
    else if (out.id !== c.id) wrong.push(`${name}: verdict for id ${JSON.stringify(out.id)}`);
    verdicts.push({ id: String(out.id), key: verdictKey(out) });
  });
  expect(wrong, `${where}: outputs that break the contract`).toEqual([]);
  expect(idsWithTwoVerdicts(verdicts), `${where}: ids with two verdicts`).toEqual([]);
}

const cases = sampleFieldCases(SEED, CASES, `fv${SEED}`);

describe('hostile field values through doppel dedup', () => {
  for (const threads of ['1', '2']) {
    it(`--threads ${threads}: one line out per line in, refused ids refused, one verdict per id`, async () => {
      const dir = mkdtempSync(join(tmpdir(), 'doppel-fv-cli-'));
      try {
        const file = join(dir, 'in.jsonl');
        writeFileSync(file, `${cases.map((c) => c.line).join('\n')}\n`);
        const result = await runCli(['dedup', '--input', file, '--threads', threads]);
        expect(result.code, result.stderr.slice(-2000)).toBe(0);
        const records = result.stdout
          .split('\n')
          .filter((l) => l !== '')
          .map((l) => JSON.parse(l) as Record<string, unknown>);
        checkOutputs(
          `dedup --threads ${threads}`,
          cases,
          records.map((r) => ({
            id: r.id as string | null,
            verdict: r.verdict as string,
            duplicateOf: r.duplicateOf as string | undefined,
            code: (r.error as { code?: string } | undefined)?.code,
          })),
        );
      } finally {
        rmSync(dir, { recursive: true, force: true });
      }
    });
  }

  it('Object.prototype names are unknown commands (exit 2), never a TypeError', async () => {
    // Four of them: each is a process start (test/cli/main.test.ts has the rest of the CLI's names).
    for (const name of PROTOTYPE_NAMES.filter((n) =>
      ['constructor', '__proto__', 'toString', 'hasOwnProperty'].includes(n),
    )) {
      const result = await runCli([name]);
      expect(result.code, name).toBe(2);
      expect(result.stderr, name).toContain(`unknown command "${name}"`);
    }
  });
});

describe('hostile field values through doppel serve', () => {
  let server: ServeProcess | undefined;
  let port: number;

  beforeAll(async () => {
    server = await quietServe();
    port = server.port;
  });

  afterAll(async () => {
    await server?.stop();
  });

  function send(method: string, path: string, body?: Buffer): Promise<{ status: number; body: string }> {
    return new Promise((resolvePromise, reject) => {
      const req = request(
        {
          host: '127.0.0.1',
          port,
          method,
          path,
          headers: body ? { 'content-type': 'application/json', 'content-length': body.length } : {},
        },
        (res) => {
          const chunks: Buffer[] = [];
          res.on('data', (c: Buffer) => chunks.push(c));
          res.on('end', () =>
            resolvePromise({ status: res.statusCode ?? 0, body: Buffer.concat(chunks).toString('utf8') }),
          );
        },
      );
      req.on('error', reject);
      req.end(body);
    });
  }

  it('POST /v1/messages: a verdict or a 4xx with an input code per body, one verdict per id, never a 5xx', async () => {
    const outputs: Array<{ id: string | null; verdict?: string; duplicateOf?: string; code?: string }> = [];
    const fiveHundreds: string[] = [];
    for (const c of cases) {
      const reply = await send('POST', '/v1/messages', Buffer.from(c.line, 'utf8'));
      const json = JSON.parse(reply.body) as Record<string, unknown>;
      if (reply.status >= 500)
        fiveHundreds.push(`${reply.status} ${reply.body.slice(0, 200)} for ${c.line.slice(0, 120)}`);
      // 409: an id reused with other content; the body carries the id's first verdict.
      const verdict = reply.status === 409 ? (json.verdict as Record<string, unknown>) : json;
      if (reply.status === 200 || reply.status === 409) {
        outputs.push({
          id: verdict.id as string,
          verdict: verdict.verdict as string,
          duplicateOf: verdict.duplicateOf as string | undefined,
        });
      } else {
        const code = (json.error as { code: ErrorCode }).code;
        expect(reply.status, `${code} for ${c.line.slice(0, 120)}`).toBe(httpStatus(code));
        outputs.push({ id: null, code });
      }
    }
    expect(fiveHundreds, `5xx answers:\n${server?.output().slice(-3000)}`).toEqual([]);
    checkOutputs('POST /v1/messages', cases, outputs);
    // Each id judged is fetchable by GET as it was answered (dot ids percent-encoded).
    const judged = new Map<string, string>();
    outputs.forEach((o) => {
      if (o.id !== null && o.code === undefined && !judged.has(o.id)) judged.set(o.id, verdictKey(o));
    });
    for (const [id, key] of judged) {
      const reply = await send('GET', `/v1/messages/${encodeURIComponent(id).replaceAll('.', '%2E')}`);
      if (reply.status === 404) continue; // expired: a far-future ts moves the window (the store's part)
      expect(reply.status, `GET ${id}: ${reply.body.slice(0, 200)}`).toBe(200);
      expect(verdictKey(JSON.parse(reply.body) as Record<string, unknown>), `GET ${id}`).toBe(key);
    }
    expect((await send('GET', '/healthz')).status).toBe(200);
  });

  it('ill-formed UTF-8 id bytes are refused (422), never collapsed to U+FFFD', async () => {
    const codes: string[] = [];
    for (const bytes of [[0xff], [0xc3], [0xed, 0xa0, 0x80], [0xf8, 0x88, 0x80, 0x80, 0x80]]) {
      const body = Buffer.concat([
        Buffer.from(`{"id":"fv${SEED}-`),
        Buffer.from(bytes),
        Buffer.from('","text":"the same text for every ill-formed id here"}'),
      ]);
      const reply = await send('POST', '/v1/messages', body);
      expect(reply.status, reply.body).toBe(422);
      codes.push((JSON.parse(reply.body) as { error: { code: string } }).error.code);
    }
    expect(new Set(codes)).toEqual(new Set(['UNDECODABLE']));
  });
});

describe('hostile field values through the news Kafka consumer (real broker, Redis store)', () => {
  let dir: string;
  let kafka: LocalKafka;
  let redis: LocalRedis;
  let client: Kafka;
  let admin: Admin;
  const input = `fv${SEED}-news`;
  const group = `fv${SEED}-group`;

  beforeAll(async () => {
    dir = mkdtempSync(join(tmpdir(), 'doppel-fv-kafka-'));
    [kafka, redis] = await Promise.all([
      startLocalKafka({ dir: join(dir, 'kafka') }),
      startLocalRedis({ settings: { dir } }),
    ]);
    client = new Kafka({ clientId: 'doppel-fv', brokers: [kafka.broker], logLevel: logLevel.NOTHING });
    admin = client.admin();
    await admin.connect();
  }, 300_000);

  afterAll(async () => {
    await admin?.disconnect().catch(() => undefined);
    await kafka?.kill();
    await redis?.stop();
    if (dir) rmSync(dir, { recursive: true, force: true });
  }, 120_000);

  it('every record gets one output (tagged, duplicates or dlq), the group commits past all of them, one verdict per id', async () => {
    await admin.createTopics({ waitForLeaders: true, topics: [{ topic: input, numPartitions: 1 }] });
    const producer = client.producer();
    await producer.connect();
    // A record timestamp far in the future too (2100), as in the issue.
    await producer.send({
      topic: input,
      acks: -1,
      messages: cases.map((c, i) => ({
        value: c.line,
        timestamp: String(i % 50 === 7 ? Date.UTC(2100, 0, 1) : Date.UTC(2026, 10, 20) + i),
      })),
    });
    await producer.disconnect();
    const config = join(dir, 'consumer.json');
    writeFileSync(
      config,
      JSON.stringify({
        consumer: { inputs: [{ topic: input, format: 'json' }], groupId: group, namespace: `fv${SEED}` },
      }),
    );
    const { child, output, exited } = spawnConsumer(
      {
        DOPPEL_CONFIG: config,
        DOPPEL_KAFKA_BROKERS: kafka.broker,
        DOPPEL_REDIS_URL: redis.url,
        DOPPEL_LOG_LEVEL: 'warn',
      },
      { keepOutput: 8_000 },
    );
    try {
      // Blocked partition = the group never commits the end; an exit is a failure too.
      await Promise.race([
        committedToEnd(admin, group, input, 120_000),
        exited.then((code) => {
          throw new Error(`the consumer exited ${code}:\n${output()}`);
        }),
      ]);
    } finally {
      if (child.exitCode === null) child.kill('SIGTERM');
    }
    expect(await exited, output().slice(-3000)).toBe(0);

    const tagged = await readTopic(client, `${input}.tagged`, { settleMs: 1_000 });
    const duplicates = await readTopic(client, `${input}.duplicates`, { settleMs: 1_000 });
    const dlq = await readTopic(client, `${input}.dlq`, { settleMs: 1_000 });
    const byOffset = new Map<
      number,
      { id: string | null; verdict?: string; duplicateOf?: string; code?: string }
    >();
    for (const m of [...tagged, ...duplicates, ...dlq]) {
      const h = m.headers;
      const offset = Number(h['doppel-source-offset']);
      expect(byOffset.has(offset), `two outputs for offset ${offset}`).toBe(false);
      byOffset.set(
        offset,
        h['doppel-error-code'] !== undefined
          ? { id: h['doppel-id'] ?? null, code: h['doppel-error-code'] }
          : {
              id: h['doppel-id'] ?? null,
              verdict: h['doppel-verdict'],
              duplicateOf: h['doppel-duplicate-of'],
            },
      );
    }
    const outputs = cases.map((_c, i) => byOffset.get(i) ?? { id: null, code: 'MISSING OUTPUT' });
    checkOutputs('news consumer', cases, outputs);
  }, 300_000);
});

/**
 * Waits until `group` has committed `topic` to its end. The broker answers "not the coordinator"
 * while the group's coordinator is still loading: asked again, not failed.
 */
async function committedToEnd(admin: Admin, group: string, topic: string, timeoutMs: number): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  let last = '';
  for (;;) {
    try {
      const ends = await admin.fetchTopicOffsets(topic);
      const [committed] = await admin.fetchOffsets({ groupId: group, topics: [topic] });
      const at = new Map((committed?.partitions ?? []).map((p) => [p.partition, Number(p.offset)]));
      last = JSON.stringify({ ends, committed });
      if (ends.every((p) => (at.get(p.partition) ?? -1) >= Number(p.high))) return;
    } catch (error) {
      last = (error as Error).message;
    }
    if (Date.now() > deadline) throw new Error(`${group} did not commit ${topic} to its end: ${last}`);
    await new Promise((r) => setTimeout(r, 200));
  }
}
