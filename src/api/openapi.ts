import { ERROR_CODES } from '../errors.js';

/**
 * The OpenAPI 3.1 document served at /openapi.json. Written by hand next to the routes
 * (src/api/server.ts); test/api/api.test.ts checks that every route is in it and that the
 * documented error codes are real ones.
 */
const ref = (name: string) => ({ $ref: `#/components/schemas/${name}` });
const errorResponse = (description: string) => ({
  description,
  content: { 'application/json': { schema: ref('Error') } },
});
const json = (schema: unknown, description: string) => ({
  description,
  content: { 'application/json': { schema } },
});

const messageBody = {
  required: true,
  description:
    'One message, as a line of `doppel dedup` input (docs/formats.md). Unknown fields are ignored.',
  content: { 'application/json': { schema: ref('Message') } },
};

const decisionErrors = {
  '400': errorResponse('INVALID_JSON: the body is not JSON'),
  '413': errorResponse('TOO_LARGE: the body exceeds api.bodyLimitBytes'),
  '415': errorResponse('UNSUPPORTED_MEDIA_TYPE: the body is not application/json'),
  '422': errorResponse(
    'INVALID_MESSAGE, MISSING_CONTENT, INVALID_BASE64, UNDECODABLE, INVALID_MAIL, EMPTY_TEXT: not a message doppel can judge',
  ),
  '503': errorResponse('STORE_UNAVAILABLE, STORE_TIMEOUT: retry (Retry-After)'),
};

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
      'Near-duplicate verdicts for messages, against the same index (memory or Redis) as the Kafka consumers.',
  },
  paths: {
    '/v1/check': {
      post: {
        operationId: 'check',
        summary: 'The verdict a message would get, without indexing it',
        requestBody: messageBody,
        responses: { '200': json(ref('Verdict'), 'The verdict (`indexed` is false)'), ...decisionErrors },
      },
    },
    '/v1/messages': {
      post: {
        operationId: 'indexMessage',
        summary: 'Index a message and return its verdict (a known id returns its first verdict, `replay`)',
        requestBody: messageBody,
        responses: { '200': json(ref('Verdict'), 'The verdict'), ...decisionErrors },
      },
    },
    '/v1/messages/{id}': {
      get: {
        operationId: 'getMessage',
        summary: "A decided message's stored verdict and its current cluster",
        parameters: [idParam],
        responses: {
          '200': json(ref('StoredVerdict'), 'The stored verdict'),
          '400': errorResponse('BAD_REQUEST: the id is not valid'),
          '404': errorResponse('NOT_FOUND: never seen, undecided or expired'),
          '503': errorResponse('STORE_UNAVAILABLE, STORE_TIMEOUT'),
        },
      },
    },
    '/v1/clusters/{id}': {
      get: {
        operationId: 'getCluster',
        summary: 'A story cluster: size, first and last seen, representative, a page of members',
        parameters: [
          idParam,
          {
            name: 'cursor',
            in: 'query',
            schema: { type: 'integer', minimum: 0 },
            description: '`next` of the previous page',
          },
          {
            name: 'limit',
            in: 'query',
            schema: { type: 'integer', minimum: 1 },
            description: 'at most api.maxPageSize; default 50',
          },
        ],
        responses: {
          '200': json(
            ref('Cluster'),
            'The cluster (a merged cluster id answers with the cluster it was merged into)',
          ),
          '400': errorResponse('BAD_REQUEST: bad id, cursor or limit'),
          '404': errorResponse('NOT_FOUND: unknown or expired'),
          '503': errorResponse('STORE_UNAVAILABLE, STORE_TIMEOUT'),
        },
      },
    },
    '/openapi.json': {
      get: {
        operationId: 'openapi',
        summary: 'This document',
        responses: { '200': json({ type: 'object' }, 'OpenAPI 3.1') },
      },
    },
    '/healthz': {
      get: {
        operationId: 'healthz',
        summary: 'Liveness',
        responses: { '200': json({ type: 'object' }, 'alive') },
      },
    },
    '/readyz': {
      get: {
        operationId: 'readyz',
        summary: 'Readiness: every check (store reachable, ...) passes',
        responses: {
          '200': json(ref('Readiness'), 'ready'),
          '503': json(ref('Readiness'), 'not ready'),
        },
      },
    },
    '/metrics': {
      get: {
        operationId: 'metrics',
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
    schemas: {
      Message: {
        type: 'object',
        required: ['id'],
        properties: {
          id: { oneOf: [{ type: 'string', minLength: 1, maxLength: 1024 }, { type: 'number' }] },
          text: { type: 'string' },
          title: { type: 'string' },
          html: { type: 'string' },
          raw: {
            type: 'string',
            description: 'base64 bytes: legacy-encoded text, an HTML page or an RFC 822 mail',
          },
          lang: { type: 'string', maxLength: 35 },
          ts: {
            oneOf: [{ type: 'string', format: 'date-time' }, { type: 'number' }],
            description: 'event time; default: now',
          },
        },
        additionalProperties: true,
      },
      Evidence: {
        type: 'object',
        properties: {
          exact: { type: 'boolean' },
          hamming: { type: ['integer', 'null'] },
          jaccard: { type: ['number', 'null'] },
          imatch: { type: 'boolean' },
          lexical: { type: 'integer' },
          cosine: { type: ['number', 'null'] },
        },
      },
      Verdict: {
        type: 'object',
        required: ['id', 'verdict', 'clusterId', 'candidates', 'indexed'],
        properties: {
          id: { type: 'string' },
          verdict: { enum: ['unique', 'duplicate', 'near_duplicate'] },
          clusterId: {
            type: 'string',
            description: 'the cluster joined (for /v1/check: would join; its own id: would start one)',
          },
          duplicateOf: { type: 'string', description: 'the earliest matching message' },
          similarity: { type: 'number' },
          method: { type: 'string' },
          evidence: ref('Evidence'),
          replay: { type: 'boolean', description: 'the id was decided before: its first verdict' },
          candidates: { type: 'integer' },
          indexed: { type: 'boolean' },
        },
      },
      StoredVerdict: {
        type: 'object',
        required: ['id', 'seq', 'ts', 'verdict', 'clusterId'],
        properties: {
          id: { type: 'string' },
          seq: { type: 'integer' },
          ts: { type: 'integer', description: 'event time, epoch ms' },
          verdict: { enum: ['unique', 'duplicate', 'near_duplicate'] },
          clusterId: { type: 'string', description: 'current cluster (after merges)' },
          clusterIdAtDecision: { type: 'string' },
          duplicateOf: { type: 'string' },
          similarity: { type: 'number' },
          method: { type: 'string' },
        },
      },
      Cluster: {
        type: 'object',
        required: ['id', 'size', 'firstSeen', 'lastSeen', 'representative', 'members'],
        properties: {
          id: { type: 'string' },
          size: { type: 'integer' },
          firstSeen: { type: 'integer', description: 'epoch ms' },
          lastSeen: { type: 'integer', description: 'epoch ms' },
          representative: { type: 'string' },
          members: {
            description: 'null when the store keeps no member lists (the Redis store)',
            oneOf: [
              {
                type: 'object',
                required: ['items', 'next', 'total'],
                properties: {
                  items: { type: 'array', items: { type: 'string' } },
                  next: { type: ['integer', 'null'] },
                  total: { type: 'integer' },
                },
              },
              { type: 'null' },
            ],
          },
        },
      },
      Readiness: {
        type: 'object',
        properties: {
          status: { type: 'string' },
          checks: { type: 'object', additionalProperties: { type: 'string' } },
        },
      },
      Error: {
        type: 'object',
        required: ['error'],
        properties: {
          error: {
            type: 'object',
            required: ['code', 'message'],
            properties: { code: { enum: Object.keys(ERROR_CODES) }, message: { type: 'string' } },
          },
        },
      },
    },
  },
} as const;
