import iconv from 'iconv-lite';
import PostalMime, { type Email } from 'postal-mime';
import { DoppelError, isDoppelError } from '../../errors.js';
import { decodeBytes, normalizeCharsetLabel } from './charset.js';
import { htmlToText } from './html.js';

/**
 * RFC 822 / MIME mail to body text. postal-mime parses the structure and undoes the transfer
 * encodings; the body is assembled here from each part's decoded bytes, because postal-mime
 * decodes text with the declared charset only, and mail in Russian and Persian is often
 * unlabelled or mislabelled (cp1251 sent as KOI8-R, 8-bit text with no charset at all).
 */

export interface DecodedMail {
  text: string;
  subject?: string;
  /** Without angle brackets. */
  messageId?: string;
  /** The sender's address (not the display name). */
  from?: string;
  /** The charset that decoded most of the body's bytes. */
  charset: string;
  /** True when no text/plain part was used: the body text came from HTML. */
  hadHtmlOnly: boolean;
  /**
   * Text-bearing MIME parts not read because the mail has more than MAX_DELIMITER_LINES boundary
   * lines (MAIL_TRUNCATED on its verdict); absent when every text part was read.
   */
  truncatedParts?: number;
}

const KNOWN_HEADERS = new Set([
  'from',
  'to',
  'subject',
  'date',
  'message-id',
  'mime-version',
  'received',
  'return-path',
  'content-type',
]);

/** A header block longer than this is not a header block. */
const MAX_HEADER_BYTES = 256 * 1024;
/** message/rfc822 parts inside message/rfc822 parts... are followed this deep. */
const MAX_MESSAGE_DEPTH = 5;
/**
 * A charset declared by MIME is trusted unless another candidate explains the part better by
 * this many nats per non-ASCII byte (a wrong single-byte Cyrillic page loses by 2 or more).
 */
const DECLARED_MARGIN_PER_BYTE = 0.5;

interface HeaderScan {
  /** Header lines seen before the scan stopped (folded continuations not counted). */
  lines: number;
  /** Whether one of them is a header every mail has one of. */
  known: boolean;
  /** Offset of the body (after the blank line), or -1 when no blank line ended the headers. */
  bodyStart: number;
}

function startsWithAscii(bytes: Uint8Array, at: number, prefix: string): boolean {
  if (at + prefix.length > bytes.length) return false;
  for (let i = 0; i < prefix.length; i++) if (bytes[at + i] !== prefix.charCodeAt(i)) return false;
  return true;
}

/** Longest name in KNOWN_HEADERS: a longer field name is none of them. */
const MAX_KNOWN_NAME = 12;

/** bytes[from, to) as Latin-1 (header names are ASCII); no argument spread, whatever the length. */
function latin1(bytes: Uint8Array, from: number, to: number): string {
  return Buffer.from(bytes.buffer, bytes.byteOffset + from, to - from).toString('latin1');
}

function lineEnd(bytes: Uint8Array, from: number, limit: number): number {
  const nl = bytes.indexOf(0x0a, from);
  return nl === -1 || nl > limit ? limit : nl;
}

/** Reads the header block: `Name: value` lines and folded continuations up to a blank line. */
function scanHeaders(bytes: Uint8Array): HeaderScan {
  const limit = Math.min(bytes.length, MAX_HEADER_BYTES);
  let pos = 0;
  if (startsWithAscii(bytes, 0, 'From ')) pos = lineEnd(bytes, 0, limit) + 1; // mbox separator
  let lines = 0;
  let known = false;
  while (pos < limit) {
    const end = lineEnd(bytes, pos, limit);
    const contentEnd = end > pos && bytes[end - 1] === 0x0d ? end - 1 : end;
    if (contentEnd === pos) return { lines, known, bodyStart: end < limit ? end + 1 : -1 };
    const first = bytes[pos]!;
    if (first === 0x20 || first === 0x09) {
      if (lines === 0) break;
    } else {
      // field-name = 1*(printable US-ASCII except ":")
      let i = pos;
      while (i < contentEnd && bytes[i] !== 0x3a && bytes[i]! > 0x20 && bytes[i]! < 0x7f) i++;
      if (i === pos || i === contentEnd || bytes[i] !== 0x3a) break;
      lines++;
      if (!known) known = i - pos <= MAX_KNOWN_NAME && KNOWN_HEADERS.has(latin1(bytes, pos, i).toLowerCase());
    }
    pos = end + 1;
  }
  return { lines, known, bodyStart: -1 };
}

