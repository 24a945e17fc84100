import { describe, expect, it } from 'vitest';
import type { DoppelError } from '../src/errors.js';
import { parseMessageLine } from '../src/input/message.js';
import { parseJsonText } from '../src/json.js';
import { parseInput } from '../src/kafka/input.js';

const SECRET = 'S3cretPassXYZ';
// Each breaks JSON.parse in another way; V8's own messages quote the input for most of them.
const BROKEN = [
  SECRET,
  `{"id": "x", "text": "${SECRET}`,
  `{"id": "x", "text": ${SECRET}}`,
  `{"id": "x"} ${SECRET}`,
  `{${SECRET}: 1}`,
  `{"${SECRET}" 1}`,
  `["${SECRET}\u0001"]`,
  `["${SECRET}\\q"]`,
  `[1 "${SECRET}"]`,
  `{"a": -${SECRET}}`,
  `${SECRET.repeat(50)}`,
];

function errorOf(f: () => unknown): DoppelError {
  try {
    f();
  } catch (error) {
    return error as DoppelError;
  }
  throw new Error('did not throw');
}

describe('JSON parse errors', () => {
  it('say the kind and position, never any of the input', () => {
    for (const text of BROKEN) {
      const error = errorOf(() => parseJsonText(text, 'body'));
      expect(error.code, text).toBe('INVALID_JSON');
      expect(error.message, text).not.toMatch(/S3cret|Pass|XYZ/);
      expect(error.message).toMatch(
        /^body is not valid JSON: [a-zA-Z ',:}\]]+( at position \d+)? \(\d+ characters\)$/,
      );
    }
    expect(errorOf(() => parseJsonText('{"a": 1', 'body')).message).toBe(
      "body is not valid JSON: expected ',' or '}' at position 7 (7 characters)",
    );
    expect(errorOf(() => parseJsonText('', 'line')).message).toContain('unexpected end of input');
  });

  it('the CLI line reader and the Kafka input (its DLQ reason) share them', () => {
    for (const text of BROKEN) {
      const line = errorOf(() => parseMessageLine(text));
      expect([line.code, line.message]).toEqual(['INVALID_JSON', expect.not.stringMatching(/S3cret|XYZ/)]);
      const record = {
        topic: 't',
        partition: 0,
        offset: '1',
        key: null,
        value: Buffer.from(text),
        timestamp: '0',
      };
      const kafka = errorOf(() => parseInput(record, 'json', 1e6));
      expect([kafka.code, kafka.message]).toEqual(['INVALID_JSON', expect.not.stringMatching(/S3cret|XYZ/)]);
    }
  });
});
