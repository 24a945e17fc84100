import { z } from 'zod';
import { COMPONENTS, type ComponentName, clusterListQuerySchema, pageQuerySchema } from './schemas.js';

/**
 * The OpenAPI 3.1 document served at /openapi.json, generated from the zod schemas of
 * schemas.ts (JSON Schema 2020-12, which OpenAPI 3.1 uses): the component schemas, the query
 * parameters, and through them every route's body. Only the paths, summaries and the error
 * codes of each status are written here. test/api/api.test.ts checks that every route is in it,
 * that each component is the zod schema's own JSON Schema, and parses real responses with them.
 */

const URI = (id: string) => `#/components/schemas/${id}`;

/** Each zod schema as JSON Schema, nested components referenced by $ref. */
export function componentSchemas(): Record<ComponentName, Record<string, unknown>> {
  const registry = z.registry<{ id: string }>();
  for (const [id, schema] of Object.entries(COMPONENTS)) registry.add(schema, { id });
  // `input`: the Message schema is what clients send (its id may be a number, made a string).
  const { schemas } = z.toJSONSchema(registry, { uri: URI, io: 'input', unrepresentable: 'any' });
  const out: Record<string, Record<string, unknown>> = {};
  for (const [id, schema] of Object.entries(schemas)) {
    const { $schema: _s, $id: _i, ...rest } = schema as Record<string, unknown>;
    out[id] = rest;
  }
  return out as Record<ComponentName, Record<string, unknown>>;
}

/** A zod object of query parameters as OpenAPI parameters. */
function queryParameters(schema: z.ZodObject) {
  const json = z.toJSONSchema(schema, { io: 'input' }) as {
    properties: Record<string, Record<string, unknown>>;
    required?: string[];
  };
  return Object.entries(json.properties).map(([name, property]) => {
    // queryType (schemas.ts): the value a client sends (an integer, a date-time), not the text parsed.
    const { description, queryType, ...rest } = property;
    return {
      name,
      in: 'query',
      required: json.required?.includes(name) ?? false,
      ...(description === undefined ? {} : { description }),
      schema: queryType ?? rest,
    };
  });
}

const ref = (name: ComponentName) => ({ $ref: URI(name) });
const errorResponse = (description: string) => ({
  description,
  content: { 'application/problem+json': { schema: ref('Error') } },
});
const json = (name: ComponentName, description: string, example?: unknown) => ({
  description,
  content: { 'application/json': { schema: ref(name), ...(example === undefined ? {} : { example }) } },
});

const STORY_EXAMPLE = {
  id: 'wire-1',
  size: 2,
  firstSeen: '2026-11-20T08:00:00.000Z',
  lastSeen: '2026-11-20T08:20:00.000Z',
  representative: 'wire-1',
  title: 'Central bank raises rates',
};

const EXAMPLE_TEXT = 'The central bank raised its key interest rate by half a percentage point on Friday.';

const messageExamples = {
  text: {
    summary: 'A message with a title',
    value: {
      id: 'wire-1',
      title: 'Central bank raises rates',
      text: EXAMPLE_TEXT,
      ts: '2026-11-20T08:00:00Z',
    },
  },
  html: {
    summary: 'An HTML page with its source URL',
    value: {
      id: 'portal-7',
      html: `<article><h1>Rates up again</h1><p>${EXAMPLE_TEXT}</p></article>`,
      url: 'https://portal.example/rates',
    },
  },
  batch: {
    summary: 'A batch: an array of messages (one result each)',
    value: [
      { id: 'wire-1', text: EXAMPLE_TEXT },
      { id: 'portal-7', text: `LONDON (Wire) - ${EXAMPLE_TEXT}` },
    ],
  },
};

const messageBody = {
  required: true,
  description:
    'One message, as a line of `doppel dedup` input (docs/formats.md; unknown fields are ignored), or a batch of up to api.maxBatchItems (default 1000) within api.bodyLimitBytes: a JSON array of messages, or `application/x-ndjson` with one message per line. A batch answers `{results}`, one per item in order: its verdict or its problem; one bad item (an NDJSON line that is not JSON: INVALID_JSON) does not fail the others.',
  content: {
    'application/json': {
      schema: { oneOf: [ref('Message'), { type: 'array', items: ref('Message') }] },
      examples: messageExamples,
    },
    'application/x-ndjson': {
      schema: { type: 'string', description: 'one JSON message per line; blank lines are skipped' },
      example: `{"id":"wire-1","text":"${EXAMPLE_TEXT}"}\n{"id":"portal-7","text":"LONDON (Wire) - ${EXAMPLE_TEXT}"}\n`,
    },
  },
};

