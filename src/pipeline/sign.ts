import { type DecodedMessage, decodeMessage } from '../input/decode-message.js';
import type { Message } from '../input/message.js';
import type { Signatures, Signer } from '../signatures/signer.js';
import { type CanonicalDoc, canonicalize } from '../text/canonical.js';

export interface SignedMessage {
  message: Message;
  decoded: DecodedMessage;
  doc: CanonicalDoc;
  signatures: Signatures;
}

/** Decode, canonicalize and sign one message. Throws DoppelError for input that cannot be used. */
export async function signMessage(message: Message, signer: Signer): Promise<SignedMessage> {
  return signDecoded(message, await decodeMessage(message, signer.config.canonical), signer);
}

/**
 * The CPU part after decoding: canonicalize and sign. Separate so a caller that times (or traces)
 * decoding and signing as two stages can run them as two passes over a batch.
 */
export function signDecoded(message: Message, decoded: DecodedMessage, signer: Signer): SignedMessage {
  const doc = canonicalize(decoded, signer.config.canonical, message.lang, signer.knownWords);
  return { message, decoded, doc, signatures: signer.compute(doc) };
}
