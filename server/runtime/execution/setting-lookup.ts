/**
 * The setting lookup: a goal asking what something is set to (planner/setting-question.ts) also
 * searches the passages kept for lookups only, the file diffs a commit's chunk had to cut (an
 * initial import's files; ingest/commit-file-parts.ts). They are kept out of every other search
 * because, ranked with everything else, they crowded out the commits most questions need; here
 * the best of them about what the goal names joins the context as one more item, and nothing the
 * goal's own searches found gives way.
 */
import type { RetrievalQuery, RetrieverCapabilities, RetrieverPlugin } from '../contracts/retriever';
import { ContextRuntimeError } from '../errors';
import { scopeToEntities } from './entity-scope';
import { createNode, type ExecutionGraph, type NodeEstimate, type NodeOfKind, type RetrieveNode, type RetryPolicy } from '../ir/graph';
import type { Hit, SourceKind } from '../types';
import { contentTerms } from '../text/text-terms';

/** Parts searched: the best is placed; the others are shown in EXPLAIN ANALYZE's node output. */
export const SETTING_LOOKUP_K = 3;

export interface SettingLookupInput {
  /** The git sources in scope; none, no lookup. */
  readonly sources: readonly string[];
  /**
   * Setting words the goal describes and does not say ("… wait … before it gives up" → timeout),
   * added to the lookup's query: the words it does say ("eta-api", "feature-redis") rank the Redis
   * server's config above eta-api's values, which set the timeout (freight dev d35).
   */
  readonly terms?: readonly string[];
  readonly retrievers: readonly RetrieverCapabilities[];
  readonly sourceKinds: readonly SourceKind[] | 'all';
  readonly retry: RetryPolicy;
  readonly timeoutMs: number;
  readonly estimateOf: (capability: RetrieverCapabilities) => NodeEstimate;
}

/** The lookup's retrieve node, or none when no git source is in scope or no retriever can search lookup-only passages. */
export function settingLookupHop(input: SettingLookupInput): RetrieveNode | undefined {
  if (input.sources.length === 0) return undefined;
  const capability = input.retrievers.find((retriever) => retriever.available && retriever.lookupOnly);
  if (!capability) return undefined;
  return createNode('retrieve', {
    id: `retrieve-${capability.method}-settings`,
    inputs: [],
    method: capability.method,
    sources: input.sources,
    sourceKinds: input.sourceKinds,
    k: SETTING_LOOKUP_K,
    lookupOnly: true,
    ...(input.terms && input.terms.length > 0 ? { queryExpansion: input.terms } : {}),
    retry: input.retry,
    timeoutMs: input.timeoutMs,
    estimate: input.estimateOf(capability),
    note: 'the goal asks for a configured value: the file diffs a commit’s chunk had to cut are searched too, and the best one about what the goal names joins the context, with the best commit that set the asked setting',
  });
}

/**
 * Where the best part goes: the last place of the context, which the plan made one item longer for it
 * (the first assemble node's finalK). Placed third, it pushed the commit that answered "is that still
 * how many replicas it runs?" out of the context (fresh f51); placed last in a context of the usual
 * length, the one with the topic's current retention (fresh f02).
 */
export function settingLookupRank(graph: ExecutionGraph | undefined): number {
  return graph?.nodes.find((node): node is NodeOfKind<'assemble'> => node.kind === 'assemble')?.finalK ?? DEFAULT_LOOKUP_RANK;
}
const DEFAULT_LOOKUP_RANK = 9;

/**
 * The lookup's parts about what the goal names (`anchorsOf` the found parts, as a plain search scopes
 * its hits): another system's import ranks on the setting's words alone ("memory", "limits").
 */
export async function lookupParts(retriever: RetrieverPlugin, node: RetrieveNode, query: RetrievalQuery, anchorsOf: (found: readonly Hit[]) => readonly string[]): Promise<readonly Hit[]> {
  if (!retriever.searchLookupOnly) throw new ContextRuntimeError('NODE_FAILED', `retriever ${node.method} cannot search lookup-only passages (node ${node.id})`);
  const found = await retriever.searchLookupOnly(query);
  query.signal?.throwIfAborted();
  return byKeyedQueryTerms(scopeToEntities([found], anchorsOf(found), true)[0], query.text);
}

const escapeRegExp = (text: string) => text.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');

/** A diff's added lines, without the `+++` file header. */
const ADDED_LINE = /^\+(?!\+\+ )(.*)$/gm;
const addedLines = (text: string): string[] => [...text.matchAll(ADDED_LINE)].map(([, line]) => line);

