import { describe, expect, it } from 'vitest';
import { openWordVectors } from '../../adapters/embeddings/word-vectors';
import { SifEmbedder } from '../../adapters/embeddings/sif-embedder';
import { generateRequests } from '../../../bench/plancache-goals';
import { DEFAULT_INTENT_MATCH, IntentMatcher, type IntentMatchSettings, type PreparedIntent } from './intent-matcher';

const embedder = new SifEmbedder(() => openWordVectors());

/** Paraphrase families and unrelated goals, as the plan-cache bench sends them. */
const goals = [...new Set(generateRequests(160, 20_261_201).map((request) => request.goal))].slice(0, 60);

async function preparedWith(settings: IntentMatchSettings): Promise<{ matcher: IntentMatcher; prepared: PreparedIntent[] }> {
  const matcher = new IntentMatcher(embedder, settings);
  return { matcher, prepared: await Promise.all(goals.map((goal) => matcher.prepare(goal))) };
}

describe('IntentMatcher.matchedSimilarity (the lookup scan: cosine first, word alignment stopped early)', () => {
  // Thresholds where the early stop decides: the default, none on the cosine (coverage alone), and stricter coverage.
  const settings: readonly IntentMatchSettings[] = [DEFAULT_INTENT_MATCH, { ...DEFAULT_INTENT_MATCH, threshold: -1 }, { threshold: -1, termCoverage: 0.7, termSimilarity: 0.5 }, { threshold: 0.5, termCoverage: 0.9, termSimilarity: 0.6 }];

  it.each(settings.map((value) => [JSON.stringify(value), value] as const))('gives the same verdict and similarity as match() on every pair (%s)', async (_name, value) => {
    const { matcher, prepared } = await preparedWith(value);
    let matched = 0;
    for (const left of prepared) {
      for (const right of prepared) {
        const full = matcher.match(left, right);
        expect(matcher.matchedSimilarity(left, right)).toBe(full.matched ? full.similarity : undefined);
        if (full.matched && left.text !== right.text) matched++;
      }
    }
    // The pairs include real matches (paraphrases), so both outcomes are exercised.
    expect(matched).toBeGreaterThan(0);
  });
});
