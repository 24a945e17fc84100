/**
 * The window's bound on message times past the clock. Apart from the config schemas (dedup.ts,
 * which re-exports it) so that the engine and the stores use it without loading zod.
 */

/** window.maxFutureSkewMs when the configuration gives none. */
export const DEFAULT_MAX_FUTURE_SKEW_MS = 3_600_000;

/** The window's bound on how far past the clock a message's time may be (ms). */
export function maxFutureSkew(window: { maxFutureSkewMs?: number | undefined }): number {
  return window.maxFutureSkewMs ?? DEFAULT_MAX_FUTURE_SKEW_MS;
}
