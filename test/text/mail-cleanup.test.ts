import { describe, expect, it } from 'vitest';
import {
  cleanMailBody,
  normalizeVolatileTokens,
  stripQuotedAndSignature,
} from '../../src/text/mail-cleanup.js';

describe('stripQuotedAndSignature', () => {
  it('drops quoted lines and the attribution line', () => {
    const body =
      'Sounds good.\n\nOn Mon, 3 Jun 2024 at 10:00, Bob <bob@example.com> wrote:\n> earlier text\n> more\n';
    const out = stripQuotedAndSignature(body);
    expect(out).toContain('Sounds good.');
    expect(out).not.toContain('earlier text');
    expect(out).not.toContain('wrote');
  });
  it('drops a Russian attribution', () => {
    expect(stripQuotedAndSignature('Да.\n3 июня 2024 г., Иван пишет:\n> вопрос')).toBe('Да.\n\n');
  });
  it('drops the signature after "-- "', () => {
    expect(stripQuotedAndSignature('Body text\n-- \nJohn Smith\nACME Corp')).toBe('Body text\n');
  });
  it('drops forwarded history', () => {
    expect(stripQuotedAndSignature('FYI\n-----Original Message-----\nFrom: x\nold')).toBe('FYI\n');
  });
});

describe('normalizeVolatileTokens', () => {
  it('reduces URLs to hosts and addresses to domains', () => {
    const a = normalizeVolatileTokens(
      'click https://Track.Example.com/r?id=1&u=alice now, mail alice@shop.example.org',
    );
    const b = normalizeVolatileTokens(
      'click https://track.example.com/r?id=2&u=bob now, mail bob@shop.example.org',
    );
    expect(a).toBe(b);
    expect(a).toContain('track.example.com');
    expect(a).not.toContain('alice');
  });
  it('replaces ids and long numbers with fixed words', () => {
    const a = normalizeVolatileTokens('order 4f3a9c2e1b7d ref AB12CD34EF56 call 555-123-4567');
    const b = normalizeVolatileTokens('order 9e8d7c6b5a43 ref ZX98YW76VU54 call 555-987-6543');
    expect(a).toBe(b);
    expect(a).not.toMatch(/\d{3}/);
  });
  it('leaves ordinary words and short numbers alone', () => {
    expect(normalizeVolatileTokens('meet at 10 in room 42')).toBe('meet at 10 in room 42');
  });
  it('cleanMailBody combines both', () => {
    const out = cleanMailBody('Win at http://x.example/a1\n> old\n-- \nsig');
    expect(out.trim()).toBe('Win at  x.example');
  });
});
