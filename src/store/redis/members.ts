import type { HitCounter } from '../rank.js';

/**
 * Bucket values as index-1.lua writes them: one member as its sequence number mod 2^32 in decimal
 * (a listpack keeps it as an integer, the smallest form for the many one-member buckets), two or
 * more as byte 255 then 4 bytes little-endian per member, oldest first.
 */
const WRAP = 2 ** 32;

/** Calls `visit` with each stored value (a sequence number mod 2^32) of a bucket value, oldest first. */
function forEachStoredMember(value: Buffer, visit: (stored: number) => void): void {
  if (value.length === 0) return;
  if (value[0] !== 255) {
    visit(Number(value.toString('latin1')));
    return;
  }
  for (let at = 1; at + 4 <= value.length; at += 4) visit(value.readUInt32LE(at));
}

/** The stored values (sequence numbers mod 2^32) of a bucket value, oldest first. */
export function storedMembers(value: Buffer): number[] {
  const out: number[] = [];
  forEachStoredMember(value, (stored) => out.push(stored));
  return out;
}

/**
 * Adds the members of one bucket value that are older than `seq` to the hit counter. The script
 * returns only live members, so each is the one number in [live, live + 2^32) with its stored
 * remainder.
 */
export function addMembers(hits: HitCounter, value: Buffer, live: number, seq: number): void {
  if (value.length === 0) return;
  const liveMod = live % WRAP;
  // Inlined (no visitor closure): this runs for every bucket value of every message.
  if (value[0] !== 255) {
    // Decimal digits read in place: no string per one-member bucket.
    let stored = 0;
    for (let i = 0; i < value.length; i++) stored = stored * 10 + ((value[i] as number) - 48);
    const member = live + ((stored - liveMod + WRAP) % WRAP);
    if (member < seq) hits.add(member);
    return;
  }
  for (let at = 1; at + 4 <= value.length; at += 4) {
    const member = live + ((value.readUInt32LE(at) - liveMod + WRAP) % WRAP);
    if (member < seq) hits.add(member);
  }
}
