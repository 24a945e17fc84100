import type { z } from 'zod';
import { DoppelError } from '../errors.js';

/** Parses `input` with `schema`, turning every issue into one readable INVALID_CONFIG error. */
export function parseConfig<S extends z.ZodType>(schema: S, input: unknown, source: string): z.infer<S> {
  const result = schema.safeParse(input ?? {});
  if (result.success) return result.data;
  const lines = result.error.issues.map((issue) => `  ${issue.path.join('.') || '(root)'}: ${issue.message}`);
  throw new DoppelError('INVALID_CONFIG', `${source}:\n${lines.join('\n')}`);
}
