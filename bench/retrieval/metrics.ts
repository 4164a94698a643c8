/**
 * Retrieval and answer metrics as BEIR and HotpotQA/MuSiQue compute them, so figures compare
 * with published ones (and with ../shared/scripts/eval-run.py on the same ranked lists).
 */

export const RECALL_CUTOFFS = Object.freeze([2, 5, 10, 100] as const);

/** nDCG@k with binary relevance (BEIR's qrels hold score 1): DCG over the ideal DCG of min(k, |gold|) hits. */
export function ndcgAt(ranked: readonly string[], gold: ReadonlySet<string>, k = 10): number {
  if (gold.size === 0) return 0;
  let dcg = 0;
  const seen = new Set<string>();
  ranked.slice(0, k).forEach((id, index) => {
    if (gold.has(id) && !seen.has(id)) dcg += 1 / Math.log2(index + 2);
    seen.add(id);
  });
  let ideal = 0;
  for (let index = 0; index < Math.min(k, gold.size); index++) ideal += 1 / Math.log2(index + 2);
  return dcg / ideal;
}

/** Fraction of the gold documents in the top k (HippoRAG's multi-hop Recall@k, BEIR's Recall@k). */
export function recallAt(ranked: readonly string[], gold: ReadonlySet<string>, k: number): number {
  if (gold.size === 0) return 0;
  const found = new Set(ranked.slice(0, k).filter((id) => gold.has(id)));
  return found.size / gold.size;
}

/** Nearest-rank percentile of already sorted values. */
export function percentile(sorted: readonly number[], p: number): number {
  if (sorted.length === 0) return Number.NaN;
  return sorted[Math.min(sorted.length - 1, Math.max(0, Math.ceil((p / 100) * sorted.length) - 1))];
}

export const mean = (values: readonly number[]): number => (values.length === 0 ? Number.NaN : values.reduce((sum, value) => sum + value, 0) / values.length);

/**
 * SQuAD/HotpotQA answer normalisation: lower case, punctuation removed, articles removed,
 * whitespace folded. Punctuation becomes a space (not nothing) so "1,200" and "Paris-Orly" keep
 * their word boundaries; hyphenated and comma forms then match their spaced variants.
 */
export function normalizeAnswer(text: string): string {
  return text
    .toLowerCase()
    .replace(/[\p{P}\p{S}]/gu, ' ')
    .replace(/\b(a|an|the)\b/g, ' ')
    .replace(/\s+/g, ' ')
    .trim();
}

/**
 * Whether a gold answer (or alias) occurs in the context, on word boundaries after normalisation:
 * "35" must not match inside "1935", nor "yes" inside "yesterday".
 */
export function answerInContext(answers: readonly string[], context: string): boolean {
  const haystack = ` ${normalizeAnswer(context)} `;
  return answers.some((answer) => {
    const needle = normalizeAnswer(answer);
    return needle !== '' && haystack.includes(` ${needle} `);
  });
}
