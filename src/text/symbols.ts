import { type Tokens, tokenHash } from './tokenize.js';

/**
 * Tokens of a text that has no words: each symbol (emoji and pictographs, skin-tone modifiers,
 * arrows, dingbats, currency signs: Unicode categories So and Sc, Extended_Pictographic and
 * Emoji_Modifier) is one token, in order. "☀️☀️☀️ ❤️" and "⚠️ ✈️✈️ ☎️" are then different texts
 * (their variation selectors are invisible and removed), while a repeated one is an exact
 * duplicate. Math signs and modifier symbols (`< = + | ~ ^`) are not tokens: a text of them alone
 * is markup debris, and stays EMPTY_TEXT. Only used when the word tokenizer found nothing, so the
 * canonical text of any text with a word is unchanged. A line break ends a sentence.
 */
const SYMBOL = /[\p{So}\p{Sc}\p{Extended_Pictographic}\p{Emoji_Modifier}]|\n/gu;

export function symbolTokens(clean: string): Tokens {
  const parts: string[] = [];
  const sentenceEnds: number[] = [];
  for (const [match] of clean.matchAll(SYMBOL)) {
    if (match !== '\n') parts.push(match);
    else if (parts.length > 0 && sentenceEnds[sentenceEnds.length - 1] !== parts.length)
      sentenceEnds.push(parts.length);
  }
  if (parts.length > 0 && sentenceEnds[sentenceEnds.length - 1] !== parts.length)
    sentenceEnds.push(parts.length);
  const starts = new Int32Array(parts.length);
  const hashes = new Int32Array(parts.length);
  let offset = 0;
  for (let k = 0; k < parts.length; k++) {
    const part = parts[k] as string;
    starts[k] = offset;
    hashes[k] = tokenHash(part, 0, part.length);
    offset += part.length + 1;
  }
  return { joined: parts.join(' '), count: parts.length, starts, sentenceEnds, hashes };
}
