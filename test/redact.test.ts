import { describe, expect, it } from 'vitest';
import { redactUrl, redactUrlsIn } from '../src/redact.js';

describe('redactUrl', () => {
  it('hides the whole user-info, whatever the password holds', () => {
    const cases: Array<[string, string]> = [
      ['redis://:S3cretPassXYZ@127.0.0.1:6379/0', 'redis://***@127.0.0.1:6379/0'],
      ['redis://user:p@ss@w0rd@redis:6379', 'redis://***@redis:6379'],
      ['rediss://u:pa/ss:@x@host', 'rediss://***@host'],
      // Malformed URLs are the ones that end up in errors.
      ['redis://:S3cretPassXYZ@127.0.0.1:notaport', 'redis://***@127.0.0.1:notaport'],
      ['redis://127.0.0.1:6379', 'redis://127.0.0.1:6379'],
      ['memory', 'memory'],
      ['user:S3cretPassXYZ@host:6379', '***@host:6379'],
    ];
    for (const [url, redacted] of cases) {
      expect(redactUrl(url), url).toBe(redacted);
      expect(redactUrl(url)).not.toMatch(/S3cret|p@ss|w0rd|pa\/ss/);
    }
  });

  it('redacts every URL inside a longer text', () => {
    expect(redactUrlsIn('connect redis://a:b@c:1 and http://x:y@z/ failed')).toBe(
      'connect redis://***@c:1 and http://***@z/ failed',
    );
  });
});
