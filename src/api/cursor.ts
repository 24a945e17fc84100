import type { ClusterKey, ClusterOrder } from '../engine/types.js';
import { DoppelError } from '../errors.js';

/**
 * The list routes' cursors: opaque to clients (base64url), a position by key inside. A story
 * list's cursor is the order and the key of the last story listed (its size or last seen time,
 * and its root's sequence number); a member list's is the sequence number of the last member
 * listed. Pages by key neither repeat nor skip an item when items arrive between two requests,
 * as pages by count did.
 */

const ORDER_LETTER: Record<ClusterOrder, string> = { recent: 'r', size: 's' };

const encode = (text: string) => Buffer.from(text, 'utf8').toString('base64url');

function decode(cursor: string): string[] {
  if (!/^[A-Za-z0-9_-]{1,200}$/.test(cursor)) throw badCursor();
  return Buffer.from(cursor, 'base64url').toString('utf8').split('.');
}

const badCursor = () =>
  new DoppelError(
    'BAD_REQUEST',
    'cursor: not a cursor of this list (pass `next` of the previous page as it is)',
  );

const finite = (s: string | undefined) => {
  if (s === undefined || !/^-?\d+(\.\d+)?(e[+-]?\d+)?$/.test(s)) throw badCursor();
  return Number(s);
};

export function storyCursor(order: ClusterOrder, key: ClusterKey): string {
  return encode(`${ORDER_LETTER[order]}.${key.score}.${key.root}`);
}

export function parseStoryCursor(cursor: string, order: ClusterOrder): ClusterKey {
  const [letter, score, root, ...rest] = decode(cursor);
  if (letter !== ORDER_LETTER[order] || rest.length > 0) throw badCursor();
  return { score: finite(score), root: finite(root) };
}

export function memberCursor(seq: number): string {
  return encode(`m.${seq}`);
}

export function parseMemberCursor(cursor: string): number {
  const [letter, seq, ...rest] = decode(cursor);
  if (letter !== 'm' || rest.length > 0) throw badCursor();
  return finite(seq);
}
