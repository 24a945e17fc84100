/**
 * Regional-indicator symbols (U+1F1E6-U+1F1FF, 🇦-🇿) used as letters: "🇫🇷🇪🇪" for "free". Two of
 * them make a country flag when they spell a region code (🇺🇦, 🇫🇷), so a pair that is a flag stays
 * the symbol it shows. Read as the lower-case letters a-z:
 * - a lone indicator, and a pair that is no region code (no flag shows: a reader sees letters);
 * - a run of three or more, unless it is an even run of flags only (a row of flags: 🇺🇦🇵🇱) with no
 *   letter beside it in a text where no other run reads as letters. Where one does (an odd run, a
 *   pair that is no flag, a run beside a letter), the text is written in indicators, and even runs
 *   of flags are its words too ("🇫🇷🇪🇪", fr + ee, is "free").
 * A run is what stands between other characters; letters written as indicators in every word are
 * runs apart, one per word.
 */

/** Region codes with a flag (ISO 3166-1 alpha-2 and the other codes Unicode gives a flag: EU, UN, XK). */
const FLAGS = new Set(
  (
    'ac ad ae af ag ai al am ao aq ar as at au aw ax az ba bb bd be bf bg bh bi bj bl bm bn bo bq br bs ' +
    'bt bv bw by bz ca cc cd cf cg ch ci ck cl cm cn co cp cr cu cv cw cx cy cz de dg dj dk dm do dz ea ' +
    'ec ee eg eh er es et eu fi fj fk fm fo fr ga gb gd ge gf gg gh gi gl gm gn gp gq gr gs gt gu gw gy ' +
    'hk hm hn hr ht hu ic id ie il im in io iq ir is it je jm jo jp ke kg kh ki km kn kp kr kw ky kz la ' +
    'lb lc li lk lr ls lt lu lv ly ma mc md me mf mg mh mk ml mm mn mo mp mq mr ms mt mu mv mw mx my mz ' +
    'na nc ne nf ng ni nl no np nr nu nz om pa pe pf pg ph pk pl pm pn pr ps pt pw py qa re ro rs ru rw ' +
    'sa sb sc sd se sg sh si sj sk sl sm sn so sr ss st sv sx sy sz ta tc td tf tg th tj tk tl tm tn to ' +
    'tr tt tv tw tz ua ug um un us uy uz va vc ve vg vi vn vu wf ws xk ye yt za zm zw'
  ).split(' '),
);

/** A run of regional indicators (each two UTF-16 code units, high surrogate U+D83C). */
const RUN = /[\u{1f1e6}-\u{1f1ff}]+/gu;
const LETTER = /\p{L}/u;
/** Every regional indicator's high surrogate: a text without it has none (one indexOf). */
const HIGH = '\ud83c';
const FIRST = 0x1f1e6;

/** The text with the regional indicators that stand for letters written as those letters. */
export function regionalLetters(text: string): string {
  if (!text.includes(HIGH)) return text;
  // First the runs that are letters whatever the rest is; then whether a row of flags is a word.
  let lettersText = false;
  for (const match of text.matchAll(RUN)) {
    if (readsAsLetters(text, match[0], match.index, false)) {
      lettersText = true;
      break;
    }
  }
  return text.replace(RUN, (run: string, offset: number) =>
    readsAsLetters(text, run, offset, lettersText) ? spell(run) : run,
  );
}

/** The letters a-z that a run of regional indicators spells. */
function spell(run: string): string {
  let letters = '';
  for (const ch of run) letters += String.fromCharCode(0x61 + (ch.codePointAt(0) as number) - FIRST);
  return letters;
}

function readsAsLetters(text: string, run: string, offset: number, lettersText: boolean): boolean {
  const letters = spell(run);
  if (letters.length === 2) return !FLAGS.has(letters);
  if (letters.length % 2 === 1) return true;
  for (let i = 0; i < letters.length; i += 2) if (!FLAGS.has(letters.slice(i, i + 2))) return true;
  return lettersText || touchesLetter(text, offset - 1) || touchesLetter(text, offset + run.length);
}

/** Whether text[at] is a letter (a BMP one: what stands beside a word written in indicators). */
function touchesLetter(text: string, at: number): boolean {
  return at >= 0 && at < text.length && LETTER.test(text[at] as string);
}
