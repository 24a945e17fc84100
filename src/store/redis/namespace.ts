import { DoppelError } from '../../errors.js';

/** Opening and resetting a namespace, as both Redis stores do it (lua/open-1.lua claims it). */

/** The namespace settings a store is given; `check` throws for a prefix or name keys.ts refuses. */
export function checkNamespaceName(check: () => unknown): void {
  try {
    check();
  } catch (e) {
    throw new DoppelError('INVALID_CONFIG', (e as Error).message);
  }
}

export function namespaceLost(namespace: string, why: string): DoppelError {
  return new DoppelError(
    'STORE_DATA_LOST',
    `namespace "${namespace}" lost its data while in use (${why}): its verdicts so far are gone, and going on would judge their duplicates unique. Fix Redis persistence (docs/redis.md), then accept the loss and start the namespace anew with DOPPEL_RESET_NAMESPACE=1 (or redis.resetLostNamespace: true), or use another namespace`,
  );
}

/** `fields` names the parts of a layout string; `hint` says which settings to keep. */
export function layoutMismatch(
  namespace: string,
  found: string,
  wanted: string,
  fields: string,
  hint: string,
): DoppelError {
  return new DoppelError(
    'STORE_ERROR',
    `namespace "${namespace}" was created with layout ${found} (${fields}), not ${wanted}: ${hint}`,
  );
}

/** `s` as a literal part of a SCAN MATCH pattern. */
export function globEscape(s: string): string {
  return s.replace(/[*?[\]\\]/g, '\\$&');
}

interface Scannable {
  scan(
    cursor: string,
    match: 'MATCH',
    pattern: string,
    count: 'COUNT',
    n: number,
  ): Promise<[string, string[]]>;
}

/** Every key of `node` matching `pattern`, a SCAN page at a time, each page handed to `each`. */
export async function scanKeys(
  node: Scannable,
  pattern: string,
  run: <T>(what: string, command: () => Promise<T>) => Promise<T>,
  each: (keys: string[]) => Promise<void>,
): Promise<void> {
  let cursor = '0';
  do {
    const [next, keys] = await run('reset namespace', () =>
      node.scan(cursor, 'MATCH', pattern, 'COUNT', 1000),
    );
    cursor = next;
    await each(keys);
  } while (cursor !== '0');
}
