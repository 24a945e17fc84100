import type { Decision } from '../../engine/types.js';

/** One index call's sequence numbers by id, and how many of its decisions are still to commit. */
interface CallSeqs {
  seqs: Map<string, number>;
  open: number;
}

/** Most index calls whose numbers are kept while they wait for their commits. */
const MAX_OPEN_CALLS = 16;

/**
 * The sequence numbers a client learnt from its index calls (each call's messages and their
 * candidates), kept per call until the call's decisions are committed: commit sends a joined
 * message's number instead of its id field when the decision's own index call knows it, and the
 * script then makes no HGET for it (codec.ts writeDecisions). Several index calls can wait for
 * their commits at once (the Kafka consumer's partitions, each batch indexed before the others
 * commit), so a commit must not forget the numbers of the calls after its own. A call's numbers
 * go when as many decisions as it had undecided messages were committed, or when more than
 * MAX_OPEN_CALLS calls wait (a batch that failed after its index call never commits; its retry
 * is a new call).
 */
export class KnownSeqs {
  private readonly calls: CallSeqs[] = [];

  /** An index call's numbers, and how many decisions (its new and pending messages) will commit them. */
  add(seqs: Map<string, number>, undecided: number): void {
    if (undecided === 0) return;
    this.calls.push({ seqs, open: undecided });
    if (this.calls.length > MAX_OPEN_CALLS) this.calls.shift();
  }

  /**
   * The numbers of the index call that gave `decision` its sequence number (the newest such
   * call), counting the decision as committed; undefined when no call kept here did.
   */
  take(decision: Decision): ReadonlyMap<string, number> | undefined {
    for (let i = this.calls.length - 1; i >= 0; i--) {
      const call = this.calls[i] as CallSeqs;
      if (call.seqs.get(decision.id) !== decision.seq) continue;
      if (--call.open === 0) this.calls.splice(i, 1);
      return call.seqs;
    }
    return undefined;
  }
}
