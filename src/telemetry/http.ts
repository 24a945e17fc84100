import { type IncomingMessage, type RequestListener, type ServerResponse, STATUS_CODES } from 'node:http';
import { ERROR_CODES, type ErrorCode } from '../errors.js';

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
    'content-type': 'application/json; charset=utf-8',
    ...headers,
    'content-length': Buffer.byteLength(text),
  });
  res.end(text);
}

export const PROBLEM_JSON = 'application/problem+json; charset=utf-8';

/**
 * An error answer as RFC 9457 problem details: `type` names the error code (a URN, one per code),
 * `title` says what the code means, `detail` this occurrence. `code` and `error` ({code, message},
 * the shape the API answered with before problem details) are extension members, so clients that
 * read `error.code` keep working.
 */
export interface Problem {
  type: string;
  title: string;
  status: number;
  detail: string;
  code: string;
  error: { code: string; message: string };
  [extension: string]: unknown;
}

export function problem(status: number, code: ErrorCode, detail: string): Problem {
  return {
    type: `urn:doppel:problem:${code.toLowerCase().replaceAll('_', '-')}`,
    title: ERROR_CODES[code]?.description ?? STATUS_CODES[status] ?? 'error',
    status,
    detail,
    code,
    error: { code, message: detail },
  };
}

export function sendProblem(
  res: ServerResponse,
  status: number,
  code: ErrorCode,
  detail: string,
  headers: Record<string, string> = {},
): void {
  sendJson(res, status, problem(status, code, detail), { ...headers, 'content-type': PROBLEM_JSON });
}

/** Answers 400 for a request target that is not a URL; true when it did. */
export function rejectMalformedTarget(req: IncomingMessage, res: ServerResponse): boolean {
  if (requestTarget(req) !== null) return false;
  sendProblem(res, 400, 'BAD_REQUEST', 'the request target is not a valid URL or path', {
    connection: 'close',
  });
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
      if (!res.headersSent && !res.destroyed) sendProblem(res, 500, 'INTERNAL', 'internal error');
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