/**
 * Whether bytes are an RFC 822 message: header lines (after an optional mbox "From " line), one of
 * them a header every mail carries (From, To, Subject, Date, Message-ID, MIME-Version, Received,
 * Return-Path, Content-Type), then a blank line.
 */
export function looksLikeMail(bytes: Uint8Array): boolean {
  const scan = scanHeaders(bytes);
  return scan.lines > 0 && scan.known && scan.bodyStart !== -1;
}

/** The raw bytes of a top-level header's value, unfolded; for repairing unlabelled 8-bit headers. */
function rawHeaderValue(bytes: Uint8Array, name: string): Uint8Array | undefined {
  const limit = Math.min(bytes.length, MAX_HEADER_BYTES);
  const wanted = `${name.toLowerCase()}:`;
  let pos = startsWithAscii(bytes, 0, 'From ') ? lineEnd(bytes, 0, limit) + 1 : 0;
  while (pos < limit) {
    const end = lineEnd(bytes, pos, limit);
    if (end === pos || (end === pos + 1 && bytes[pos] === 0x0d)) return undefined;
    const head = latin1(bytes, pos, Math.min(pos + wanted.length, end));
    if (head.toLowerCase() === wanted) {
      const parts: number[] = [];
      let from = pos + wanted.length;
      let to = end;
      for (;;) {
        for (let i = from; i < to; i++) if (bytes[i] !== 0x0d) parts.push(bytes[i]!);
        const next = to + 1;
        if (next >= limit || (bytes[next] !== 0x20 && bytes[next] !== 0x09)) break;
        from = next;
        to = lineEnd(bytes, next, limit);
      }
      return Uint8Array.from(parts);
    }
    pos = end + 1;
  }
  return undefined;
}

// ---------------------------------------------------------------------------------------------
// postal-mime's part tree. Its public result only has text already decoded with the declared
// charset (8-bit text without a charset comes out as U+FFFD), so the body is rebuilt from the
// parser's internal tree, which holds each part's bytes after transfer decoding. Those members are
// marked @internal in postal-mime 4.0.0 (pinned in package.json): they are checked at runtime, and
// if a future version changes them, parseMail falls back to postal-mime's own text/html output,
// losing only the charset repair (mail.test.ts checks the repair, so such an upgrade shows).

interface MimeNodeView {
  contentType: {
    parsed: { value: string; params: Record<string, string | undefined> };
    multipart: string | false;
  };
  contentDisposition: { parsed: { value: string } };
  content: ArrayBuffer | null;
  childNodes: MimeNodeView[];
}

function isRecord(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null;
}

function isMimeNode(value: unknown): value is MimeNodeView {
  if (!isRecord(value) || !isRecord(value.contentType) || !isRecord(value.contentDisposition)) return false;
  const parsed = value.contentType.parsed;
  const disposition = value.contentDisposition.parsed;
  return (
    isRecord(parsed) &&
    typeof parsed.value === 'string' &&
    isRecord(parsed.params) &&
    (typeof value.contentType.multipart === 'string' || value.contentType.multipart === false) &&
    isRecord(disposition) &&
    typeof disposition.value === 'string' &&
    (value.content === null || value.content instanceof ArrayBuffer) &&
    Array.isArray(value.childNodes) &&
    value.childNodes.every(isMimeNode)
  );
}

type BodyEntry = { kind: 'plain' | 'html'; node: MimeNodeView } | { kind: 'message'; bytes: Uint8Array };

/**
 * Text parts grouped like postal-mime does: the parts of one multipart/alternative form one group
 * (one representation of the same content is used), every other text part is a group of its own.
 */
function collectBody(root: MimeNodeView): BodyEntry[][] {
  const groups = new Map<MimeNodeView, BodyEntry[]>();
  const add = (key: MimeNodeView, entry: BodyEntry): void => {
    const group = groups.get(key);
    if (group) group.push(entry);
    else groups.set(key, [entry]);
  };
  const walk = (node: MimeNodeView, alternative: MimeNodeView | undefined): void => {
    const { multipart, parsed } = node.contentType;
    if (multipart === false) {
      if (node.contentDisposition.parsed.value === 'attachment' || node.content === null) return;
      if (parsed.value === 'message/rfc822')
        add(node, { kind: 'message', bytes: new Uint8Array(node.content) });
      else if (parsed.value === 'text/plain') add(alternative ?? node, { kind: 'plain', node });
      else if (parsed.value === 'text/html') add(alternative ?? node, { kind: 'html', node });
      return;
    }
    const nextAlternative = multipart === 'alternative' ? node : alternative;
    for (const child of node.childNodes) walk(child, nextAlternative);
  };
  walk(root, undefined);
  return [...groups.values()];
}

