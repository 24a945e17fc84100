import { languageFromTag, type SupportedLanguage } from '../../text/language.js';
import type { Random } from '../random.js';
import type { SourceDoc } from './types.js';

/**
 * Per-language material of the generator: datelines, footers, editor's notes, common words, mail
 * phrases. Small hand-written lists: enough variety that copies differ the way real ones do, few
 * enough that a reviewer can check every string.
 */

// ---------------------------------------------------------------------------------------------
// Per-language material. Small hand-written lists: enough variety that copies differ the way
// real ones do, few enough that a reviewer can check every string.

export type Lang = SupportedLanguage;

interface LanguagePack {
  datelines: ((date: Date, r: Random) => string)[];
  footers: ((date: Date) => string)[];
  titlePrefixes: string[];
  titleSuffixes: string[];
  /** Replacement words for word edits: frequent, topic-neutral words of news text. */
  commonWords: string[];
  /** Words editors insert: adverbs and particles that fit almost anywhere. */
  insertWords: string[];
  editorNotes: string[];
  nav: string[];
  siteNames: string[];
  copyright: (year: number, site: string) => string;
  greetings: ((name: string) => string)[];
  names: string[];
  trackLabels: string[];
  referenceLabels: string[];
  unsubscribe: string;
  /** Lower-case words after which a full stop is not a sentence end. */
  abbreviations: ReadonlySet<string>;
}

/** Space-separated words: long word lists stay readable and reviewable. */
export const list = (words: string): string[] => words.split(' ');

const EN_MONTHS = list('Jan Feb March April May June July Aug Sept Oct Nov Dec');
const RU_MONTHS = list('января февраля марта апреля мая июня июля августа сентября октября ноября декабря');
const UK_MONTHS = list(
  'січня лютого березня квітня травня червня липня серпня вересня жовтня листопада грудня',
);

const day = (d: Date) => d.getUTCDate();
const month = (names: string[], d: Date) => names[d.getUTCMonth()] as string;

