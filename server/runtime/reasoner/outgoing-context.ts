import type { ReasonRequest } from '../contracts/reasoner';
import type { RouterPlugin } from '../contracts/router';
import { containsSensitive, redactSensitive } from '../policy/sensitive-content-detector';
import { redactExcerpt } from '../policy/sensitive-redaction';
import type { ContextItem } from '../types';

export interface OutgoingContext {
  readonly context: readonly ContextItem[];
  /** The call may only go to (and fall back among) local tiers. */
  readonly localOnly: boolean;
  /** Passages held back from a non-local tier. */
  readonly withheld: number;
  /** Passages sent to a non-local tier with their sensitive spans replaced (policy "redact"). */
  readonly redacted: number;
}

/**
 * A passage marked at ingest, or one whose text (after compression) still shows personal data or
 * secrets. The stored mark matters most where compression cut a span apart and re-detection no
 * longer sees it; the scan covers passages that never came from the store.
 */
export const holdsSensitive = (item: ContextItem): boolean => item.hit.sensitive === true || containsSensitive(`${item.hit.title}\n${item.text}`);

/** The passage with the spans its stored text holds redacted, title included. */
function redacted(item: ContextItem): ContextItem {
  return { ...item, text: redactExcerpt(item.hit.text, item.text), hit: { ...item.hit, title: redactSensitive(item.hit.title) } };
}

/**
 * What of the context may go to the requested tier. A passage of a sensitive source, or one
 * marked sensitive (personal data or secrets), stays on this machine: with a local tier the whole
 * call is kept local (no fallback up to a hosted tier); with a non-local tier the passage is held
 * back. Under policy "redact" a passage that is sensitive only by content goes on with its spans
 * replaced; the tier's guard (adapters/models/sensitive-model-guard.ts) scans the call once more.
 */
export function outgoingContext(request: ReasonRequest, router: RouterPlugin): OutgoingContext {
  if (request.localOnly) return { context: request.context, localOnly: true, withheld: 0, redacted: 0 };
  const sources = new Set(request.sensitiveSources ?? []);
  const redact = request.sensitiveContent === 'redact';
  const bySource = (item: ContextItem) => sources.has(item.hit.sourceName);
  const byContent = request.context.map(holdsSensitive);
  const heldBack = (item: ContextItem, index: number) => bySource(item) || (!redact && byContent[index]);
  const anySensitive = request.context.some((item, index) => bySource(item) || byContent[index]);
  if (!anySensitive) return { context: request.context, localOnly: false, withheld: 0, redacted: 0 };
  const tierLocal = router.tiers().find((tier) => tier.name === request.tier)?.capabilities.local === true;
  if (tierLocal) return { context: request.context, localOnly: true, withheld: 0, redacted: 0 };
  const kept: ContextItem[] = [];
  let redactedCount = 0;
  request.context.forEach((item, index) => {
    if (heldBack(item, index)) return;
    kept.push(byContent[index] ? redacted(item) : item);
    if (byContent[index]) redactedCount += 1;
  });
  return { context: kept, localOnly: false, withheld: request.context.length - kept.length, redacted: redactedCount };
}
