import iconv from 'iconv-lite';
import { DoppelError } from '../../errors.js';

/**
 * Bytes to text. UTF-8 when the bytes are valid UTF-8 (or carry its BOM); otherwise the legacy
 * single-byte charset is detected from the content, because feeds and old mail rarely label it
 * correctly (docs/signatures.md, "From input to text").
 *
 * The detector scores every candidate's decoding with small character models: letter unigram
 * frequencies (Russian, Ukrainian, Persian), a word-shape model (the wrong one of KOI8-R / cp1251
 * swaps the case ranges, so it yields "rUSSIAN"-shaped words; a wrong page glues Latin letters
 * into Cyrillic or Arabic words) and penalties for the box-drawing, control and symbol characters
 * that a wrong code page produces. Only non-ASCII bytes carry evidence: ASCII decodes identically
 * under every candidate. The result is the candidate with the highest log-likelihood.
 */

export const CHARSETS = [
  'utf-8',
  'windows-1251',
  'koi8-r',
  'koi8-u',
  'ibm866',
  'cp1125',
  'iso-8859-5',
  'windows-1256',
] as const;
export type Charset = (typeof CHARSETS)[number];
type LegacyCharset = Exclude<Charset, 'utf-8'>;

/**
 * Order matters only for exact ties, which keeps the result deterministic. The Ukrainian pages
 * (KOI8-U, cp1125 = IBM 1125) follow the Russian ones they extend: they differ only in the bytes
 * of і ї є ґ (box drawing or ў ° in the Russian pages), so a text without those bytes ties and
 * keeps its Russian page; the decoded text is the same either way.
 */
const LEGACY: readonly LegacyCharset[] = [
  'windows-1251',
  'koi8-r',
  'koi8-u',
  'ibm866',
  'cp1125',
  'iso-8859-5',
  'windows-1256',
];

export interface DecodeBytesOptions {
  /**
   * A charset named by the container (a MIME part, an HTML <meta>). It wins when its decoding
   * scores within the margin of the best candidate; content evidence wins otherwise.
   */
  hint?: string;
  /**
   * Extra margin per non-ASCII byte by which another candidate must beat the hint. 0 (default)
   * makes the hint a tie-breaker; a MIME-declared charset deserves more trust than a <meta>.
   */
  hintMarginPerByte?: number;
}

export interface DecodedBytes {
  text: string;
  charset: Charset;
}

// ---------------------------------------------------------------------------------------------
// Character models. Frequencies are of lower-cased letters among letters of that script.
// ru: computed from ../shared/data/news-ru.jsonl (151 articles, 178k letters);
// uk: from the Ukrainian seed paper (Ukrainian text, 4.3k letters; ы ъ э ё do not exist);
// fa: from ../shared/data/news-fa.jsonl (1M letters) after folding ي ى -> ی, ك -> ک, أ إ -> ا.

const CYRILLIC_ALPHABET = 'абвгдеёжзийклмнопрстуфхцчшщъыьэюяіїєґ';
const RU_FREQ = [
  0.08317, 0.01675, 0.04516, 0.01578, 0.03151, 0.08492, 0.00042, 0.00863, 0.01575, 0.07525, 0.01201, 0.03381,
  0.04102, 0.03044, 0.06714, 0.10831, 0.02998, 0.05335, 0.05474, 0.06502, 0.02385, 0.0034, 0.00879, 0.00561,
  0.01353, 0.00608, 0.00359, 0.00045, 0.01802, 0.01493, 0.00323, 0.00562, 0.01975, 0.00001, 0.00001, 0, 0,
];
const UK_FREQ = [
  0.05922, 0.01636, 0.05484, 0.01475, 0.03272, 0.04677, 0, 0.00853, 0.02051, 0.07373, 0.00622, 0.04378,
  0.03848, 0.03479, 0.08525, 0.09793, 0.01843, 0.03088, 0.05046, 0.06014, 0.03894, 0.00415, 0.01382, 0.00714,
  0.01221, 0.00622, 0.00599, 0, 0, 0.0182, 0, 0.00853, 0.02581, 0.05184, 0.0023, 0.01106, 0,
];

