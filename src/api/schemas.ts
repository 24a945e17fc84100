import { z } from 'zod';
import { ERROR_CODES, type ErrorCode } from '../errors.js';
import { messageSchema } from '../input/message-schema.js';

/**
 * The HTTP API's bodies as zod schemas: the OpenAPI document (openapi.ts) is generated from them,
 * and the tests parse real responses with them, so the document cannot drift from what is served.
 */

const verdictKind = z.enum(['unique', 'duplicate', 'near_duplicate']);

/** A time in an answer: RFC 3339 in UTC (api/times.ts), e.g. 2026-11-20T08:00:00.000Z. */
const dateTime = (description: string) =>
  z.iso.datetime().meta({ description, example: '2026-11-20T08:00:00.000Z' });

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
  contained: z
    .number()
    .optional()
    .describe(
      "share of the smaller side's fingerprinted sentence tokens in sentences both sides have, or (when higher) of a teaser-sized side's lead-passage tokens in passages both leads have (absent without sentence fingerprints)",
    ),
  containedSentences: z
    .number()
    .int()
    .optional()
    .describe('sentences (or lead passages) both sides have, of the measure that gave contained'),
  containedTokens: z
    .number()
    .int()
    .optional()
    .describe('tokens of the sentences (or lead passages) both sides have'),
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
  replay: z
    .boolean()
    .optional()
    .describe('the id was decided before (also by another process at the same moment): its first verdict'),
  conflict: z
    .boolean()
    .optional()
    .describe(
      'with replay: the id came back with other content (another exact hash) than first decided; the verdict is the first one',
    ),
  eventTimeClamped: z
    .literal(true)
    .optional()
    .describe('the time was past the clock plus window.maxFutureSkewMs: judged and stored as that bound'),
  warning: z
    .object({ code: z.literal('MAIL_TRUNCATED'), message: z.string(), parts: z.number().int() })
    .optional()
    .describe(
      'judged on part of its text: a mail of more than 1,000 MIME parts (`parts` text parts not read)',
    ),
  candidates: z.number().int(),
  indexed: z.boolean().describe('this request indexed the message (false for a replay and for /v1/check)'),
});

const storedVerdictShape = {
  id: z.string(),
  seq: z.number().int(),
  ts: dateTime('event time (RFC 3339, UTC)'),
  verdict: verdictKind,
  clusterId: z.string(),
  duplicateOf: z.string().optional(),
  similarity: z.number().optional(),
  method: z.string().optional(),
  title: z.string().optional().describe('the title or subject (at most 160 characters)'),
  lang: z.string().optional().describe('the language the text was read as'),
  url: z.string().optional().describe("the input's `url`, kept when it is an absolute http(s) URL"),
  snippet: z
    .string()
    .optional()
    .describe('the opening of the decoded text: at most 200 characters, whitespace made single spaces'),
  // Against duplicateOf (or `via` for a story join), as POST answered it. Not described here: a
  // description would turn the component reference into a copy of it.
  evidence: evidenceSchema.optional(),
  via: z
    .string()
    .optional()
    .describe('for a message joined to a story by the story rule (method story:...): the member it matched'),
};

export const storedVerdictSchema = z.object({
  ...storedVerdictShape,
  clusterId: z.string().describe('current cluster (after merges)'),
  clusterIdAtDecision: z.string(),
});

export const clusterMemberSchema = z.object({
  ...storedVerdictShape,
  clusterId: z.string().describe('the cluster at decision time'),
});

const clusterShape = {
  id: z.string(),
  size: z.number().int().describe('every message that joined, including those that left the window'),
  firstSeen: dateTime('event time of its first message (RFC 3339, UTC)'),
  lastSeen: dateTime('event time of its latest message (RFC 3339, UTC)'),
  representative: z.string().describe('the first message'),
  title: z.string().nullable().describe("the representative's title (at most 160 characters)"),
};

export const clusterSummarySchema = z.object(clusterShape);

const cursorOut = z
  .string()
  .nullable()
  .describe('opaque cursor of the next page (pass it as `cursor`); null on the last');

export const clusterSchema = z.object({
  ...clusterShape,
  members: z
    .object({
      members: z.array(clusterMemberSchema).describe('members in sequence (arrival) order'),
      next: cursorOut,
      total: z.number().int().describe('members still in the window'),
    })
    .describe('a page of the members still in the window'),
});

export const clusterListSchema = z.object({
  items: z.array(clusterSummarySchema),
  next: cursorOut.describe(
    'opaque cursor of the next page, null when no story follows. With filters (q, minSize, until) a page may hold fewer than `limit` stories and still have a next one: at most 5,000 stories are looked at per request',
  ),
});

const passageSchema = z.object({
  text: z.string(),
  match: z.boolean().describe('the passage is also in the other text (a run of three or more shared words)'),
});

