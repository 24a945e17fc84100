/**
 * Hot buckets: a bucket that reached `index.maxBucketSize` members. A spam campaign or a story
 * syndicated everywhere is exactly such a bucket, so a full bucket keeps taking members: it holds
 * its first members (the head: a campaign's first copies, what `duplicateOf` names) and a rolling
 * tail of the most recent ones, the newest replacing the oldest of the tail. A new member of a
 * hot bucket is still compared with the campaign's start and its latest copies; the bucket stays
 * bounded. Both stores apply the same rule (the Redis store in lua/index-1.lua), so they keep the
 * same members and give the same verdicts.
 */

/** Members kept as the rolling tail of a full bucket of `maxBucketSize`: 1/8 of it, at most 16. */
export function hotTail(maxBucketSize: number): number {
  return Math.min(16, Math.floor(maxBucketSize / 8));
}

/**
 * The members of a full bucket (ascending sequence numbers, at least `maxBucketSize` of them)
 * after `seq` (newer than all) joins: the head of `maxBucketSize - tail`, the newest `tail - 1`,
 * then `seq`. Null when the bucket keeps no tail (then the newcomer is only counted).
 */
export function withHotMember(
  members: readonly number[],
  seq: number,
  maxBucketSize: number,
): number[] | null {
  const tail = hotTail(maxBucketSize);
  if (tail === 0) return null;
  const head = maxBucketSize - tail;
  const out = members.slice(0, head);
  for (let i = Math.max(head, members.length - (tail - 1)); i < members.length; i++)
    out.push(members[i] as number);
  out.push(seq);
  return out;
}