const ARABIC_ALPHABET = 'ابپتثجچحخدذرزژسشصضطظعغفقکگلمنوهیآئءؤة';
const FA_FREQ = [
  0.1509, 0.04738, 0.00786, 0.04898, 0.00128, 0.01002, 0.00309, 0.00939, 0.01143, 0.07033, 0.00182, 0.08731,
  0.02343, 0.00072, 0.03212, 0.02415, 0.00596, 0.00316, 0.0046, 0.00196, 0.01121, 0.00145, 0.01481, 0.01192,
  0.02617, 0.01448, 0.02885, 0.05715, 0.06621, 0.057, 0.05953, 0.09753, 0.00584, 0.00172,
  // ء ؤ ة are rare in Persian but common in Arabic, which shares windows-1256: floors keep
  // Arabic text from reading as "foreign letters".
  0.002, 0.001, 0.01,
];
const ARABIC_FOLD: Record<string, string> = { ي: 'ی', ى: 'ی', ك: 'ک', أ: 'ا', إ: 'ا', ٱ: 'ا' };

/** Letters absent from a table still occur (names, loans, typos). */
const LETTER_FLOOR = 2e-4;
/** Share of non-ASCII characters that are letters in real text (news: 0.98-0.99). */
const P_LETTER = 0.97;

// Non-letters that real text does contain in the upper half of a code page, with rough shares
// of non-ASCII characters (ru news: nbsp 0.4%, « » 0.2% each, dashes 0.17%).
const COMMON_PUNCT = new Map<string, number>([
  ['\u00a0', 3e-3],
  ['«', 2e-3],
  ['»', 2e-3],
  ['—', 2e-3],
  ['–', 1e-3],
  ['…', 3e-4],
  ['“', 3e-4],
  ['”', 3e-4],
  ['„', 2e-4],
  ['‘', 2e-4],
  ['’', 3e-4],
  ['№', 2e-4],
  ['°', 2e-4],
  ['\u00ad', 1e-4],
  ['·', 1e-4],
  ['•', 1e-4],
  ['§', 1e-4],
  ['©', 1e-4],
  ['±', 5e-5],
  ['×', 5e-5],
  ['€', 1e-4],
  ['™', 5e-5],
  ['‰', 3e-5],
]);
const ARABIC_PUNCT = new Map<string, number>([
  ['\u200c', 8e-3], // ZWNJ, written inside Persian words (می‌شود)
  ['،', 6e-3],
  ['؛', 3e-4],
  ['؟', 2e-4],
  ['\u200d', 5e-5],
  ['\u200e', 1e-4],
  ['\u200f', 5e-5],
  ['ـ', 1e-4], // tatweel
]);
const P_OTHER_SYMBOL = 2e-5;
/** Letters of another script (Latin accents in cp1256, Serbian letters in cp1251...). */
const P_FOREIGN_LETTER = 1e-5;
/** C1 controls and unmapped bytes: never in text. */
const P_CONTROL = 1e-8;

type Script = 'cyrillic' | 'arabic';
interface LanguageModel {
  name: string;
  script: Script;
  logp: (ch: string) => number;
}

function letterModel(name: string, script: Script, alphabet: string, freq: number[]): LanguageModel {
  const table = new Map<string, number>();
  [...alphabet].forEach((letter, i) => {
    table.set(letter, Math.log(P_LETTER * Math.max(freq[i] ?? 0, LETTER_FLOOR)));
  });
  const extraPunct = script === 'arabic' ? ARABIC_PUNCT : undefined;
  return {
    name,
    script,
    logp(ch) {
      const key = script === 'cyrillic' ? ch.toLowerCase() : (ARABIC_FOLD[ch] ?? ch);
      const letter = table.get(key);
      if (letter !== undefined) return letter;
      const punct = COMMON_PUNCT.get(ch) ?? extraPunct?.get(ch);
      if (punct !== undefined) return Math.log(punct);
      const cp = ch.codePointAt(0) ?? 0;
      if (cp === 0xfffd || (cp >= 0x80 && cp < 0xa0)) return Math.log(P_CONTROL);
      // Harakat: rare in news, but fully vocalised text (Quran, poetry) is still text.
      if (script === 'arabic' && cp >= 0x64b && cp <= 0x652) return Math.log(1e-2);
      if (isBox(cp)) return 0; // charged by the word-shape model, which knows about runs
      if (/\p{L}/u.test(ch)) return Math.log(P_FOREIGN_LETTER);
      return Math.log(P_OTHER_SYMBOL);
    },
  };
}

