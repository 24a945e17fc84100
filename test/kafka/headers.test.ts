import { describe, expect, it } from 'vitest';
import { readHeaders } from '../../src/kafka/headers.js';

describe('readHeaders', () => {
  it('a header named "__proto__" is kept as a header, not assigned to the prototype', () => {
    const headers = JSON.parse('{"__proto__":"x","constructor":"y","id":"z"}') as Record<string, unknown>;
    const read = readHeaders(headers);
    expect(Object.getPrototypeOf(read)).toBe(Object.prototype);
    expect(Object.entries(read)).toEqual([
      ['__proto__', 'x'],
      ['constructor', 'y'],
      ['id', 'z'],
    ]);
  });
});
