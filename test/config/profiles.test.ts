import { describe, expect, it } from 'vitest';
import { deepMerge, resolveDedupConfig } from '../../src/config/profiles.js';

describe('config files with Object.prototype names as keys', () => {
  it('"__proto__" and "constructor" keys are refused by the schema, never merged into the prototype', () => {
    const file = JSON.parse('{"__proto__":{"batchSize":7},"constructor":{"a":1}}') as unknown;
    expect(() => resolveDedupConfig('news', file, 'test.json')).toThrowError(
      expect.objectContaining({ code: 'INVALID_CONFIG' }),
    );
    const merged = deepMerge({ batchSize: 256 }, file) as Record<string, unknown>;
    expect(Object.getPrototypeOf(merged)).toBe(Object.prototype);
    expect(Object.hasOwn(merged, '__proto__')).toBe(true);
    expect(merged.batchSize).toBe(256);
    // "constructor" merged with nothing: base's inherited Object is not taken for a section.
    expect(merged.constructor).toEqual({ a: 1 });
  });
});