export const PACKS: Record<Lang, LanguagePack> = {
  en: {
    datelines: [
      (d, r) =>
        `${r.pick(['MOSCOW', 'LONDON', 'WASHINGTON', 'KYIV', 'TEHRAN', 'BRUSSELS'])}, ${month(EN_MONTHS, d)} ${day(d)} (${r.pick(['Reuters', 'Interfax', 'AFP'])}) - `,
      (_d, r) => `${r.pick(['NEW YORK', 'PARIS', 'BERLIN', 'ISTANBUL'])} (${r.pick(['AP', 'Reuters'])}) — `,
    ],
    footers: [
      () => 'Read more on worldnews.example.com.',
      () => '(Reporting by Anna Petrova; Editing by Mark Heinrich)',
      (d) => `© ${d.getUTCFullYear()} Example Wire. All rights reserved.`,
      () => 'Follow us on Twitter and Facebook for the latest news.',
    ],
    titlePrefixes: ['UPDATE 1-', 'BREAKING: ', 'Video: '],
    titleSuffixes: [' - report', ' | World News', ' (updated)'],
    commonWords: list(
      'also new said year people government company week official first last more report city country state president time today former local public major early',
    ),
    insertWords: ['also', 'now', 'reportedly', 'still', 'already', 'officially', 'again'],
    editorNotes: [
      "Editor's note: this story has been updated with additional details.",
      'The company did not immediately respond to a request for comment.',
      'This article was first published on our website earlier today.',
    ],
    nav: ['Home', 'World', 'Business', 'Sport', 'Opinion', 'Contact'],
    siteNames: ['World News Daily', 'The Morning Post', 'Metro Herald'],
    copyright: (year, site) => `© ${year} ${site}. All rights reserved.`,
    greetings: [(n) => `Dear ${n},`, (n) => `Hi ${n},`, (n) => `Hello ${n},`, (n) => `Hey ${n},`],
    names: list('John Maria David Susan Michael Linda James Emma Robert Olga Ahmed'),
    trackLabels: ['Click here: ', 'View the offer: ', 'Details: '],
    referenceLabels: ['Order reference: ', 'Reference number: ', 'Ref. no. '],
    unsubscribe: 'If you no longer wish to receive these emails, unsubscribe here.',
    abbreviations: new Set(
      list(
        'mr mrs ms dr prof st jr sr vs etc inc ltd co corp gov gen col lt sgt rep sen jan feb mar apr jun jul aug sep sept oct nov dec no fig approx est',
      ),
    ),
  },
  ru: {
    datelines: [
      (d, r) =>
        `${r.pick(['МОСКВА', 'САНКТ-ПЕТЕРБУРГ', 'ВАШИНГТОН', 'ЛОНДОН'])}, ${day(d)} ${month(RU_MONTHS, d)} — РИА Новости. `,
      (d) => `ТАСС, ${day(d)} ${month(RU_MONTHS, d)}. `,
      (d) => `Москва. ${day(d)} ${month(RU_MONTHS, d)}. INTERFAX.RU - `,
      (d, r) =>
        `${r.pick(['Москва', 'Казань', 'Новосибирск'])}, ${day(d)} ${month(RU_MONTHS, d)} — ${r.pick(['ПРАЙМ', 'РБК', 'Интерфакс'])}. `,
    ],
    footers: [
      () => 'Подписывайтесь на наш канал в Telegram.',
      () => 'Читайте также: главные новости дня на нашем сайте.',
      (d) => `© ${d.getUTCFullYear()} ТАСС. При перепечатке ссылка обязательна.`,
      () => 'Если вы нашли ошибку, выделите фрагмент текста и нажмите Ctrl+Enter.',
    ],
    titlePrefixes: ['Срочно: ', 'Видео: ', 'Главное: '],
    titleSuffixes: [' — СМИ', ' | Новости дня', ' (обновлено)'],
    commonWords: list(
      'также новый год время страна решение заявил сообщил правительство компания город область человек ранее сегодня вопрос работа проект несколько первый данные президент глава',
    ),
    insertWords: ['также', 'уже', 'ещё', 'официально', 'вновь', 'ранее', 'якобы'],
    editorNotes: [
      'Редакция обратилась за комментарием, но ответа пока не получила.',
      'Ранее эту информацию подтвердили несколько источников.',
      'Материал дополнен новыми подробностями.',
    ],
    nav: ['Главная', 'Новости', 'Политика', 'Экономика', 'Спорт', 'Контакты'],
    siteNames: ['Новости дня', 'Вести Регион', 'Городской портал'],
    copyright: (year, site) => `© ${year} ${site}. Все права защищены.`,
    greetings: [(n) => `Здравствуйте, ${n}!`, (n) => `Добрый день, ${n}!`, (n) => `${n}, добрый день!`],
    names: ['Иван', 'Мария', 'Алексей', 'Ольга', 'Сергей', 'Елена', 'Дмитрий', 'Анна'],
    trackLabels: ['Подробнее: ', 'Перейти к предложению: '],
    referenceLabels: ['Номер заказа: ', 'Номер обращения: '],
    unsubscribe: 'Чтобы отписаться от рассылки, перейдите по ссылке.',
    abbreviations: new Set(
      list('г гг т е д др пр им ул тыс млн млрд руб коп ст проф см рис стр англ лат долл'),
    ),
  },
  uk: {
    datelines: [
      (d) => `КИЇВ, ${day(d)} ${month(UK_MONTHS, d)}. /УНІАН/. `,
      (d, r) =>
        `${r.pick(['Київ', 'Львів', 'Одеса', 'Харків'])}, ${day(d)} ${month(UK_MONTHS, d)} — Укрінформ. `,
      (d) => `Інтерфакс-Україна, ${day(d)} ${month(UK_MONTHS, d)}. `,
    ],
    footers: [
      () => 'Підписуйтесь на наш канал у Telegram.',
      (d) => `© ${d.getUTCFullYear()} УНІАН. Усі права захищено.`,
      () => 'Читайте також: головні новини дня.',
      () => 'Якщо ви помітили помилку, виділіть її та натисніть Ctrl+Enter.',
    ],
    titlePrefixes: ['Терміново: ', 'Відео: ', 'Головне: '],
    titleSuffixes: [' — ЗМІ', ' | Новини дня', ' (оновлено)'],
    commonWords: list(
      'також новий рік час країна рішення заявив повідомив уряд компанія місто область людина раніше сьогодні питання робота проєкт кілька перший дані президент голова',
    ),
    insertWords: ['також', 'вже', 'ще', 'офіційно', 'знову', 'раніше'],
    editorNotes: [
      'Редакція звернулася по коментар, але відповіді поки не отримала.',
      'Раніше цю інформацію підтвердили кілька джерел.',
      'Матеріал доповнено новими подробицями.',
    ],
    nav: ['Головна', 'Новини', 'Політика', 'Економіка', 'Спорт', 'Контакти'],
    siteNames: ['Новини дня', 'Регіональний вісник', 'Міський портал'],
    copyright: (year, site) => `© ${year} ${site}. Усі права захищено.`,
    greetings: [(n) => `Вітаємо, ${n}!`, (n) => `Добрий день, ${n}!`, (n) => `Привіт, ${n}!`],
    names: ['Олена', 'Андрій', 'Тарас', 'Ірина', 'Оксана', 'Микола'],
    trackLabels: ['Детальніше: ', 'Перейти до пропозиції: '],
    referenceLabels: ['Номер замовлення: ', 'Номер звернення: '],
    unsubscribe: 'Щоб відписатися від розсилки, перейдіть за посиланням.',
    abbreviations: new Set(list('р рр т д тис млн млрд грн ст проф див рис вул ім англ')),
  },
  fa: {
    datelines: [
      (_d, r) => `به گزارش خبرگزاری ${r.pick(['فارس', 'ایرنا', 'ایسنا', 'مهر', 'تسنیم'])}، `,
      (_d, r) => `${r.pick(['تهران', 'مشهد', 'اصفهان'])} - ${r.pick(['ایرنا', 'ایسنا'])} - `,
    ],
    footers: [
      () => 'انتهای پیام/',
      () => 'کپی برداری از این خبر با ذکر منبع مجاز است.',
      () => 'اخبار بیشتر را در کانال تلگرام ما دنبال کنید.',
    ],
    titlePrefixes: ['فوری: ', 'ویدئو: '],
    titleSuffixes: [' + فیلم', ' - گزارش'],
    commonWords: list(
      'همچنین جدید سال زمان کشور تصمیم گفت دولت شرکت شهر استان ایران مردم امروز کار طرح اول رئیس مسئولان بخش اعلام برنامه',
    ),
    insertWords: ['همچنین', 'هنوز', 'دوباره', 'رسما', 'اکنون'],
    editorNotes: [
      'این خبر تکمیل می‌شود.',
      'خبرنگار ما برای دریافت توضیحات بیشتر با این نهاد تماس گرفت اما پاسخی دریافت نکرد.',
      'جزئیات بیشتر این خبر متعاقبا اعلام خواهد شد.',
    ],
    nav: ['صفحه اصلی', 'سیاسی', 'اقتصادی', 'ورزشی', 'تماس با ما'],
    siteNames: ['پایگاه خبری امروز', 'خبرنامه شهر'],
    copyright: () => 'کلیه حقوق این سایت محفوظ است.',
    greetings: [(n) => `سلام ${n} عزیز،`, (n) => `${n} گرامی،`],
    names: ['علی', 'مریم', 'رضا', 'زهرا', 'حسین', 'سارا'],
    trackLabels: ['اطلاعات بیشتر: '],
    referenceLabels: ['شماره سفارش: ', 'کد پیگیری: '],
    unsubscribe: 'برای لغو اشتراک اینجا کلیک کنید.',
    abbreviations: new Set<string>(),
  },
};

/** Unknown languages borrow English boilerplate: the benchmark is about the body, not the wrapper. */
export function langOf(doc: Pick<SourceDoc, 'lang'>): Lang {
  return languageFromTag(doc.lang) ?? 'en';
}

export const HASH_BUSTER_WORDS = list('hyacinth ostrich marmalade quibble lantern zephyr gossamer tundra');
