#!/usr/bin/env node
// CustomResourceDefinition YAML files -> the JSON schemas kubeconform reads, one per kind and
// version, at OUT/<group>/<kind>_<version>.json (kubeconform's -schema-location template
// `OUT/{{ .Group }}/{{ .ResourceKind }}_{{ .ResourceAPIVersion }}.json`).
//
// What kubeconform's own scripts/openapi2jsonschema.py does, made strict the way kubeconform's
// -strict expects of its schemas: kubeconform rejects unknown fields only where a schema says
// `additionalProperties: false`, so every object schema that lists its properties gets it (the
// root included) unless it preserves unknown fields. OpenAPI's `nullable` becomes a "null" type,
// as JSON Schema has no `nullable`.
//
// usage: node scripts/crd-json-schemas.mjs OUT FILE.yaml...
import { mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { parseAllDocuments } from 'yaml';

function strict(schema) {
  if (Array.isArray(schema)) return schema.map(strict);
  if (schema === null || typeof schema !== 'object') return schema;
  const out = {};
  for (const [key, value] of Object.entries(schema)) {
    // `properties` maps names to schemas; its keys are field names, never keywords.
    out[key] =
      key === 'properties'
        ? Object.fromEntries(Object.entries(value).map(([name, s]) => [name, strict(s)]))
        : strict(value);
  }
  if (out.format === 'int-or-string') {
    delete out.format;
    out.oneOf = [{ type: 'string' }, { type: 'integer' }];
  }
  if (out.nullable === true && typeof out.type === 'string') out.type = [out.type, 'null'];
  if (
    out.properties !== undefined &&
    out.additionalProperties === undefined &&
    out['x-kubernetes-preserve-unknown-fields'] !== true
  ) {
    out.additionalProperties = false;
  }
  return out;
}

const [outDir, ...files] = process.argv.slice(2);
if (!outDir || files.length === 0) {
  process.stderr.write('usage: node scripts/crd-json-schemas.mjs OUT FILE.yaml...\n');
  process.exit(2);
}
let written = 0;
for (const file of files) {
  for (const doc of parseAllDocuments(readFileSync(file, 'utf8'))) {
    const crd = doc.toJS();
    if (crd?.kind !== 'CustomResourceDefinition') continue;
    const { group, names, versions } = crd.spec;
    for (const version of versions ?? []) {
      const schema = version.schema?.openAPIV3Schema;
      if (!schema) continue;
      const dir = join(outDir, group);
      mkdirSync(dir, { recursive: true });
      writeFileSync(
        join(dir, `${names.kind.toLowerCase()}_${version.name}.json`),
        JSON.stringify(strict(schema)),
      );
      written++;
    }
  }
}
if (written === 0) {
  process.stderr.write(`crd-json-schemas: no CRD schemas in ${files.join(' ')}\n`);
  process.exit(1);
}
process.stdout.write(`   ${written} CRD schemas in ${outDir}\n`);
