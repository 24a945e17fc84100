import { type Extraction, extractArticle, wholePage } from './article.js';
import { decodeBytes } from './charset.js';
import { looksLikeHtml, parseHtml } from './html.js';
import { looksLikeMail, parseMail } from './mail.js';

export { type ArticleText, type Extraction, extractArticle, wholePage } from './article.js';
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
export { type HtmlText, htmlToText, looksLikeHtml, type ParsedHtml, parseHtml, renderText } from './html.js';
export { type DecodedMail, looksLikeMail, parseMail } from './mail.js';

/** Plain text from whatever arrived, and what it was. */
export interface Decoded {
  text: string;
  kind: 'text' | 'html' | 'mail';
  charset: string;
  /** The article's title (HTML: og:title, the <h1> or the <title> without the site name), or the mail's Subject. */
  title?: string;
  messageId?: string;
  /** A mail's text parts not read (too many MIME parts: mail.ts capParts). */
  truncatedParts?: number;
  /** HTML: whether `text` is the page's article or, none found, the whole page's text. */
  extraction?: Extraction;
}

const META_SNIFF_BYTES = 2048;
const META_CHARSET = /<meta\b[^>]*?charset\s*=\s*["']?\s*([\w.:-]+)/i;

/** <meta charset> / http-equiv charset, read from the raw bytes before any decoding (all ASCII). */
function sniffMetaCharset(bytes: Uint8Array): string | undefined {
  const head = Buffer.from(bytes.buffer, bytes.byteOffset, Math.min(bytes.length, META_SNIFF_BYTES));
  return META_CHARSET.exec(head.toString('latin1'))?.[1];
}

/** How HTML becomes text: the page's article (default) or every visible element. */
export interface HtmlOptions {
  html?: 'article' | 'page';
}

/**
 * Raw bytes to text: an RFC 822 mail is parsed as one; anything else is decoded (UTF-8 or a
 * detected legacy charset) and, when it is HTML, reduced to its article's text (docs/extraction.md;
 * `options.html: 'page'` keeps every visible element). A <meta> charset only breaks near-ties of
 * the detector: pages are mislabelled more often than the detector is wrong.
 * Throws DoppelError UNDECODABLE (binary, unknown charset) or INVALID_MAIL.
 */
export async function decodeRaw(bytes: Uint8Array, options: HtmlOptions = {}): Promise<Decoded> {
  if (looksLikeMail(bytes)) {
    const mail = await parseMail(bytes);
    const decoded: Decoded = { text: mail.text, kind: 'mail', charset: mail.charset };
    if (mail.subject !== undefined && mail.subject !== '') decoded.title = mail.subject;
    if (mail.messageId !== undefined) decoded.messageId = mail.messageId;
    if (mail.truncatedParts !== undefined) decoded.truncatedParts = mail.truncatedParts;
    return decoded;
  }
  const hint = sniffMetaCharset(bytes);
  const { text, charset } = decodeBytes(bytes, hint === undefined ? {} : { hint });
  if (!looksLikeHtml(text)) return { text, kind: 'text', charset };
  return fromHtml(text, charset, options);
}

/** An HTML string (already text, so no charset question) to its article's text. */
export function decodeHtml(html: string, options: HtmlOptions = {}): Decoded {
  return fromHtml(html, 'utf-8', options);
}

function fromHtml(html: string, charset: string, options: HtmlOptions): Decoded {
  const parsed = parseHtml(html);
  const { text, title, extraction } = options.html === 'page' ? wholePage(parsed) : extractArticle(parsed);
  const decoded: Decoded = { text, kind: 'html', charset, extraction };
  if (title !== undefined) decoded.title = title;
  return decoded;
}
