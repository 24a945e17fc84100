import { z } from 'zod';
import { ERROR_CODES, type ErrorCode } from '../errors.js';
import { messageSchema } from '../input/message.js';

/**
 * The HTTP API's bodies as zod schemas: the OpenAPI document (openapi.ts) is generated from them,
 * and the tests parse real responses with them, so the document cannot drift from what is served.
 */

const verdictKind = z.enum(['unique', 'duplicate', 'near_duplicate']);

export const evidenceSchema = z.object({
  exact: z.boolean(),
  hamming: z.number().int().nullable(),
  jaccard: z.number().nullable(),
  imatch: z.boolean(),
  lexical: z.number().int(),
  cosine: z.number().nullable(),
  containment: z
    .number()
    .optional()
    .describe('share of the smaller shingle set inside the larger (absent for records without counts)'),
});

export const verdictSchema = z.object({
  id: z.string(),
  verdict: verdictKind,
  clusterId: z
    .string()
    .describe('the cluster joined (for /v1/check: would join; its own id: would start one)'),
  duplicateOf: z.string().optional().describe('the earliest matching message'),
  similarity: z.number().optional(),
  method: z.string().optional(),
  evidence: evidenceSchema.optional(),
  replay: z.boolean().optional().describe('the id was decided before: its first verdict'),
  candidates: z.number().int(),
  indexed: z.boolean(),
});

const storedVerdictShape = {
  id: z.string(),
  seq: z.number().int(),
  ts: z.number().describe('event time, epoch ms'),
  verdict: verdictKind,
  clusterId: z.string(),
  duplicateOf: z.string().optional(),
  similarity: z.number().optional(),
  method: z.string().optional(),
};

export const storedVerdictSchema = z.object({
  ...storedVerdictShape,
  clusterId: z.string().describe('current cluster (after merges)'),
  clusterIdAtDecision: z.string(),
});

export const clusterMemberSchema = z.object({
  ...storedVerdictShape,
  clusterId: z.string().describe('the cluster at decision time'),
  title: z.string().optional(),
});

const clusterShape = {
  id: z.string(),
  size: z.number().int().describe('every message that joined, including those that left the window'),
  firstSeen: z.number().describe('epoch ms'),
  lastSeen: z.number().describe('epoch ms'),
  representative: z.string().describe('the first message'),
  title: z.string().nullable().describe("the representative's title (at most 160 characters)"),
};

export const clusterSummarySchema = z.object(clusterShape);

export const clusterSchema = z.object({
  ...clusterShape,
  members: z
    .object({
      items: z.array(z.string()).describe('member ids in sequence (arrival) order'),
      members: z.array(clusterMemberSchema).describe('the same members with their verdicts and titles'),
      next: z.number().int().nullable().describe('cursor of the next page; null on the last'),
      total: z.number().int().describe('members still in the window'),
    })
    .describe('a page of the members still in the window'),
});

export const clusterListSchema = z.object({
  items: z.array(clusterSummarySchema),
  next: z.number().int().nullable().describe('cursor of the next page; null on the last'),
});

export const readinessSchema = z.object({
  status: z.string(),
  checks: z.record(z.string(), z.string()).optional(),
});

const errorCode = z.enum(Object.keys(ERROR_CODES) as [ErrorCode, ...ErrorCode[]]);

/** RFC 9457 problem details; `code` and `error` are extension members (src/telemetry/http.ts). */
export const errorSchema = z
  .object({
    type: z.string().meta({
      description: 'urn:doppel:problem:<code in kebab case>',
      example: 'urn:doppel:problem:empty-text',
    }),
    title: z
      .string()
      .meta({ description: 'What the error code means', example: 'no words left after canonicalization' }),
    status: z.number().int().meta({ description: 'The HTTP status', example: 422 }),
    detail: z
      .string()
      .meta({ description: 'This occurrence', example: 'no words left after canonicalization' }),
    code: errorCode,
    error: z.object({ code: errorCode, message: z.string() }),
    requestId: z.string().optional().meta({
      description:
        'On a 5xx answer only: the id the server logged the error and its stack under (also the x-request-id header); the detail is then a generic message',
    }),
  })
  .meta({ description: 'An error, as RFC 9457 problem details (application/problem+json)' });

/** Query strings hold text: a non-negative integer in decimal. */
const count = (min: number) =>
  z
    .string()
    .regex(/^\d{1,15}$/, 'a non-negative integer')
    .transform(Number)
    .refine((n) => n >= min, `at least ${min}`);

export const pageQuerySchema = z.object({
  cursor: count(0).optional().describe('`next` of the previous page'),
  limit: count(1).optional().describe('at most api.maxPageSize; default 50 (or api.maxPageSize if lower)'),
});

export const clusterListQuerySchema = z.object({
  order: z
    .enum(['size', 'recent'])
    .optional()
    .describe('recent (default): last seen first; size: largest first. Ties: newest first'),
  since: count(0).optional().describe('only stories last seen at or after this time (epoch ms); default 0'),
  ...pageQuerySchema.shape,
});

/** Every component of the document, by name: openapi.ts references them as #/components/schemas/<name>. */
export const COMPONENTS = {
  Message: messageSchema,
  Evidence: evidenceSchema,
  Verdict: verdictSchema,
  StoredVerdict: storedVerdictSchema,
  ClusterMember: clusterMemberSchema,
  ClusterSummary: clusterSummarySchema,
  Cluster: clusterSchema,
  ClusterList: clusterListSchema,
  Readiness: readinessSchema,
  Error: errorSchema,
} as const;

export type ComponentName = keyof typeof COMPONENTS;
