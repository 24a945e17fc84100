import { describe, expect, it } from 'vitest';
import { htmlToText, looksLikeHtml, parseHtml } from '../../../src/text/decode/html.js';
import { hasSharedData, readSharedJsonl, warnIfNoSharedData } from '../../support/shared-data.js';

describe('htmlToText', () => {
  it('adds nothing for inline elements', () => {
    expect(htmlToText('<b>wo</b>rd <i>and</i> <a href="x">link</a>s').text).toBe('word and links');
  });

  it('drops script, style, noscript, template, svg and iframe content', () => {
    const html = [
      '<script>var s = "<p>not text</p>";</script>',
      '<style>p { color: red }</style>',
      '<noscript>enable js</noscript>',
      '<template><p>tpl</p></template>',
      '<svg><title>tooltip</title><text>svg text</text></svg>',
      '<iframe><p>frame</p></iframe>',
      '<p>visible</p>',
    ].join('');
    expect(htmlToText(html)).toEqual({ text: 'visible' });
  });

  it('returns the <title> apart and keeps it out of the text', () => {
    const html =
      '<!DOCTYPE html><html><head><meta charset="utf-8"><title> Hello &amp;\n bye </title>' +
      '<link rel="stylesheet" href="a.css"></head><body><p>Body</p></body></html>';
    expect(htmlToText(html)).toEqual({ text: 'Body', title: 'Hello & bye' });
  });

  it('turns block elements into line breaks and paragraphs into blank lines', () => {
    const html =
      '<h1>Title</h1><p>First\n   paragraph</p><p>Line one<br>line two</p>' +
      '<ul><li>a</li><li>b</li></ul><div>d1</div><div>d2</div>' +
      '<table><tr><td>c1</td><td>c2</td></tr><tr><th>c3</th><td>c4</td></tr></table>' +
      '<blockquote>quoted</blockquote>tail';
    expect(htmlToText(html).text).toBe(
      'Title\n\nFirst paragraph\n\nLine one\nline two\n\na\nb\n\nd1\nd2\n\nc1 c2\nc3 c4\n\nquoted\n\ntail',
    );
  });

  it('treats <br><br> as a paragraph break', () => {
    expect(htmlToText('one<br><br>two<br/>three').text).toBe('one\n\ntwo\nthree');
  });

  it('decodes named, decimal and hex entities', () => {
    expect(
      htmlToText('<p>&laquo;Цена&raquo; &mdash; 5&nbsp;&euro; &#1046; &#x416; &lt;tag&gt; AT&amp;T</p>').text,
    ).toBe('«Цена» — 5\u00a0€ Ж Ж <tag> AT&T');
  });

  it('keeps line breaks inside <pre>', () => {
    expect(htmlToText('<p>x</p><pre>line 1\nline 2</pre>').text).toBe('x\n\nline 1\nline 2');
  });

  it('copes with unclosed tags and text misplaced in <head>', () => {
    expect(htmlToText('<p>one<p>two<div>three').text).toBe('one\n\ntwo\n\nthree');
    expect(htmlToText('<html><head><title>T</title><p>misplaced').text).toBe('misplaced');
    expect(htmlToText('<svg/><p>after a self-closed svg</p>').text).toBe('after a self-closed svg');
  });

  it('returns empty text for markup without text, and no title when there is none', () => {
    expect(htmlToText('<html><body><img src="a.png"><script>x()</script></body></html>')).toEqual({
      text: '',
    });
  });
});