const MODELS: Record<Script, LanguageModel[]> = {
  cyrillic: [
    letterModel('ru', 'cyrillic', CYRILLIC_ALPHABET, RU_FREQ),
    letterModel('uk', 'cyrillic', CYRILLIC_ALPHABET, UK_FREQ),
  ],
  arabic: [letterModel('fa', 'arabic', ARABIC_ALPHABET, FA_FREQ)],
};
const SCRIPT_OF: Record<LegacyCharset, Script> = {
  'windows-1251': 'cyrillic',
  'koi8-r': 'cyrillic',
  'koi8-u': 'cyrillic',
  ibm866: 'cyrillic',
  cp1125: 'cyrillic',
  'iso-8859-5': 'cyrillic',
  'windows-1256': 'arabic',
};

// Character classes of decoded bytes.
const NON = 0; // not a letter: space, digit, punctuation, symbol, combining mark
const LATIN = 1;
const LOWER = 2; // Cyrillic lower case
const UPPER = 3; // Cyrillic upper case
const ARABIC = 4;
const BOX = 5; // box drawing and blocks
const N_CLASSES = 6;

// Word-shape states: outside a word, or inside one that is lower case so far, has one capital so
// far, is Capitalised, is ALL CAPS, is mIXED, or is Latin or Arabic; or inside a pseudo-graphics run.
const S_NON = 0;
const S_LOWER = 1;
const S_FIRST_UPPER = 2;
const S_CAPITALISED = 3;
const S_ALL_CAPS = 4;
const S_MIXED = 5;
const S_LATIN = 6;
const S_ARABIC = 7;
const S_BOX = 8;
const N_STATES = 9;

/** Latin glued to Cyrillic or Arabic inside a word: what a wrong code page produces. */
const P_SCRIPT_MIX = 0.002;
/**
 * Box drawing: DOS (cp866) texts draw frames with it, as runs of one character (════); wrong code
 * pages produce varied ones, even in runs (KOI8-R lower case read as cp866 is ╘╙╚...). So a box
 * character is expensive unless it repeats the previous byte.
 */
const P_BOX = 1e-5;
const P_BOX_REPEAT = 0.5;
const BOX_REPEAT_REFUND = Math.log(P_BOX_REPEAT) - Math.log(P_BOX);

/**
 * Word-shape model, as log-probabilities charged on state transitions so that a word pays for its
 * shape once, not per letter. In ru news 84% of Cyrillic words start lower case; of capitalised
 * starts, 80% continue lower case. ALL CAPS is 1% of words in news but given 18% of capital
 * starts, so that headlines still decode: case is what separates KOI8-R from cp1251, and
 * an all-caps cp1251 text reads as all-lower-case KOI8-R.
 */
const WORD_SHAPE = (() => {
  const next = new Uint8Array(N_STATES * N_CLASSES);
  const cost = new Float64Array(N_STATES * N_CLASSES);
  const set = (state: number, cls: number, to: number, p: number): void => {
    next[state * N_CLASSES + cls] = to;
    cost[state * N_CLASSES + cls] = Math.log(p);
  };
  const cyrillicWord = [S_LOWER, S_FIRST_UPPER, S_CAPITALISED, S_ALL_CAPS, S_MIXED];
  for (let s = 0; s < N_STATES; s++) {
    set(s, NON, S_NON, 1);
    set(s, BOX, S_BOX, P_BOX);
    const inCyrillic = cyrillicWord.includes(s);
    set(s, LATIN, S_LATIN, inCyrillic || s === S_ARABIC ? P_SCRIPT_MIX : 1);
    set(s, ARABIC, S_ARABIC, inCyrillic || s === S_LATIN ? P_SCRIPT_MIX : 1);
  }
  for (const s of [S_LATIN, S_ARABIC]) {
    set(s, LOWER, S_LOWER, P_SCRIPT_MIX);
    set(s, UPPER, S_FIRST_UPPER, P_SCRIPT_MIX);
  }
  for (const s of [S_NON, S_BOX]) {
    set(s, LOWER, S_LOWER, 0.84);
    set(s, UPPER, S_FIRST_UPPER, 0.16);
  }
  set(S_LOWER, LOWER, S_LOWER, 1);
  set(S_LOWER, UPPER, S_MIXED, 0.002);
  set(S_FIRST_UPPER, LOWER, S_CAPITALISED, 0.8);
  set(S_FIRST_UPPER, UPPER, S_ALL_CAPS, 0.18);
  set(S_CAPITALISED, LOWER, S_CAPITALISED, 1);
  set(S_CAPITALISED, UPPER, S_MIXED, 0.01);
  set(S_ALL_CAPS, UPPER, S_ALL_CAPS, 1);
  set(S_ALL_CAPS, LOWER, S_MIXED, 0.05); // МВДшник
  set(S_MIXED, LOWER, S_MIXED, 1);
  set(S_MIXED, UPPER, S_MIXED, 1);
  return { next, cost };
})();