const LATIN_LABELS = new Set([
  'iso-8859-1',
  'iso8859-1',
  'latin1',
  'latin-1',
  'l1',
  'windows-1252',
  'cp1252',
  'iso-8859-15',
  'latin9',
]);

const decoders = new Map<string, InstanceType<typeof TextDecoder> | null>();
function textDecoderFor(label: string): InstanceType<typeof TextDecoder> | null {
  let decoder = decoders.get(label);
  if (decoder === undefined) {
    try {
      decoder = new TextDecoder(label);
    } catch {
      decoder = null;
    }
    decoders.set(label, decoder);
  }
  return decoder;
}

/** Decodes with a declared charset that is not one of ours; undefined when nothing knows it. */
function decodeDeclared(bytes: Uint8Array, label: string): string | undefined {
  const decoder = textDecoderFor(label);
  if (decoder) return decoder.decode(bytes);
  if (iconv.encodingExists(label)) return iconv.decode(bytes, label);
  return undefined;
}

function has8bit(bytes: Uint8Array): boolean {
  for (let i = 0; i < bytes.length; i++) if (bytes[i]! >= 0x80) return true;
  return false;
}

/** Cyrillic or Arabic sent as Latin-1 reads as words made only of accented letters ("Ïðèâåò"). */
function looksMislabelledLatin(text: string): boolean {
  let ascii = 0;
  let other = 0;
  for (const match of text.matchAll(/\p{L}/gu)) {
    if (match[0].charCodeAt(0) < 0x80) ascii++;
    else other++;
  }
  return other > ascii;
}

interface DecodedPart {
  text: string;
  charset: string;
}

function decodePart(bytes: Uint8Array, label: string | undefined): DecodedPart {
  const declared = label?.trim().toLowerCase() || undefined;
  const ours = normalizeCharsetLabel(declared);
  if (declared !== undefined && ours === undefined) {
    const text = decodeDeclared(bytes, declared);
    if (text !== undefined) {
      const suspicious =
        text.includes('\ufffd') || (LATIN_LABELS.has(declared) && looksMislabelledLatin(text));
      if (!suspicious || !has8bit(bytes)) return { text, charset: declared };
      try {
        return decodeBytes(bytes);
      } catch (error) {
        if (!isDoppelError(error)) throw error;
        return { text, charset: declared };
      }
    }
  }
  // No charset, an unknown one, or one of ours (a declared UTF-8 part that is not valid UTF-8
  // gets the detector too: that is the U+FFFD case).
  try {
    return decodeBytes(bytes, { hint: ours, hintMarginPerByte: DECLARED_MARGIN_PER_BYTE });
  } catch (error) {
    if (!isDoppelError(error)) throw error;
    return { text: new TextDecoder().decode(bytes), charset: declared ?? 'utf-8' };
  }
}

/** RFC 3676 format=flowed: a line ending in a space continues on the next one. */
function unflow(text: string, delSp: boolean): string {
  const out: string[] = [];
  let joining = false;
  for (const raw of text.split('\n')) {
    const line = raw.startsWith(' ') ? raw.slice(1) : raw; // space-stuffing
    const soft = line.endsWith(' ') && line !== '-- ';
    const kept = soft && delSp ? line.slice(0, -1) : line;
    if (joining) out[out.length - 1] += kept;
    else out.push(kept);
    joining = soft;
  }
  return out.join('\n');
}

interface RenderedPart extends DecodedPart {
  kind: 'plain' | 'html';
  bytes: number;
}

function renderTextNode(node: MimeNodeView, kind: 'plain' | 'html'): RenderedPart {
  const bytes = new Uint8Array(node.content ?? new ArrayBuffer(0));
  const params = node.contentType.parsed.params;
  const decoded = decodePart(bytes, params.charset);
  let text = decoded.text.replace(/\r\n?/g, '\n');
  if (kind === 'html') text = htmlToText(text).text;
  else if (params.format?.toLowerCase() === 'flowed')
    text = unflow(text, params.delsp?.toLowerCase() === 'yes');
  return { kind, text, charset: decoded.charset, bytes: bytes.length };
}

