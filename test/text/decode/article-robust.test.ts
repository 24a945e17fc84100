import { describe, expect, it } from 'vitest';
import { extractArticle } from '../../../src/text/decode/article.js';
import { parseHtml } from '../../../src/text/decode/html.js';

/**
 * Pages without class, id or role names (or with names that mean nothing): the article must still
 * beat its comment thread, consent notice, related list and photo caption, found by their words
 * and structure.
 */
const extract = (html: string) => extractArticle(parseHtml(html));

const ARTICLE = [
  'The regional water board said on Monday that it would raise the level of the northern reservoir by two metres over the next three years, to store more of the spring melt for the dry summers.',
  'Farmers in the valley welcomed the plan. Their wells ran low in each of the last four summers and several had to buy water from the city at prices they could not pass on to their buyers.',
  'Two villages on the shore will lose part of their meadows to the water. The board promised to buy the land at market prices and to build a new road around the north end of the lake.',
  'Work on the dam is due to start in April. The board expects the first higher water in the spring after next, if the engineers find the old foundations as sound as the drawings suggest.',
];
const ARTICLE_WORDS = ['reservoir', 'meadows', 'foundations'];

const page = (body: string): string =>
  `<!DOCTYPE html><html><head><title>Reservoir to rise by two metres</title></head><body>${body}</body></html>`;
const article = (): string =>
  `<div><h1>Reservoir to rise by two metres</h1><div>${ARTICLE.map((p) => `<p>${p}</p>`).join('')}</div></div>`;

/** Comments in prose: longer together than the article, with commas. */
const COMMENT_TEXTS = [
  'I grew up in one of those villages, and I can tell you that the meadows flood every spring anyway, so nobody will miss them very much, whatever the board says about market prices.',
  'Three years, they say. The last project of this board took eight, cost twice as much as promised, and the road they built is already full of holes, as anyone who drives it knows.',
  'Good news for the farmers, finally. My uncle had to sell half his herd two summers ago because the well was dry, and the city wanted a fortune for every truck of water it sent.',
  'Has anyone actually read the engineering report? It says the foundations were never inspected properly, and I would not trust a dam on them, however sound the old drawings look.',
  'Why not build a second, smaller reservoir upstream instead? It would cost less, flood nobody, and it could be finished in half the time, if anybody on the board cared to listen.',
];

