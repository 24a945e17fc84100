/**
 * Mail clean-up (ALGORITHMS.md section 1, step 6): what differs between copies of one mail
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
const EMAIL = /\b[\w.+-]+@((?:[\w-]+\.)+[\w-]{2,})\b/g;
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
  return body
    .replace(URL, (_m, host: string) => ` ${host.toLowerCase()} `)
    .replace(WWW, (_m, host: string) => ` ${host.toLowerCase()} `)
    .replace(EMAIL, (_m, domain: string) => ` ${domain.toLowerCase()} `)
    .replace(HEX_ID, ' volatileid ')
    .replace(MIXED_ID, ' volatileid ')
    .replace(LONG_DIGITS, ' longnumber ');
}

export function cleanMailBody(body: string): string {
  return normalizeVolatileTokens(stripQuotedAndSignature(body));
}
