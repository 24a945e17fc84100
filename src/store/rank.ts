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

  /** The `limit` best members as [seq, shared buckets], best first. */
  rank(limit: number): Array<[number, number]> {
    if (this.length === 0) return [];
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
    // The lowest hit count that still has a place: a histogram finds it without sorting every run.
    let cut = 1;
    if (runs > limit) {
      const histogram = new Int32Array(maxHits + 1);
      for (let r = 0; r < runs; r++) {
        const h = runHits[r] as number;
        histogram[h] = (histogram[h] as number) + 1;
      }
      let above = 0;
      cut = maxHits;
      while (cut > 1 && above + (histogram[cut] as number) < limit) above += histogram[cut--] as number;
    }
    // Runs are in sequence order, so a stable sort by hits gives (hits desc, seq asc).
    const chosen: Array<[number, number]> = [];
    for (let r = 0; r < runs; r++) {
      const h = runHits[r] as number;
      if (h >= cut) chosen.push([runSeq[r] as number, h]);
    }
    chosen.sort((a, b) => b[1] - a[1]);
    if (chosen.length > limit) chosen.length = limit;
    return chosen;
  }
}
