/**
 * Why a lookup missed: the stored plan closest to being served and every key part that kept it
 * from being served. "Closest" = fewest differing parts, then the most similar intent, so a plan
 * for the same question under another budget beats a merely similar question under this one.
 */
import type { PlanCacheKey, PlanCacheMissReason, PlanCacheNearMiss, PlanCacheRecord } from '../contracts/plan-cache';
import type { IntentMatcher, PreparedIntent } from './intent-matcher';
import { differingParts } from './plan-cache-key';

export interface Candidate {
  readonly record: PlanCacheRecord;
  readonly prepared: PreparedIntent;
}

/** Below this intent similarity a stored plan is simply another question, not a near miss. */
export const NEAR_MISS_FLOOR = 0.6;

export function diagnoseMiss(key: PlanCacheKey, prepared: PreparedIntent, matcher: IntentMatcher, now: Date, candidates: readonly Candidate[]): PlanCacheNearMiss | undefined {
  let best: { candidate: Candidate; differs: PlanCacheMissReason[]; similarity: number; termCoverage: number } | undefined;
  for (const candidate of candidates) {
    if (matcher.similarity(prepared, candidate.prepared) < NEAR_MISS_FLOOR) continue;
    const match = matcher.match(prepared, candidate.prepared);
    const differs: PlanCacheMissReason[] = [];
    if (candidate.record.retiredAt) differs.push('invalidated');
    else if (candidate.record.expiresAt && candidate.record.expiresAt <= now) differs.push('expired');
    if (candidate.record.embedderId !== matcher.embedderId) differs.push('embedder');
    differs.push(...differingParts(key, candidate.record.key));
    if (!match.matched) differs.push('intent');
    if (differs.length === 0) continue;
    const better = !best || differs.length < best.differs.length || (differs.length === best.differs.length && match.similarity > best.similarity);
    if (better) best = { candidate, differs, similarity: match.similarity, termCoverage: match.termCoverage };
  }
  if (!best) return undefined;
  const { record } = best.candidate;
  return Object.freeze({
    intent: record.key.intent,
    similarity: round(best.similarity),
    threshold: matcher.settings.threshold,
    termCoverage: round(best.termCoverage),
    differs: Object.freeze(best.differs),
    ...(record.retiredReason ? { invalidatedReason: record.retiredReason } : {}),
    createdAt: record.createdAt.toISOString(),
  });
}

const round = (value: number): number => Math.round(value * 1000) / 1000;
