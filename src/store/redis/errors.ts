import { DoppelError, type ErrorCode } from '../../errors.js';
import { redactUrlsIn } from '../../redact.js';

const UNAVAILABLE =
  /ECONNREFUSED|ECONNRESET|EPIPE|ETIMEDOUT|EHOSTUNREACH|ENOTFOUND|Connection is closed|Stream isn't writeable|enableOfflineQueue|MaxRetriesPerRequest|Reached the max retries|^LOADING|^BUSY|^MASTERDOWN|^CLUSTERDOWN|^TRYAGAIN|^READONLY/;

const AUTH = /\b(NOAUTH|WRONGPASS|NOPERM)\b/;

/**
 * The scripts' own failures (lua/_errors.lua: "DOPPEL_<REASON> <script>: <what>"), by reason. Each
 * is a mismatch a retry does not fix. DOPPEL_DATA_LOST (lua/_epoch.lua) is told apart first (storeError).
 */
const SCRIPT_FAILURES: Record<string, { code: ErrorCode; what: string }> = {
  ARGS: { code: 'STORE_ERROR', what: 'the script was called with arguments of another layout' },
  CORRUPT: { code: 'STORE_CORRUPT', what: 'a value of the namespace is not one doppel writes' },
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
export function storeError(error: unknown, what: string, connectionError?: unknown): DoppelError {
  if (error instanceof DoppelError) return error;
  const message = redactUrlsIn(error instanceof Error ? error.message : String(error));
  if (message.includes('DOPPEL_DATA_LOST')) {
    return new DoppelError(
      'STORE_DATA_LOST',
      `${message.replace(/^.*?DOPPEL_DATA_LOST /, '')} during ${what}: going on would judge duplicates of the lost messages unique. Fix Redis persistence (docs/redis.md), then accept the loss with DOPPEL_RESET_NAMESPACE=1 (or redis.resetLostNamespace: true)`,
      { cause: error },
    );
  }
  // A refused AUTH closes the connection, so the command itself only says "Connection is closed.":
  // the connection's last error tells. Credentials are configuration: retrying will not fix them.
  const auth = [message, connectionError instanceof Error ? connectionError.message : '']
    .map((m) => AUTH.exec(m))
    .find((m) => m !== null);
  if (auth) {
    return new DoppelError(
      'STORE_AUTH',
      `Redis refused the credentials during ${what} (${auth[1]}): check the password / user in the store URL or redis.password, redis.username`,
      { cause: error },
    );
  }
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
  const word = /^(?:ERR )?(DOPPEL_)?([A-Z_]+)\b/.exec(message);
  const known = word ? (word[1] ? SCRIPT_FAILURES : REDIS_FAILURES)[word[2] as string] : undefined;
  if (known) {
    return new DoppelError(known.code, `Redis failed ${what}: ${known.what}: ${message}`, { cause: error });
  }
  return new DoppelError('STORE_ERROR', `Redis failed ${what}: ${message}`, { cause: error });
}
