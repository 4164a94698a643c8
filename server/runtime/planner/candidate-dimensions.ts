import type { PlanningContext } from '../contracts/candidate-generator';
import type { RetrieverCapabilities } from '../contracts/retriever';
import type { Intent, SourceInfo, SourceKind } from '../types';
import { applicableRules, methodFamily, type MethodFamily } from './rules';
import { namedSourceKinds } from './named-source-kinds';

/** The values of each planning dimension, built once per goal from the PlanningContext. */

export interface RetrievalSet {
  readonly key: string;
  readonly methods: readonly string[];
  readonly retrievers: readonly RetrieverCapabilities[];
  readonly families: readonly MethodFamily[];
}

export interface Scope {
  readonly key: string;
  readonly kinds: readonly SourceKind[] | 'all';
}

/** Canonical kind order, so scope keys and candidate ids are stable. */
export const KIND_ORDER: readonly SourceKind[] = ['docs', 'logs', 'events', 'metrics', 'git', 'data'];

/** Sources the policy lets this request read. */
export function plannableSources(context: PlanningContext): SourceInfo[] {
  const allowed = new Set(context.policy.allowedSources);
  return context.sources.filter((source) => allowed.has(source.name));
}

/** True when one method runs inside the other, or both are built on the same method. */
function overlapping(first: RetrieverCapabilities, second: RetrieverCapabilities): boolean {
  const firstParts = new Set([first.method, ...(first.composedOf ?? [])]);
  return [second.method, ...(second.composedOf ?? [])].some((method) => firstParts.has(method));
}

/**
 * Each retriever alone, plus every pair from DIFFERENT families that share no method. Same-family pairs are not
 * enumerated: reciprocal-rank fusion gains come from rankers that err differently
 * (Cormack et al., SIGIR 2009); two lexical rankers over the same index mostly agree.
 * Unavailable retrievers are enumerated too, so EXPLAIN can show what was cut and why.
 */
export function retrievalSets(retrievers: readonly RetrieverCapabilities[]): RetrievalSet[] {
  const families = retrievers.map(methodFamily);
  const sets: RetrievalSet[] = retrievers.map((retriever, index) => ({
    key: retriever.method,
    methods: Object.freeze([retriever.method]),
    retrievers: [retriever],
    families: [families[index]],
  }));
  for (let first = 0; first < retrievers.length; first++) {
    for (let second = first + 1; second < retrievers.length; second++) {
      const sameFamily = families[first] === families[second] && families[first] !== 'other';
      if (sameFamily || overlapping(retrievers[first], retrievers[second])) continue;
      const methods = Object.freeze([retrievers[first].method, retrievers[second].method]);
      sets.push({ key: methods.join('+'), methods, retrievers: [retrievers[first], retrievers[second]], families: [families[first], families[second]] });
    }
  }
  return sets;
}

/**
 * 'all', plus each applicable rule's own scope (its required and optional kinds that the
 * corpus holds, plus the kinds the goal names: namedSourceKinds). A rule scope equal to every present kind is the same search as 'all'
 * and is not enumerated twice.
 */
export function scopes(intent: Intent, sources: readonly SourceInfo[]): Scope[] {
  const present = new Set(sources.map((source) => source.kind));
  const result: Scope[] = [{ key: 'all', kinds: 'all' }];
  const seen = new Set<string>(['all']);
  const named = namedSourceKinds(intent.goal);
  for (const rule of applicableRules(intent)) {
    if (!rule.scope) continue;
    const wanted = new Set<SourceKind>([...rule.scope.required, ...rule.scope.optional, ...named]);
    const kinds = KIND_ORDER.filter((kind) => wanted.has(kind) && present.has(kind));
    if (kinds.length === 0 || kinds.length === present.size) continue;
    const key = kinds.join(',');
    if (seen.has(key)) continue;
    seen.add(key);
    result.push({ key, kinds: Object.freeze(kinds) });
  }
  return result;
}

/** Compressions and verifiers from the context, with the always-possible "none" option added. */
export function compressionMethods(context: PlanningContext): string[] {
  const methods = context.compressions.map((compression) => compression.method);
  return methods.includes('none') ? methods : ['none', ...methods];
}

export function verificationMethods(context: PlanningContext): string[] {
  const methods = context.verifiers.map((verifier) => verifier.method);
  return methods.includes('none') ? methods : ['none', ...methods];
}
