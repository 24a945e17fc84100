import { describe, expect, it } from 'vitest';
import type { Decision } from '../../../src/engine/types.js';
import { parseCommitReply } from '../../../src/store/redis/codec.js';

const decision: Decision = {
  id: 'codec-m2',
  seq: 7,
  ts: 1_700_000_002_000,
  verdict: 'near_duplicate',
  joins: [],
};

describe('parseCommitReply', () => {
  it('builds the grown event of the short reply as the JSON reply has it, key order included', () => {
    const json = JSON.stringify({
      c: 'codec-m0',
      e: [
        {
          messageId: 'codec-m2',
          type: 'grown',
          clusterId: 'codec-m0',
          firstSeen: 1_700_000_000_000,
          representative: 'codec-m0',
          lastSeen: 1_700_000_002_000,
          size: 3,
        },
      ],
    });
    const fromJson = parseCommitReply(json, decision);
    const short = parseCommitReply(['codec-m0', 3, 1_700_000_000_000, 1_700_000_002_000], decision);
    expect(short).toEqual(fromJson);
    expect(JSON.stringify(short.events)).toBe(JSON.stringify(fromJson.events));
    expect(short.decidedBefore).toBeUndefined();
  });

  it('builds the created event of the empty reply', () => {
    expect(parseCommitReply('', decision)).toEqual({
      id: 'codec-m2',
      clusterId: 'codec-m2',
      events: [
        {
          type: 'created',
          clusterId: 'codec-m2',
          messageId: 'codec-m2',
          size: 1,
          firstSeen: decision.ts,
          lastSeen: decision.ts,
          representative: 'codec-m2',
        },
      ],
    });
  });
});