interface CharsetTables {
  charset: LegacyCharset;
  /** Per language model of the charset's script: log-probability of each byte's character. */
  unigram: Float64Array[];
  /** The word-shape automaton indexed by state * 256 + byte: next state, and its cost. */
  next: Uint8Array;
  cost: Float64Array;
  /** 1 for bytes that decode to box drawing (for the repeat refund). */
  box: Uint8Array;
}

function isBox(cp: number): boolean {
  return cp >= 0x2500 && cp <= 0x25a0;
}

function classify(ch: string): number {
  const cp = ch.codePointAt(0) ?? 0;
  if (isBox(cp)) return BOX;
  if (!/\p{L}/u.test(ch)) return NON;
  if (cp >= 0x400 && cp <= 0x52f) return ch === ch.toLowerCase() ? LOWER : UPPER;
  if (cp >= 0x600 && cp <= 0x6ff) return ARABIC;
  return LATIN;
}

/**
 * The detector never decodes five times: iconv-lite decodes the 128 upper bytes of each code page
 * once, here, and scores are sums of per-byte table entries.
 */
const TABLES: CharsetTables[] = LEGACY.map((charset) => {
  const models = MODELS[SCRIPT_OF[charset]];
  const unigram = models.map(() => new Float64Array(256));
  const next = new Uint8Array(N_STATES * 256);
  const cost = new Float64Array(N_STATES * 256);
  const box = new Uint8Array(256);
  for (let b = 0; b < 256; b++) {
    const ch = b < 0x80 ? String.fromCharCode(b) : iconv.decode(Uint8Array.of(b), charset);
    const k = classify(ch);
    box[b] = k === BOX ? 1 : 0;
    if (b >= 0x80) {
      models.forEach((model, i) => {
        unigram[i]![b] = model.logp(ch);
      });
    }
    for (let state = 0; state < N_STATES; state++) {
      next[state * 256 + b] = WORD_SHAPE.next[state * N_CLASSES + k]!;
      cost[state * 256 + b] = WORD_SHAPE.cost[state * N_CLASSES + k]!;
    }
  }
  return { charset, unigram, next, cost, box };
});

/**
 * Mean log-likelihood per non-ASCII byte below which no candidate is plausible text. Correct
 * decodings score about -3.2 on ru and fa news (-4.2 at worst on 30-character snippets); random
 * upper-half bytes score below -6.
 */
const REJECT_MEAN = -5.5;
/** Fewer non-ASCII bytes than this are too little evidence to reject mostly-ASCII text. */
const REJECT_MIN_BYTES = 8;
/** The Russian page each Ukrainian page extends, and the margin by which it must lose to it. */
const UKRAINIAN_BASE = new Map<LegacyCharset, LegacyCharset>([
  ['koi8-u', 'koi8-r'],
  ['cp1125', 'ibm866'],
]);
const UKRAINIAN_MARGIN = 3;
/** Tie-breaking margin for a hint, in nats (a factor of ~7 in likelihood). */
const TIE_MARGIN = 2;

interface ByteStats {
  histogram: Uint32Array;
  /** Per byte value, how often it immediately repeats itself. */
  repeats: Uint32Array;
  nHigh: number;
}

function byteStats(bytes: Uint8Array): ByteStats {
  const histogram = new Uint32Array(256);
  const repeats = new Uint32Array(256);
  let prev = -1;
  for (let i = 0; i < bytes.length; i++) {
    const b = bytes[i]!;
    histogram[b]!++;
    if (b === prev) repeats[b]!++;
    prev = b;
  }
  let nHigh = 0;
  for (let b = 0x80; b < 256; b++) nHigh += histogram[b]!;
  return { histogram, repeats, nHigh };
}

/**
 * The unigram part of a candidate's score, best language model. Every word-shape cost is <= 0
 * (a repeated box character's refund only lowers its own charge), so this is also an upper bound
 * of the full score, which lets the detector skip the sequence pass for hopeless candidates.
 */
