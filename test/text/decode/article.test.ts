import { describe, expect, it } from 'vitest';
import { extractArticle } from '../../../src/text/decode/article.js';
import { htmlToText, parseHtml } from '../../../src/text/decode/html.js';

const extract = (html: string) => extractArticle(parseHtml(html));

const PARAGRAPHS = [
  'The city council voted on Tuesday to close the old harbour bridge to cars from next spring, after engineers found that two of its steel supports had rusted far more than expected.',
  'Buses, cyclists and people on foot will still be able to cross, the council said, while a replacement is designed. The work is expected to take at least four years and cost about 80 million euros.',
  'Shop owners on both banks of the river said they feared losing customers, and asked the council to run a free shuttle across the water during the closure.',
  '"We cannot wait for the bridge to fall down," the mayor told reporters, adding that the inspection had been ordered after a lorry struck one of the supports in March.',
  'A public meeting on the traffic plan will be held at the town hall on the first Monday of next month.',
];
const OTHER_PARAGRAPHS = [
  'The regional orchestra opened its winter season with a programme of Finnish and Estonian music, played to a full hall for the first time since the renovation of the concert house.',
  'The conductor, who took over the orchestra last year, said the audience had grown by a third, helped by cheaper tickets for students and a series of free lunchtime concerts.',
  'Next month the orchestra travels to Riga and Vilnius, its first tour abroad in a decade, with a new work written for it by a young composer from Tartu.',
];

interface Chrome {
  site: string;
  /** Class names of the page's own layout (one site's pages share them). */
  layout: string;
}

/** A news page as sites build them: menu, cookie banner, article, share bar, most-read list, comments, footer. */
function newsPage(chrome: Chrome, headline: string, paragraphs: readonly string[]): string {
  const menu = ['World', 'Politics', 'Business', 'Science', 'Culture', 'Sport', 'Opinion', 'Weather']
    .map((item) => `<li><a href="/${item.toLowerCase()}">${item}</a></li>`)
    .join('');
  const mostRead = [
    'Storm leaves thousands without power across the north',
    'Ten things to do in the city this weekend, whatever the weather',
    'Local team wins the cup after a dramatic penalty shoot-out',
    'Prices at the pump fall for the third week in a row',
  ]
    .map((t, i) => `<li><a href="/story/${i}">${t}</a></li>`)
    .join('');
  return `<!DOCTYPE html><html><head><meta charset="utf-8"><title>${headline} | ${chrome.site}</title>
<script>var tracking = { site: "${chrome.site}" };</script></head>
<body class="${chrome.layout}-body">
<div class="${chrome.layout}-cookie-banner cookie-consent"><p>We use cookies to improve your experience on ${chrome.site}. By continuing to browse you accept our cookie policy and our partners' use of your data.</p><button>Accept all</button></div>
<header class="${chrome.layout}-masthead"><a href="/" class="logo">${chrome.site}</a><nav><ul>${menu}</ul></nav></header>
<div class="${chrome.layout}-wrap">
  <div class="${chrome.layout}-main">
    <article class="story">
      <h1>${headline}</h1>
      <div class="byline">By Anna Berg, ${chrome.site} reporter</div>
      <div class="story-body">${paragraphs.map((p) => `<p>${p}</p>`).join('\n')}</div>
      <div class="share-bar"><a href="#">Share on Facebook</a> <a href="#">Share on X</a> <a href="#">Email this story to a friend</a></div>
    </article>
    <section id="comments" class="comments">
      <h3>Comments (2)</h3>
      <div class="comment"><p>About time too, I have been saying for years that this bridge is not safe for anyone to use.</p></div>
      <div class="comment"><p>Another four years of traffic jams, wonderful. Who is going to pay for all of this in the end?</p></div>
    </section>
  </div>
  <aside class="${chrome.layout}-rail"><h2>Most read</h2><ol>${mostRead}</ol></aside>
</div>
<footer class="${chrome.layout}-footer"><p>© 2026 ${chrome.site} Media Group Ltd. All rights reserved. Registered in England, company number 01234567, 1 Example Street, London.</p>
<ul><li><a href="/privacy">Privacy policy</a></li><li><a href="/terms">Terms of use</a></li><li><a href="/contact">Contact us</a></li></ul></footer>
</body></html>`;
}

