import { createRequire } from 'node:module';
import type { z } from 'zod';

export type Zod = typeof z;

/**
 * A schema built on its first use. zod costs ~0.05 s of CPU to load at every start, and most runs
 * need none of these schemas (plain messages, the shipped compact lexicons, the build-validated
 * default config). Callers parse synchronously, so zod is loaded with require (its CommonJS build).
 */
export function lazySchema<S>(define: (zod: Zod) => S): () => S {
  let schema: S | undefined;
  return () => {
    schema ??= define((createRequire(import.meta.url)('zod') as { z: Zod }).z);
    return schema;
  };
}