describe('htmlToText: text hidden from the reader', () => {
  it('leaves out elements hidden by an inline style or the hidden attribute, inside a word too', () => {
    for (const trick of [
      '<span style="display:none">junk words</span>',
      '<span style="DISPLAY: none;">junk words</span>',
      '<span style="visibility:hidden">junk words</span>',
      '<span style="font-size:0px">junk words</span>',
      '<span style="font-size: 0">junk words</span>',
      '<span style="color:red;opacity:0">junk words</span>',
      '<span style="mso-hide:all">junk words</span>',
      '<span hidden>junk words</span>',
      '<span style="display:none"><b>junk</b> words</span>',
      '<!-- junk words -->',
    ])
      expect(htmlToText(`<p>cheap pre${trick}scriptions today</p>`).text).toBe('cheap prescriptions today');
  });
  it('leaves out white type on the default page, and keeps it on a background', () => {
    expect(htmlToText('<p>buy n<font color="#FFFFFF">xq zz</font>ow</p>').text).toBe('buy now');
    expect(htmlToText('<p>buy n<span style="color: white">xq zz</span>ow</p>').text).toBe('buy now');
    expect(htmlToText('<p>buy n<span style="color:rgb(255, 255, 255)">xq</span>ow</p>').text).toBe('buy now');
    expect(htmlToText('<td bgcolor="#0066cc"><a style="color:#ffffff">Read more</a></td>').text).toBe(
      'Read more',
    );
    expect(
      htmlToText('<div style="background:#333"><p><span style="color:#fff">Read more</span></p></div>').text,
    ).toBe('Read more');
    expect(htmlToText('<a style="color:#fff;background-color:#c00">Sign up</a>').text).toBe('Sign up');
  });
  it("leaves out white type on a white background, which is the page's own", () => {
    expect(
      htmlToText('<body style="background:#fff"><p>buy n<font color="#FFFFFF">xq</font>ow</p></body>').text,
    ).toBe('buy now');
    expect(
      htmlToText('<table bgcolor="white"><tr><td>buy n<span style="color:#fff">xq</span>ow</td></tr></table>')
        .text,
    ).toBe('buy now');
  });
  it('leaves out type in a near-white or transparent colour, and keeps light grey and coloured type', () => {
    for (const color of [
      '#fefefe',
      '#F5F5F5',
      'rgb(250, 250, 250)',
      'rgba(255,255,255,0.5)',
      'transparent',
      '#fff',
    ])
      expect(htmlToText(`<p>buy n<span style="color:${color}">xq</span>ow</p>`).text, color).toBe('buy now');
    expect(htmlToText('<p>buy n<font color="#fafafa">xq</font>ow</p>').text).toBe('buy now');
    for (const color of ['#eeeeee', '#ccc', 'rgb(240, 240, 200)', '#f00', 'red'])
      expect(htmlToText(`<p>buy <span style="color:${color}">more</span> now</p>`).text, color).toBe(
        'buy more now',
      );
    expect(
      htmlToText('<div style="background:#222"><span style="color:#fafafa">Read more</span></div>').text,
    ).toBe('Read more');
  });
  it('leaves out text moved off the page or boxed to nothing, and keeps text merely positioned', () => {
    for (const style of [
      'position:absolute;left:-9999px',
      'position: fixed; top: -2000px',
      'text-indent:-9999px',
      'max-height:0;overflow:hidden',
      'height: 0px; overflow: hidden',
      'position:absolute;clip:rect(0,0,0,0)',
      'clip-path: inset(50%)',
    ])
      expect(htmlToText(`<p>buy <span style="${style}">xq zz</span> now</p>`).text, style).toBe('buy now');
    for (const style of [
      'position:absolute;left:-10px',
      'left:-9999px',
      'height:0',
      'overflow:hidden;max-height:40px',
    ])
      expect(htmlToText(`<p>buy <span style="${style}">more</span> now</p>`).text, style).toBe(
        'buy more now',
      );
  });
  it('leaves out elements a <style> rule hides by class or id, not those of @media rules or other selectors', () => {
    const head =
      '<head><style>/* x */ .h, p.z {display:none} #k{font-size:0} .v{color:red} @media print {.p{display:none}} div .d{display:none}</style></head>';
    expect(
      htmlToText(
        `<html>${head}<body><p>buy <span class="a h">xq</span> n<b id="k">zz</b>ow <span class="v">red</span> <span class="p">print</span> <span class="d">deep</span></p></body></html>`,
      ).text,
    ).toBe('buy now red print deep');
  });
  it('keeps text that is only styled, or hidden from screen readers only', () => {
    expect(
      htmlToText('<p><span style="font-size:10px">small</span> <span style="opacity:0.5">faded</span></p>')
        .text,
    ).toBe('small faded');
    expect(htmlToText('<p><span aria-hidden="true">shown</span> text</p>').text).toBe('shown text');
    expect(htmlToText('<p><span style="color:#ffd">pale</span> text</p>').text).toBe('pale text');
  });
  it('ends the hidden part with its element, nested or not', () => {
    expect(
      htmlToText('<div>a <span style="display:none">x <span>y</span> z</span> b</div><p>c</p>').text,
    ).toBe('a b\n\nc');
  });
});

