/**
 * The HTTP API v1's shapes, in zod: the route handlers parse requests with them and the OpenAPI
 * document (openapi-document.ts) is generated from the same objects, so the two cannot drift.
 * Constraints and weights stay loose records here, as over tRPC: the runtime validates them and
 * names the offending field ("constraints.max_cost_usd: …").
 */
import { z } from 'zod';

/** Mirrors MAX_CONTEXT_TOKEN_BUDGET of the runtime (facade/context-for-goal.ts); the runtime checks it again. */
const MAX_TOKEN_BUDGET = 200_000;

export const goalRequest = z.strictObject({
  goal: z.string().describe('What to find out or do, in plain language.'),
  sources: z.array(z.string()).optional().describe('Source names to draw from; omitted = every source the key may read.'),
  constraints: z.record(z.string(), z.unknown()).optional().describe('Plan constraints, e.g. {"max_cost_usd": 0.01, "max_latency_seconds": 5}.'),
  weights: z.record(z.string(), z.unknown()).optional().describe('PlanScore weight overrides.'),
  output_schema: z.record(z.string(), z.unknown()).optional().describe('A JSON Schema (as zod toJSONSchema writes it) the answer must match: checked by verification, asked of a model tier as structured output.'),
});

export const runSubmitRequest = goalRequest.extend({
  wait: z.boolean().optional().describe('true: answer when the run has ended (200, the whole result); false or omitted: answer at once with the run id (202).'),
});

export const explainRequest = goalRequest.extend({
  analyze: z.boolean().optional().describe('EXPLAIN ANALYZE: run the plan and overlay actuals per node.'),
});

export const buildContextRequest = goalRequest.extend({
  tokenBudget: z.number().int().min(1).max(MAX_TOKEN_BUDGET).optional().describe("Tokens the passages may fill; omitted = the plan's own budget."),
});

export const runIdParameter = z.string().min(1).max(200);

export const errorResponse = z.object({
  error: z.object({
    code: z.string().describe('INVALID_INPUT, UNKNOWN_SOURCE, UNAUTHORIZED, FORBIDDEN, NOT_FOUND, CONFLICT, NO_FEASIBLE_PLAN, RATE_LIMITED, PAYLOAD_TOO_LARGE, INTERNAL, …'),
    message: z.string(),
    field: z.string().nullable().describe('The request field at fault, when there is one.'),
  }),
});

const runStatus = z.enum(['running', 'awaiting_approval', 'completed', 'unverified', 'rejected', 'failed', 'cancelled']);

export const runAccepted = z.object({ runId: z.string(), status: runStatus, events: z.string().describe('Where to follow its progress (server-sent events).') });

export const rejectedSource = z.object({
  source: z.string(),
  reason: z.string().describe('not_permitted (the key may not read it), not_selected, stale, sensitive, over_budget, capability_missing'),
  detail: z.string(),
});

const citation = z.looseObject({ ref: z.number(), chunkId: z.string(), sourceName: z.string(), locator: z.string().optional(), quote: z.string().optional() });

export const runResult = z.looseObject({
  runId: z.string(),
  status: runStatus,
  answer: z.string().optional(),
  citations: z.array(citation),
  caveats: z.array(z.string()),
  pendingApproval: z.object({ nodeId: z.string(), reason: z.string() }).optional(),
  error: z.string().optional(),
  explain: z.looseObject({ planHash: z.string(), rejectedSources: z.array(rejectedSource) }).describe('The plan the run executed (as POST /api/v1/explain returns it).'),
});

export const explainResult = z.looseObject({ goal: z.string(), planHash: z.string(), selectedSources: z.array(z.string()), rejectedSources: z.array(rejectedSource), graph: z.looseObject({ nodes: z.array(z.looseObject({ id: z.string(), kind: z.string() })) }) });

export const simulateResult = z.looseObject({ goal: z.string(), planHash: z.string(), expectedModels: z.array(z.string()), basedOnSamples: z.number() });

export const contextPassage = z.object({
  ref: z.number().int().describe('The number a model cites it by: [1], [2], …'),
  chunkId: z.string(),
  sourceName: z.string(),
  sourceKind: z.string(),
  sourceVersionId: z.string(),
  title: z.string(),
  locator: z.string().nullable(),
  text: z.string(),
  tokens: z.number().int(),
  compressed: z.boolean(),
  score: z.number(),
  method: z.string(),
});

export const builtContext = z.looseObject({
  goal: z.string(),
  planHash: z.string(),
  tokenBudget: z.number().int(),
  tokens: z.number().int(),
  passages: z.array(contextPassage).describe('Ranked, packed within the token budget.'),
  selectedSources: z.array(z.string()),
  rejectedSources: z.array(rejectedSource).describe('Sources the plan left out, and why: a named source the key may not read is here as not_permitted.'),
});

export const runEvent = z.looseObject({ type: z.enum(['progress', 'result', 'error']) }).describe('One server-sent event\'s data: {"type":"progress","event":{…}}, then {"type":"result","result":{…}} (or {"type":"error","error":{…}}).');