const verdictExamples = {
  unique: {
    summary: 'A new story',
    value: { id: 'wire-1', verdict: 'unique', clusterId: 'wire-1', candidates: 0, indexed: true },
  },
  near: {
    summary: 'A near-duplicate of an earlier message',
    value: {
      id: 'portal-7',
      verdict: 'near_duplicate',
      clusterId: 'wire-1',
      duplicateOf: 'wire-1',
      similarity: 0.82,
      method: 'minhash',
      evidence: {
        exact: false,
        hamming: 6,
        jaccard: 0.82,
        imatch: true,
        lexical: 2,
        cosine: 0.97,
        containment: 0.9,
      },
      candidates: 1,
      indexed: true,
    },
  },
};

/** The answer to a message body: a verdict (one message) or the batch's results. */
const decisionAnswer = (description: string) => ({
  description: `${description}; for a batch, one result per item`,
  content: {
    'application/json': {
      schema: { oneOf: [ref('Verdict'), ref('BatchResults')] },
      examples: verdictExamples,
    },
  },
});

const decisionErrors = {
  '400': errorResponse('INVALID_JSON: the body is not JSON'),
  '409': {
    description:
      'ID_CONFLICT: the single message reuses an id decided before with other content (another exact hash); the body carries its first verdict. In a batch such an item is a verdict with `conflict: true`',
    content: { 'application/problem+json': { schema: ref('Conflict') } },
  },
  '413': errorResponse(
    'TOO_LARGE: the body exceeds api.bodyLimitBytes, or a batch holds more than api.maxBatchItems',
  ),
  '415': errorResponse('UNSUPPORTED_MEDIA_TYPE: the body is not application/json or application/x-ndjson'),
  '422': errorResponse(
    'INVALID_MESSAGE, MISSING_CONTENT, INVALID_BASE64, UNDECODABLE, INVALID_MAIL, EMPTY_TEXT: not a message doppel can judge (one message; a batch item gets its problem among the results)',
  ),
  '503': errorResponse('STORE_UNAVAILABLE, STORE_TIMEOUT: retry (Retry-After)'),
};

const readErrors = (bad: string) => ({
  '400': errorResponse(`BAD_REQUEST: ${bad}`),
  '404': errorResponse('NOT_FOUND: never seen, undecided or expired'),
  '503': errorResponse('STORE_UNAVAILABLE, STORE_TIMEOUT'),
});

const idParam = {
  name: 'id',
  in: 'path',
  required: true,
  description: 'Percent-encoded id (1 to 1024 characters)',
  schema: { type: 'string', minLength: 1, maxLength: 1024 },
};

