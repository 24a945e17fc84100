import type { EngineVerdict } from '../engine/engine.js';
import type { Evidence } from '../engine/types.js';
import type { DoppelError } from '../errors.js';

/**
 * The `doppel dedup` JSON Lines record: exactly one per input line, in input order. A contract
 * other tools read (docs/formats.md): fields may be added, never renamed or removed.
 */
export interface VerdictRecord {
  id: string | null;
  verdict: 'unique' | 'duplicate' | 'near_duplicate' | 'invalid';
  clusterId: string | null;
  duplicateOf?: string;
  similarity?: number;
  method?: string;
  error?: { code: string; message: string };
  // Extensions.
  /** Evidence against duplicateOf (or the best story match): why. */
  evidence?: Evidence;
  /** The id was decided before; this is its first verdict. */
  replay?: boolean;
  /** With replay: the id came back with other content (another exact hash) than first decided. */
  conflict?: boolean;
  /** 1-based input line (invalid records only). */
  line?: number;
  /** The message's time was past the clock plus window.maxFutureSkewMs: judged as that bound. */
  eventTimeClamped?: true;
  /**
   * Judged on part of its text: MAIL_TRUNCATED (a mail of more MIME parts than are read; `parts`:
   * the text parts not read).
   */
  warning?: { code: 'MAIL_TRUNCATED'; message: string; parts: number };
}

export function verdictRecord(v: EngineVerdict): VerdictRecord {
  const out: VerdictRecord = { id: v.id, verdict: v.verdict, clusterId: v.clusterId };
  if (v.duplicateOf !== undefined) out.duplicateOf = v.duplicateOf;
  if (v.similarity !== undefined) out.similarity = v.similarity;
  if (v.method !== undefined) out.method = v.method;
  if (v.evidence) out.evidence = v.evidence;
  if (v.replay) out.replay = true;
  if (v.conflict) out.conflict = true;
  if (v.eventTimeClamped) out.eventTimeClamped = true;
  if (v.truncatedParts !== undefined) {
    out.warning = {
      code: 'MAIL_TRUNCATED',
      message: `${v.truncatedParts} text parts were not read: the mail has more than 1,000 MIME parts (attachments are dropped first)`,
      parts: v.truncatedParts,
    };
  }
  return out;
}

export function invalidRecord(id: string | null, line: number, error: DoppelError): VerdictRecord {
  return {
    id,
    verdict: 'invalid',
    clusterId: null,
    error: { code: error.code, message: error.message },
    line,
  };
}
