/**
 * SIGTERM / SIGINT handling from the first moment of the process: the entry points import this
 * module before anything else, so a signal that arrives while the rest loads is remembered (and
 * the process then exits cleanly) instead of killing it mid-start.
 */
type Handler = (signal: string) => void;

let pending: string | null = null;
let handler: Handler | null = null;

for (const signal of ['SIGTERM', 'SIGINT'] as const) {
  process.on(signal, () => {
    if (handler) handler(signal);
    else pending ??= signal;
  });
}

/** Routes signals to `h`; a signal received before this is delivered to it at once. */
export function onStopSignal(h: Handler): void {
  handler = h;
  if (pending) h(pending);
}

export function stopRequested(): boolean {
  return pending !== null;
}
