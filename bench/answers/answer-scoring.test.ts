import { resolve } from 'node:path';
import { describe, expect, it } from 'vitest';
import { entitiesNamed, normaliseText, offGoalCaveats, readQuestionSet, scoreCitations, scoreKeyFacts, scoreRunFacts, totals, type QuestionOutcome } from './answer-scoring';

const vocabulary = ['billing-worker', 'checkout-api', 'ledger-export', 'paystream'];

describe('answer scoring', () => {
  it('finds a key fact through quotes, backticks, case and line breaks, and needs every fact', () => {
    const answer = 'Set `lock_timeout` to 3s;\nthe  Ledger-Export query held the lock.';
    expect(scoreKeyFacts(answer, [['lock_timeout'], ['ledger-export query']])).toEqual({ matched: ['lock_timeout', 'ledger-export query'], allFound: true });
    expect(scoreKeyFacts(answer, [['lock_timeout'], ['pg_blocking_pids', 'pg_stat_activity']]).allFound).toBe(false);
    expect(normaliseText('“Restart” dunning\u2011service')).toBe('restart dunning-service');
  });

  it('scores a request to act by its approval gate when the question expects one, and only then', () => {
    const question = { keyFacts: [['second person']], expectApproval: true };
    expect(scoreRunFacts('', question, true).allFound).toBe(true);
    expect(scoreRunFacts('Done: offsets reset.', question, false).allFound).toBe(false);
    expect(scoreRunFacts('', { keyFacts: [['second person']] }, true).allFound).toBe(false);
  });

  it('counts a citation as relevant only for a listed source and, when given, a uri substring', () => {
    const relevant = [{ source: 'billing-logs', uri: 'billing-worker.log' }, { source: 'billing-git', uri: 'commit 7c98f34' }, { source: 'billing-metrics' }];
    const score = scoreCitations(
      [
        { sourceName: 'billing-logs', uri: 'billing-worker.log' },
        { sourceName: 'billing-logs', uri: 'usage-collector.log' },
        { sourceName: 'billing-git', uri: 'commit 7c98f34aa01' },
        { sourceName: 'billing-metrics', uri: 'billing-metrics.csv' },
        { sourceName: 'demo-logs', uri: 'billing-worker.log' },
      ],
      relevant,
    );
    // billing-logs:usage-collector.log is from a relevant source but not the listed file.
    expect(score).toEqual({ total: 5, relevant: 3, fromRelevantSource: 4 });
  });

  it('flags a caveat naming an entity that neither the goal nor the question entities mention', () => {
    const caveats = ['Sources disagree on checkout-api memory limit: 256Mi vs 512Mi.', 'Verification failed: 1 claim unsupported.', 'billing-worker restarts were seen in two sources.'];
    const flagged = offGoalCaveats(caveats, 'Why did billing-worker stop producing invoices?', [], vocabulary);
    expect(flagged).toEqual([{ caveat: caveats[0], entities: ['checkout-api'] }]);
    expect(offGoalCaveats(caveats, 'Why did the payment fail?', ['checkout-api', 'billing-worker'], vocabulary)).toEqual([]);
    // A pod name names its service; a longer identifier that merely contains the name does not.
    expect(entitiesNamed('pod/checkout-api-7d9f8b6c5-x2k4p', vocabulary)).toEqual(['checkout-api']);
    expect(entitiesNamed('mycheckout-api_v2', vocabulary)).toEqual([]);
  });

  it('totals key fact per question and pools the citation share over all citations', () => {
    const outcome = (allFound: boolean, total: number, relevant: number, verification: string, fromRelevantSource = relevant): QuestionOutcome => ({
      id: 'q',
      // The gate's own answer is not scored for the context; of the two others, the one answered is.
      ...(verification === 'awaiting_approval' ? {} : { factInContext: allFound }),
      split: 'tune',
      keyFact: { matched: [], allFound },
      citations: { total, relevant, fromRelevantSource },
      offGoalCaveats: [],
      sentToApproval: verification === 'awaiting_approval',
      verification,
      passedWithoutRelevantEvidence: verification.startsWith('passed') && relevant === 0,
    });
    const result = totals([outcome(true, 4, 4, 'passed 0.90'), outcome(false, 4, 0, 'passed 0.90'), outcome(true, 2, 1, 'awaiting_approval', 2)]);
    expect(result).toMatchObject({ questions: 3, keyFactPct: 66.7, factInContextPct: 50, relevantCitationPct: 50, relevantSourcePct: 60, citations: 10, sentToApproval: 1, verificationPassed: 2, passedWithoutRelevantEvidence: 1 });
  });

  it('reads the billing-pipeline question set: ≥ 24 questions, both splits, ids unique', () => {
    const set = readQuestionSet(resolve(__dirname, '../../examples/billing-pipeline/questions.json'));
    expect(set.questions.length).toBeGreaterThanOrEqual(24);
    expect(new Set(set.questions.map((question) => question.id)).size).toBe(set.questions.length);
    expect(set.questions.some((question) => question.split === 'heldout')).toBe(true);
    for (const question of set.questions) for (const relevant of question.relevant) expect(Object.keys(set.sources)).toContain(relevant.source);
  });
});
