import { Random } from '../random.js';
import type { Lang } from './language-packs.js';
import { CHROME } from './site-chrome.js';
import { type Body, renderParagraph } from './text.js';

/**
 * Whole web pages of news sites: the article inside a site's chrome (menu, breadcrumb, share
 * bars, related and "most read" lists of other headlines, a newsletter box, comments, a cookie
 * banner, a legal footer), in one of three layouts. A site's chrome is fixed (its seed, language
 * and number): every article of a site has the same menu, "most read" list, banner and footer,
 * as on a real site within a day; the related list and the comments change per page.
 */

/** Sites per language; an article's copies go to the other sites, in turn. */
export const SITES = 6;

export interface SitePageInput {
  seed: number;
  lang: Lang;
  site: number;
  title: string;
  body: Body;
  /** Headlines of other articles of the language: the "most read" and related lists. */
  headlines: readonly string[];
  date: Date;
  /** The page's own randomness (related list, comments, byline). */
  r: Random;
}

function esc(s: string): string {
  return s.replace(/&/g, '&amp;').replace(/</g, '&lt;').replace(/>/g, '&gt;').replace(/"/g, '&quot;');
}

/** An article's address on a site: the same for the same headline, as a site's links are. */
const slug = (s: string) =>
  `${Random.from(0, 'slug', s).digits(6)}-${encodeURIComponent(s.slice(0, 24).replace(/\s+/g, '-'))}`;

interface Site {
  name: string;
  layout: number;
  host: string;
  mostRead: string[];
  newsletter: string;
  footerLinks: string[];
  legal: string[];
}

function siteOf(seed: number, lang: Lang, site: number, headlines: readonly string[]): Site {
  const r = Random.from(seed, 'site', lang, String(site));
  const pack = CHROME[lang];
  const pool = headlines.length > 0 ? headlines : pack.commentTexts;
  return {
    name: pack.siteNames[site % pack.siteNames.length] as string,
    layout: site % 3,
    host: `www.site${site}-${lang}.example.com`,
    mostRead: r.sample(pool.length, Math.min(6, pool.length)).map((k) => pool[k] as string),
    newsletter: r.pick(pack.newsletter),
    footerLinks: r.shuffle(pack.footerLinks),
    legal: r.shuffle(pack.legal).slice(0, 2 + r.int(2)),
  };
}

/** The article page as the site serves it. */
export function sitePage(input: SitePageInput): string {
  const { lang, title, body, r, date } = input;
  const pack = CHROME[lang];
  const site = siteOf(input.seed, lang, input.site, input.headlines);
  const dir = lang === 'fa' ? ' dir="rtl"' : '';
  const others = input.headlines.filter((h) => h !== title);
  const related = r.sample(others.length, Math.min(3, others.length)).map((k) => others[k] as string);
  const link = (text: string) => `<a href="https://${site.host}/news/${slug(text)}">${esc(text)}</a>`;
  const menu = pack.menu
    .map((m, k) => `<li class="menu-item"><a href="/section/${k}">${esc(m)}</a></li>`)
    .join('');
  const share = `<div class="share-bar">${pack.share.map((s) => `<button class="share" type="button">${esc(s)}</button>`).join('')}</div>`;
  const mostRead = `<section class="most-read"><h3>${esc(pack.mostRead)}</h3><ol>${site.mostRead.map((h) => `<li>${link(h)}</li>`).join('')}</ol></section>`;
  const relatedBlock = `<aside class="related"><h3>${esc(pack.related)}</h3><ul>${related.map((h) => `<li>${link(h)}</li>`).join('')}</ul></aside>`;
  const comments = r
    .sample(pack.commentTexts.length, 2 + r.int(3))
    .map(
      (k) =>
        `<div class="comment"><span class="author">${esc(r.pick(pack.commenters))}</span> <time>${r.between(1, 23)}h</time><p>${esc(pack.commentTexts[k] as string)}</p><a class="reply" href="#">↩</a></div>`,
    )
    .join('\n');
  const commentsBlock = `<section id="comments"><h2>${esc(pack.comments)} (${r.between(3, 180)})</h2><p class="login">${esc(pack.commentLogin)}</p>\n${comments}</section>`;
  const cookie = `<div class="cookie-banner" role="dialog"><p>${esc(pack.cookie.join(' '))}</p>${pack.cookieButtons.map((b) => `<button>${esc(b)}</button>`).join('')}</div>`;
  const newsletter = `<div class="newsletter"><p>${esc(site.newsletter)}</p><form><input type="email" placeholder="email"><button>${esc(pack.subscribe)}</button></form></div>`;
  const footer = `<footer class="site-footer"><ul>${site.footerLinks.map((f) => `<li><a href="/${encodeURIComponent(f)}">${esc(f)}</a></li>`).join('')}</ul>${site.legal.map((l) => `<p class="legal">${esc(l)}</p>`).join('')}<p>© ${date.getUTCFullYear()} ${esc(site.name)}</p></footer>`;
  const byline = `<div class="byline">${esc(pack.byline)} <a rel="author" href="/authors/${r.digits(4)}">${esc(r.pick(pack.commenters))}</a> · <time datetime="${date.toISOString()}">${date.toISOString().slice(0, 16).replace('T', ' ')}</time></div>`;
  const paragraphs = body.paragraphs.map((p) => `<p>${esc(renderParagraph(p))}</p>`);
  // Layout 1 puts one related headline between paragraphs ("Read also"), as many sites do.
  if (site.layout === 1 && paragraphs.length >= 3 && related.length > 0) {
    const at = 1 + r.int(paragraphs.length - 1);
    paragraphs.splice(
      at,
      0,
      `<div class="inline-related"><strong>${esc(pack.related)}:</strong> ${link(related[0] as string)}</div>`,
    );
  }
  const head = [
    '<!DOCTYPE html>',
    `<html lang="${lang}"${dir}><head><meta charset="utf-8">`,
    `<title>${esc(title)} — ${esc(site.name)}</title>`,
    `<meta property="og:site_name" content="${esc(site.name)}">`,
    `<link rel="stylesheet" href="/assets/site.${r.hex(8)}.css">`,
    `<script>window.__ads={slot:"${r.hex(6)}"};</script>`,
    '</head><body>',
  ];
  const header = `<header><a class="logo" href="/">${esc(site.name)}</a><nav><ul class="menu">${menu}</ul></nav></header>`;
  const crumbs = `<div class="breadcrumbs"><a href="/">${esc(pack.menu[0] as string)}</a> › <a href="/section/${r.int(pack.menu.length)}">${esc(r.pick(pack.menu.slice(1)))}</a></div>`;
  let main: string[];
  if (site.layout === 0) {
    main = [
      header,
      crumbs,
      '<div class="page"><main><article>',
      `<h1>${esc(title)}</h1>`,
      byline,
      share,
      ...paragraphs,
      `<div class="tags">${esc(pack.tags)}: ${pack.menu
        .slice(1, 4)
        .map((t) => `<a href="#">${esc(t)}</a>`)
        .join(', ')}</div>`,
      share,
      relatedBlock,
      '</article>',
      commentsBlock,
      '</main>',
      `<aside class="sidebar">${mostRead}${newsletter}</aside></div>`,
      footer,
      cookie,
    ];
  } else if (site.layout === 1) {
    main = [
      cookie,
      header,
      '<main class="content">',
      `<h1 class="headline">${esc(title)}</h1>`,
      byline,
      '<div class="article-body">',
      ...paragraphs,
      '</div>',
      share,
      newsletter,
      mostRead,
      commentsBlock,
      '</main>',
      footer,
    ];
  } else {
    // Div soup: no semantic elements at all, as older CMSs write pages.
    main = [
      `<div class="top"><div class="logo">${esc(site.name)}</div><div class="nav">${pack.menu.map((m) => `<a href="#">${esc(m)}</a>`).join(' | ')}</div></div>`,
      `<div class="wrap"><div class="col-left"><div class="title">${esc(title)}</div>`,
      byline,
      `<div class="text">${paragraphs.join('\n')}</div>`,
      share,
      relatedBlock.replace('<aside', '<div').replace('</aside>', '</div>'),
      commentsBlock.replace('<section', '<div').replace('</section>', '</div>'),
      `</div><div class="col-right">${mostRead.replace('<section', '<div').replace('</section>', '</div>')}${newsletter}</div></div>`,
      footer.replace('<footer', '<div').replace('</footer>', '</div>'),
      cookie,
    ];
  }
  return [
    ...head,
    ...main,
    `<script src="/assets/app.${r.hex(8)}.js" async></script>`,
    '</body></html>',
  ].join('\n');
}
