import { type DestinationStream, destination, type Logger, pino, stdTimeFunctions } from 'pino';
import type { LoggingConfig } from '../config/ops.js';

/**
 * Fields that hold message content or personal data: never logged, at any depth pino's redaction
 * reaches (top level, one and two levels down). Ids, verdicts, cluster ids and error codes are
 * logged; the text that was judged is not.
 */
const SENSITIVE_FIELDS = [
  'text',
  'html',
  'raw',
  'body',
  'title',
  'subject',
  'from',
  'to',
  'cc',
  'bcc',
  'replyTo',
  'sender',
  'email',
  'address',
  'headers',
  'authorization',
  'password',
] as const;

export const REDACTED = '[redacted]';

export function redactPaths(extra: readonly string[] = []): string[] {
  const paths: string[] = [];
  for (const f of SENSITIVE_FIELDS) paths.push(f, `*.${f}`, `*.*.${f}`);
  return [...paths, ...extra];
}

// An address anywhere in a logged string (an error message quoting a header, say) is masked too.
const EMAIL = /[A-Za-z0-9._%+-]+@[A-Za-z0-9.-]+\.[A-Za-z]{2,}/g;

export function maskEmails(value: string): string {
  return value.replace(EMAIL, '[email]');
}

function scrub(value: unknown, depth: number): unknown {
  if (typeof value === 'string') return maskEmails(value);
  if (depth > 3 || value === null || typeof value !== 'object') return value;
  if (Array.isArray(value)) return value.map((v) => scrub(v, depth + 1));
  if (value instanceof Error) return value;
  const out: Record<string, unknown> = {};
  for (const [k, v] of Object.entries(value)) out[k] = scrub(v, depth + 1);
  return out;
}

export interface LoggerOptions {
  /** Where lines go (default: standard output; tests pass a stream). */
  destination?: DestinationStream;
  /** `name` field of every line (e.g. doppel-api, doppel-news). */
  name?: string;
  env?: NodeJS.ProcessEnv;
}

/**
 * JSON lines on standard output (pino). Level from the config, DOPPEL_LOG_LEVEL overriding it (a
 * Deployment changes it without a new ConfigMap). Redaction by path, and e-mail addresses masked
 * in every string value and in the message itself.
 */
export function createLogger(config: LoggingConfig, options: LoggerOptions = {}): Logger {
  const env = options.env ?? process.env;
  const level = env.DOPPEL_LOG_LEVEL?.trim() || config.level;
  return pino(
    {
      level,
      name: options.name ?? 'doppel',
      base: { pid: process.pid },
      timestamp: stdTimeFunctions.isoTime,
      redact: { paths: redactPaths(config.redact), censor: REDACTED },
      formatters: {
        level: (label) => ({ level: label }),
        log: (object) => scrub(object, 0) as Record<string, unknown>,
      },
      hooks: {
        logMethod(args, method) {
          const masked = args.map((a) => (typeof a === 'string' ? maskEmails(a) : a));
          method.apply(this, masked as Parameters<typeof method>);
        },
      },
    },
    options.destination ?? destination({ dest: 1, sync: false }),
  );
}

export type { Logger };
