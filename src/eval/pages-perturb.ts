import { hashString, Random } from './random.js';

/**
 * Robustness variants of real pages, made on the fly from the bytes as fetched, so that the
 * extraction can be checked on page shapes it was not tuned on:
 * - `stripNames`: no class, id, role or itemprop attribute anywhere (names are site-specific and
 *   many sites' names mean nothing: "c-1x9a", "col-7");
 * - `divs`: article, main, nav, aside, footer, header and section are all <div> (older CMSs);
 * - `clutter`: a cookie notice at the top of the body and, just before the first <h1>, a long
 *   "related stories" list (a link and a teaser sentence each) and a comment thread (author and
 *   date lines, prose replies, reply links, a form with a textarea), none of them named.
 * The page's bytes are read as latin1 and written back the same way, so a page in any charset
 * keeps its own bytes; the clutter is ASCII (other letters as numeric character references).
 * Deterministic: the same page and key give the same bytes.
 */
export interface Perturbation {
  stripNames?: boolean;
  divs?: boolean;
  clutter?: boolean;
}

const START_TAG = /<[a-zA-Z][^<>]*>/g;
const NAME_ATTRIBUTE = /\s(?:class|id|role|itemprop)\s*=\s*(?:"[^"]*"|'[^']*'|[^\s"'=<>`]+)/gi;
const SEMANTIC = /<(\/?)(?:article|main|nav|aside|footer|header|section)(?=[\s>/])/gi;
const BODY_OPEN = /<body\b[^<>]*>/i;
const H1_OPEN = /<h1[\s>]/i;

export function perturbPage(bytes: Uint8Array, key: string, how: Perturbation): Uint8Array {
  const html = Buffer.from(bytes.buffer, bytes.byteOffset, bytes.length).toString('latin1');
  return new Uint8Array(Buffer.from(perturbHtml(html, key, how), 'latin1'));
}

/** The same changes on a page already decoded to a string (the `html` field of a message). */
export function perturbHtml(page: string, key: string, how: Perturbation): string {
  let html = page;
  if (how.clutter) html = addClutter(html, key);
  if (how.stripNames) html = html.replace(START_TAG, (tag) => tag.replace(NAME_ATTRIBUTE, ''));
  if (how.divs) html = html.replace(SEMANTIC, '<$1div');
  return html;
}

/** Non-ASCII letters as numeric references: the page's own charset cannot garble them. */
const ascii = (s: string): string => s.replace(/[^\x20-\x7e]/gu, (c) => `&#${c.codePointAt(0) as number};`);

/** Cookie notices as sites write them, in the languages doppel's corpus holds and a few more. */
const COOKIE_NOTICES: readonly (readonly [string, readonly string[]])[] = [
  [
    'We use cookies and similar technologies to improve your experience, to show personalised content and ads, and to analyse our traffic. By clicking "Accept all", you agree to the storing of cookies on your device.',
    ['Accept all', 'Manage settings', 'Reject'],
  ],
  [
    'Мы используем файлы cookie, чтобы сайт работал лучше, а реклама была полезнее. Продолжая пользоваться сайтом, вы соглашаетесь с использованием куки и политикой конфиденциальности.',
    ['Принять', 'Настроить'],
  ],
  [
    'Ми використовуємо файли cookie, щоб покращити роботу сайту. Продовжуючи користуватися сайтом, ви погоджуєтесь з політикою конфіденційності та використанням куки.',
    ['Погоджуюсь', 'Налаштування'],
  ],
  [
    'این وب‌سایت برای بهبود تجربه کاربری از کوکی استفاده می‌کند. با ادامه استفاده از سایت، با سیاست حفظ حریم خصوصی و استفاده از کوکی‌ها موافقت می‌کنید.',
    ['پذیرفتن', 'تنظیمات'],
  ],
  [
    'Wir verwenden Cookies und ähnliche Technologien, um Inhalte zu personalisieren und Zugriffe zu analysieren. Weitere Informationen finden Sie in unserer Datenschutzerklärung. Mit „Alle akzeptieren“ stimmen Sie der Verwendung zu.',
    ['Alle akzeptieren', 'Einstellungen'],
  ],
  [
    'Nous utilisons des cookies pour améliorer votre expérience, mesurer l’audience et vous proposer des publicités adaptées. En poursuivant votre navigation, vous acceptez l’utilisation des cookies.',
    ['Tout accepter', 'Paramétrer'],
  ],
  [
    'Utilizamos cookies propias y de terceros para mejorar nuestros servicios, elaborar información estadística y mostrarle publicidad relacionada con sus preferencias. Si continúa navegando, consideramos que acepta su uso.',
    ['Aceptar todas', 'Configurar'],
  ],
];

