import type { EngineVerdict } from '../engine/engine.js';
import type { IndexRequest } from '../engine/types.js';
import { DoppelError, isInputError } from '../errors.js';
import { type Message, parseMessageObject } from '../input/message.js';
import type { MessageFlow } from '../pipeline/flow.js';
import { unpackItem } from '../pipeline/prepared-wire.js';
import type { SignPool } from '../pipeline/sign-pool.js';
import { type Problem, problem } from '../telemetry/http.js';
import type { BodyItem } from './body.js';
import { httpStatus } from './errors.js';

/** A batch item's error: its problem details, and the item's id when it had a readable one. */
export type ItemProblem = Problem & { id?: string };

/** One result per batch item, in order: its verdict, or its error. */
export type BatchOutcome = { ok: true; verdict: EngineVerdict } | { ok: false; problem: ItemProblem };

export interface BatchJudge {
  flow: MessageFlow;
  pool: SignPool | null;
  now: () => number;
}

/**
 * A batch's items judged together: parsed, signed in one call to the sign pool (or on the event
 * loop without one), then indexed (or checked) in one engine call, so a batch of n costs one
 * store round trip pair, not n. An item that cannot be judged gets its own error; only a store
 * failure (or a bug) fails the batch.
 */
export async function judgeBatch(
  items: readonly BodyItem[],
  index: boolean,
  { flow, pool, now }: BatchJudge,
): Promise<BatchOutcome[]> {
  const outcomes: BatchOutcome[] = new Array(items.length);
  const messages: Message[] = [];
  const messageAt: number[] = [];
  items.forEach((item, i) => {
    if (!item.ok) {
      outcomes[i] = failed(item.error, null);
      return;
    }
    try {
      messages.push(parseMessageObject(item.value));
      messageAt.push(i);
    } catch (error) {
      if (!isInputError(error)) throw error;
      outcomes[i] = failed(error, idOf(item.value));
    }
  });

  const requests: IndexRequest[] = [];
  const requestAt: number[] = [];
  if (pool && messages.length > 0) {
    const chunk = await pool.prepareMessages(messages);
    messages.forEach((_message, k) => {
      const item = unpackItem(chunk, k);
      const at = messageAt[k] as number;
      if (item.ok) {
        requests.push({ ...item.request, ts: item.ts ?? now() });
        requestAt.push(at);
      } else if (item.bug) throw new Error(item.error.message);
      else outcomes[at] = failed(item.error, item.id);
    });
  } else {
    for (const [k, message] of messages.entries()) {
      const at = messageAt[k] as number;
      try {
        requests.push(await flow.prepare(message, message.ts ?? now()));
        requestAt.push(at);
      } catch (error) {
        if (!isInputError(error)) throw error;
        outcomes[at] = failed(error, message.id);
      }
    }
  }

  const verdicts =
    requests.length === 0 ? [] : index ? await flow.process(requests) : await flow.check(requests);
  verdicts.forEach((verdict, k) => {
    outcomes[requestAt[k] as number] = { ok: true, verdict };
  });
  return outcomes;
}

function failed(error: DoppelError, id: string | null): BatchOutcome {
  const body: ItemProblem = problem(httpStatus(error.code), error.code, error.message);
  if (id !== null) body.id = id;
  return { ok: false, problem: body };
}

/** The id of an item that is not a message, when it has a usable one (for the client to match). */
function idOf(value: unknown): string | null {
  const raw = typeof value === 'object' && value !== null ? (value as { id?: unknown }).id : undefined;
  if (typeof raw === 'string' && raw !== '' && raw.length <= 1024) return raw;
  if (typeof raw === 'number' && Number.isSafeInteger(raw)) return String(raw);
  return null;
}

/** Refuses a batch of more than `max` items before any is signed. */
export function checkBatchSize(count: number, max: number): void {
  if (count > max)
    throw new DoppelError(
      'TOO_LARGE',
      `the batch has ${count} items, more than api.maxBatchItems (${max}); send it in parts`,
    );
}
