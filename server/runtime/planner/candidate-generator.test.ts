import { describe, expect, it } from 'vitest';
import type { CandidateSet } from '../contracts/candidate-generator';
import type { RetrieverCapabilities } from '../contracts/retriever';
import { ruleCandidateGenerator } from './candidate-generator';
import { ruleIntentAnalyzer } from './intent-analyzer';
import { DENSE_UNAVAILABLE_REASON, demoPlanningContext, demoRetrievers } from './testing/demo-planning-context';

const generate = (goal: string, context = demoPlanningContext()) => ruleCandidateGenerator.generate(ruleIntentAnalyzer.analyze(goal), context);

const cutCount = (set: CandidateSet): number =>
  set.rejected.reduce((sum, entry) => {
    const match = /^(\d+) candidates? /.exec('description' in entry.candidate ? entry.candidate.description : '');
    expect(match, `grouped description: ${JSON.stringify(entry.candidate)}`).not.toBeNull();
    return sum + Number(match![1]);
  }, 0);

describe('enumeration', () => {
  it('enumerates well over 100 plans for the demo goal and accounts for every one', () => {
    const set = generate('Explain why deployment checkout-api failed');
    expect(set.enumerated).toBeGreaterThanOrEqual(100);
    expect(set.candidates.length + cutCount(set)).toBe(set.enumerated);
    expect(new Set(set.candidates.map((candidate) => candidate.id)).size).toBe(set.candidates.length);
  });

  it('pairs methods across families only and uses the configured topK', () => {
    const set = generate('What is a circuit breaker?');
    const retrievals = new Set(set.candidates.map((candidate) => candidate.retrieval.join('+')));
    expect(retrievals).toContain('bm25+dense');
    expect(retrievals).not.toContain('bm25+fulltext');
    expect(set.candidates.every((candidate) => candidate.topK === 20)).toBe(true);
  });

  it('is deterministic', () => {
    const goal = 'Why did checkout-api crash after commit 1a2b3c4?';
    expect(generate(goal)).toEqual(generate(goal));
  });
});

describe('capability cuts', () => {
  it('quotes an unavailable retriever’s reason verbatim after its method name and groups the cut', () => {
    const set = generate('What is a circuit breaker?', demoPlanningContext({ denseAvailable: false }));
    const cut = set.rejected.find((entry) => entry.rule === 'capability.retriever');
    expect(cut).toMatchObject({ stage: 'capability', reason: `dense unavailable: ${DENSE_UNAVAILABLE_REASON}` });
    expect((cut!.candidate as { description: string }).description).toMatch(/^\d+ candidates using dense$/);
    expect(set.candidates.some((candidate) => candidate.retrieval.includes('dense'))).toBe(false);
  });

  it('quotes an unavailable tier’s reason verbatim', () => {
    const set = generate('What is a circuit breaker?', demoPlanningContext({ premiumAvailable: false }));
    expect(set.rejected).toContainEqual(expect.objectContaining({ rule: 'capability.tier', stage: 'capability', reason: 'environment variable ANTHROPIC_API_KEY is not set' }));
    expect(set.candidates.some((candidate) => candidate.modelTier === 'premium')).toBe(false);
  });
});

