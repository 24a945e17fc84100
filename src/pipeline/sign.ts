import { type DecodedMessage, decodeMessage } from '../input/decode-message.js';
import type { Message } from '../input/message.js';
import type { SignatureEngine, Signatures } from '../signatures/compute.js';
import { type CanonicalDoc, canonicalize } from '../text/canonical.js';

export interface SignedMessage {
  message: Message;
  decoded: DecodedMessage;
  doc: CanonicalDoc;
  signatures: Signatures;
}

/** Decode, canonicalize and sign one message. Throws DoppelError for input that cannot be used. */
export async function signMessage(message: Message, engine: SignatureEngine): Promise<SignedMessage> {
  const decoded = await decodeMessage(message);
  const doc = canonicalize(decoded, engine.config.canonical, message.lang);
  return { message, decoded, doc, signatures: engine.compute(doc) };
}
