import { Ajv2020, type ValidateFunction } from 'ajv/dist/2020.js';
import { expect } from 'vitest';

interface Media {
  schema: unknown;
  example?: unknown;
  examples?: Record<string, { value: unknown }>;
}

interface Operation {
  requestBody?: { content: Record<string, Media> };
  responses: Record<string, { content?: Record<string, Media> }>;
}

export interface OpenApiDocument {
  openapi: string;
  paths: Record<string, Partial<Record<string, Operation>>>;
  components: { schemas: Record<string, unknown> };
}

/**
 * Checks real responses against a served OpenAPI 3.1 document (JSON Schema 2020-12, with ajv):
 * the status must be one the operation documents, and the JSON body must match that status's
 * schema. The document is the one the server serves, not the zod schemas it was generated from.
 */
export class ResponseValidator {
  private readonly ajv = new Ajv2020({ strict: false, allErrors: true });
  private readonly compiled = new Map<string, ValidateFunction>();
  /** `METHOD template status` of every response checked. */
  readonly checked = new Set<string>();

  constructor(private readonly doc: OpenApiDocument) {
    this.ajv.addSchema(doc as object, 'openapi.json');
  }

  static async fetch(base: string): Promise<ResponseValidator> {
    const res = await fetch(`${base}/openapi.json`);
    expect(res.status).toBe(200);
    return new ResponseValidator((await res.json()) as OpenApiDocument);
  }

  /** The body (parsed) of a response of `METHOD template`, after checking it against the document. */
  async check(method: string, template: string, res: Response): Promise<Record<string, unknown>> {
    const what = `${method} ${template} ${res.status}`;
    const operation = this.doc.paths[template]?.[method.toLowerCase()];
    expect(operation, `${method} ${template} is not in the document`).toBeDefined();
    const response = operation?.responses[String(res.status)];
    expect(response, `${what}: status not documented`).toBeDefined();
    const type = res.headers.get('content-type')?.split(';')[0]?.trim() ?? '';
    const media = response?.content?.[type];
    expect(media, `${what}: content-type ${type} not documented`).toBeDefined();
    const body = (await res.json()) as Record<string, unknown>;
    const validate = this.validator(what, media?.schema);
    const ok = validate(body);
    expect(
      ok,
      `${what}: ${this.ajv.errorsText(validate.errors)}\n${JSON.stringify(body).slice(0, 500)}`,
    ).toBe(true);
    this.checked.add(what);
    return body;
  }

  /**
   * Every JSON example of the document (request bodies and responses) checked against its own
   * schema: `what: errors` for each that does not match, and how many were checked.
   */
  checkExamples(): { checked: number; failures: string[] } {
    const failures: string[] = [];
    let checked = 0;
    for (const [path, ops] of Object.entries(this.doc.paths))
      for (const [method, op] of Object.entries(ops ?? {})) {
        const media: Array<[string, Media]> = [];
        for (const [type, m] of Object.entries(op?.requestBody?.content ?? {}))
          media.push([`${method} ${path} request ${type}`, m]);
        for (const [status, r] of Object.entries(op?.responses ?? {}))
          for (const [type, m] of Object.entries(r.content ?? {}))
            media.push([`${method} ${path} ${status} ${type}`, m]);
        for (const [what, m] of media) {
          if (!what.endsWith('json')) continue;
          const examples = [
            ...(m.example === undefined ? [] : [m.example]),
            ...Object.values(m.examples ?? {}).map((e) => e.value),
          ];
          for (const example of examples) {
            const validate = this.validator(`example ${what}`, m.schema);
            checked++;
            if (!validate(example)) failures.push(`${what}: ${this.ajv.errorsText(validate.errors)}`);
          }
        }
      }
    return { checked, failures };
  }

  private validator(key: string, schema: unknown): ValidateFunction {
    let validate = this.compiled.get(key);
    if (!validate) {
      // Local references point into the served document.
      validate = this.ajv.compile(
        JSON.parse(JSON.stringify(schema).replaceAll('"$ref":"#/', '"$ref":"openapi.json#/')) as object,
      );
      this.compiled.set(key, validate);
    }
    return validate;
  }
}
