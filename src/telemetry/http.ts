import type { IncomingMessage, RequestListener, ServerResponse } from 'node:http';

/**
 * What every doppel HTTP listener (the API of `doppel serve`, the consumers' operations port)
 * shares: the request target parsed without throwing, JSON answers, and a listener wrapper under
 * which nothing a request does can end the process. A thrown error or a rejected promise becomes
 * a JSON 500 (when nothing was sent yet), never an uncaught exception.
 */

/** The request target as a URL, or null when it is not one (`GET http://[ HTTP/1.1`). */
export function requestTarget(req: IncomingMessage): URL | null {
  try {
    return new URL(req.url ?? '/', 'http://localhost');
  } catch {
    return null;
  }
}

export function sendJson(
  res: ServerResponse,
  status: number,
  body: unknown,
  headers: Record<string, string> = {},
): void {
  const text = JSON.stringify(body);
  res.writeHead(status, {
    ...headers,
    'content-type': 'application/json; charset=utf-8',
    'content-length': Buffer.byteLength(text),
  });
  res.end(text);
}

/** Answers 400 for a request target that is not a URL; true when it did. */
export function rejectMalformedTarget(req: IncomingMessage, res: ServerResponse): boolean {
  if (requestTarget(req) !== null) return false;
  sendJson(
    res,
    400,
    { error: { code: 'BAD_REQUEST', message: 'the request target is not a valid URL or path' } },
    { connection: 'close' },
  );
  return true;
}

/**
 * `handle` as a node:http listener that cannot crash the process: a synchronous throw or a
 * rejection is passed to `onError` (default: a JSON 500 if the response has not started, else the
 * connection is dropped). `onError` itself is guarded too.
 */
export function safeListener(
  handle: (req: IncomingMessage, res: ServerResponse) => void | Promise<void>,
  onError: (error: unknown, req: IncomingMessage, res: ServerResponse) => void = () => {},
): RequestListener {
  const fail = (error: unknown, req: IncomingMessage, res: ServerResponse) => {
    try {
      onError(error, req, res);
    } catch {
      // The error handler failed as well: the fallback below still answers.
    }
    try {
      if (!res.headersSent && !res.destroyed)
        sendJson(res, 500, { error: { code: 'INTERNAL', message: 'internal error' } });
      else if (!res.writableEnded) res.destroy();
    } catch {
      res.destroy();
    }
  };
  return (req, res) => {
    try {
      const pending = handle(req, res);
      if (pending) pending.catch((error: unknown) => fail(error, req, res));
    } catch (error) {
      fail(error, req, res);
    }
  };
}
