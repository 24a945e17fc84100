import { decodeBytes } from './charset.js';
import { htmlToText, looksLikeHtml } from './html.js';
import { looksLikeMail, parseMail } from './mail.js';

export {
  CHARSETS,
  type Charset,
  type DecodeBytesOptions,
  type DecodedBytes,
  decodeBytes,
  decodeDeclared,
  encodeText,
  normalizeCharsetLabel,
  scoreCharsets,
} from './charset.js';
export { type HtmlText, htmlToText, looksLikeHtml } from './html.js';
export { type DecodedMail, looksLikeMail, parseMail } from './mail.js';

/** Plain text from whatever arrived, and what it was. */
export interface Decoded {
  text: string;
  kind: 'text' | 'html' | 'mail';
  charset: string;
  /** The HTML <title>, or the mail's Subject. */
  title?: string;
  messageId?: string;
}

const META_SNIFF_BYTES = 2048;
const META_CHARSET = /<meta\b[^>]*?charset\s*=\s*["']?\s*([\w.:-]+)/i;

/** <meta charset> / http-equiv charset, read from the raw bytes before any decoding (all ASCII). */
function sniffMetaCharset(bytes: Uint8Array): string | undefined {
  const head = Buffer.from(bytes.buffer, bytes.byteOffset, Math.min(bytes.length, META_SNIFF_BYTES));
  return META_CHARSET.exec(head.toString('latin1'))?.[1];
}

/**
 * Raw bytes to text: an RFC 822 mail is parsed as one; anything else is decoded (UTF-8 or a
 * detected legacy charset) and, when it is HTML, converted to text. A <meta> charset only breaks
 * near-ties of the detector: pages are mislabelled more often than the detector is wrong.
 * Throws DoppelError UNDECODABLE (binary, unknown charset) or INVALID_MAIL.
 */
export async function decodeRaw(bytes: Uint8Array): Promise<Decoded> {
  if (looksLikeMail(bytes)) {
    const mail = await parseMail(bytes);
    const decoded: Decoded = { text: mail.text, kind: 'mail', charset: mail.charset };
    if (mail.subject !== undefined && mail.subject !== '') decoded.title = mail.subject;
    if (mail.messageId !== undefined) decoded.messageId = mail.messageId;
    return decoded;
  }
  const hint = sniffMetaCharset(bytes);
  const { text, charset } = decodeBytes(bytes, hint === undefined ? {} : { hint });
  if (!looksLikeHtml(text)) return { text, kind: 'text', charset };
  return fromHtml(text, charset);
}

/** An HTML string (already text, so no charset question) to plain text. */
export function decodeHtml(html: string): Decoded {
  return fromHtml(html, 'utf-8');
}

function fromHtml(html: string, charset: string): Decoded {
  const { text, title } = htmlToText(html);
  const decoded: Decoded = { text, kind: 'html', charset };
  if (title !== undefined) decoded.title = title;
  return decoded;
}