/** A setting line's key: what it holds before its first `:` or `=` ("parquet.codec", "retention.ms"). */
const LINE_KEY = /^\s*["']?([\w.-]+)["']?\s*(?::|=)/;

/** The most query words one added line's key holds. */
function keyedQueryTerms(text: string, queryTerms: ReadonlySet<string>): number {
  const keys = addedLines(text).flatMap((line) => LINE_KEY.exec(line)?.[1] ?? []);
  return keys.reduce((most, key) => Math.max(most, new Set(contentTerms(key).filter((term) => queryTerms.has(term))).size), 0);
}

/**
 * The parts ordered by the most query words a setting's key holds, the search's order among equals:
 * "What compression codec are the Parquet files written with?" is `"parquet.codec": "snappy"`, but the
 * IAM policy naming the lake bucket three times outranked its connector file on words in values (fresh f66).
 */
export function byKeyedQueryTerms(parts: readonly Hit[], queryText: string): readonly Hit[] {
  const queryTerms = new Set(contentTerms(queryText));
  const keyed = parts.map((part, index) => ({ part, index, keyed: keyedQueryTerms(part.text, queryTerms) }));
  return keyed.sort((a, b) => b.keyed - a.keyed || a.index - b.index).map(({ part }) => part);
}

/**
 * The general ranking with the lookup's best part placed at `rank` (or kept where it already is, if
 * higher), marked when it alone names a name of the goal among the items before that place.
 */
export function withSettingLookup(ranked: readonly Hit[], lookupLists: readonly (readonly Hit[])[], rank: number, names: ReadonlySet<string> = new Set()): readonly Hit[] {
  const found = lookupLists.map((list) => list[0]).find((hit): hit is Hit => hit !== undefined);
  if (!found) return ranked;
  // As a whole name: "eta-requests-audit-value" names the topic's schema subject, not the topic.
  const says = (hit: Hit, name: string) => new RegExp(`(?<![\\w-])${escapeRegExp(name)}(?![\\w-])`, 'i').test(hit.text);
  const alone = [...names].some((name) => says(found, name) && !ranked.slice(0, rank - 1).some((hit) => hit.chunkId !== found.chunkId && says(hit, name)));
  const best: Hit = { ...found, lookupPlaced: true, ...(alone ? { lookupNamesGoalAlone: true } : {}) };
  const at = ranked.findIndex((hit) => hit.chunkId === best.chunkId);
  if (at >= 0 && at < rank) return ranked;
  return placedAt(ranked, best, rank);
}

/** `ranked` with `placed` (marked as placed by the lookup) at `rank`, wherever it stood before, and every rank renumbered. */
function placedAt(ranked: readonly Hit[], placed: Hit, rank: number): readonly Hit[] {
  const rest = ranked.filter((hit) => hit.chunkId !== placed.chunkId);
  const order = [...rest.slice(0, rank - 1), { ...placed, lookupPlaced: true }, ...rest.slice(rank - 1)];
  return order.map((hit, index) => (hit.rank === index + 1 ? hit : { ...hit, rank: index + 1 }));
}

/** Whether a commit's diff adds a line holding one of the asked setting's words ("retry_delay" for retry, delay). */
export function setsAskedSetting(text: string, settingTerms: readonly string[]): boolean {
  const asked = new Set(settingTerms.flatMap(contentTerms));
  return asked.size > 0 && addedLines(text).some((line) => contentTerms(line).some((term) => asked.has(term)));
}

/** A commit's subject (its first indented line) and the paths its diff changes. */
const SUBJECT_LINE = /^ {4}(\S.*)$/m;
const CHANGED_PATH = /^diff --git a\/(\S+)/gm;

/**
 * Whether a commit's subject or a path it changes shares a word of the goal besides the setting's:
 * asked the feast pod's memory limit (no name the anchors scope by), another system's "lower the
 * memory limit" sets the same words on a different thing (freight fresh f63).
 */
export function changesWhatGoalNames(text: string, goal: string, settingTerms: readonly string[]): boolean {
  const setting = new Set(settingTerms.flatMap(contentTerms));
  const asked = new Set(contentTerms(goal).filter((term) => !setting.has(term)));
  const named = [SUBJECT_LINE.exec(text)?.[1] ?? '', ...[...text.matchAll(CHANGED_PATH)].map(([, path]) => path)];
  return named.some((part) => contentTerms(part).some((term) => asked.has(term)));
}

/**
 * The commits that set an asked setting, among the git sources' ordinary chunks. A part leaves out
 * the lines a later commit changed (ingest/commit-file-parts.ts), so the value in force is in that
 * commit: "eta_features_hourly: 3 retries instead of 1" holds the DAG's retry delay, which the
 * import's part no longer states, and the goal's own searches ranked it eleventh (freight fresh f62).
 */
export async function settingChanges(retriever: RetrieverPlugin, query: RetrievalQuery, goal: string, settingTerms: readonly string[], anchorsOf: (found: readonly Hit[]) => readonly string[]): Promise<readonly Hit[]> {
  if (settingTerms.length === 0) return [];
  const found = (await retriever.search(query)).filter((hit) => setsAskedSetting(hit.text, settingTerms) && changesWhatGoalNames(hit.text, goal, settingTerms));
  query.signal?.throwIfAborted();
  return scopeToEntities([found], anchorsOf(found), true)[0];
}

/**
 * The ranking with the best setting change the first `rank` places do not hold placed at `rank`,
 * before the lookup's part: both are kept by the context's assembly (assemble-context.ts).
 */
export function withSettingChange(ranked: readonly Hit[], changeLists: readonly (readonly Hit[])[], rank: number): readonly Hit[] {
  const held = new Set(ranked.slice(0, rank).map((hit) => hit.chunkId));
  const found = changeLists.map((list) => list.find((hit) => !held.has(hit.chunkId))).find((hit): hit is Hit => hit !== undefined);
  return found ? placedAt(ranked, found, rank) : ranked;
}