async function renderGroups(groups: BodyEntry[][], depth: number): Promise<RenderedPart[]> {
  const rendered: RenderedPart[] = [];
  for (const group of groups) {
    const usePlain = group.some((e) => e.kind === 'plain');
    for (const entry of group) {
      if (entry.kind === 'message') {
        if (depth >= MAX_MESSAGE_DEPTH) continue;
        try {
          const inner = await parseMailAt(entry.bytes, depth + 1);
          const kind = inner.hadHtmlOnly ? 'html' : 'plain';
          rendered.push({ kind, text: inner.text, charset: inner.charset, bytes: entry.bytes.length });
        } catch (error) {
          if (!isDoppelError(error)) throw error; // an unparseable forwarded message is skipped
        }
      } else if ((entry.kind === 'plain') === usePlain) {
        rendered.push(renderTextNode(entry.node, entry.kind));
      }
    }
  }
  return rendered;
}

/** Used only when postal-mime's internals are not what this module expects (see above). */
function renderPublic(email: Email): RenderedPart[] {
  if (email.text !== undefined) return [{ kind: 'plain', text: email.text, charset: 'utf-8', bytes: 0 }];
  if (email.html !== undefined) {
    return [{ kind: 'html', text: htmlToText(email.html).text, charset: 'utf-8', bytes: 0 }];
  }
  return [];
}

function repairHeader(bytes: Uint8Array, name: string, value: string | undefined): string | undefined {
  if (value === undefined || !value.includes('\ufffd')) return value;
  const raw = rawHeaderValue(bytes, name);
  if (raw === undefined) return value;
  try {
    return decodeBytes(raw).text.trim();
  } catch (error) {
    if (!isDoppelError(error)) throw error;
    return value;
  }
}

interface PassThroughView {
  chunks: Array<Uint8Array | string>;
  finalize: () => Promise<ArrayBuffer>;
}

function isPassThrough(value: unknown): value is PassThroughView {
  // By class name: the Base64 and QP decoders also keep `chunks`, but finalize them differently.
  return (
    isRecord(value) &&
    value.constructor?.name === 'PassThroughDecoder' &&
    Array.isArray(value.chunks) &&
    typeof value.finalize === 'function'
  );
}

const patchedDecoders = new WeakSet<object>();

/** The bytes a PassThroughDecoder's Blob holds (its chunks: lines and "\n" strings), joined once. */
async function joinChunks(chunks: Array<Uint8Array | string>): Promise<ArrayBuffer> {
  let length = 0;
  for (const chunk of chunks) length += typeof chunk === 'string' ? Buffer.byteLength(chunk) : chunk.length;
  const out = new Uint8Array(length);
  let at = 0;
  for (const chunk of chunks) {
    const bytes = typeof chunk === 'string' ? Buffer.from(chunk, 'utf8') : chunk;
    out.set(bytes, at);
    at += bytes.length;
  }
  return out.buffer;
}

/**
 * postal-mime keeps an unencoded (7bit/8bit) part as two Blob parts per line and reads them back
 * through Blob#arrayBuffer, which costs some 10 µs per line: a 4 MiB part of short lines took half
 * a minute. Each such decoder of this parser gets a finalize that joins the same bytes in one pass.
 * Internals again (postal-mime 4.0.0, see above): when they are not there, nothing is patched.
 */
function fastPassThrough(parser: PostalMime): void {
  const self = parser as unknown as Record<string, unknown>;
  const processLine = self.processLine;
  if (typeof processLine !== 'function') return;
  self.processLine = function (this: Record<string, unknown>, ...args: unknown[]) {
    const node = this.currentNode;
    const decoder = isRecord(node) ? node.contentDecoder : undefined;
    if (isPassThrough(decoder) && !patchedDecoders.has(decoder)) {
      patchedDecoders.add(decoder);
      decoder.finalize = () => joinChunks(decoder.chunks);
    }
    return processLine.apply(this, args);
  };
}

/** Empty lines kept in a row: a blank line ends a header block, two separate paragraphs. */
const MAX_BLANK_LINES = 2;

