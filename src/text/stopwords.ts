// The package's ES module build, whose named exports are the lists: its default (CommonJS) entry
// cost ~20 ms more CPU to load (every start pays it), for the same lists (test/text/stopwords.test.ts).
import { eng, fas, rus, ukr } from 'stopword/dist/stopword.esm.min.mjs';
import type { Language, SupportedLanguage } from './language.js';
import { normalizeLetters } from './normalize.js';

/**
 * Function words removed before shingling and SimHash features (seed 003: prepositions,
 * conjunctions, particles), kept in the exact hash. ru/uk/en come from the maintained `stopword`
 * package (function words only, unlike the larger lists that also drop content words such as
 * "white" or "able"). Its Persian list is short (48 words) and misses the commonest verbs and
 * determiners of news text, so a few are added here.
 */
const PERSIAN_EXTRA = [
  'این',
  'آن',
  'است',
  'بود',
  'شد',
  'شود',
  'می',
  'نمی',
  'ها',
  'های',
  'هر',
  'یک',
  'کرد',
  'کند',
  'کرده',
  'شده',
  'بوده',
  'باشد',
  'هست',
  'ای',
  'ایم',
  'اند',
  'او',
  'ما',
  'شما',
  'آنها',
  'وی',
  'خود',
  'نیز',
  'دارد',
  'داشت',
  'همه',
  'دیگر',
  'ترین',
  'تر',
  'یا',
  'هم',
  'گفت',
  'پیش',
  'حال',
  'اینکه',
  'چنین',
];

const SOURCE: Record<SupportedLanguage, readonly string[]> = {
  ru: rus,
  uk: ukr,
  en: eng,
  fa: [...fas, ...PERSIAN_EXTRA],
};

const cache = new Map<Language, ReadonlySet<string>>();

/** Stop words of `lang`, normalized the same way as document text (so Arabic yeh/kaf match). */
export function stopWords(lang: Language): ReadonlySet<string> {
  let set = cache.get(lang);
  if (!set) {
    const words = lang === 'und' ? [] : SOURCE[lang];
    const forms = words.flatMap((w) => [
      normalizeLetters(w, { zwnj: 'space' }).trim(),
      normalizeLetters(w, { zwnj: 'join' }).trim(),
    ]);
    set = new Set(forms.filter((w) => w !== ''));
    cache.set(lang, set);
  }
  return set;
}