function unigramScore(tables: CharsetTables, { histogram }: ByteStats): number {
  let best = Number.NEGATIVE_INFINITY;
  for (const table of tables.unigram) {
    let s = 0;
    for (let b = 0x80; b < 256; b++) {
      const n = histogram[b]!;
      if (n !== 0) s += n * table[b]!;
    }
    if (s > best) best = s;
  }
  return best;
}

function shapeScore(tables: CharsetTables, bytes: Uint8Array, { repeats }: ByteStats): number {
  const { next, cost, box } = tables;
  let state = S_NON;
  let score = 0;
  for (let i = 0; i < bytes.length; i++) {
    const j = (state << 8) | bytes[i]!;
    score += cost[j]!;
    state = next[j]!;
  }
  for (let b = 0x80; b < 256; b++) if (box[b] === 1) score += repeats[b]! * BOX_REPEAT_REFUND;
  return score;
}

interface Candidate {
  tables: CharsetTables;
  /** The exact score once `exact`, otherwise an upper bound. */
  score: number;
  exact: boolean;
}

function exactScore(c: Candidate, bytes: Uint8Array, stats: ByteStats): number {
  if (!c.exact) {
    c.score += shapeScore(c.tables, bytes, stats);
    c.exact = true;
  }
  return c.score;
}

/** Candidates by upper bound (ties in LEGACY order), and the best one scored exactly. */
function rankCandidates(bytes: Uint8Array, stats: ByteStats): { candidates: Candidate[]; best: Candidate } {
  const candidates = TABLES.map((tables) => ({ tables, score: unigramScore(tables, stats), exact: false }));
  candidates.sort((a, b) => b.score - a.score);
  let best = candidates[0]!;
  exactScore(best, bytes, stats);
  for (const c of candidates) {
    if (c.score < best.score) break; // sorted bounds: nothing further can win
    if (exactScore(c, bytes, stats) > best.score) best = c;
  }
  return { candidates, best };
}

/**
 * Detector scores for diagnostics and tests: log-likelihood of each legacy candidate and its mean
 * per non-ASCII byte (the quantity the UNDECODABLE threshold applies to), best first.
 */
export function scoreCharsets(bytes: Uint8Array): { charset: Charset; score: number; mean: number }[] {
  const stats = byteStats(bytes);
  const { candidates } = rankCandidates(bytes, stats);
  return candidates
    .map((c) => {
      const score = exactScore(c, bytes, stats);
      return {
        charset: c.tables.charset as Charset,
        score,
        mean: stats.nHigh === 0 ? 0 : score / stats.nHigh,
      };
    })
    .sort((a, b) => b.score - a.score);
}

/** NUL or more than 2% C0 control bytes (other than tab, line breaks, form feed, escape). */
function binaryReason(bytes: Uint8Array): string | undefined {
  let controls = 0;
  for (let i = 0; i < bytes.length; i++) {
    const b = bytes[i]!;
    if (b >= 0x20) continue;
    if (b === 0) return `NUL byte at offset ${i}`;
    if (b !== 0x09 && b !== 0x0a && b !== 0x0b && b !== 0x0c && b !== 0x0d && b !== 0x1b) controls++;
  }
  return controls > bytes.length * 0.02 ? `${controls} control bytes in ${bytes.length}` : undefined;
}

const utf8Fatal = new TextDecoder('utf-8', { fatal: true, ignoreBOM: true });
const utf8Lenient = new TextDecoder('utf-8', { ignoreBOM: true });

const LABELS = new Map<string, Charset>([
  ...['utf8', 'unicode11utf8', 'usascii', 'ascii', 'ansix341968', 'us'].map((l) => [l, 'utf-8'] as const),
  ...['windows1251', 'cp1251', 'win1251', 'mscyrl'].map((l) => [l, 'windows-1251'] as const),
  ...['koi8r', 'koi8', 'cskoi8r'].map((l) => [l, 'koi8-r'] as const),
  ...['koi8u', 'cskoi8u', 'koi8ru'].map((l) => [l, 'koi8-u'] as const),
  ...['ibm866', 'cp866', '866', 'csibm866', 'dos866'].map((l) => [l, 'ibm866'] as const),
  ...['cp1125', 'ibm1125', '1125', 'cp866u', 'ruscii'].map((l) => [l, 'cp1125'] as const),
  ...['iso88595', 'iso885951988', 'cyrillic', 'csisolatincyrillic', 'isoir144'].map(
    (l) => [l, 'iso-8859-5'] as const,
  ),
  ...['windows1256', 'cp1256', 'win1256', 'msarab'].map((l) => [l, 'windows-1256'] as const),
]);