/**
 * The mail with runs of empty lines after its header block cut to MAX_BLANK_LINES. postal-mime
 * handles each empty body line at a cost that grows with their number (a Blob of millions of
 * empty parts: 1M empty lines took 30 s); the canonical text does not depend on how many empty
 * lines separate two paragraphs (tokens, and sentences, which any line break ends, are the same).
 */
export function squeezeBlankLines(bytes: Uint8Array, from: number): Uint8Array {
  let out: Uint8Array | null = null;
  let length = 0;
  let copied = 0; // bytes[0, copied) are accounted for in out (or unchanged so far)
  let blanks = 0;
  for (let start = from; start < bytes.length; ) {
    const nl = bytes.indexOf(0x0a, start);
    if (nl < 0) break; // the last line has no line end: it is kept
    const end = nl + 1;
    const empty = nl === start || (nl === start + 1 && bytes[start] === 0x0d);
    blanks = empty ? blanks + 1 : 0;
    if (blanks > MAX_BLANK_LINES) {
      out ??= new Uint8Array(bytes.length);
      out.set(bytes.subarray(copied, start), length);
      length += start - copied;
      copied = end;
    }
    start = end;
  }
  if (out === null) return bytes;
  out.set(bytes.subarray(copied), length);
  length += bytes.length - copied;
  return out.subarray(0, length);
}

/**
 * Boundary-like lines ("--" at a line start) read before the rest of the mail is dropped. postal-mime
 * spends ~10 us per MIME part (a 4 MiB mail of 600k empty parts took ~26 s); real mail has a handful
 * of parts, and a mail-list signature ("-- ") or a few rules of dashes stay far below this.
 */
export const MAX_DELIMITER_LINES = 1000;

/**
 * The mail cut before its (MAX_DELIMITER_LINES + 1)th line that starts with "--" after its header
 * block: a hostile mail of countless parts costs what its first thousand do, and keeps their text.
 */
export function capDelimiterLines(bytes: Uint8Array, from: number): Uint8Array {
  let seen = 0;
  for (let start = from; start < bytes.length; ) {
    if (bytes[start] === 0x2d && bytes[start + 1] === 0x2d && ++seen > MAX_DELIMITER_LINES) {
      return bytes.subarray(0, start);
    }
    const nl = bytes.indexOf(0x0a, start);
    if (nl < 0) break;
    start = nl + 1;
  }
  return bytes;
}

/** The part types that can hold body text (or parts that do). */
const TEXT_TYPE = /^\s*(?:text\/(?:plain|html)|multipart\/|message\/rfc822)/i;
const HEADER_LINE = /^[!-9;-~]+:/;
/** Header lines of a part looked at (a part header longer than this is read as body). */
const MAX_PART_HEADER_LINES = 64;

function lineText(bytes: Uint8Array, start: number): { text: string; next: number } {
  const nl = bytes.indexOf(0x0a, start);
  const end = nl < 0 ? bytes.length : nl;
  return { text: latin1(bytes, start, end).replace(/\r$/, ''), next: nl < 0 ? bytes.length : nl + 1 };
}

/**
 * What the "--" line at `start` is: a closing boundary ("--b--", always kept: the structure), a
 * part that can hold body text or one that cannot (by its header block: Content-Type text/plain,
 * text/html, multipart/*, message/rfc822 or none, and not an attachment), or null when no header
 * block follows (a "-- " signature, a rule of dashes in a body: it belongs to the part before).
 */
function boundaryKind(bytes: Uint8Array, start: number): 'close' | 'text' | 'other' | null {
  const first = lineText(bytes, start).text.trimEnd();
  if (first.length > 2 && first.endsWith('--')) return 'close';
  let type: string | undefined;
  let disposition = '';
  let last: 'type' | 'disposition' | null = null;
  let at = lineText(bytes, start).next;
  for (let n = 0; n < MAX_PART_HEADER_LINES && at < bytes.length; n++) {
    const line = lineText(bytes, at);
    at = line.next;
    if (line.text === '') {
      if (/^\s*attachment/i.test(disposition)) return 'other';
      return type === undefined || TEXT_TYPE.test(type) ? 'text' : 'other';
    }
    if (/^[ \t]/.test(line.text)) {
      if (last === 'type') type += line.text;
      else if (last === 'disposition') disposition += line.text;
      continue;
    }
    if (!HEADER_LINE.test(line.text)) return null;
    const colon = line.text.indexOf(':');
    const name = line.text.slice(0, colon).toLowerCase();
    last = name === 'content-type' ? 'type' : name === 'content-disposition' ? 'disposition' : null;
    if (last === 'type') type = line.text.slice(colon + 1);
    else if (last === 'disposition') disposition = line.text.slice(colon + 1);
  }
  return null;
}