describe('intent rules', () => {
  it('exact_id keeps only plans with a lexical method and records the rule', () => {
    const set = generate('Find request req-8f3a2b9c1d in the logs');
    expect(set.candidates.length).toBeGreaterThan(0);
    expect(set.candidates.every((candidate) => candidate.retrieval.includes('bm25') || candidate.retrieval.includes('fulltext'))).toBe(true);
    const cut = set.rejected.find((entry) => entry.rule === 'intent.exact_id.retrieval');
    expect(cut?.reason).toContain('lexical');
    expect(set.candidates.some((candidate) => candidate.sourceKinds !== 'all' && candidate.sourceKinds.includes('logs'))).toBe(true);
  });

  it('recognises a lexical retriever by its capability data, not its name', () => {
    const tantivy: RetrieverCapabilities = { method: 'tantivy', available: true, requires: ['pg_textsearch'], latencyMs: 5, recallPrior: { exact_id: 0.9 } };
    const base = demoPlanningContext();
    const retrievers = [tantivy, ...demoRetrievers().filter((retriever) => retriever.method === 'dense' || retriever.method === 'exact')];
    const set = generate('Find request req-8f3a2b9c1d in the logs', { ...base, retrievers });
    expect(set.candidates.length).toBeGreaterThan(0);
    expect(set.candidates.every((candidate) => candidate.retrieval.includes('tantivy'))).toBe(true);
  });

  it('falls back to an exact matcher when no lexical method exists', () => {
    const base = demoPlanningContext();
    const retrievers = demoRetrievers().filter((retriever) => retriever.method === 'dense' || retriever.method === 'exact');
    const set = generate('Find request req-8f3a2b9c1d in the logs', { ...base, retrievers });
    expect(set.candidates.every((candidate) => candidate.retrieval.includes('exact'))).toBe(true);
  });

  it('conceptual cuts pure-lexical plans only when a semantic method can run', () => {
    const withDense = generate('What is a circuit breaker?');
    expect(withDense.candidates.some((candidate) => candidate.retrieval.join('+') === 'bm25')).toBe(false);
    expect(withDense.rejected.some((entry) => entry.rule === 'intent.conceptual.retrieval')).toBe(true);
    const withoutDense = generate('What is a circuit breaker?', demoPlanningContext({ denseAvailable: false }));
    expect(withoutDense.candidates.some((candidate) => candidate.retrieval.join('+') === 'bm25')).toBe(true);
    expect(withoutDense.rejected.some((entry) => entry.rule === 'intent.conceptual.retrieval')).toBe(false);
  });

  it('incident plans never narrow the scope below logs, git and docs', () => {
    const set = generate('Why did checkout-api crash after commit 1a2b3c4?');
    const cut = set.rejected.find((entry) => entry.rule === 'intent.incident.scope');
    expect(cut?.reason).toContain('lacks docs');
    for (const candidate of set.candidates) {
      if (candidate.sourceKinds === 'all') continue;
      expect(candidate.sourceKinds).toEqual(expect.arrayContaining(['logs', 'git', 'docs']));
    }
  });

  it('sensitive goals keep only local tiers', () => {
    const set = generate("What is Alice Johnson's salary?");
    expect(new Set(set.candidates.map((candidate) => candidate.modelTier))).toEqual(new Set(['local']));
    expect(set.rejected).toContainEqual(expect.objectContaining({ rule: 'intent.sensitive.local_only', stage: 'rule' }));
  });

  it('a local-only policy cuts remote tiers at the policy stage, with the policy reason', () => {
    const set = generate('What is a circuit breaker?', demoPlanningContext({ policy: { localOnly: true, reasons: ['source hr-records is sensitive'] } }));
    expect(new Set(set.candidates.map((candidate) => candidate.modelTier))).toEqual(new Set(['local']));
    const cut = set.rejected.find((entry) => entry.rule === 'policy.local_only');
    expect(cut).toMatchObject({ stage: 'policy' });
    expect(cut!.reason).toContain('source hr-records is sensitive');
  });

  it('high-risk goals require a verifier and an approval gate', () => {
    const set = generate('Rollback deployment checkout-api in production');
    expect(set.candidates.length).toBeGreaterThan(0);
    expect(set.candidates.every((candidate) => candidate.approval && candidate.verification !== 'none')).toBe(true);
    expect(set.rejected).toContainEqual(expect.objectContaining({ rule: 'intent.high_risk.verifier', candidate: expect.objectContaining({ description: expect.stringMatching(/with verification none$/) }) }));
  });

  it('policy-required verification cuts unverified plans', () => {
    const set = generate('What is a circuit breaker?', demoPlanningContext({ policy: { requireVerification: true } }));
    expect(set.candidates.every((candidate) => candidate.verification !== 'none')).toBe(true);
    expect(set.rejected.some((entry) => entry.rule === 'policy.require_verification' && entry.stage === 'policy')).toBe(true);
    expect(set.candidates.every((candidate) => !candidate.approval)).toBe(true);
  });

  it('a retriever that sends passages to a remote model is cut for sensitive goals and under local-only policy', () => {
    const base = demoPlanningContext();
    const remote = { method: 'llm-rerank', available: true, requires: ['pg_textsearch'], latencyMs: 900, recallPrior: { default: 0.9 }, composedOf: ['bm25'], sendsPassagesOffMachine: true, costUsdPerQuery: 0.002, tokensPerQuery: 6000 };
    const withRemote = { ...base, retrievers: [...base.retrievers, remote] };
    const sensitive = generate("What is Alice Johnson's salary?", withRemote);
    expect(sensitive.candidates.some((candidate) => candidate.retrieval.includes('llm-rerank'))).toBe(false);
    expect(sensitive.rejected.some((entry) => entry.rule === 'intent.sensitive.local_only' && entry.reason.includes('llm-rerank'))).toBe(true);
    const localOnly = generate('What is a circuit breaker?', { ...withRemote, policy: { ...withRemote.policy, localOnly: true } });
    expect(localOnly.candidates.some((candidate) => candidate.retrieval.includes('llm-rerank'))).toBe(false);
    const open = generate('What is a circuit breaker?', withRemote);
    expect(open.candidates.some((candidate) => candidate.retrieval.includes('llm-rerank'))).toBe(true);
  });

  it('pairs a mixture only with a tier that follows instructions, never with the extractive reader, and says why', () => {
    const base = demoPlanningContext();
    const context = { ...base, reasoners: [...base.reasoners, { strategy: 'debate', expectedModelCalls: 3, needsInstructions: true }] };
    const set = generate('What is a circuit breaker?', context);
    const debates = set.candidates.filter((candidate) => candidate.reasoning === 'debate');
    expect(debates.length).toBeGreaterThan(0);
    expect(debates.some((candidate) => candidate.modelTier === 'local')).toBe(false);
    expect(set.candidates.some((candidate) => candidate.reasoning === 'single_shot' && candidate.modelTier === 'local')).toBe(true);
    const cut = set.rejected.find((rejected) => rejected.rule === 'capability.reasoner_tier');
    expect(cut?.reason).toBe('debate needs a model that follows instructions; tier local is the extractive reader');
  });
});
