/**
 * The wire shape of one node of an operator-edited Execution Graph (see edited-plan.ts). Strict:
 * an unknown field is an error rather than something silently carried into a stored plan.
 * `estimate` is accepted (so a graph read from EXPLAIN round-trips) and then replaced by the planner's.
 */
import { z } from 'zod';

const id = z.string().regex(/^[A-Za-z0-9][A-Za-z0-9._:-]{0,79}$/, 'expected 1–80 letters, digits, ".", "_", ":" or "-"');
const name = z.string().min(1).max(80);
const positive = (max: number) => z.number().int().min(1).max(max);

const base = {
  id,
  inputs: z.array(id).max(500),
  retry: z.strictObject({ maxAttempts: positive(10), backoffMs: z.number().int().min(0).max(60_000) }).optional(),
  loop: z.strictObject({ maxIterations: positive(10), until: z.string().max(200) }).optional(),
  compensation: id.optional(),
  timeoutMs: positive(3_600_000).optional(),
  estimate: z.strictObject({ tokens: z.number().min(0), costUsd: z.number().min(0), latencySeconds: z.number().min(0), modelTokens: z.number().min(0).optional() }).optional(),
  note: z.string().max(500).optional(),
};

/** "yyyy-mm-ddThh:mm", or "mm-ddThh:mm" in a window of any year (contracts/retriever.ts TimeWindow). */
const dated = z.string().regex(/^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}$/, 'expected yyyy-mm-ddThh:mm');
const undated = z.string().regex(/^\d{2}-\d{2}T\d{2}:\d{2}$/, 'expected mm-ddThh:mm');
const timeWindow = z.union([z.strictObject({ from: dated, to: dated }), z.strictObject({ from: undated, to: undated, anyYear: z.literal(true) })]);

const SOURCE_KINDS = ['docs', 'logs', 'events', 'metrics', 'git', 'data'] as const;

export const editedNodeSchema = z.discriminatedUnion('kind', [
  z.strictObject({
    ...base,
    kind: z.literal('retrieve'),
    method: name,
    sources: z.array(name).min(1).max(100),
    sourceKinds: z.union([z.literal('all'), z.array(z.enum(SOURCE_KINDS))]),
    k: positive(200),
    perSource: z.boolean().optional(),
    focus: z.enum(['goal', 'entities']).optional(),
    queryExpansion: z.array(z.string().min(1).max(60)).max(20).optional(),
    feedback: z.strictObject({ fromNode: id, documents: positive(50), terms: positive(50), seedKinds: z.array(z.enum(SOURCE_KINDS)).optional() }).optional(),
    quotedTitlesFrom: id.optional(),
    bridgeFrom: id.optional(),
    subQuestionOf: z.strictObject({ node: id, slot: z.number().int().min(0).max(9) }).optional(),
    within: z.array(timeWindow).min(1).max(12).optional(),
    anchoredOn: id.optional(),
    lookupOnly: z.boolean().optional(),
  }),
  z.strictObject({ ...base, kind: z.literal('fuse'), strategy: z.literal('rrf'), rrfK: positive(1000), k: positive(200) }),
  z.strictObject({ ...base, kind: z.literal('rerank'), method: name, topN: positive(200) }),
  z.strictObject({ ...base, kind: z.literal('compress'), method: z.enum(['none', 'clip', 'dedup_clip', 'sentence_select']) }),
  z.strictObject({ ...base, kind: z.literal('assemble'), tokenBudget: positive(2_000_000), finalK: positive(200), coverSources: z.boolean().optional(), coverKinds: z.array(z.enum(SOURCE_KINDS)).max(SOURCE_KINDS.length).optional() }),
  z.strictObject({
    ...base,
    kind: z.literal('reason'),
    strategy: z.enum(['single_shot', 'plan_worker_critic', 'decomposition', 'debate', 'tool_loop']),
    tier: name,
    localOnly: z.boolean(),
    requireCitations: z.boolean(),
    maxOutputTokens: positive(32_000),
    purpose: z.enum(['answer', 'bridge', 'decompose', 'worker', 'critic', 'solver']).optional(),
    slot: z.number().int().min(0).max(9).optional(),
  }),
  z.strictObject({ ...base, kind: z.literal('verify'), method: z.enum(['none', 'citation', 'citation_grounded', 'output_schema', 'llm_judge']), tier: name.optional(), localOnly: z.boolean().optional(), required: z.boolean().optional() }),
  z.strictObject({ ...base, kind: z.literal('approve'), reason: z.string().min(1).max(500), approverRole: name }),
  z.strictObject({ ...base, kind: z.literal('branch'), condition: z.string().min(1).max(200), whenTrue: z.array(id), whenFalse: z.array(id) }),
  z.strictObject({ ...base, kind: z.literal('merge') }),
]);

export type EditedNode = z.infer<typeof editedNodeSchema>;