/**
 * The mail capped at MAX_DELIMITER_LINES boundary-like lines, text first: when it has more, the
 * parts that cannot hold body text (attachments, images, any non-text type) are dropped first,
 * each from its "--" line to the next, so that a mail of 1,000 attachments before its text/plain
 * body keeps the body; then the cap cuts what is left. `truncatedParts` counts the text parts the
 * cap cut (0: every text part is read). Linear in the mail's size.
 */
export function capParts(bytes: Uint8Array, from: number): { bytes: Uint8Array; truncatedParts: number } {
  const capped = capDelimiterLines(bytes, from);
  if (capped === bytes) return { bytes, truncatedParts: 0 };
  const kept: Uint8Array[] = [bytes.subarray(0, from)];
  let keep = true;
  let segment = from;
  let seen = 0;
  let full = false;
  let truncatedParts = 0;
  for (let start = from; start < bytes.length; ) {
    const nl = bytes.indexOf(0x0a, start);
    if (bytes[start] === 0x2d && bytes[start + 1] === 0x2d) {
      const kind = boundaryKind(bytes, start);
      if (full) {
        if (kind === 'text') truncatedParts++;
      } else {
        if (keep) kept.push(bytes.subarray(segment, start));
        if (kind !== null) keep = kind !== 'other';
        segment = start;
        if (keep && ++seen > MAX_DELIMITER_LINES) {
          // The cap: nothing from this line on is read.
          full = true;
          if (kind === 'text') truncatedParts++;
        }
      }
    }
    if (nl < 0) break;
    start = nl + 1;
  }
  if (!full && keep) kept.push(bytes.subarray(segment));
  return { bytes: Buffer.concat(kept), truncatedParts };
}

async function parseMailAt(input: Uint8Array, depth: number): Promise<DecodedMail> {
  const scan = scanHeaders(input);
  if (scan.lines === 0) {
    throw new DoppelError('INVALID_MAIL', 'mail does not start with an RFC 822 header line');
  }
  let bytes = input;
  let truncatedParts = 0;
  if (scan.bodyStart >= 0) {
    const capped = capParts(squeezeBlankLines(input, scan.bodyStart), scan.bodyStart);
    bytes = capped.bytes;
    truncatedParts = capped.truncatedParts;
  }
  const parser = new PostalMime();
  fastPassThrough(parser);
  let email: Email;
  try {
    email = await parser.parse(bytes);
  } catch (error) {
    const message = error instanceof Error ? error.message : String(error);
    throw new DoppelError('INVALID_MAIL', `mail could not be parsed: ${message}`, { cause: error });
  }

  const root: unknown = (parser as unknown as { root?: unknown }).root;
  const parts = isMimeNode(root) ? await renderGroups(collectBody(root), depth) : renderPublic(email);

  const text = parts
    .map((p) => p.text.trim())
    .filter((t) => t !== '')
    .join('\n\n');
  let charset = 'utf-8';
  let most = -1;
  for (const part of parts) {
    if (part.bytes > most) {
      most = part.bytes;
      charset = part.charset;
    }
  }
  const mail: DecodedMail = {
    text,
    charset,
    hadHtmlOnly: parts.length > 0 && parts.every((p) => p.kind === 'html'),
  };
  if (truncatedParts > 0) mail.truncatedParts = truncatedParts;
  const subject = repairHeader(bytes, 'subject', email.subject);
  if (subject !== undefined) mail.subject = subject;
  const messageId = email.messageId?.trim().replace(/^<|>$/g, '');
  if (messageId) mail.messageId = messageId;
  const from = email.from?.address ?? email.from?.group?.[0]?.address;
  if (from) mail.from = from;
  return mail;
}

/**
 * Parses a mail and returns its body text: text/plain parts, or HTML converted to text where a
 * message (or an alternative) has no plain part. Each part's charset is checked against its
 * content. Throws DoppelError('INVALID_MAIL') for input that is not a mail.
 */
export async function parseMail(bytes: Uint8Array): Promise<DecodedMail> {
  return parseMailAt(bytes, 0);
}
