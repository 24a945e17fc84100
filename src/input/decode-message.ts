import type { TextSource } from '../text/canonical.js';
import { decodeHtml, decodeRaw } from '../text/decode/index.js';
import type { Message } from './message.js';

/** What the decode stage learned besides the text. */
export interface DecodedMessage extends TextSource {
  charset: string;
  messageId?: string;
}

/**
 * Text from whichever content field the message has: `text` first (already text), then `html`,
 * then `raw` bytes (legacy charset, HTML page or RFC 822 mail; async because MIME parsing is).
 */
export async function decodeMessage(message: Message): Promise<DecodedMessage> {
  let decoded: DecodedMessage;
  if (message.text !== undefined && message.text.trim() !== '') {
    decoded = { text: message.text, kind: 'text', charset: 'utf-8' };
  } else if (message.html !== undefined && message.html.trim() !== '') {
    decoded = toDecoded(decodeHtml(message.html));
  } else {
    decoded = toDecoded(await decodeRaw(message.raw ?? new Uint8Array()));
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
}): DecodedMessage {
  const out: DecodedMessage = { text: d.text, kind: d.kind, charset: d.charset };
  if (d.title !== undefined) out.title = d.title;
  if (d.messageId !== undefined) out.messageId = d.messageId;
  return out;
}
