/**
 * Mail clean-up (docs/signatures.md, "Canonical text", step 1): what differs between copies of one mail
 * campaign but says nothing about its content. Runs on the decoded body before normalization.
 */

// Reply attributions in the languages we support: "On Mon, Jan 1, 2020, Bob wrote:", "... пишет:".
const ATTRIBUTION =
  /^[^\n]{0,240}(?:wrote|writes|пишет|писал|написал|написала|написал\(а\)|пише|писав|написав|написала|نوشت):[ \t]*$/gimu;
const QUOTED_LINE = /^[ \t]*>.*$/gm;
// Outlook-style forwarded/replied history: everything after it is someone else's text.
const ORIGINAL_MESSAGE =
  /^[ \t]*-{2,}[ \t]*(?:original message|forwarded message|исходное сообщение|пересылаемое сообщение)[ \t]*-{2,}[\s\S]*$/im;
// RFC 3676 signature separator "-- " (also the common "--" without the space) up to the end.
const SIGNATURE = /^--[ \t]?\n[\s\S]*$/m;

const URL = /\b(?:https?|ftp):\/\/([^\s/?#<>"']+)[^\s<>"']*/gi;
const WWW = /\bwww\.([^\s/?#<>"']+)[^\s<>"']*/gi;
// Addresses are found by replaceAddresses, which gives the matches of
// /\b[\w.+-]+@((?:[\w-]+\.)+[\w-]{2,})\b/g in linear time: that regex, tried from every word
// boundary of a long "a.a.a.a..." run, rescanned the run from each (quadratic).
const DOMAIN = /((?:[\w-]+\.)+[\w-]{2,})\b/y;
// Hex ids with at least one digit and one letter a-f (tracking ids, hashes, message ids).
const HEX_ID = /\b(?=[0-9a-f]*[0-9])(?=[0-9a-f]*[a-f])[0-9a-f]{8,}\b/gi;
// Mixed letter-digit tokens of 10+ characters (coupon codes, tracking tokens).
const MIXED_ID = /\b(?=[a-z0-9]*[0-9])(?=[a-z0-9]*[a-z])[a-z0-9]{10,}\b/gi;
const LONG_DIGITS = /\d[\d \-.]{4,}\d/g;

export function stripQuotedAndSignature(body: string): string {
  return body
    .replace(/\r\n?/g, '\n')
    .replace(ORIGINAL_MESSAGE, '')
    .replace(SIGNATURE, '')
    .replace(ATTRIBUTION, '')
    .replace(QUOTED_LINE, '');
}

/**
 * URLs become their host, addresses their domain, ids and long numbers one fixed word each, so that
 * copies that differ only in tracking links, recipient names in addresses or order numbers agree.
 */
export function normalizeVolatileTokens(body: string): string {
  return replaceAddresses(
    body
      .replace(URL, (_m, host: string) => ` ${host.toLowerCase()} `)
      .replace(WWW, (_m, host: string) => ` ${host.toLowerCase()} `),
  )
    .replace(HEX_ID, ' volatileid ')
    .replace(MIXED_ID, ' volatileid ')
    .replace(LONG_DIGITS, ' longnumber ');
}

export function cleanMailBody(body: string): string {
  return normalizeVolatileTokens(stripQuotedAndSignature(body));
}

/** ASCII \w: what \b and \w mean in a regex without the u flag. */
function isWord(code: number): boolean {
  return (
    (code >= 0x30 && code <= 0x39) ||
    (code >= 0x41 && code <= 0x5a) ||
    (code >= 0x61 && code <= 0x7a) ||
    code === 0x5f
  );
}
/** [\w.+-]: a character of an address's local part. */
function isLocal(code: number): boolean {
  return isWord(code) || code === 0x2e || code === 0x2b || code === 0x2d;
}
const wordAt = (text: string, i: number): boolean => i >= 0 && i < text.length && isWord(text.charCodeAt(i));

/**
 * Every address becomes " domain ", exactly as the regex above does. A local part reaches its "@"
 * through local-part characters only, so all the starts of one run share one "@" and one fate:
 * the match starts at the run's first word boundary, and the domain is matched once per "@".
 */
export function replaceAddresses(text: string): string {
  const parts: string[] = [];
  let kept = 0; // text before this is in parts
  let pos = 0; // where the regex would resume (its lastIndex)
  for (;;) {
    const at = text.indexOf('@', pos);
    if (at < 0) break;
    let runStart = at;
    while (runStart > pos && isLocal(text.charCodeAt(runStart - 1))) runStart--;
    let start = runStart;
    while (start < at && wordAt(text, start - 1) === wordAt(text, start)) start++;
    DOMAIN.lastIndex = at + 1;
    const match = start < at ? DOMAIN.exec(text) : null;
    if (match === null) {
      pos = at + 1;
      continue;
    }
    parts.push(text.slice(kept, start), ` ${(match[1] as string).toLowerCase()} `);
    kept = pos = DOMAIN.lastIndex;
  }
  if (kept === 0) return text;
  parts.push(text.slice(kept));
  return parts.join('');
}
