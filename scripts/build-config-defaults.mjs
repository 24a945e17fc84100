#!/usr/bin/env node
// Each profile's config and the default signature config, validated by the schemas, written to
// dist/config/defaults.json (src/config/defaults.ts): a run without a config file reads them
// instead of loading zod. Deterministic. Part of `npm run build`, after tsc (it runs the compiled schemas).
import { writeFileSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { resolveDedupConfig } from '../dist/config/profiles.js';
import { signatureConfigSchema } from '../dist/config/signatures.js';

const root = resolve(import.meta.dirname, '..');
const defaults = {
  dedup: { news: resolveDedupConfig('news'), mail: resolveDedupConfig('mail') },
  signatures: signatureConfigSchema.parse({}),
};
writeFileSync(join(root, 'dist/config/defaults.json'), `${JSON.stringify(defaults, null, 1)}\n`);
