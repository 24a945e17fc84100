import { Writable } from 'node:stream';
import { describe, expect, it } from 'vitest';
import { loggingSchema } from '../../src/config/ops.js';
import { createLogger, REDACTED } from '../../src/telemetry/log.js';

function capture(): { stream: Writable; lines: () => Record<string, unknown>[] } {
  const chunks: string[] = [];
  const stream = new Writable({
    write(chunk: Buffer, _enc, done) {
      chunks.push(chunk.toString('utf8'));
      done();
    },
  });
  return {
    stream,
    lines: () =>
      chunks
        .join('')
        .split('\n')
        .filter((l) => l !== '')
        .map((l) => JSON.parse(l) as Record<string, unknown>),
  };
}

describe('createLogger', () => {
  it('logs ids and verdicts but redacts bodies, subjects and mail addresses', () => {
    const out = capture();
    const log = createLogger(loggingSchema.parse({}), { destination: out.stream, env: {} });
    log.info(
      {
        id: 'm-1',
        verdict: 'near_duplicate',
        message: { text: 'secret body text', subject: 'Re: hello', from: 'alice@example.com' },
        to: 'bob@example.org',
        note: 'bounced from carol@example.net',
      },
      'decided for dave@example.com',
    );
    const [line] = out.lines();
    const text = JSON.stringify(line);
    expect(line?.id).toBe('m-1');
    expect(line?.verdict).toBe('near_duplicate');
    expect(line?.to).toBe(REDACTED);
    expect(line?.message).toEqual({ text: REDACTED, subject: REDACTED, from: REDACTED });
    expect(line?.note).toBe('bounced from [email]');
    expect(line?.msg).toBe('decided for [email]');
    expect(line?.level).toBe('info');
    for (const secret of ['secret body', 'hello', 'alice@', 'bob@', 'carol@', 'dave@'])
      expect(text).not.toContain(secret);
  });

  it('takes its level from the config, DOPPEL_LOG_LEVEL overriding, and extra redaction paths', () => {
    const out = capture();
    const config = loggingSchema.parse({ level: 'warn', redact: ['tenant'] });
    const quiet = createLogger(config, { destination: out.stream, env: {} });
    quiet.info('dropped');
    quiet.warn({ tenant: 'acme' }, 'kept');
    const verbose = createLogger(config, { destination: out.stream, env: { DOPPEL_LOG_LEVEL: 'debug' } });
    verbose.debug('also kept');
    expect(out.lines().map((l) => [l.msg, l.tenant])).toEqual([
      ['kept', REDACTED],
      ['also kept', undefined],
    ]);
    expect(() => loggingSchema.parse({ level: 'loud' })).toThrow();
  });
});
