/**
 * Keeps a stratified retrieval on the goal's subject. Per-source retrieval gives every source a
 * place in the context, which is what an incident needs when all sources are about the incident —
 * and wrong when a source is about something else: asked why billing-worker stopped, the demo's
 * Kubernetes events still answered with their best "OOMKilled" lines (issue 10). The goal's named
 * entities decide: a source none of whose hits mentions one has nothing to say about this goal.
 * Within an entity-focused hop (the failure-cause probe) the rule applies per hit: a cause word
 * that is not about the goal's subject is another system's failure.
 */
import type { Hit } from '../types';
import { mentions } from '../text/named-entities';

const mentionsAny = (hit: Hit, anchors: readonly string[]) => anchors.some((anchor) => mentions(`${hit.title}\n${hit.text}`, anchor));

/**
 * @param lists one ranked list per source
 * @param anchors the goal's named entities and identifiers
 * @param perHit drop every hit that mentions no anchor (entity-focused hops), not only silent sources
 * When no hit of any list mentions an anchor, the anchors are not in these sources: a plain retrieval
 * keeps everything (the goal's words still rank it), an entity-focused hop returns nothing. That hop
 * searches the subject's name plus cause words only, so without the subject it finds every other
 * system's failures: asked why a schema-registry subject was set to NONE (a name no log holds), the
 * failure-cause probe brought the demo's checkout-api OOMKilled line into the answer and, with it,
 * the demo's memory-limit contradiction as a caveat (issue 10, freight dev set d13).
 */
export function scopeToEntities(lists: readonly (readonly Hit[])[], anchors: readonly string[], perHit = false): (readonly Hit[])[] {
  const usable = anchors.filter((anchor) => anchor.trim().length >= 3);
  if (usable.length === 0) return lists.map((list) => list);
  const matching = lists.map((list) => list.filter((hit) => mentionsAny(hit, usable)));
  if (matching.every((list) => list.length === 0)) return perHit ? lists.map(() => []) : lists.map((list) => list);
  return lists.map((list, index) => (matching[index].length === 0 ? [] : perHit ? matching[index] : list.filter((hit) => !PER_SYSTEM_KINDS.has(hit.sourceKind) || matching[index].includes(hit))));
}

/**
 * One log source holds many systems' files, each line a record of the system that wrote it: once a
 * source's hits name the goal's subject, its log lines that do not (their file name included) are
 * another system's events. Asked whether eta-api got malformed requests, Kafka Connect's "Error
 * sending fetch request" lines filled the context (freight dev d47). Documents stay whole: a
 * runbook's section about a service need not repeat its name.
 */
const PER_SYSTEM_KINDS: ReadonlySet<string> = new Set(['logs']);

/**
 * Whether keepSourcesAboutGoal can drop anything from `hits`: one source of documents has no other
 * source to lose to and no other system's lines. Checked first, so the anchors (and the per-hit name
 * matching) are never computed on the path of a single-corpus query.
 */
export function canScope(hits: readonly Hit[]): boolean {
  const first = hits[0]?.sourceName;
  return hits.some((hit) => hit.sourceName !== first || PER_SYSTEM_KINDS.has(hit.sourceKind));
}

/**
 * The same rule over one ranked list that spans several sources (a single retrieval or rerank over
 * docs+git): a source none of whose hits names the goal's subject leaves the list, the rest keep
 * their order. Asked for billing-worker's memory limit over docs and git, the demo's "Lower
 * checkout-api memory limit" commit matched "memory limit" and was cited (issue 10).
 */
export function keepSourcesAboutGoal(hits: readonly Hit[], anchors: readonly string[]): readonly Hit[] {
  if (!canScope(hits)) return hits;
  const bySource = new Map<string, Hit[]>();
  for (const hit of hits) bySource.set(hit.sourceName, [...(bySource.get(hit.sourceName) ?? []), hit]);
  const kept = new Set(scopeToEntities([...bySource.values()], anchors).flat());
  return hits.filter((hit) => kept.has(hit));
}
