/**
 * Candidate ranking shared by every store, so that they give the same candidates in the same order
 * (and so the same verdicts): most shared buckets first, then oldest (lowest sequence number).
 */

/**
 * Counts how many of a message's buckets each earlier member shares, and ranks them. Members are
 * collected into one reused typed array and sorted (native numeric sort), so counting the few
 * hundred members of full topic buckets allocates no Map and no entry per member.
 */
export class HitCounter {
  private members = new Float64Array(2048);
  private length = 0;
  private runSeq = new Float64Array(2048);
  private runHits = new Int32Array(2048);

  reset(): void {
    this.length = 0;
  }

  add(seq: number): void {
    if (this.length === this.members.length) {
      const grown = new Float64Array(this.members.length * 2);
      grown.set(this.members);
      this.members = grown;
    }
    this.members[this.length++] = seq;
  }

  /** The best members of the last `rankInto`, best first: sequence numbers and shared buckets. */
  topSeq = new Float64Array(64);
  topHits = new Int32Array(64);
  private histogram = new Int32Array(64);

  /** The `limit` best members as [seq, shared buckets], best first. */
  rank(limit: number): Array<[number, number]> {
    const n = this.rankInto(limit);
    const chosen: Array<[number, number]> = [];
    for (let i = 0; i < n; i++) chosen.push([this.topSeq[i] as number, this.topHits[i] as number]);
    return chosen;
  }

  /**
   * `rank` into topSeq/topHits, returning how many: no array per member or per result. Runs come
   * out of the sort in sequence order and a counting sort by hits keeps that order within a hit
   * count, so the order is (hits desc, seq asc) exactly as a stable sort gives it. (Members of
   * hot topic buckets mostly share one bucket: a sort over hundreds of [seq, hits] pairs, cut to
   * `limit` afterwards, was most of the store's garbage.)
   */
  rankInto(limit: number): number {
    if (this.length === 0 || limit <= 0) return 0;
    const sorted = this.members.subarray(0, this.length).sort();
    if (this.runSeq.length < this.length) {
      this.runSeq = new Float64Array(this.members.length);
      this.runHits = new Int32Array(this.members.length);
    }
    const runSeq = this.runSeq;
    const runHits = this.runHits;
    let runs = 0;
    let maxHits = 0;
    for (let i = 0; i < sorted.length; i++) {
      const seq = sorted[i] as number;
      if (runs > 0 && runSeq[runs - 1] === seq) {
        const h = (runHits[runs - 1] as number) + 1;
        runHits[runs - 1] = h;
        if (h > maxHits) maxHits = h;
      } else {
        runSeq[runs] = seq;
        runHits[runs] = 1;
        if (maxHits === 0) maxHits = 1;
        runs++;
      }
    }
    if (this.histogram.length < maxHits + 1) this.histogram = new Int32Array(2 * (maxHits + 1));
    const next = this.histogram;
    next.fill(0, 0, maxHits + 1);
    for (let r = 0; r < runs; r++) {
      const h = runHits[r] as number;
      next[h] = (next[h] as number) + 1;
    }
    // next[h]: the place of the next run with h hits (after every run with more).
    let above = 0;
    for (let h = maxHits; h >= 1; h--) {
      const count = next[h] as number;
      next[h] = above;
      above += count;
    }
    if (this.topSeq.length < limit) {
      this.topSeq = new Float64Array(limit);
      this.topHits = new Int32Array(limit);
    }
    const topSeq = this.topSeq;
    const topHits = this.topHits;
    for (let r = 0; r < runs; r++) {
      const h = runHits[r] as number;
      const at = next[h] as number;
      next[h] = at + 1;
      if (at < limit) {
        topSeq[at] = runSeq[r] as number;
        topHits[at] = h;
      }
    }
    return Math.min(limit, runs);
  }
}
