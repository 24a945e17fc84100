import type { TextSource } from '../text/canonical.js';
import type { Extraction, HtmlOptions } from '../text/decode/index.js';
import type { Message } from './message.js';

/** What the decode stage learned besides the text. */
export interface DecodedMessage extends TextSource {
  charset: string;
  messageId?: string;
  /** A mail's text parts not read (too many MIME parts): reported as MAIL_TRUNCATED. */
  truncatedParts?: number;
  /** HTML: the page's article, or the whole page when none was found (docs/extraction.md). */
  extraction?: Extraction;
}

/**
 * Text from whichever content field the message has: `text` first (already text), then `html`,
 * then `raw` bytes (legacy charset, HTML page or RFC 822 mail). A `text` message is decoded
 * synchronously, so a caller that signs one message at a time skips a promise and a microtask
 * per message; the others return a promise (MIME parsing is async).
 */
export function decodeMessage(
  message: Message,
  options: HtmlOptions = {},
): DecodedMessage | Promise<DecodedMessage> {
  return decodeText(message) ?? decodeContent(message, options);
}

/** A message with a `text` field (null for any other). */
function decodeText(message: Message): DecodedMessage | null {
  if (message.text === undefined || message.text.trim() === '') return null;
  const decoded: DecodedMessage = { text: message.text, kind: 'text', charset: 'utf-8' };
  if (message.title !== undefined) decoded.title = message.title;
  return decoded;
}

// The HTML, MIME and legacy-charset decoders (htmlparser2, postal-mime, iconv-lite and the code
// around them) are loaded by the first message that needs them: a stream of `text` messages, the
// common case, never pays their load at start-up (docs/benchmarks.md, start-up).
let decoders: Promise<typeof import('../text/decode/index.js')> | undefined;

async function decodeContent(message: Message, options: HtmlOptions): Promise<DecodedMessage> {
  decoders ??= import('../text/decode/index.js');
  const { decodeHtml, decodeRaw } = await decoders;
  let decoded: DecodedMessage;
  if (message.html !== undefined && message.html.trim() !== '') {
    decoded = toDecoded(decodeHtml(message.html, options));
  } else {
    decoded = toDecoded(await decodeRaw(message.raw ?? new Uint8Array(), options));
  }
  if (message.title !== undefined) decoded.title = message.title;
  return decoded;
}

function toDecoded(d: {
  text: string;
  kind: 'text' | 'html' | 'mail';
  charset: string;
  title?: string;
  messageId?: string;
  truncatedParts?: number;
  extraction?: Extraction;
}): DecodedMessage {
  const out: DecodedMessage = { text: d.text, kind: d.kind, charset: d.charset };
  if (d.title !== undefined) out.title = d.title;
  if (d.messageId !== undefined) out.messageId = d.messageId;
  if (d.truncatedParts !== undefined) out.truncatedParts = d.truncatedParts;
  if (d.extraction !== undefined) out.extraction = d.extraction;
  return out;
}