/**
 * Maps a charset label as written in MIME or HTML ("CP1251", "x-cp1251", "koi8r", "US-ASCII") to
 * one of the supported charsets, or undefined. US-ASCII maps to UTF-8, its superset.
 */
export function normalizeCharsetLabel(label: string | undefined): Charset | undefined {
  if (!label) return undefined;
  const key = label
    .trim()
    .toLowerCase()
    .replace(/^["']|["']$/g, '')
    .replace(/^x-/, '')
    .replace(/[-_.:\s]/g, '');
  return LABELS.get(key);
}

function pickLegacy(bytes: Uint8Array, options: DecodeBytesOptions): LegacyCharset {
  const stats = byteStats(bytes);
  const ranked = rankCandidates(bytes, stats);
  const { candidates } = ranked;
  let { best } = ranked;

  if (stats.nHigh >= REJECT_MIN_BYTES && best.score / stats.nHigh < REJECT_MEAN) {
    const mean = (best.score / stats.nHigh).toFixed(2);
    throw new DoppelError(
      'UNDECODABLE',
      `bytes are not text in any supported charset (best ${best.tables.charset}, mean log-likelihood ${mean} per byte)`,
    );
  }

  // The Ukrainian extension of a Russian page must explain the bytes clearly better: a Ukrainian
  // letter that the Russian page reads as box drawing or as ў costs it some 8 nats, while a
  // near-tie means Russian text with a stray byte (a Ukrainian name that lost a letter in cp866).
  const base = UKRAINIAN_BASE.get(best.tables.charset);
  if (base !== undefined) {
    const russian = candidates.find((c) => c.tables.charset === base);
    if (russian !== undefined && exactScore(russian, bytes, stats) >= best.score - UKRAINIAN_MARGIN)
      best = russian;
  }

  const hint = normalizeCharsetLabel(options.hint);
  const hinted = candidates.find((c) => c.tables.charset === hint);
  if (hinted !== undefined && hinted !== best) {
    const margin = TIE_MARGIN + (options.hintMarginPerByte ?? 0) * stats.nHigh;
    if (hinted.score >= best.score - margin && exactScore(hinted, bytes, stats) >= best.score - margin) {
      return hinted.tables.charset;
    }
  }
  return best.tables.charset;
}

/**
 * Decodes bytes to text, detecting the charset. Throws DoppelError('UNDECODABLE') for binary
 * data and for bytes that no candidate decodes into plausible text.
 */
export function decodeBytes(bytes: Uint8Array, options: DecodeBytesOptions = {}): DecodedBytes {
  const reason = binaryReason(bytes);
  if (reason !== undefined) throw new DoppelError('UNDECODABLE', `binary data: ${reason}`);

  // A BOM is a declaration: bad sequences after it become U+FFFD rather than a charset guess.
  if (bytes.length >= 3 && bytes[0] === 0xef && bytes[1] === 0xbb && bytes[2] === 0xbf) {
    return { text: utf8Lenient.decode(bytes.subarray(3)), charset: 'utf-8' };
  }
  try {
    return { text: utf8Fatal.decode(bytes), charset: 'utf-8' };
  } catch {
    // not UTF-8: detect below
  }
  const charset = pickLegacy(bytes, options);
  return { text: iconv.decode(bytes, charset), charset };
}

/**
 * Decodes bytes in a charset the sender declared (no detection). UTF-8 must be well-formed: a
 * byte sequence that is not would become U+FFFD, and two different ids would read the same.
 */
export function decodeDeclared(bytes: Uint8Array, charset: Charset): string {
  if (charset !== 'utf-8') return iconv.decode(bytes, charset);
  try {
    return utf8Fatal.decode(bytes);
  } catch {
    throw new DoppelError('UNDECODABLE', 'bytes are not well-formed UTF-8 (declare their charset)');
  }
}

/** Encodes text in one of the supported charsets; unrepresentable characters become "?". */
export function encodeText(text: string, charset: Charset): Uint8Array {
  const buf = iconv.encode(text, charset);
  return new Uint8Array(buf.buffer, buf.byteOffset, buf.byteLength);
}
