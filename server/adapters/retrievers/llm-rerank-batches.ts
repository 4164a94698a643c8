import type { ModelPlugin } from '../../runtime/contracts/model';
import { callFailure } from '../models/call-failure';
import { type CallAdmission, MESSAGE_OVERHEAD_TOKENS } from '../../runtime/contracts/router';
import { containsSensitive, redactSensitive, type SensitiveContentMode } from '../../runtime/policy/sensitive-content-detector';
import type { Hit } from '../../runtime/types';
import { OUTPUT_TOKENS_PER_BATCH, OUTPUT_TOKENS_PER_GRADE, parseGrades, type RerankCandidate, rerankMessages } from './llm-rerank-prompt';

export interface GradedHead {
  /** Grade per index into the head. */
  readonly grades: ReadonlyMap<number, number>;
  /** Candidates not sent (sensitive sources, or passages holding personal data or secrets for a non-local model). */
  readonly withheld: number;
  readonly failures: readonly string[];
  readonly inputTokens: number;
  readonly outputTokens: number;
  readonly costUsd: number;
  /** Wall time of the slowest batch. */
  readonly latencyMs: number;
  /** Mean prompt tokens of one sent passage (0 when none was sent). */
  readonly sentTokens: number;
}

export interface GradingOptions {
  readonly batchSize: number;
  readonly maxPassageTokens: number;
  readonly timeoutMs: number;
  readonly sensitiveSources: readonly string[];
  /** A passage holding personal data or secrets, for a non-local model: withheld (local_only) or sent redacted (redact). */
  readonly sensitiveContent: SensitiveContentMode;
  /** The node timed out or the run was cancelled: every batch's call is aborted. */
  readonly signal?: AbortSignal;
  /** The run's budget, asked before each batch's call: a refused batch stays ungraded, as a failed one does. */
  readonly admit?: CallAdmission;
}

/**
 * What of a hit may go to the model: all of it when local; else without its sensitive spans, or
 * nothing. Sensitive = marked at ingest (chunks.sensitive), or found by a scan (a hit not from the store).
 */
function outgoing(hit: Hit, local: boolean, mode: SensitiveContentMode): Hit | undefined {
  if (local || (hit.sensitive !== true && !containsSensitive(`${hit.title}\n${hit.text}`))) return hit;
  return mode === 'redact' ? { ...hit, title: redactSensitive(hit.title), text: redactSensitive(hit.text) } : undefined;
}

/** The passage cut to about `maxTokens` (by the token/character ratio: one count, no search). */
function clip(text: string, maxTokens: number, countTokens: (text: string) => number): { text: string; tokens: number } {
  const tokens = countTokens(text);
  if (tokens <= maxTokens) return { text, tokens };
  const cut = text.slice(0, Math.floor((text.length * maxTokens) / tokens));
  return { text: `${cut.replace(/\s+\S*$/u, '')} …`, tokens: maxTokens };
}

/**
 * Grades the head in parallel batches. Every failure (transport, timeout, unparsable reply) is
 * caught per batch and reported in `failures`: the batch's candidates stay ungraded.
 */
export async function gradeBatches(model: ModelPlugin, query: string, head: readonly Hit[], options: GradingOptions): Promise<GradedHead> {
  const sensitive = new Set(options.sensitiveSources);
  const capabilities = model.capabilities();
  const local = capabilities.local;
  const eligible = head.flatMap((original, index) => {
    const hit = sensitive.has(original.sourceName) && !local ? undefined : outgoing(original, local, options.sensitiveContent);
    return hit ? [{ hit, index }] : [];
  });
  const withheld = head.length - eligible.length;
  const empty = { grades: new Map<number, number>(), withheld, failures: [], inputTokens: 0, outputTokens: 0, costUsd: 0, latencyMs: 0, sentTokens: 0 };
  // One candidate has nothing to be ranked against; spend nothing on it.
  if (eligible.length < 2) return empty;
  const countTokens = (text: string) => model.countTokens(text);
  const clipped = eligible.map(({ hit, index }) => ({ index, title: hit.title, ...clip(hit.text, options.maxPassageTokens, countTokens) }));
  const batches: (typeof clipped)[] = [];
  for (let start = 0; start < clipped.length; start += options.batchSize) batches.push(clipped.slice(start, start + options.batchSize));

  const results = await Promise.all(
    batches.map(async (batch, batchNumber) => {
      const candidates: RerankCandidate[] = batch.map((entry, position) => ({ id: position + 1, title: entry.title, text: entry.text }));
      let ended: ReturnType<CallAdmission> | undefined;
      try {
        const messages = rerankMessages(query, candidates);
        const maxOutputTokens = Math.min(OUTPUT_TOKENS_PER_BATCH + OUTPUT_TOKENS_PER_GRADE * batch.length, capabilities.maxOutputTokens);
        // Inside the try: a refusal fails this batch only (its candidates keep their order), the run goes on.
        ended = options.admit?.({ tier: model.tier, prices: capabilities, promptTokens: countTokens(messages.map((message) => message.content).join('\n')) + messages.length * MESSAGE_OVERHEAD_TOKENS, maxOutputTokens });
        let result;
        try {
          result = await model.complete({ messages, maxOutputTokens, timeoutMs: options.timeoutMs, ...(options.signal ? { signal: options.signal } : {}) });
        } catch (error) {
          ended?.({ failed: callFailure(error, options.signal) });
          throw error;
        }
        ended?.({ usage: result.usage, costUsd: result.costUsd });
        const spend = { inputTokens: result.usage.inputTokens, outputTokens: result.usage.outputTokens, costUsd: result.costUsd, latencyMs: result.latencyMs };
        try {
          const grades = parseGrades(result.text, candidates.map((candidate) => candidate.id));
          const missing = batch.length - grades.size;
          const failure = missing > 0 ? `batch ${batchNumber + 1}: ${missing} of ${batch.length} passages got no valid grade` : undefined;
          return { ...spend, grades: [...grades].map(([id, grade]) => [batch[id - 1].index, grade] as const), failure };
        } catch (error) {
          return { ...spend, grades: [], failure: `batch ${batchNumber + 1}: unusable reply (${(error as Error).message})` };
        }
      } catch (error) {
        return { inputTokens: 0, outputTokens: 0, costUsd: 0, latencyMs: 0, grades: [], failure: `batch ${batchNumber + 1}: ${error instanceof Error ? error.message : String(error)}` };
      }
    }),
  );
  return Object.freeze({
    grades: new Map(results.flatMap((result) => result.grades)),
    withheld,
    failures: results.flatMap((result) => (result.failure ? [result.failure] : [])),
    inputTokens: results.reduce((sum, result) => sum + result.inputTokens, 0),
    outputTokens: results.reduce((sum, result) => sum + result.outputTokens, 0),
    costUsd: results.reduce((sum, result) => sum + result.costUsd, 0),
    latencyMs: Math.max(0, ...results.map((result) => result.latencyMs)),
    sentTokens: clipped.reduce((sum, entry) => sum + entry.tokens, 0) / clipped.length,
  });
}