const DAILY: Chrome = { site: 'Daily Courier', layout: 'dc' };
const HERALD: Chrome = { site: 'The Evening Herald', layout: 'eh' };
const BRIDGE = 'Council closes harbour bridge to cars';

describe('extractArticle', () => {
  it('keeps the article body and leaves out menu, cookie banner, share bar, most read, comments and footer', () => {
    const result = extract(newsPage(DAILY, BRIDGE, PARAGRAPHS));
    expect(result.extraction).toBe('article');
    for (const p of PARAGRAPHS) expect(result.text).toContain(p);
    for (const chrome of [
      'Politics',
      'cookie policy',
      'Share on Facebook',
      'Most read',
      'Storm leaves thousands',
      'About time too',
      'All rights reserved',
      'Privacy policy',
    ])
      expect(result.text).not.toContain(chrome);
  });

  it("gives one article the same text under two sites' different chrome", () => {
    const a = extract(newsPage(DAILY, BRIDGE, PARAGRAPHS));
    const b = extract(newsPage(HERALD, BRIDGE, PARAGRAPHS));
    expect(a.text).toBe(b.text);
  });

  it('shares no line between two articles of one site', () => {
    const a = extract(newsPage(DAILY, BRIDGE, PARAGRAPHS)).text.split('\n');
    const b = new Set(
      extract(newsPage(DAILY, 'Orchestra opens its season', OTHER_PARAGRAPHS)).text.split('\n'),
    );
    expect(a.filter((line) => line.trim() !== '' && b.has(line))).toEqual([]);
  });

  it('takes the title from the <title> without the site name', () => {
    expect(extract(newsPage(DAILY, BRIDGE, PARAGRAPHS)).title).toBe(BRIDGE);
    const leading = newsPage(DAILY, BRIDGE, PARAGRAPHS).replace(
      `<title>${BRIDGE} | Daily Courier</title>`,
      `<title>Daily Courier - ${BRIDGE}</title><meta property="og:site_name" content="Daily Courier">`,
    );
    expect(extract(leading).title).toBe(BRIDGE);
  });

  it('prefers og:title, and keeps a <title> whose last part is too long to be a site name', () => {
    const og = newsPage(DAILY, BRIDGE, PARAGRAPHS).replace(
      '</title>',
      '</title><meta property="og:title" content="Harbour bridge to close to cars next spring">',
    );
    expect(extract(og).title).toBe('Harbour bridge to close to cars next spring');
    const long = '<title>Electronic records – the long march into a digital health service</title>';
    expect(extract(`${long}<p>${PARAGRAPHS.join('</p><p>')}</p>`).title).toBe(
      'Electronic records – the long march into a digital health service',
    );
  });

  it('keeps the headline out of the body: it is the title', () => {
    const page = (h1: string) =>
      `<html><head><title>${BRIDGE} | Daily Courier</title></head><body><nav><a href="/">Home</a></nav>
<main><article><h1>${h1}</h1>${PARAGRAPHS.map((p) => `<p>${p}</p>`).join('')}</article></main></body></html>`;
    const same = extract(page(BRIDGE));
    expect(same.title).toBe(BRIDGE);
    expect(same.text).toBe(PARAGRAPHS.join('\n\n'));
    // A heading that is not the title stays in the body.
    expect(extract(page('Another headline entirely')).text).toBe(
      ['Another headline entirely', ...PARAGRAPHS].join('\n\n'),
    );
  });

  it('takes the <h1> that the <title> names', () => {
    const page = newsPage(DAILY, BRIDGE, PARAGRAPHS).replace(
      `<title>${BRIDGE} | Daily Courier</title>`,
      `<title>Local news: ${BRIDGE} :: Daily Courier, your city every day</title>`,
    );
    expect(extract(page).title).toBe(BRIDGE);
  });

  it('joins paragraphs that each sit in a card of their own', () => {
    const cards = PARAGRAPHS.map(
      (p) => `<div class="card"><div class="card-content card-text"><p>${p}</p></div></div>`,
    ).join('\n');
    const html = `<body><nav><a href="/">Home</a> <a href="/news">News</a></nav><div class="article-cards">${cards}</div>
<div class="footer-links"><a href="/a">About us and our history</a> <a href="/b">Advertise with us today</a></div></body>`;
    const result = extract(html);
    expect(result.extraction).toBe('article');
    for (const p of PARAGRAPHS) expect(result.text).toContain(p);
    expect(result.text).not.toContain('Advertise');
  });

  it('joins the parts of a body split by a figure and an advert', () => {
    const html = `<body><div class="layout">
<div class="post-body">${PARAGRAPHS.slice(0, 2)
      .map((p) => `<p>${p}</p>`)
      .join('')}</div>
<figure><img src="x.jpg"><figcaption>The harbour bridge at dusk. Photo: Anna Berg for the Daily Courier</figcaption></figure>
<div class="advert-slot"><a href="/ad">Cheap flights to the sun, book now and save up to half</a></div>
<div class="post-body">${PARAGRAPHS.slice(2)
      .map((p) => `<p>${p}</p>`)
      .join('')}</div>
</div></body>`;
    const result = extract(html);
    expect(result.text).toBe(PARAGRAPHS.join('\n\n'));
  });

  it('leaves out hidden elements inside the article', () => {
    const html = `<article><p>${PARAGRAPHS[0]}</p><div style="display: none"><p>Subscribe to read the rest of this and every other story for just one euro a week.</p></div><p>${PARAGRAPHS[1]}</p></article>`;
    const result = extract(html);
    expect(result.text).toBe(`${PARAGRAPHS[0]}\n\n${PARAGRAPHS[1]}`);
  });

  it('takes a short article (a video page) as it is, not the longer comments, sign-up box or footer beside it', () => {
    // Div soup, as older CMSs write pages: only class names say what is furniture.
    const videoPage = (caption: string) => `<html><head><title>Video | Daily Courier</title></head><body>
<div class="top"><a href="/">Daily Courier</a> <a href="/world">World</a> <a href="/sport">Sport</a></div>
<div class="col-left"><div class="title">Video</div><div class="text"><p>${caption}</p></div>
<div class="comments-area"><div class="comment-item"><p>About time too, I have been saying for years that this bridge is not safe for anyone to use.</p></div>
<div class="comment-item"><p>Another four years of traffic jams, wonderful. Who is going to pay for all of this in the end, I wonder?</p></div></div>
<div class="newsletter-box"><p>Get the most important stories of the day delivered to your inbox every morning, free of charge.</p></div></div>
<div class="site-footer"><p>All content on this website is protected by copyright and may not be reproduced without written permission from the publisher.</p></div>
</body></html>`;
    const bridge = 'Watch: engineers inspect the rusted supports of the old harbour bridge.';
    const orchestra = 'Watch: the regional orchestra rehearses for its winter season.';
    const a = extract(videoPage(bridge));
    expect(a.extraction).toBe('article');
    expect(a.text).toBe(bridge);
    // Two such pages of one site share nothing of their chrome.
    expect(extract(videoPage(orchestra)).text).toBe(orchestra);
  });

  it('falls back to the whole page, never to empty, when there is no article', () => {
    const login = `<html><head><title>Sign in | Daily Courier</title></head><body>
<nav><a href="/">Home</a> <a href="/news">News</a> <a href="/sport">Sport</a></nav>
<form><label>E-mail</label><input name="e"><label>Password</label><input name="p" type="password"><button>Sign in</button></form>
<footer><a href="/privacy">Privacy</a> <a href="/terms">Terms</a></footer></body></html>`;
    const result = extract(login);
    expect(result.extraction).toBe('page');
    expect(result.text).toBe(htmlToText(login).text);
    expect(result.text).toContain('Sign in');
  });

  it("takes the few words of a stub page's one <article> (an agency's dateline), not the site's chrome", () => {
    const stubPage = (
      headline: string,
      articles = 1,
    ) => `<html><head><title>${headline} | Daily Courier</title></head><body>
<header><a href="/">Daily Courier</a><nav><a href="/news">News</a> <a href="/sport">Sport</a> <a href="/contact">Contact us</a></nav></header>
<main>${'<article><h1>HEADLINE</h1><p>MOSCOW, Nov 26 (Wire) -</p><div class="share-bar"><a href="#">Share</a></div></article>'.replace('HEADLINE', headline).repeat(articles)}</main>
<footer><p>© 2026 Daily Courier Media Group Ltd. All rights reserved.</p></footer></body></html>`;
    const rates = extract(stubPage('Central bank raises rates'));
    expect(rates).toEqual({
      text: 'MOSCOW, Nov 26 (Wire) -',
      extraction: 'article',
      title: 'Central bank raises rates',
    });
    // Another stub of the site: the same words under another title (signed with it: a stub body).
    expect(extract(stubPage('Storm closes the port'))).toMatchObject({
      text: rates.text,
      title: 'Storm closes the port',
    });
    // Two <article> elements (a list of teasers): no one of them is the page's article.
    const list = extract(stubPage('Central bank raises rates', 2));
    expect(list.extraction).toBe('page');
    expect(list.text).toContain('Daily Courier Media Group');
  });

  it('is the same text on every run and keeps text nested deeper than the parser depth cap', () => {
    const page = newsPage(DAILY, BRIDGE, PARAGRAPHS);
    expect(extract(page)).toEqual(extract(page));
    const deep = `${'<div>'.repeat(2000)}<p>${PARAGRAPHS.join('</p><p>')}</p>${'</div>'.repeat(2000)}`;
    const result = extract(deep);
    for (const p of PARAGRAPHS) expect(result.text).toContain(p);
  });
});