describe('parseHtml: letters written as character references', () => {
  const references = (s: string) =>
    s.replace(/[^\x20-\x7e]/gu, (c) => `&#x${(c.codePointAt(0) as number).toString(16)};`);

  it('gives the same text steps as the same letters written as themselves', () => {
    // The parser hands over one reference at a time, and a lone space between two of them once
    // ended the run of text: each word became a step of its own, which the article extraction
    // weighs differently from one paragraph.
    const page =
      '<div><h1>Заголовок статьи</h1><p>Первый абзац статьи, в нём несколько слов.</p>' +
      '<p>Второй абзац — «цитата» и ещё слова.</p><p>بند سوم به فارسی است.</p></div>';
    const plain = parseHtml(page);
    const referenced = parseHtml(references(page));
    expect(references(page)).not.toContain('Перв');
    expect(referenced.ops).toEqual(plain.ops);
    expect(plain.ops.text.filter((t) => t !== '')).toHaveLength(4);
  });

  it('still keeps a space between two elements out of their texts (a space step of its own)', () => {
    const parsed = parseHtml('<p><b>a</b> <i>b</i></p>');
    expect(parsed.ops.text.filter((t) => t !== '')).toEqual(['a', 'b']);
    expect(htmlToText('<p><b>a</b> <i>b</i></p>').text).toBe('a b');
  });
});

describe('looksLikeHtml', () => {
  it.each([
    '<!DOCTYPE html><html><body>x</body></html>',
    '<!-- saved page --> <!doctype HTML>',
    '\n  <HTML lang="ru">',
    '<body>hello',
    '<p>short</p>',
    'Hello <b>bold</b> world',
    '<div><span>a</span><br>',
  ])('recognises %j', (text) => {
    expect(looksLikeHtml(text)).toBe(true);
  });

  it.each([
    'Plain text with no markup at all.',
    'a < b and c > d',
    'Use <br> to break lines',
    'Москва, 5 ноября. Пресс-служба сообщила...',
    'if (x<y && y>z) return;',
  ])('does not take %j for HTML', (text) => {
    expect(looksLikeHtml(text)).toBe(false);
  });

  it('looks only near the start', () => {
    expect(looksLikeHtml(`${'word '.repeat(1000)}<html><body><p>x</p></body></html>`)).toBe(false);
  });
});

const sharedDataPresent = warnIfNoSharedData();

describe.skipIf(!hasSharedData())('htmlToText on real articles wrapped in HTML (evaluation corpus)', () => {
  const ru = sharedDataPresent ? readSharedJsonl('news-ru.jsonl') : [];
  const escapeHtml = (s: string): string =>
    s.replace(/&/g, '&amp;').replace(/</g, '&lt;').replace(/>/g, '&gt;');
  /** The text's words, so that the comparison does not depend on where white space falls. */
  const words = (s: string): string[] => s.split(/\s+/).filter((w) => w !== '');

  it('recovers every article body, paragraph by paragraph, and the title', () => {
    expect(ru.length).toBeGreaterThan(100);
    for (const article of ru) {
      const paragraphs = article.text.split(/\n+/).filter((p) => p.trim() !== '');
      const html =
        `<!DOCTYPE html><html><head><title>${escapeHtml(article.title ?? '')}</title>` +
        '<script>var ads = "<p>ad</p>";</script><style>.x{}</style></head><body>' +
        `<nav><a href="/">Главная</a></nav><article>${paragraphs.map((p) => `<p>${escapeHtml(p)}</p>`).join('\n')}` +
        '</article></body></html>';
      const { text, title } = htmlToText(html);
      // HTML white space only: a no-break space in a title is kept
      expect(title).toBe(article.title?.replace(/[ \t\n\r\f]+/g, ' ').trim() || undefined);
      expect(words(text)).toEqual(['Главная', ...words(paragraphs.join(' '))]);
      expect(text.split('\n\n').length).toBe(paragraphs.length + 1);
    }
  });
});
