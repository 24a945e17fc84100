import { statSync } from 'node:fs';

/**
 * The size of the input when a progress line can show how far along it is: stderr is a terminal
 * (a person watching) and the input is a regular file. Null otherwise (a pipe, standard input, a
 * log file): the line then shows counts and rate only, as it always has.
 */
export function knownInputSize(path: string, stderrIsTTY: boolean): number | null {
  if (!stderrIsTTY) return null;
  const size = inputFileSize(path);
  return size !== null && size > 0 ? size : null;
}

/** The size of `--input` when it is a regular file; null for standard input, a pipe, or no file. */
export function inputFileSize(path: string): number | null {
  if (path === '-') return null;
  try {
    const stat = statSync(path);
    return stat.isFile() ? stat.size : null;
  } catch {
    return null;
  }
}

export interface ProgressState {
  messages: number;
  elapsedMs: number;
  rssBytes: number;
  /** Input bytes read so far (counted per chunk read, not per line). */
  bytesRead: number;
  /** The input's size, from knownInputSize; null: no percent or ETA. */
  totalBytes: number | null;
}

const MB = 1024 * 1024;

/** `doppel dedup`'s periodic stderr line. */
export function progressLine(s: ProgressState): string {
  const seconds = Math.max(s.elapsedMs / 1000, 1e-9);
  const rate = `${Math.round(s.messages / seconds)}/s`;
  const rss = `RSS ${Math.round(s.rssBytes / MB)} MB`;
  if (s.totalBytes === null) return `doppel dedup: ${s.messages} messages, ${rate}, ${rss}`;
  const share = Math.min(1, s.bytesRead / s.totalBytes);
  const percent = `${(share * 100).toFixed(1)}%`;
  const sizes = `${(s.bytesRead / MB).toFixed(1)} of ${(s.totalBytes / MB).toFixed(1)} MB`;
  const eta = share > 0 ? `ETA ${duration((seconds * (1 - share)) / share)}` : 'ETA unknown';
  return `doppel dedup: ${percent} (${sizes}), ${s.messages} messages, ${rate}, ${eta}, ${rss}`;
}

/** 75 -> "1m 15s", 3725 -> "1h 02m", 9 -> "9s". */
export function duration(seconds: number): string {
  const s = Math.round(seconds);
  if (s < 60) return `${s}s`;
  if (s < 3600) return `${Math.floor(s / 60)}m ${String(s % 60).padStart(2, '0')}s`;
  return `${Math.floor(s / 3600)}h ${String(Math.floor((s % 3600) / 60)).padStart(2, '0')}m`;
}
