import { readFileSync } from 'node:fs';
import type { IncomingMessage, ServerResponse } from 'node:http';

/**
 * The story desk (GET /): plain HTML, CSS and JavaScript from src/web, copied to dist/web by the
 * build (scripts/copy-assets.mjs) and read from there at run time, as the Redis Lua scripts are:
 * no bundler and no CDN. The page only calls the read routes of the API, with relative URLs.
 */

// src/web in the sources, dist/web once built (the build copies the files, scripts/copy-assets.mjs).
const WEB_DIR = new URL('../web/', import.meta.url);

// A Map: the path is the client's, and an object would answer inherited names.
const FILES: ReadonlyMap<string, [file: string, type: string]> = new Map([
  ['/', ['index.html', 'text/html; charset=utf-8']],
  ['/ui/app.js', ['app.js', 'text/javascript; charset=utf-8']],
  ['/ui/style.css', ['style.css', 'text/css; charset=utf-8']],
]);

/**
 * Scripts and styles from this origin only, no inline script, no framing: message titles are
 * hostile input, and the page renders them as text (app.js), this header is the second line.
 */
const SECURITY_HEADERS = {
  'content-security-policy':
    "default-src 'none'; script-src 'self'; style-src 'self'; connect-src 'self'; img-src 'self'; base-uri 'none'; form-action 'self'; frame-ancestors 'none'",
  'x-content-type-options': 'nosniff',
  'referrer-policy': 'no-referrer',
  'cache-control': 'no-cache',
};

const cache = new Map<string, Buffer>();

function content(file: string): Buffer {
  let body = cache.get(file);
  if (!body) {
    body = readFileSync(new URL(file, WEB_DIR));
    cache.set(file, body);
  }
  return body;
}

/** Serves the page's files; false for any other request (the API routes it). */
export function handleWeb(req: IncomingMessage, res: ServerResponse, path: string): boolean {
  if (req.method !== 'GET' && req.method !== 'HEAD') return false;
  const entry = FILES.get(path);
  if (!entry) return false;
  const body = content(entry[0]);
  res.writeHead(200, { 'content-type': entry[1], 'content-length': body.length, ...SECURITY_HEADERS });
  res.end(req.method === 'HEAD' ? undefined : body);
  return true;
}