describe('article extraction without names', () => {
  it('takes the article, not a longer comment thread whose comments each have a reply link', () => {
    const thread = COMMENT_TEXTS.map(
      (t, i) =>
        `<div><div><a href="/u/${i}">reader${i}</a> <span>${i + 2} hours ago</span></div><p>${t}</p><div><a href="#r${i}">Reply</a></div></div>`,
    ).join('');
    const out = extract(page(`${article()}<div><h2>Comments</h2>${thread}</div>`));
    expect(out.extraction).toBe('article');
    for (const word of ARTICLE_WORDS) expect(out.text).toContain(word);
    expect(out.text).not.toContain('my uncle');
    expect(out.text).not.toContain('engineering report');
  });

  it('leaves out a closed thread (no reply links) by its bylines, even placed before the article', () => {
    const thread = COMMENT_TEXTS.map(
      (t, i) => `<div><div>reader${i} on March ${i + 3}, 2026 at 10:1${i} am said:</div><p>${t}</p></div>`,
    ).join('');
    const out = extract(page(`<div>${thread}</div>${article()}`));
    for (const word of ARTICLE_WORDS) expect(out.text).toContain(word);
    expect(out.text).not.toContain('second, smaller reservoir');
    expect(out.text).not.toContain('said:');
  });

  it('keeps a live blog whose entries start with a time and no byline verb', () => {
    const entries = ARTICLE.map((p, i) => `<div><div>10:${10 + i}</div><p>${p}</p></div>`).join('');
    const out = extract(page(`<div><h1>Reservoir: live</h1>${entries}</div>`));
    for (const word of ARTICLE_WORDS) expect(out.text).toContain(word);
  });

  it('leaves out the comment form (a form with a text area)', () => {
    const form =
      '<form action="/comment" method="post"><p>Your email address will not be published, and required fields are marked, as always, with a star.</p><textarea name="c"></textarea><p>Save my name, email, and website in this browser for the next time I comment.</p><button>Post</button></form>';
    const out = extract(
      page(
        `<div><h1>Reservoir to rise by two metres</h1><div>${ARTICLE.map((p) => `<p>${p}</p>`).join('')}${form}</div></div>`,
      ),
    );
    for (const word of ARTICLE_WORDS) expect(out.text).toContain(word);
    expect(out.text).not.toContain('Save my name');
  });

  it.each([
    [
      'en',
      'We use cookies to give you the best experience on our website. By continuing to browse, you agree to our use of cookies and our privacy policy.',
    ],
    [
      'ru',
      'Мы используем файлы cookie, чтобы сайт работал лучше. Продолжая пользоваться сайтом, вы соглашаетесь с использованием куки.',
    ],
    [
      'uk',
      'Ми використовуємо файли cookie. Продовжуючи користуватися сайтом, ви погоджуєтесь з політикою конфіденційності.',
    ],
    ['fa', 'این وب‌سایت از کوکی استفاده می‌کند. با ادامه استفاده از سایت، با استفاده از کوکی‌ها موافقت می‌کنید.'],
    [
      'de',
      'Wir verwenden Cookies, um Inhalte zu personalisieren. Weitere Informationen finden Sie in unserer Datenschutzerklärung. Alle akzeptieren.',
    ],
    [
      'fr',
      'Nous utilisons des cookies pour améliorer votre expérience. En poursuivant votre navigation, vous acceptez leur utilisation.',
    ],
    [
      'es',
      'Utilizamos cookies propias y de terceros. Si continúa navegando, consideramos que acepta su uso.',
    ],
  ])('leaves out a %s cookie notice inside the article container, by its words', (_lang, notice) => {
    const out = extract(
      page(
        `<div><div><p>${notice}</p><button>OK</button></div><h1>Reservoir to rise by two metres</h1>${ARTICLE.map((p) => `<p>${p}</p>`).join('')}</div>`,
      ),
    );
    for (const word of ARTICLE_WORDS) expect(out.text).toContain(word);
    expect(out.text).not.toContain(notice.slice(0, 30));
  });

  it('keeps a paragraph of the article that reports on cookies and consent without asking the reader anything', () => {
    const report =
      'Regulators fined the company because its websites had set advertising cookies before visitors could give their consent or refuse them, the third such fine this year.';
    const out = extract(
      page(
        `<div><h1>Fine for cookies</h1>${[...ARTICLE.slice(0, 2), report, ...ARTICLE.slice(2)].map((p) => `<p>${p}</p>`).join('')}</div>`,
      ),
    );
    expect(out.text).toContain(report);
  });

  it('drops a related list of linked headlines with teasers inside the article container', () => {
    const related = Array.from(
      { length: 8 },
      (_, i) =>
        `<li><a href="/news/${i}">Council story number ${i} about the budget</a><p>The council discussed item ${i} of the budget, and decided, after a long debate, to postpone the vote until spring.</p></li>`,
    ).join('');
    const out = extract(
      page(
        `<div><h1>Reservoir to rise by two metres</h1><ul>${related}</ul>${ARTICLE.map((p) => `<p>${p}</p>`).join('')}</div>`,
      ),
    );
    for (const word of ARTICLE_WORDS) expect(out.text).toContain(word);
    expect(out.text).not.toContain('postpone the vote');
  });

  it('keeps a round-up article that is a list of linked headlines with a sentence each', () => {
    const items = ARTICLE.map(
      (p, i) => `<li><a href="/news/${i}">Headline of item ${i} in the round-up</a>. ${p}</li>`,
    ).join('');
    const out = extract(
      page(
        `<div><h1>Five things to know today</h1><p>Good morning! Here is what you need to know today.</p><ol>${items}</ol></div>`,
      ),
    );
    for (const word of ARTICLE_WORDS) expect(out.text).toContain(word);
  });

  it('takes the body, not a photo caption full of commas beside it', () => {
    const caption =
      '<div><img src="/p.jpg" alt=""><p>In this March 3, 2026, file photo, made available by the board, engineer Anna Berg, left, and her colleague, Tom Lind, inspect the dam, near Northvale, on a cold morning. (Board via AP, File)</p></div>';
    const short = ARTICLE.slice(0, 3).map((p) => `<p>${p.replace(/,/g, '')}</p>`);
    const out = extract(
      page(
        `<div><h1>Reservoir to rise by two metres</h1>${caption}<div><span>By Anna Berg</span></div><div>${short.join('')}</div></div>`,
      ),
    );
    expect(out.text).toContain('meadows');
    expect(out.text).toContain('reservoir');
  });

  it("leaves out an unnamed footer of legal lines after the article, and keeps the article's own copyright line", () => {
    const own = 'Copyright 2026 Northvale Courier. All rights reserved.';
    const footer =
      '<div><ul><li><a href="/about">About us</a></li><li><a href="/contact">Contact</a></li></ul>' +
      '<p>All content on this website is protected by copyright and may not be reproduced without permission, in print, on air or online.</p>' +
      '<p>Registered office: 1 Example Street, Northvale. Company registration number 01234567, registered in England and Wales.</p>' +
      '<p>© 2026 Northvale Courier</p></div>';
    const out = extract(
      page(
        `<div><div><h1>Reservoir to rise by two metres</h1>${ARTICLE.map((p) => `<p>${p}</p>`).join('')}<p>${own}</p></div>${footer}</div>`,
      ),
    );
    for (const word of ARTICLE_WORDS) expect(out.text).toContain(word);
    expect(out.text).toContain(own);
    expect(out.text).not.toContain('Registered office');
    expect(out.text).not.toContain('protected by copyright');
  });

  it('keeps the body when the wrapper around it also holds a long bar of links', () => {
    const caption =
      '<div><img src="/p.jpg" alt=""><p>In this March 3, 2026, file photo, made available by the board, engineer Anna Berg, left, and her colleague, Tom Lind, inspect the dam, near Northvale, on a cold morning. (Board via AP, File)</p></div>';
    const bar = Array.from(
      { length: 14 },
      (_, i) => `<a href="/s/${i}">Share this story on network number ${i}</a>`,
    ).join(' ');
    const body = ARTICLE.map((p) => `<p>${p.replace(/,/g, '')}</p>`).join('');
    const out = extract(
      page(
        `<div><div><h1>Reservoir to rise by two metres</h1>${caption}<div><div>${bar}</div><div>${body}</div></div></div></div>`,
      ),
    );
    for (const word of ARTICLE_WORDS) expect(out.text).toContain(word);
    expect(out.text).not.toContain('network number');
  });

  it('keeps an article whose sections each start with a short quoted line that says "said" or "ago"', () => {
    const sections = ARTICLE.map(
      (p, i) =>
        `<div><p>${i % 2 === 0 ? '"It will work as planned," the chief engineer said.' : 'Two years ago, nobody in the valley believed it.'}</p><p>${p}</p></div>`,
    ).join('');
    const out = extract(
      page(`<div><h1>Reservoir to rise by two metres</h1>${sections}</div><div><a href="/">Home</a></div>`),
    );
    expect(out.extraction).toBe('article');
    for (const word of ARTICLE_WORDS) expect(out.text).toContain(word);
    expect(out.text).not.toContain('Home');
  });
});