const whySideSchema = z.object({
  id: z.string(),
  title: z.string().optional(),
  url: z.string().optional(),
  lang: z.string().optional(),
  ts: dateTime('event time (RFC 3339, UTC)'),
  verdict: verdictKind,
  passages: z
    .array(passageSchema)
    .describe(
      'the snippet (the opening of the text) cut into passages, those shared with the other side marked',
    ),
});

export const whySchema = z.object({
  id: z.string(),
  verdict: verdictKind,
  relation: z
    .enum(['duplicate', 'near_duplicate', 'story', 'own_story', 'unique'])
    .describe(
      'duplicate / near_duplicate: of `other`; story: joined the story of `other` by the story rule; own_story: started its story; unique: joined another story by no rule of its own (merged)',
    ),
  summary: z.string().describe('one sentence: what the verdict means'),
  reasons: z.array(z.string()).describe('the evidence in words, strongest first'),
  evidence: evidenceSchema.nullable(),
  similarity: z.number().nullable(),
  method: z.string().nullable(),
  story: clusterSummarySchema.nullable().describe('the story the message is in now'),
  message: whySideSchema,
  other: whySideSchema
    .nullable()
    .describe('the message it was matched with (duplicateOf or via); null for none or expired'),
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

/**
 * Query strings hold text: a non-negative integer in decimal. `queryType` is the parameter's
 * schema in the OpenAPI document (openapi.ts): what a client sends, an integer, rather than the
 * text the server parses, so generated clients take a number.
 */
const count = (min: number) =>
  z
    .string()
    .regex(/^\d{1,15}$/, 'a non-negative integer')
    .transform(Number)
    .refine((n) => n >= min, `at least ${min}`)
    .meta({ queryType: { type: 'integer', minimum: min, maximum: 999_999_999_999_999 } });

/** A time in a query: epoch milliseconds, or an RFC 3339 date-time. */
const time = z
  .string()
  .refine((s) => /^\d{1,15}$/.test(s) || (/^\d{4}-\d{2}-\d{2}T/.test(s) && Number.isFinite(Date.parse(s))), {
    message: 'epoch milliseconds or an RFC 3339 date-time',
  })
  .transform((s) => (/^\d+$/.test(s) ? Number(s) : Date.parse(s)))
  .meta({
    queryType: {
      oneOf: [
        { type: 'string', format: 'date-time', example: '2026-11-20T09:00:00Z' },
        { type: 'integer', minimum: 0, description: 'epoch milliseconds' },
      ],
    },
  });

export const pageQuerySchema = z.object({
  cursor: z.string().max(200).optional().describe('`next` of the previous page, as it was given'),
  limit: count(1).optional().describe('at most api.maxPageSize; default 50 (or api.maxPageSize if lower)'),
});

export const clusterListQuerySchema = z.object({
  order: z
    .enum(['size', 'recent'])
    .optional()
    .describe('recent (default): last seen first; size: largest first. Ties: newest first'),
  since: time
    .optional()
    .describe('only stories last seen at or after this time (epoch ms or RFC 3339); default: all'),
  until: time.optional().describe('only stories last seen before this time (epoch ms or RFC 3339)'),
  q: z
    .string()
    .max(200)
    .optional()
    .describe('only stories whose title holds every word of q (case and accents ignored), or whose id is q'),
  minSize: count(2).optional().describe('only stories of at least this many messages'),
  ...pageQuerySchema.shape,
});

/** 409 to a single message: its id was decided before with other content. */
export const conflictSchema = z
  .object({
    ...errorSchema.shape,
    // The id's first verdict (replay and conflict set). Not described: a description would turn
    // the component reference into a copy of it.
    verdict: verdictSchema,
  })
  .meta({ description: 'ID_CONFLICT problem details with the first verdict of the id' });

/** A batch item that could not be judged: its problem details, and its id when it had one. */
export const itemProblemSchema = z
  .object({
    ...errorSchema.shape,
    id: z.string().optional().describe("the item's id, when it had a usable one"),
  })
  .meta({ description: 'A batch item doppel could not judge, as RFC 9457 problem details' });

export const batchResultsSchema = z
  .object({
    results: z
      .array(z.union([verdictSchema, itemProblemSchema]))
      .describe('one per item, in input order: its verdict, or its problem (`code`, `status`, ...)'),
  })
  .meta({
    description: 'The answer to a batch: one result per item',
    example: {
      results: [
        {
          id: 'wire-1',
          verdict: 'unique',
          clusterId: 'wire-1',
          candidates: 0,
          indexed: true,
        },
        {
          type: 'urn:doppel:problem:missing-content',
          title: 'message has no text, html or raw content',
          status: 422,
          detail: 'message has no text, html or raw content',
          code: 'MISSING_CONTENT',
          error: { code: 'MISSING_CONTENT', message: 'message has no text, html or raw content' },
          id: 'wire-2',
        },
      ],
    },
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
  Why: whySchema,
  Readiness: readinessSchema,
  Error: errorSchema,
  ItemProblem: itemProblemSchema,
  Conflict: conflictSchema,
  BatchResults: batchResultsSchema,
} as const;

export type ComponentName = keyof typeof COMPONENTS;
