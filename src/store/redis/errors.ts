import { DoppelError } from '../../errors.js';

const UNAVAILABLE =
  /ECONNREFUSED|ECONNRESET|EPIPE|ETIMEDOUT|EHOSTUNREACH|ENOTFOUND|Connection is closed|Stream isn't writeable|enableOfflineQueue|MaxRetriesPerRequest|Reached the max retries|^LOADING|^BUSY|^MASTERDOWN|^CLUSTERDOWN|^TRYAGAIN|^READONLY/;

/**
 * Redis failures as DoppelErrors: unreachable, timed out (retryable: a replay of the batch repairs
 * whatever a lost reply left, because index and commit are idempotent) or a real error (not
 * retryable: a wrong key type, a script bug, a layout mismatch).
 */
export function storeError(error: unknown, what: string): DoppelError {
  if (error instanceof DoppelError) return error;
  const message = error instanceof Error ? error.message : String(error);
  if (message.includes('DOPPEL_DATA_LOST')) {
    return new DoppelError(
      'STORE_DATA_LOST',
      `${message.replace(/^.*?DOPPEL_DATA_LOST /, '')} during ${what}: going on would judge duplicates of the lost messages unique. Fix Redis persistence (docs/redis.md), then accept the loss with DOPPEL_RESET_NAMESPACE=1 (or redis.resetLostNamespace: true)`,
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
  return new DoppelError('STORE_ERROR', `Redis failed ${what}: ${message}`, { cause: error });
}
