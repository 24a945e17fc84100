import type { DoppelError } from '../errors.js';
import type { SignedMessage } from '../pipeline/sign.js';
import { simhashHex } from '../signatures/simhash.js';

/**
 * The `doppel sign` JSON Lines record. This is a contract other tools read: fields may be added,
 * never renamed, removed or changed in meaning. See docs/formats.md.
 */
export interface SignRecord {
  id: string;
  lang: string;
  /** XXH64 of the canonical text, 16 hex digits. */
  exact: string;
  /** SimHash-64, 16 hex digits; null when disabled. */
  simhash: string | null;
  /** I-Match signatures (primary lexicon first, then randomized), 32 hex digits each; empty when NULL. */
  imatch: string[];
  minhash: { super: string[]; mega: string[] } | null;
  /** Number of tokens of the canonical text (stop words included). */
  tokens: number;
  // Extensions (added after the first version of the contract; always present).
  /** Lexicon version the I-Match signatures and idf weights were made with; null when none. */
  lexicon: string | null;
  /** Top tf*idf words signature, 16 hex digits; null when too few words. */
  lexical: string | null;
  /** Two longest / two heaviest sentences signatures. */
  longest: string | null;
  heaviest: string | null;
  /** How the content was given: text, html or mail; and the charset it was decoded from. */
  kind: string;
  charset: string;
  /** HTML only: "article" (the page's article was signed) or "page" (none found: the whole page's text). */
  extraction?: 'article' | 'page';
  /**
   * Present when the title is part of the canonical text: "stub-body" (the body had fewer than
   * canonical.stubBodyTokens tokens, counted in `bodyTokens`) or "always" (canonical.includeTitle).
   */
  titleSigned?: 'stub-body' | 'always';
  bodyTokens?: number;
}

export interface SignErrorRecord {
  id: string | null;
  /** 1-based input line number (extension). */
  line: number;
  error: { code: string; message: string };
}

export function signRecord(signed: SignedMessage): SignRecord {
  const s = signed.signatures;
  return {
    id: signed.message.id,
    lang: signed.doc.lang,
    exact: s.exact,
    simhash: s.simhash ? simhashHex(s.simhash) : null,
    imatch: s.imatch.map((sig) => sig.hash),
    minhash: s.broder ? { super: s.broder.super, mega: s.broder.mega } : null,
    tokens: s.tokens,
    lexicon: s.lexiconVersion,
    lexical: s.lexical,
    longest: s.longest,
    heaviest: s.heaviest,
    kind: signed.decoded.kind,
    charset: signed.decoded.charset,
    ...(signed.decoded.extraction === undefined ? {} : { extraction: signed.decoded.extraction }),
    ...titleFields(signed.doc.signedTitle),
  };
}

function titleFields(
  title: SignedMessage['doc']['signedTitle'],
): Pick<SignRecord, 'titleSigned' | 'bodyTokens'> {
  if (title === null) return {};
  return title.reason === 'stub-body'
    ? { titleSigned: title.reason, bodyTokens: title.bodyTokens }
    : { titleSigned: title.reason };
}

export function signErrorRecord(id: string | null, line: number, error: DoppelError): SignErrorRecord {
  return { id, line, error: { code: error.code, message: error.message } };
}
