/**
 * Three messages that merge two stories: `p1` and `p2` are the two halves of one article (each
 * starts its own cluster), `both` is the whole article, a near-duplicate of `p1` that contains
 * `p2` too, so its decision merges `p2`'s cluster into the older `p1`. `both` comes twice: the
 * second is a replay (its first verdict, and a `grown` event with `"replay": true`).
 */
const ARTICLE = [
  'The harbour authority said on Monday that the new container terminal on the eastern quay will open in spring,',
  'two years later than planned, after a dispute with the builder over the cost of dredging the approach channel.',
  "The terminal is meant to double the port's capacity for large ships and employ about nine hundred people.",
  'Local businesses welcomed the date but warned that the delay had already pushed several shipping lines to rival ports',
  'along the coast, and the council asked the authority to publish the revised budget before the end of the month.',
  'The builder said the new schedule was realistic and that dredging would resume next week.',
].join(' ');

const words = ARTICLE.split(' ');
const half = Math.floor(words.length / 2);

export interface MergeMessage {
  id: string;
  text: string;
  title: string;
  ts: string;
}

/** p1, p2, both, both (the replay), in this order, ten minutes apart. */
export function mergeMessages(prefix = ''): MergeMessage[] {
  const p1 = {
    id: `${prefix}p1`,
    text: words.slice(0, half).join(' '),
    title: 'Terminal opens in spring',
    ts: '2026-11-20T08:00:00Z',
  };
  const p2 = {
    id: `${prefix}p2`,
    text: words.slice(half).join(' '),
    title: 'Builder: dredging resumes',
    ts: '2026-11-20T08:10:00Z',
  };
  const both = {
    id: `${prefix}both`,
    text: ARTICLE,
    title: 'Container terminal delayed to spring',
    ts: '2026-11-20T08:20:00Z',
  };
  return [p1, p2, both, { ...both }];
}

export interface StoryEventShape {
  type: string;
  clusterId: string;
  messageId: string;
  size: number;
  mergedFrom?: string[];
  replay?: boolean;
}

/** The story events the four messages give, in order (times left out). */
export function expectedMergeEvents(prefix = ''): StoryEventShape[] {
  const [p1, p2, both] = [`${prefix}p1`, `${prefix}p2`, `${prefix}both`];
  return [
    { type: 'created', clusterId: p1, messageId: p1, size: 1 },
    { type: 'created', clusterId: p2, messageId: p2, size: 1 },
    { type: 'merged', clusterId: p1, messageId: both, size: 3, mergedFrom: [p2] },
    { type: 'grown', clusterId: p1, messageId: both, size: 3 },
    { type: 'grown', clusterId: p1, messageId: both, size: 3, replay: true },
  ];
}

/** An event without its times and representative, for comparison with expectedMergeEvents. */
export function eventShape(e: Record<string, unknown>): StoryEventShape {
  return {
    type: e.type as string,
    clusterId: e.clusterId as string,
    messageId: e.messageId as string,
    size: e.size as number,
    ...(e.mergedFrom === undefined ? {} : { mergedFrom: e.mergedFrom as string[] }),
    ...(e.replay === undefined ? {} : { replay: e.replay as boolean }),
  };
}
