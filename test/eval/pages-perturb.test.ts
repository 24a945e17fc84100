import { describe, expect, it } from 'vitest';
import { perturbHtml, perturbPage } from '../../src/eval/pages-perturb.js';

const PAGE =
  '<!DOCTYPE html><html><head><meta charset="windows-1251"><title>T</title></head>' +
  '<body class="home" id="top"><header role="banner" class=\'masthead\'><nav id=menu>Menu</nav></header>' +
  '<main itemprop="mainEntity"><article data-id="7" class="story"><section><h1 class="headline">Title</h1>' +
  '<p>Body \xe2\xee\xe4\xe0.</p></section></article></main><aside>Side</aside><footer>Foot</footer></body></html>';
const bytes = new Uint8Array(Buffer.from(PAGE, 'latin1'));
const text = (b: Uint8Array): string => Buffer.from(b).toString('latin1');

describe('perturbPage (eval:pages robustness variants)', () => {
  it('strips class, id, role and itemprop names and keeps every other attribute and byte', () => {
    const out = text(perturbPage(bytes, 'k1', { stripNames: true }));
    expect(out).not.toMatch(/\s(?:class|id|role|itemprop)=/);
    expect(out).toContain('data-id="7"');
    expect(out).toContain('<meta charset="windows-1251">');
    // The page's own bytes in its own charset are untouched.
    expect(out).toContain('Body \xe2\xee\xe4\xe0.');
  });

  it('turns semantic elements into divs, open and close tags alike', () => {
    const out = text(perturbPage(bytes, 'k1', { divs: true }));
    expect(out).not.toMatch(/<\/?(?:article|main|nav|aside|footer|header|section)\b/);
    expect(out).toContain('<div data-id="7" class="story">');
    expect(out.match(/<div/g)?.length).toBe(out.match(/<\/div>/g)?.length);
  });

  it('puts an unnamed cookie notice first in the body and a related list and comment thread before the <h1>', () => {
    const out = text(perturbPage(bytes, 'k1', { clutter: true }));
    const body = out.indexOf('<body');
    const notice = out.indexOf('<button>', body);
    const related = out.indexOf('Related stories');
    const comments = out.indexOf('Comments (');
    const h1 = out.indexOf('<h1');
    expect(body).toBeGreaterThan(0);
    expect(notice).toBeGreaterThan(body);
    expect(related).toBeGreaterThan(notice);
    expect(comments).toBeGreaterThan(related);
    expect(h1).toBeGreaterThan(comments);
    expect(out).toContain('<textarea');
    // ASCII only: the clutter cannot be garbled by the page's charset.
    const added = out.slice(body, h1);
    expect(/^[\x20-\x7e\n]*$/.test(added)).toBe(true);
  });

  it('is deterministic per key and differs between keys', () => {
    const a = text(perturbPage(bytes, 'k1', { clutter: true, stripNames: true, divs: true }));
    expect(text(perturbPage(bytes, 'k1', { clutter: true, stripNames: true, divs: true }))).toBe(a);
    expect(text(perturbPage(bytes, 'k2', { clutter: true, stripNames: true, divs: true }))).not.toBe(a);
  });

  it('leaves the page as it is with no change asked for', () => {
    expect(text(perturbPage(bytes, 'k1', {}))).toBe(PAGE);
  });

  it('changes a page given as a string (the html field of a message) the same way, letters of any script kept', () => {
    const html =
      '<html><body><article class="x" id="y"><h1>Заголовок</h1><p>Текст статьи, کوکی.</p></article></body></html>';
    const out = perturbHtml(html, 'k3', { stripNames: true, divs: true });
    expect(out).toBe('<html><body><div><h1>Заголовок</h1><p>Текст статьи, کوکی.</p></div></body></html>');
  });
});
