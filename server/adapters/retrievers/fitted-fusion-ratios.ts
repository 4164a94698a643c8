/**
 * What reciprocal-rank fusion of two methods is worth, measured: per pair and intent class, the
 * fused list's score over the better member's alone (Σ fused / Σ better over the labelled queries
 * of the class, shrunk toward 1 by PRIOR_PSEUDO_QUERIES; bench/retrieval/fusion-fitting.ts). The
 * cost model uses a measured ratio in place of its hand-set fusion formula (units.ts), so a fused
 * plan is rated above its better member only where fusion gained on the fitting queries (issue 16:
 * the reranker's rule, applied to fusion). Pairs and classes with fewer than MIN_CLASS_QUERIES
 * queries have no entry and keep the formula.
 */
import type { RetrieverCapabilities } from '../../runtime/contracts/retriever';

/** pair key ("a+b", methods sorted) → intent class → fused / better member. */
export type FusionRatioTable = Readonly<Record<string, Readonly<Partial<Record<string, number>>>>>;

/**
 * The shipped ratios: fitted on all 1,009 labelled queries of the three training splits (SciFact
 * train, MuSiQue and HotpotQA train100; records of 2026-12-02 with rankings) by
 * `npx tsx bench/retrieval/fit-priors.ts` (RESULTS.md, session 24). No pair gains on multi-hop
 * questions; bm25+rm3 and rerank+rm3 gain a little on claims but the planner never fuses them (one
 * family, one index), nor hybrid with rm3 or rerank (both built on bm25).
 */
export const FITTED_FUSION_RATIOS: FusionRatioTable = Object.freeze({
  'bm25+graph': Object.freeze({ conceptual: 0.945, multi_hop: 0.897, sensitive: 0.932 }),
  'bm25+rerank': Object.freeze({ conceptual: 1.0, multi_hop: 0.962, sensitive: 0.996 }),
  'bm25+rm3': Object.freeze({ conceptual: 1.005, multi_hop: 0.973, sensitive: 1.007 }),
  'dense+graph': Object.freeze({ multi_hop: 0.742 }),
  'dense+rerank': Object.freeze({ multi_hop: 0.783 }),
  'dense+rm3': Object.freeze({ multi_hop: 0.795 }),
  'graph+hybrid': Object.freeze({ multi_hop: 0.888 }),
  'graph+rerank': Object.freeze({ conceptual: 0.939, multi_hop: 0.902, sensitive: 0.942 }),
  'graph+rm3': Object.freeze({ conceptual: 0.958, multi_hop: 0.931, sensitive: 0.94 }),
  'hybrid+rerank': Object.freeze({ multi_hop: 0.963 }),
  'hybrid+rm3': Object.freeze({ multi_hop: 0.976 }),
  'rerank+rm3': Object.freeze({ conceptual: 1.004, multi_hop: 0.979, sensitive: 1.006 }),
});

type FusionRatios = NonNullable<RetrieverCapabilities['fusionRatios']>;

/** Per table (frozen, so identity is a sound key) and method: capabilities() is read on every plan. */
const ratiosByTable = new WeakMap<FusionRatioTable, Map<string, FusionRatios>>();

/** The entries of `table` that pair `method` with another, keyed by the partner (the capability's shape). */
export function fusionRatiosOf(method: string, table: FusionRatioTable = FITTED_FUSION_RATIOS): FusionRatios {
  let byMethod = ratiosByTable.get(table);
  if (!byMethod) ratiosByTable.set(table, (byMethod = new Map()));
  let ratios = byMethod.get(method);
  if (!ratios) byMethod.set(method, (ratios = partnersOf(method, table)));
  return ratios;
}

function partnersOf(method: string, table: FusionRatioTable): FusionRatios {
  const partners: Record<string, Readonly<Partial<Record<string, number>>>> = {};
  for (const [pair, ratios] of Object.entries(table)) {
    const members = pair.split('+');
    if (members.length === 2 && members.includes(method)) partners[members[0] === method ? members[1] : members[0]] = ratios;
  }
  return Object.freeze(partners);
}

/** `{ fusionRatios }` for a capabilities object, or nothing when `table` pairs `method` with no one. */
export function fusionCapability(method: string, table: FusionRatioTable = FITTED_FUSION_RATIOS): Pick<RetrieverCapabilities, 'fusionRatios'> {
  const ratios = fusionRatiosOf(method, table);
  return Object.keys(ratios).length > 0 ? { fusionRatios: ratios } : {};
}
