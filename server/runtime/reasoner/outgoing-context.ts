import type { ReasonRequest } from '../contracts/reasoner';
import type { RouterPlugin } from '../contracts/router';
import { containsSensitive } from '../policy/sensitive-content-detector';
import type { ContextItem } from '../types';

export interface OutgoingContext {
  readonly context: readonly ContextItem[];
  /** The call may only go to (and fall back among) local tiers. */
  readonly localOnly: boolean;
  /** Passages held back from a non-local tier. */
  readonly withheld: number;
}

/**
 * What of the context may go to the requested tier. A passage of a sensitive source, or one
 * holding personal data or secrets, stays on this machine: with a local tier the whole call is
 * kept local (no fallback up to a hosted tier); with a non-local tier the passage is held back.
 * Under policy "redact" a passage that is sensitive only by content goes on, and the tier's guard
 * replaces the spans (adapters/models/sensitive-model-guard.ts).
 */
export function outgoingContext(request: ReasonRequest, router: RouterPlugin): OutgoingContext {
  if (request.localOnly) return { context: request.context, localOnly: true, withheld: 0 };
  const sources = new Set(request.sensitiveSources ?? []);
  const redact = request.sensitiveContent === 'redact';
  const sensitive = (item: ContextItem) => sources.has(item.hit.sourceName) || (!redact && containsSensitive(`${item.hit.title}\n${item.text}`));
  if (!request.context.some(sensitive)) return { context: request.context, localOnly: false, withheld: 0 };
  const tierLocal = router.tiers().find((tier) => tier.name === request.tier)?.capabilities.local === true;
  if (tierLocal) return { context: request.context, localOnly: true, withheld: 0 };
  const kept = request.context.filter((item) => !sensitive(item));
  return { context: kept, localOnly: false, withheld: request.context.length - kept.length };
}