/** A short article (three paragraphs) in a site's column: `inBody` after its first paragraph, `afterMain` beside it. */
function shortPostPage(
  headline: string,
  paragraphs: readonly string[],
  inBody: string,
  afterMain = '',
): string {
  const [first, ...rest] = paragraphs;
  return `<html><head><title>${headline} | Big Brand</title></head><body>
<div class="site-wrap"><div class="primary">
<main class="site-main"><div class="post-area"><h1>${headline}</h1>
<div class="entry"><p>${first}</p>
${inBody}
${rest.map((p) => `<p>${p}</p>`).join('\n')}</div>
</div></main>
${afterMain}
</div></div></body></html>`;
}

describe('extractArticle on site chrome that pages of one site share', () => {
  it('leaves out a search plugin option form (check boxes and their labels) beside the article', () => {
    const options = [
      'Exact matches only',
      'Search in title',
      'Search in content',
      'Search in excerpt',
      'Search in posts',
      'Search in pages',
    ]
      .map(
        (label, i) =>
          `<div class="opt"><input type="checkbox" id="o${i}" checked><label for="o${i}">${label}</label></div><div class="opt-label">${label}</div>`,
      )
      .join('');
    const form = `<form name="options" autocomplete="off"><fieldset><legend>Generic selectors</legend>${options}</fieldset></form>`;
    const a = extract(shortPostPage(BRIDGE, PARAGRAPHS.slice(0, 3), form));
    for (const p of PARAGRAPHS.slice(0, 3)) expect(a.text).toContain(p);
    expect(a.text).not.toContain('Exact matches only');
    expect(a.text).not.toContain('Search in title');
  });

  it('keeps a form that holds more text than a search or sign-up form (a page-wide form)', () => {
    const page = `<html><body><form id="aspnetForm"><input type="hidden" name="state" value="x">
<div class="content"><h1>${BRIDGE}</h1>${PARAGRAPHS.map((p) => `<p>${p}</p>`).join('')}</div></form></body></html>`;
    const a = extract(page);
    expect(a.extraction).toBe('article');
    for (const p of PARAGRAPHS) expect(a.text).toContain(p);
  });

  it('leaves out a newsletter sign-up box whose class names say "signup"', () => {
    const signup = `<div class="signupBackground___27Lh"><h2 class="signupTitle___15f">Breaking News Emails</h2><div class="signupMessage___3ct">Get breaking news alerts and special reports. The news and stories that matter, delivered weekday mornings.</div><a href="/newsletters">SUBSCRIBE</a></div>`;
    const a = extract(shortPostPage(BRIDGE, PARAGRAPHS.slice(0, 3), signup));
    for (const p of PARAGRAPHS.slice(0, 3)) expect(a.text).toContain(p);
    expect(a.text).not.toContain('Breaking News Emails');
    expect(a.text).not.toContain('Get breaking news alerts');
  });

  it('leaves out a "more in this section" list of headlines with long teasers and Read More links', () => {
    const teasers = [
      [
        'Minnesotan finds his legs in Buffalo',
        'About three years ago, a 17-year-old draft prospect started working out with some veterans at a local academy, a slick center from Eden Prairie. He looked like he was twelve, one of the veterans said, and now he is in the league, scoring twice in his last four games...',
      ],
      [
        'Three young forwards help the team fix its problems',
        'Not to be confused with the techies who fix computers, three young forwards are helping the team find its legs after a difficult start, and the coach could not be happier. They are getting better and better, he said after practice on Monday, before the team left for a road trip...',
      ],
      [
        'Receiver sensed blood in the water on Sunday',
        'Akin to the shark tattoo behind his left ear, the star receiver sensed blood in the water on Sunday afternoon and promptly went in for the kill. It showed on the sideline after he hauled in a long touchdown pass from the quarterback, and the crowd rose to its feet...',
      ],
      [
        'Former general manager signed his own successor',
        'The former general manager unknowingly signed his own replacement when he hired an assistant last summer, a veteran scout with two decades in the league. The owner said on Tuesday that the decision was made after a long review, and that the search had been short...',
      ],
      [
        'Coach does not like tinkering with his lines',
        'Contrary to what his record might suggest, the coach does not like tinkering with his lines. He would much rather have the same trios on the ice night in and night out, he said, but the losses early in the season forced him to experiment with new pairs...',
      ],
      [
        'Playing from behind is a bad formula for success',
        'Though his players seem to thrive when playing from behind, the coach has stressed that, more often than not, it is not going to work out in their favour. It is a bad formula for success, he said after a loss on the road, the third in a row for a team that had hoped for more...',
      ],
    ]
      .map(
        ([title, excerpt], i) =>
          `<li><article class="more-posts-view"><div class="article-info"><h5 class="entry-title"><a href="/sport/${i}">${title}</a></h5><time>November 19, 2019 at 5:10 pm</time><div class="excerpt">${excerpt}</div></div><a href="/sport/${i}" class="read-more">Read More</a></article></li>`,
      )
      .join('\n');
    const more = `<div class="more-news"><h2 class="widget-title">More in Sport</h2><ul>${teasers}</ul></div>`;
    const a = extract(shortPostPage(BRIDGE, PARAGRAPHS.slice(0, 3), '', more));
    for (const p of PARAGRAPHS.slice(0, 3)) expect(a.text).toContain(p);
    expect(a.text).not.toContain('draft prospect');
    expect(a.text).not.toContain('Read More');
  });
  it('leaves out a block of teaser posts that opens with a "related" heading, even when its posts outweigh a short article', () => {
    const teasers = OTHER_PARAGRAPHS.concat([
      'A life asks us for optimism and the courage to hope for the best and to make the best happen; pessimism only freezes the smile and stops the joints, and leaves nobody free to move from where they stand …',
      'What holds a family together is love, care and wanting the best for each other: a united family is strength, a sure support, understanding and hands held out, a push forward in life and a reason to chase dreams …',
    ])
      .map(
        (t, i) =>
          `<article id="post-${i + 10}" class="fundo postbox post-${i + 10} post hentry"><a name="${i + 10}"></a><div><a class="share" href="/s/${i}">Share</a></div><p>${t}</p></article>`,
      )
      .join('\n');
    const page = `<html><head><title>${BRIDGE}</title></head><body><div id="primary">
<article class="fundo articlebox post-1 post hentry"><h1 class="entry-title">${BRIDGE}</h1><p>${PARAGRAPHS[0]}</p><p>${PARAGRAPHS[4]}</p>
<p><a href="/c/1">Reflections</a>, <a href="/c/2">Messages</a></p></article>
<article id="post-1" class="fundo postbox post-1 post hentry"><h3 class="relatedpoststitle">Você pode gostar...</h3>
${teasers}
</article></div></body></html>`;
    const a = extract(page);
    expect(a.extraction).toBe('article');
    expect(a.text).toContain(PARAGRAPHS[0]);
    expect(a.text).toContain(PARAGRAPHS[4]);
    expect(a.text).not.toContain('Você pode gostar');
    for (const t of OTHER_PARAGRAPHS) expect(a.text).not.toContain(t);
    expect(a.text).not.toContain('pessimism only freezes');
  });

  it('keeps an article whose comments heading comes after its text, and a section under a plain heading', () => {
    const page = `<html><head><title>${BRIDGE}</title></head><body><div class="primary">
<article class="post"><h1>${BRIDGE}</h1><p>${PARAGRAPHS[0]}</p><p>${PARAGRAPHS[1]}</p>
<section class="background"><h2 class="section-title">Background</h2><p>${PARAGRAPHS[2]}</p><p>${PARAGRAPHS[3]}</p></section>
<h3 class="comments-title">No comments yet</h3></article></div></body></html>`;
    const a = extract(page);
    for (const p of PARAGRAPHS.slice(0, 4)) expect(a.text).toContain(p);
  });

  it('leaves out an affiliate disclosure line, and keeps a paragraph of the article about affiliate links', () => {
    const disclosure =
      '<div class="commerce-disclosure">If you buy something through this post, Big Brand may get a share of the sale. For more, <a href="/terms">learn more</a>.</div>';
    const a = extract(shortPostPage(BRIDGE, PARAGRAPHS.slice(0, 3), disclosure));
    for (const p of PARAGRAPHS.slice(0, 3)) expect(a.text).toContain(p);
    expect(a.text).not.toContain('share of the sale');
    const report =
      'The regulator said on Monday that shopping sites must tell readers when they earn a commission on what you buy through their links, and that the rule would apply from June to every site that sells advertising to shops, whatever its size. Sites that break the rule face fines of up to two per cent of their turnover, it said.';
    const b = extract(shortPostPage(BRIDGE, [PARAGRAPHS[0] as string, report, PARAGRAPHS[1] as string], ''));
    expect(b.text).toContain(report);
  });

  it('keeps a Persian article on human rights: "rights" alone is no copyright line, "rights ... reserved" is', () => {
    const fa = [
      'وزیر امور خارجه کوبا ادعاهای کشورهای صنعتی در زمینه حقوق بشر را ریاکاری سیاسی دانست و گفت این کشورها معیارهای دوگانه دارند.',
      'او روز گذشته در برابر کمیسیون حقوق بشر سازمان ملل متحد در ژنو سخن گفت و از کشورهای ثروتمند خواست به تعهدات خود عمل کنند.',
      'وزیر خارجه کوبا افزود که دفاع از حقوق بشر نباید ابزاری برای فشار سیاسی بر کشورهای در حال توسعه باشد.',
    ];
    const footer =
      '<div class="foot"><p>کلیه حقوق این سایت محفوظ است.</p><p>کلیه حقوق مادی و معنوی این سایت محفوظ است و استفاده از مطالب با ذکر منبع آزاد است.</p></div>';
    const a = extract(shortPostPage('ادعاهای کشورهای صنعتی درباره حقوق بشر', fa, '', footer));
    for (const p of fa) expect(a.text).toContain(p);
    expect(a.text).not.toContain('محفوظ');
  });
});