const COMMENTERS = ['jmiller', 'Sarah K.', 'old_reader', 'Tom Baxter', 'grumpycat77', 'Priya N.', 'D. Walsh'];
const COMMENT_SENTENCES = [
  'I have been reading this site for years, and this is one of the better pieces on the subject.',
  'Honestly, I do not see how anyone could have expected a different outcome, given what happened last year.',
  'The author leaves out the most important part, which is who is going to pay for all of this in the end.',
  'My brother works in the industry, and he says the numbers quoted here are far too optimistic.',
  'Great article, thank you for writing it, although I would have liked a few more details on the costs.',
  'This is exactly what we were told would not happen, and yet here we are again, arguing about the same thing.',
  'Does anyone know where the original report can be found, because the link in the story seems to be broken?',
  'I disagree with most of the comments here, since the situation is more complicated than people admit.',
  'We had the same problem in our town, and it took the council almost three years to do anything about it.',
  'Interesting, but I suspect the real story is what is not being said by the people in charge.',
];
const TEASER_SUBJECTS = [
  'Officials in the capital',
  'A new study of household spending',
  'The city council',
  'Researchers at a leading university',
  'Local business owners',
  'The opposition leader',
  'Fans of the club',
  'A group of parents',
];
const TEASER_PREDICATES = [
  'say the plan will be delayed again, after a year of talks that produced little agreement.',
  'warn that prices could keep rising through the winter, even as wages stay flat.',
  'voted to review the project, citing concerns about the cost and the timetable.',
  'found that the effect was larger than expected, and that it lasted for several months.',
  'are worried about what the changes will mean for them, and for their customers.',
  'called for an inquiry into the decision, which was announced without consultation.',
];

function addClutter(html: string, key: string): string {
  const r = Random.from(hashString(key), 'pages-clutter');
  const [notice, buttons] = r.pick(COOKIE_NOTICES);
  const cookie = `<div><p>${ascii(notice)}</p>${buttons.map((b) => `<button>${ascii(b)}</button>`).join('')}</div>`;
  const related = Array.from({ length: 10 + r.int(6) }, () => {
    const subject = r.pick(TEASER_SUBJECTS);
    const predicate = r.pick(TEASER_PREDICATES);
    return `<li><a href="/news/${r.digits(6)}"><span>${subject} ${predicate.split(',')[0]}</span></a><p>${subject} ${predicate}</p></li>`;
  }).join('');
  const comments = Array.from({ length: 4 + r.int(5) }, () => {
    const text = r
      .shuffle(COMMENT_SENTENCES)
      .slice(0, 1 + r.int(3))
      .join(' ');
    return `<div><div><a href="/user/${r.digits(5)}">${r.pick(COMMENTERS)}</a> <span>${r.between(1, 23)} hours ago</span></div><p>${text}</p><div><a href="#reply">Reply</a> <a href="#report">Report</a></div></div>`;
  }).join('');
  const thread = `<div><h3>Related stories</h3><ul>${related}</ul></div><div><h2>Comments (${r.between(5, 240)})</h2>${comments}<form action="/comment" method="post"><textarea name="c"></textarea><button>Post comment</button></form></div>`;
  const body = BODY_OPEN.exec(html);
  const atBody = body === null ? 0 : body.index + body[0].length;
  let out = `${html.slice(0, atBody)}${cookie}${html.slice(atBody)}`;
  const h1 = H1_OPEN.exec(out.slice(atBody + cookie.length));
  const atH1 = h1 === null ? atBody + cookie.length : atBody + cookie.length + h1.index;
  out = `${out.slice(0, atH1)}${thread}${out.slice(atH1)}`;
  return out;
}
