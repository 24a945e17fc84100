/**
 * Language by script, for the languages doppel has lexicons and stop words for. A declared
 * `lang` wins when it is one of these; otherwise the letters decide.
 */
export const LANGUAGES = ['ru', 'uk', 'en', 'fa'] as const;
export type SupportedLanguage = (typeof LANGUAGES)[number];
/** 'und' = undetermined: no stop words, no I-Match lexicon; the other methods still work. */
export type Language = SupportedLanguage | 'und';

export function isSupportedLanguage(value: string): value is SupportedLanguage {
  return (LANGUAGES as readonly string[]).includes(value);
}

/**
 * Common tags' primary subtags to ours. A Map, not an object literal: the tag is input, and an
 * object would answer "constructor" or "__proto__" with what it inherits from Object.prototype.
 */
const TAG_ALIASES: ReadonlyMap<string, SupportedLanguage> = new Map([
  ['ru', 'ru'],
  ['rus', 'ru'],
  ['uk', 'uk'],
  ['ukr', 'uk'],
  ['ua', 'uk'],
  ['en', 'en'],
  ['eng', 'en'],
  ['fa', 'fa'],
  ['fas', 'fa'],
  ['per', 'fa'],
]);

/**
 * Maps common tags ("ru-RU", "RUS", "per", "ukr") to ours; any other tag is undefined, and the
 * letters decide (an unknown tag is never an error).
 */
export function languageFromTag(tag: string | undefined): SupportedLanguage | undefined {
  if (!tag) return undefined;
  const t = tag.trim().toLowerCase().split(/[-_]/)[0] ?? '';
  return TAG_ALIASES.get(t);
}

/** Decides the language of lower-cased clean text from its first few thousand characters. */
export function detectLanguage(text: string): Language {
  const end = Math.min(text.length, 4000);
  const codes = new Uint16Array(end);
  for (let i = 0; i < end; i++) codes[i] = text.charCodeAt(i);
  return detectLanguageOfCodes(codes, end);
}

/** detectLanguage of the clean text held as UTF-16 code units codes[0, length). */
export function detectLanguageOfCodes(codes: Uint16Array, length: number): Language {
  let cyrillic = 0;
  let arabic = 0;
  let latin = 0;
  let ukOnly = 0;
  let ruOnly = 0;
  const end = Math.min(length, 4000);
  for (let i = 0; i < end; i++) {
    const c = codes[i] as number;
    if (c >= 0x0400 && c <= 0x04ff) {
      cyrillic++;
      // Letters only Ukrainian uses (і ї є ґ), and letters only Russian uses (ы э ъ ё).
      if (c === 0x456 || c === 0x457 || c === 0x454 || c === 0x491) ukOnly++;
      else if (c === 0x44b || c === 0x44d || c === 0x44a || c === 0x451) ruOnly++;
    } else if ((c >= 0x0600 && c <= 0x06ff) || (c >= 0xfb50 && c <= 0xfeff)) arabic++;
    else if ((c >= 97 && c <= 122) || (c >= 0xc0 && c <= 0x24f)) latin++;
  }
  const top = Math.max(cyrillic, arabic, latin);
  if (top === 0) return 'und';
  if (top === cyrillic) return ukOnly > ruOnly ? 'uk' : 'ru';
  if (top === arabic) return 'fa';
  return 'en';
}
