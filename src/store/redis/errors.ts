import { DoppelError, type ErrorCode } from '../../errors.js';

const UNAVAILABLE =
  /ECONNREFUSED|ECONNRESET|EPIPE|ETIMEDOUT|EHOSTUNREACH|ENOTFOUND|Connection is closed|Stream isn't writeable|enableOfflineQueue|MaxRetriesPerRequest|Reached the max retries|^LOADING|^BUSY|^MASTERDOWN|^CLUSTERDOWN|^TRYAGAIN|^READONLY/;

/**
 * The scripts' own failures (lua/_errors.lua: "DOPPEL_<REASON> <script>: <what>"), by reason. Each
 * is a mismatch a retry does not fix.
 */
const SCRIPT_FAILURES: Record<string, { code: ErrorCode; what: string }> = {
  ARGS: { code: 'STORE_ERROR', what: 'the script was called with arguments of another layout' },
};

/** Redis' own refusals that name their cause, by the reply's first word. */
const REDIS_FAILURES: Record<string, { code: ErrorCode; what: string }> = {
  WRONGTYPE: { code: 'STORE_ERROR', what: 'a key of the namespace holds another type' },
  OOM: { code: 'STORE_ERROR', what: 'Redis is at its maxmemory limit' },
  NOSCRIPT: { code: 'STORE_ERROR', what: 'a script is not loaded' },
};

/**
 * Redis failures as DoppelErrors: unreachable, timed out (retryable: a replay of the batch repairs
 * whatever a lost reply left, because index and commit are idempotent) or a real error (not
 * retryable: a wrong key type, a script bug, a layout mismatch).
 */
export function storeError(error: unknown, what: string): DoppelError {
  if (error instanceof DoppelError) return error;
  const message = error instanceof Error ? error.message : String(error);
  if (/Command timed out/i.test(message)) {
    return new DoppelError('STORE_TIMEOUT', `Redis did not answer ${what} in time: ${message}`, {
      cause: error,
    });
  }
  if (UNAVAILABLE.test(message)) {
    return new DoppelError('STORE_UNAVAILABLE', `Redis unavailable during ${what}: ${message}`, {
      cause: error,
    });
  }
  const word = /^(?:ERR )?(DOPPEL_)?([A-Z]+)\b/.exec(message);
  const known = word ? (word[1] ? SCRIPT_FAILURES : REDIS_FAILURES)[word[2] as string] : undefined;
  if (known) {
    return new DoppelError(known.code, `Redis failed ${what}: ${known.what}: ${message}`, { cause: error });
  }
  return new DoppelError('STORE_ERROR', `Redis failed ${what}: ${message}`, { cause: error });
}
