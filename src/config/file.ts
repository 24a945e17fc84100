import { readFileSync } from 'node:fs';
import { DoppelError } from '../errors.js';
import { jsonErrorMessage } from '../json.js';

/** Reads a JSON config file; the caller validates it with its schema. */
export function readConfigFile(path: string): unknown {
  let text: string;
  try {
    text = readFileSync(path, 'utf8');
  } catch (error) {
    throw new DoppelError('INVALID_CONFIG', `cannot read config ${path}: ${(error as Error).message}`, {
      cause: error,
    });
  }
  try {
    return JSON.parse(text);
  } catch (error) {
    // Never a quote of the file: it may hold a password (redis.password).
    throw new DoppelError('INVALID_CONFIG', jsonErrorMessage(error, text.length, `config ${path}`));
  }
}
