/**
 * Recent answers a principal may read: completed runs, newest first, whose every source the policy
 * lets them read (run-access.ts). What a viewer — who may read runs but not start them — is shown
 * instead of a console of disabled buttons.
 */
import type { RunRecord, RunStorePlugin } from '../contracts/run-store';
import type { VerificationResult } from '../contracts/verifier';
import type { Citation } from '../types';

export interface RecentAnswer {
  readonly runId: string;
  readonly goal: string;
  /** Who asked. */
  readonly user: string;
  readonly createdAt: string;
  readonly answer: string;
  readonly citations: readonly Citation[];
  readonly caveats: readonly string[];
  readonly verification?: Pick<VerificationResult, 'method' | 'passed' | 'confidence'>;
  readonly answerNodeId?: string;
}

/** Runs read per page while looking for readable ones. */
const PAGE_SIZE = 25;
/** Completed runs looked at, at most, per request: a principal who may read few of many runs still gets an answer quickly. */
export const RECENT_ANSWERS_SCAN = 400;

interface StoredResult {
  readonly answer?: string;
  readonly citations?: readonly Citation[];
  readonly caveats?: readonly string[];
  readonly verification?: VerificationResult;
  readonly answerNodeId?: string;
}

export async function recentAnswers(runStore: RunStorePlugin, mayRead: (record: RunRecord) => boolean, limit: number): Promise<readonly RecentAnswer[]> {
  const answers: RecentAnswer[] = [];
  for (let offset = 0; answers.length < limit && offset < RECENT_ANSWERS_SCAN; offset += PAGE_SIZE) {
    const page = await runStore.listRuns({ limit: PAGE_SIZE, offset, status: 'completed' });
    const records = await Promise.all(page.map((summary) => runStore.loadRun(summary.id)));
    for (const record of records) {
      const stored = record?.result as StoredResult | undefined;
      if (!record || record.status !== 'completed' || !stored?.answer || !mayRead(record)) continue;
      answers.push(
        Object.freeze({
          runId: record.id,
          goal: record.goal,
          user: record.user,
          createdAt: record.createdAt,
          answer: stored.answer,
          citations: stored.citations ?? [],
          caveats: stored.caveats ?? [],
          ...(stored.verification ? { verification: { method: stored.verification.method, passed: stored.verification.passed, confidence: stored.verification.confidence } } : {}),
          ...(stored.answerNodeId ? { answerNodeId: stored.answerNodeId } : {}),
        }),
      );
      if (answers.length === limit) break;
    }
    if (page.length < PAGE_SIZE) break;
  }
  return Object.freeze(answers);
}
