import type { Lang } from './language-packs.js';

/**
 * What news sites put around an article, per language: menus, "most read" and related lists,
 * share bars, comments, cookie banners, newsletter boxes, legal footers. Hand-written, short
 * enough to review; the site pages (site-pages.ts) draw each site's fixed chrome from it.
 */
export interface ChromePack {
  siteNames: string[];
  menu: string[];
  mostRead: string;
  related: string;
  share: string[];
  comments: string;
  commentLogin: string;
  commentTexts: string[];
  commenters: string[];
  cookie: string[];
  cookieButtons: string[];
  newsletter: string[];
  subscribe: string;
  footerLinks: string[];
  legal: string[];
  byline: string;
  tags: string;
}

export const CHROME: Record<Lang, ChromePack> = {
  en: {
    siteNames: [
      'The Daily Courier',
      'Northern Ledger',
      'City Wire',
      'Global Observer',
      'Evening Standard Times',
      'Newsline 24',
    ],
    menu: [
      'Home',
      'World',
      'Politics',
      'Business',
      'Technology',
      'Science',
      'Sport',
      'Culture',
      'Opinion',
      'Video',
    ],
    mostRead: 'Most read',
    related: 'Related stories',
    share: ['Share', 'Facebook', 'X', 'LinkedIn', 'WhatsApp', 'Email', 'Copy link'],
    comments: 'Comments',
    commentLogin:
      'You must be logged in to post a comment. Please read our community guidelines before you comment.',
    commentTexts: [
      'This is exactly what I have been saying for years, nobody in charge ever listens to ordinary people.',
      'Great reporting, thank you for covering this story in so much detail.',
      'I do not understand why this is not on the front page of every newspaper in the country.',
      'Can someone explain what this actually means for those of us who live here?',
      'The comments section on this site gets worse every single week.',
      'Sources please. I would like to read the full report before I make up my mind.',
      'My family has lived in the area for forty years and we have never seen anything like it.',
      'Another day, another headline. Nothing will change until the next election.',
    ],
    commenters: ['jsmith77', 'CuriousReader', 'Mary K.', 'oldtimer', 'DaveFromLeeds', 'news_junkie'],
    cookie: [
      'We use cookies and similar technologies to improve your experience, measure audiences and show you personalised advertising.',
      'You can change your choice at any time in the privacy settings at the bottom of every page.',
    ],
    cookieButtons: ['Accept all', 'Manage settings'],
    newsletter: [
      'Get the most important stories of the day delivered to your inbox every morning.',
      'Sign up for our free newsletter and never miss a headline again.',
    ],
    subscribe: 'Subscribe',
    footerLinks: [
      'About us',
      'Contact',
      'Advertise',
      'Careers',
      'Privacy policy',
      'Terms of use',
      'Cookie settings',
    ],
    legal: [
      'All content on this website is protected by copyright and may not be reproduced without written permission from the publisher.',
      'Some articles contain affiliate links, which means we may earn a commission at no extra cost to you.',
      'Registered office: 1 Example Street, London. Company registration number 01234567.',
    ],
    byline: 'By',
    tags: 'Topics',
  },
  ru: {
    siteNames: [
      'Вести Дня',
      'Городской вестник',
      'Новости 24',
      'Столичный курьер',
      'Информ-Экспресс',
      'Северная газета',
    ],
    menu: [
      'Главная',
      'Политика',
      'Экономика',
      'Общество',
      'Происшествия',
      'Спорт',
      'Культура',
      'Наука',
      'Мнения',
      'Видео',
    ],
    mostRead: 'Самое читаемое',
    related: 'Читайте также',
    share: ['Поделиться', 'ВКонтакте', 'Одноклассники', 'Telegram', 'WhatsApp', 'Скопировать ссылку'],
    comments: 'Комментарии',
    commentLogin: 'Чтобы оставить комментарий, войдите на сайт. Пожалуйста, соблюдайте правила сообщества.',
    commentTexts: [
      'Об этом говорили ещё несколько лет назад, но никто не хотел слушать простых людей.',
      'Спасибо за подробный материал, наконец-то кто-то написал об этом честно.',
      'Непонятно, почему об этом молчат все центральные каналы.',
      'Кто-нибудь может объяснить, что это значит для жителей нашего района?',
      'Каждый год одно и то же, а воз и ныне там.',
      'Хотелось бы увидеть источники, прежде чем делать какие-то выводы.',
      'Живём здесь сорок лет и такого ещё не видели никогда.',
      'Посмотрим, что будет после выборов, пока одни обещания.',
    ],
    commenters: ['Иван П.', 'читатель', 'Марина', 'старожил', 'Сергей из Твери', 'gость'],
    cookie: [
      'Мы используем файлы cookie и похожие технологии, чтобы сайт работал лучше, а реклама была интереснее для вас.',
      'Продолжая пользоваться сайтом, вы соглашаетесь с политикой обработки персональных данных.',
    ],
    cookieButtons: ['Принять', 'Настроить'],
    newsletter: [
      'Получайте главные новости дня на почту каждое утро.',
      'Подпишитесь на нашу бесплатную рассылку и будьте в курсе событий.',
    ],
    subscribe: 'Подписаться',
    footerLinks: [
      'О редакции',
      'Контакты',
      'Реклама',
      'Вакансии',
      'Политика конфиденциальности',
      'Пользовательское соглашение',
    ],
    legal: [
      'Все материалы сайта защищены авторским правом, любое использование допускается только с письменного разрешения редакции.',
      'Сетевое издание зарегистрировано Федеральной службой по надзору в сфере связи, свидетельство Эл № ФС 77-00000.',
      'Мнение редакции может не совпадать с мнением авторов материалов.',
    ],
    byline: 'Автор:',
    tags: 'Теги',
  },
  uk: {
    siteNames: [
      'Новини Дня',
      'Міський вісник',
      'Україна 24',
      'Столичний кур’єр',
      'Інформ-Експрес',
      'Західна газета',
    ],
    menu: [
      'Головна',
      'Політика',
      'Економіка',
      'Суспільство',
      'Події',
      'Спорт',
      'Культура',
      'Наука',
      'Думки',
      'Відео',
    ],
    mostRead: 'Найпопулярніше',
    related: 'Читайте також',
    share: ['Поділитися', 'Facebook', 'Telegram', 'Viber', 'WhatsApp', 'Копіювати посилання'],
    comments: 'Коментарі',
    commentLogin: 'Щоб залишити коментар, увійдіть на сайт. Будь ласка, дотримуйтеся правил спільноти.',
    commentTexts: [
      'Про це говорили ще кілька років тому, але ніхто не хотів слухати простих людей.',
      'Дякую за детальний матеріал, нарешті хтось написав про це чесно.',
      'Незрозуміло, чому про це мовчать усі центральні канали.',
      'Хтось може пояснити, що це означає для мешканців нашого району?',
      'Щороку одне й те саме, а віз і нині там.',
      'Хотілося б побачити джерела, перш ніж робити якісь висновки.',
      'Живемо тут сорок років і такого ще ніколи не бачили.',
      'Подивимося, що буде після виборів, поки що самі обіцянки.',
    ],
    commenters: ['Іван П.', 'читач', 'Марина', 'старожил', 'Сергій зі Львова', 'гість'],
    cookie: [
      'Ми використовуємо файли cookie та подібні технології, щоб сайт працював краще, а реклама була цікавішою для вас.',
      'Продовжуючи користуватися сайтом, ви погоджуєтеся з політикою обробки персональних даних.',
    ],
    cookieButtons: ['Прийняти', 'Налаштувати'],
    newsletter: [
      'Отримуйте головні новини дня на пошту щоранку.',
      'Підпишіться на нашу безкоштовну розсилку та будьте в курсі подій.',
    ],
    subscribe: 'Підписатися',
    footerLinks: [
      'Про редакцію',
      'Контакти',
      'Реклама',
      'Вакансії',
      'Політика конфіденційності',
      'Умови використання',
    ],
    legal: [
      'Усі матеріали сайту захищені авторським правом, будь-яке використання можливе лише з письмового дозволу редакції.',
      'Використання матеріалів дозволяється за умови посилання на сайт не нижче першого абзацу.',
      'Думка редакції може не збігатися з думкою авторів матеріалів.',
    ],
    byline: 'Автор:',
    tags: 'Теги',
  },
  fa: {
    siteNames: ['خبرگزاری امروز', 'روزنامه شهر', 'خبر ۲۴', 'پیک پایتخت', 'خبرآنلاین نمونه', 'صدای مردم'],
    menu: [
      'صفحه اصلی',
      'سیاسی',
      'اقتصادی',
      'اجتماعی',
      'حوادث',
      'ورزشی',
      'فرهنگی',
      'علمی',
      'یادداشت',
      'ویدئو',
    ],
    mostRead: 'پربازدیدترین‌ها',
    related: 'اخبار مرتبط',
    share: ['اشتراک‌گذاری', 'تلگرام', 'واتس‌اپ', 'توییتر', 'کپی لینک'],
    comments: 'نظرات',
    commentLogin: 'برای ارسال نظر وارد سایت شوید. لطفاً قوانین انتشار نظرات را رعایت کنید.',
    commentTexts: [
      'این را سال‌ها پیش هم گفته بودیم اما کسی به حرف مردم گوش نمی‌دهد.',
      'از گزارش کامل و دقیق شما متشکرم، بالاخره کسی صادقانه نوشت.',
      'نمی‌دانم چرا رسانه‌های دیگر درباره این موضوع سکوت کرده‌اند.',
      'کسی می‌تواند توضیح دهد این برای ساکنان محله ما چه معنایی دارد؟',
      'هر سال همین داستان تکرار می‌شود و هیچ چیز تغییر نمی‌کند.',
      'بهتر بود منابع را هم ذکر می‌کردید تا بتوانیم قضاوت کنیم.',
    ],
    commenters: ['علی', 'خواننده', 'مریم', 'رضا از شیراز', 'مهمان', 'سارا'],
    cookie: [
      'این وب‌سایت برای بهبود تجربه شما و نمایش تبلیغات مرتبط از کوکی‌ها استفاده می‌کند.',
      'با ادامه استفاده از سایت، سیاست حفظ حریم خصوصی را می‌پذیرید.',
    ],
    cookieButtons: ['پذیرفتن', 'تنظیمات'],
    newsletter: ['مهم‌ترین اخبار روز را هر صبح در ایمیل خود دریافت کنید.', 'در خبرنامه رایگان ما عضو شوید.'],
    subscribe: 'عضویت',
    footerLinks: ['درباره ما', 'تماس با ما', 'تبلیغات', 'همکاری با ما', 'حریم خصوصی', 'قوانین و مقررات'],
    legal: [
      'کلیه حقوق مادی و معنوی این سایت محفوظ است و استفاده از مطالب تنها با ذکر منبع مجاز است.',
      'مسئولیت مطالب منتشرشده در بخش نظرات بر عهده نویسندگان آن‌هاست.',
      'نشانی: تهران، خیابان نمونه، پلاک ۱.',
    ],
    byline: 'نویسنده:',
    tags: 'برچسب‌ها',
  },
};