export const OPENAPI = {
  openapi: '3.1.0',
  info: {
    title: 'doppel check API',
    version: '1',
    description:
      'Near-duplicate verdicts for messages, against the same index (memory or Redis) as the Kafka consumers. When the server has a token (DOPPEL_API_TOKEN or DOPPEL_API_TOKEN_FILE), every /v1 route needs it as a bearer token; /healthz, /readyz, /metrics and this document stay open.',
  },
  servers: [
    { url: '/', description: 'the server that serves this document' },
    { url: 'http://127.0.0.1:8080', description: '`doppel serve` with its defaults' },
  ],
  tags: [
    { name: 'verdicts', description: 'Judge messages: check only, or index and judge' },
    { name: 'messages', description: 'Read decided messages and why they got their verdict' },
    { name: 'stories', description: 'Live stories (clusters of two or more messages) and their members' },
    { name: 'service', description: 'Health, metrics, this document and the story desk' },
  ],
  // Optional ({} alternative): a server without a token accepts requests without one.
  security: [{ bearerAuth: [] }, {}],
  paths: {
    '/v1/check': {
      post: {
        operationId: 'check',
        tags: ['verdicts'],
        summary: 'The verdict a message (or each of a batch) would get, without indexing it',
        requestBody: messageBody,
        responses: { '200': decisionAnswer('The verdict (`indexed` is false)'), ...decisionErrors },
      },
    },
    '/v1/messages': {
      post: {
        operationId: 'indexMessage',
        tags: ['verdicts'],
        summary:
          'Index a message (or a batch) and return its verdict (a known id returns its first verdict, `replay`)',
        requestBody: messageBody,
        responses: { '200': decisionAnswer('The verdict'), ...decisionErrors },
      },
    },
    '/v1/messages/{id}': {
      get: {
        operationId: 'getMessage',
        tags: ['messages'],
        summary: "A decided message's stored verdict and its current cluster",
        parameters: [idParam],
        responses: {
          '200': json('StoredVerdict', 'The stored verdict', {
            id: 'portal-7',
            seq: 2,
            ts: '2026-11-20T08:20:00.000Z',
            verdict: 'near_duplicate',
            clusterId: 'wire-1',
            clusterIdAtDecision: 'wire-1',
            duplicateOf: 'wire-1',
            similarity: 0.82,
            method: 'minhash',
            title: 'Rates up again',
            lang: 'en',
            url: 'https://portal.example/rates',
            snippet:
              'LONDON (Wire) - The central bank raised its key interest rate by half a percentage point on Friday.',
          }),
          ...readErrors('the id is not valid'),
        },
      },
    },
    '/v1/messages/{id}/why': {
      get: {
        operationId: 'whyMessage',
        tags: ['messages'],
        summary:
          'Why a message got its verdict: beside the message it matched, shared passages of their snippets marked, the evidence in words',
        parameters: [idParam],
        responses: {
          '200': json('Why', 'The explanation'),
          ...readErrors('the id is not valid'),
        },
      },
    },
    '/v1/clusters': {
      get: {
        operationId: 'listClusters',
        tags: ['stories'],
        summary:
          'Current stories (clusters of two or more messages), newest or largest first, searched by title (q) and filtered by size and time, paged by opaque cursors',
        parameters: queryParameters(clusterListQuerySchema),
        responses: {
          '200': json('ClusterList', 'A page of stories', { items: [STORY_EXAMPLE], next: null }),
          '400': errorResponse('BAD_REQUEST: bad order, since, until, q, minSize, cursor or limit'),
          '503': errorResponse('STORE_UNAVAILABLE, STORE_TIMEOUT'),
        },
      },
    },
    '/v1/clusters/{id}': {
      get: {
        operationId: 'getCluster',
        tags: ['stories'],
        summary:
          'A story cluster: size, first and last seen, representative, title, a page of members with their verdicts',
        parameters: [idParam, ...queryParameters(pageQuerySchema)],
        responses: {
          '200': json(
            'Cluster',
            'The cluster (a merged cluster id answers with the cluster it was merged into)',
          ),
          ...readErrors('bad id, cursor or limit'),
        },
      },
    },
    '/openapi.json': {
      get: {
        operationId: 'openapi',
        tags: ['service'],
        summary: 'This document',
        responses: {
          '200': {
            description: 'OpenAPI 3.1',
            content: { 'application/json': { schema: { type: 'object' } } },
          },
        },
      },
    },
    '/': {
      get: {
        operationId: 'web',
        tags: ['service'],
        summary: 'The story desk: a web page of live stories, their members, search and explanations',
        responses: {
          '200': { description: 'HTML', content: { 'text/html': { schema: { type: 'string' } } } },
        },
      },
    },
    '/healthz': {
      get: {
        operationId: 'healthz',
        tags: ['service'],
        summary: 'Liveness',
        responses: {
          '200': { description: 'alive', content: { 'application/json': { schema: ref('Readiness') } } },
        },
      },
    },
    '/readyz': {
      get: {
        operationId: 'readyz',
        tags: ['service'],
        summary: 'Readiness: every check (store reachable, ...) passes',
        responses: { '200': json('Readiness', 'ready'), '503': json('Readiness', 'not ready') },
      },
    },
    '/metrics': {
      get: {
        operationId: 'metrics',
        tags: ['service'],
        summary: 'Prometheus metrics (docs/operations.md lists them)',
        responses: {
          '200': {
            description: 'Prometheus text format',
            content: { 'text/plain': { schema: { type: 'string' } } },
          },
        },
      },
    },
  },
  components: {
    schemas: componentSchemas(),
    securitySchemes: { bearerAuth: { type: 'http', scheme: 'bearer' } },
  },
};
