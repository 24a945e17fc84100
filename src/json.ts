import { DoppelError } from './errors.js';

/**
 * JSON.parse whose failure never repeats the input. V8's messages quote it (`Unexpected token
 * 'S', "S3cretPass"... is not valid JSON`), and INVALID_JSON messages travel to API clients, logs
 * and the Kafka dead-letter reason header, which promise never to carry message content. What is
 * kept: the kind of error, its position when V8 gives one, and the input's length.
 */
export function parseJsonText(text: string, what = 'input'): unknown {
  try {
    return JSON.parse(text);
  } catch (error) {
    throw new DoppelError('INVALID_JSON', jsonErrorMessage(error, text.length, what));
  }
}

const KINDS: ReadonlyArray<[RegExp, string]> = [
  [/^Unexpected end of JSON input/, 'unexpected end of input'],
  [/^Unterminated string/, 'unterminated string'],
  [/^Bad control character/, 'control character in a string'],
  [/^Bad escaped character|^Bad Unicode escape/, 'bad escape in a string'],
  [/^Unexpected non-whitespace character after JSON/, 'more data after the JSON value'],
  [/^Expected property name/, 'expected a property name'],
  [/^Expected ',' or '}'/, "expected ',' or '}'"],
  [/^Expected ',' or ']'/, "expected ',' or ']'"],
  [/^Expected ':'/, "expected ':'"],
  [/^Exponent part is missing|^No number after minus sign|^Unterminated fractional number/, 'bad number'],
  [/^Expected double-quoted property name/, 'expected a double-quoted property name'],
  [/^Unexpected token|^Unexpected character/, 'unexpected character'],
];

/** The description of a JSON.parse failure: kind and position only, never a quote of the text. */
export function jsonErrorMessage(error: unknown, length: number, what = 'input'): string {
  const message = error instanceof Error ? error.message : '';
  const kind = KINDS.find(([pattern]) => pattern.test(message))?.[1] ?? 'syntax error';
  const position = /\bat position (\d+)/.exec(message)?.[1];
  const where = position === undefined ? '' : ` at position ${position}`;
  return `${what} is not valid JSON: ${kind}${where} (${length} characters)`;
}
