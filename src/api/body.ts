import type { IncomingMessage } from 'node:http';
import { brotliDecompressSync, gunzipSync, inflateSync, type ZlibOptions } from 'node:zlib';
import { DoppelError } from '../errors.js';
import { parseJsonText } from '../json.js';
import { type Charset, decodeDeclared, normalizeCharsetLabel } from '../text/decode/index.js';

/** One item of a batch body: its JSON value, or the error that item alone gets. */
export type BodyItem = { ok: true; value: unknown } | { ok: false; error: DoppelError };

/** A single JSON value, or a batch (a JSON array, or NDJSON: one value per non-blank line). */
export type MessagesBody = { batch: false; value: unknown } | { batch: true; items: BodyItem[] };

const NDJSON_TYPES: ReadonlySet<string> = new Set(['application/x-ndjson', 'application/ndjson']);

/**
 * A message body: `application/json` (one object, or an array of them) or
 * `application/x-ndjson` (one message per line; a line that is not JSON is that item's
 * INVALID_JSON, the other lines stand), in UTF-8 or in a charset doppel reads (the `charset`
 * parameter: cp1251, KOI8-R, ...), sent as is or with one `Content-Encoding` (gzip, deflate,
 * br). `limit` bounds the bytes received and, again, the decoded bytes: a small gzip body that
 * inflates past it is 413 like a large plain one, and no more than `limit` bytes are ever
 * inflated.
 */
export async function readMessagesBody(req: IncomingMessage, limit: number): Promise<MessagesBody> {
  const { media, charset } = contentType(req);
  const decompress = contentDecoder(req);
  const declared = Number(req.headers['content-length'] ?? Number.NaN);
  if (declared > limit) throw new DoppelError('TOO_LARGE', `body is larger than ${limit} bytes`);
  const received = await readBytes(req, limit);
  const bytes = decompress ? inflate(decompress, received, limit) : received;
  const text = decodeDeclared(bytes, charset);
  if (NDJSON_TYPES.has(media)) return { batch: true, items: ndjsonItems(text) };
  const value = parseJsonText(text, 'body');
  if (Array.isArray(value))
    return { batch: true, items: value.map((v: unknown) => ({ ok: true, value: v })) };
  return { batch: false, value };
}

/** NDJSON lines as items; blank lines (and a final newline) are not items. */
function ndjsonItems(text: string): BodyItem[] {
  const items: BodyItem[] = [];
  let line = 0;
  for (const raw of text.split('\n')) {
    line++;
    const source = raw.endsWith('\r') ? raw.slice(0, -1) : raw;
    if (source.trim() === '') continue;
    try {
      items.push({ ok: true, value: parseJsonText(source, `line ${line}`) });
    } catch (error) {
      items.push({ ok: false, error: error as DoppelError });
    }
  }
  return items;
}

/** The media type must be application/json or application/x-ndjson; its charset, when given, one doppel decodes. */
function contentType(req: IncomingMessage): { media: string; charset: Charset } {
  const [media = '', ...params] = String(req.headers['content-type'] ?? '').split(';');
  const type = media.trim().toLowerCase();
  if (type !== 'application/json' && !NDJSON_TYPES.has(type))
    throw new DoppelError(
      'UNSUPPORTED_MEDIA_TYPE',
      `content-type must be application/json or application/x-ndjson, not "${type || 'none'}"`,
    );
  let charset: Charset = 'utf-8';
  for (const param of params) {
    const eq = param.indexOf('=');
    if (eq < 0 || param.slice(0, eq).trim().toLowerCase() !== 'charset') continue;
    const label = param.slice(eq + 1).trim();
    // normalizeCharsetLabel looks labels up in a Map of the supported charsets only.
    const known = normalizeCharsetLabel(label);
    if (!known)
      throw new DoppelError(
        'UNSUPPORTED_MEDIA_TYPE',
        `charset "${label.slice(0, 40)}" is not one doppel decodes (utf-8, windows-1251, koi8-r, koi8-u, ibm866, cp1125, iso-8859-5, windows-1256)`,
      );
    charset = known;
  }
  return { media: type, charset };
}

type Inflate = (buffer: Buffer, options: ZlibOptions) => Buffer;

// A Map: the header is the client's, and an object would answer "constructor".
const DECODERS: ReadonlyMap<string, Inflate> = new Map<string, Inflate>([
  ['gzip', gunzipSync],
  ['x-gzip', gunzipSync],
  ['deflate', inflateSync],
  ['br', brotliDecompressSync as Inflate],
]);

/** The decompressor of the body's one content coding; null for none (or `identity`). */
function contentDecoder(req: IncomingMessage): Inflate | null {
  const header = req.headers['content-encoding'];
  if (header === undefined) return null;
  const coding = String(header).trim().toLowerCase();
  if (coding === '' || coding === 'identity') return null;
  const decoder = DECODERS.get(coding);
  if (!decoder)
    throw new DoppelError(
      'UNSUPPORTED_MEDIA_TYPE',
      `content-encoding "${coding.slice(0, 40)}" is not supported (gzip, deflate, br or none)`,
    );
  return decoder;
}

/** Inflates at most `limit` bytes: zlib stops at maxOutputLength instead of filling memory. */
function inflate(decoder: Inflate, bytes: Buffer, limit: number): Buffer {
  try {
    return decoder(bytes, { maxOutputLength: limit });
  } catch (error) {
    if ((error as { code?: string }).code === 'ERR_BUFFER_TOO_LARGE')
      throw new DoppelError('TOO_LARGE', `body is larger than ${limit} bytes once decompressed`);
    throw new DoppelError('BAD_REQUEST', 'the body does not decompress by its content-encoding');
  }
}

/**
 * The received bytes, at most `limit`: an undeclared length (chunked) is refused as soon as the
 * bytes read pass it. Listeners, not `for await`: leaving that loop early destroys the request
 * and with it the socket, so the 413 could never be sent.
 */
function readBytes(req: IncomingMessage, limit: number): Promise<Buffer> {
  return new Promise<Buffer>((resolve, reject) => {
    const chunks: Buffer[] = [];
    let size = 0;
    const done = (error?: DoppelError) => {
      req.off('data', onData);
      req.off('end', onEnd);
      req.off('error', onError);
      req.off('close', onClose);
      if (error) {
        // Stop reading; the answer goes out with `connection: close` and node drops the rest.
        req.pause();
        reject(error);
      } else resolve(Buffer.concat(chunks));
    };
    const onData = (chunk: Buffer) => {
      size += chunk.length;
      if (size > limit) done(new DoppelError('TOO_LARGE', `body is larger than ${limit} bytes`));
      else chunks.push(chunk);
    };
    const onEnd = () => done();
    // The stream failed or closed under us: the client reset or aborted the upload.
    const onError = () =>
      done(new DoppelError('CLIENT_CLOSED', 'the client closed the connection during the body'));
    const onClose = () => {
      if (!req.complete) onError();
    };
    req.on('data', onData);
    req.once('end', onEnd);
    req.once('error', onError);
    req.once('close', onClose);
  });
}
