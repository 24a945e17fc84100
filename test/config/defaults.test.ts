import { existsSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { defaultDedupConfig, defaultSignatureConfig, readConfigDefaults } from '../../src/config/defaults.js';
import { resolveDedupConfig } from '../../src/config/profiles.js';
import { signatureConfigSchema } from '../../src/config/signatures.js';

const SHIPPED = new URL('../../dist/config/defaults.json', import.meta.url);

describe('config defaults validated by the build', () => {
  it('dist/config/defaults.json (npm run build) is what the schemas make of each profile and of no signature config', () => {
    expect(existsSync(SHIPPED), 'dist/config/defaults.json is missing: run npm run build').toBe(true);
    const shipped = readConfigDefaults(SHIPPED);
    expect(shipped?.dedup.news).toStrictEqual(resolveDedupConfig('news'));
    expect(shipped?.dedup.mail).toStrictEqual(resolveDedupConfig('mail'));
    expect(shipped?.signatures).toStrictEqual(signatureConfigSchema.parse({}));
    expect(Object.keys(shipped?.dedup ?? {}).sort()).toEqual(['mail', 'news']);
  });

  it('each read is a fresh copy: a caller changing its config changes no other', () => {
    const a = readConfigDefaults(SHIPPED);
    const b = readConfigDefaults(SHIPPED);
    expect(a).not.toBe(b);
    if (a && b) {
      a.dedup.news.batchSize = 1;
      expect(b.dedup.news.batchSize).toBe(256);
    }
  });

  it('code run from src/ has no built file and validates with the schemas instead', () => {
    // src/config/defaults.json never exists: the CLI then calls resolveDedupConfig, createSigner the schema.
    expect(defaultDedupConfig('news')).toBeNull();
    expect(defaultSignatureConfig()).toBeNull();
  });
});
