/**
 * A plan's checks run as a chain of verify nodes (deterministic citations → output schema → judge),
 * each reading the one before: the last node's output is the whole verdict, so a gate and the run
 * read one node. Folding keeps every earlier check and passes only when all passed.
 */
import type { VerificationCheck, VerificationResult } from '../contracts/verifier';
import type { VerifyMethod } from '../ir/graph';

export function foldVerdicts(method: VerifyMethod, earlier: readonly VerificationResult[], own: readonly VerificationCheck[], modelCalls: VerificationResult['modelCalls'] = []): VerificationResult {
  const checks = [...earlier.flatMap((result) => result.checks), ...own];
  const calls = [...earlier.flatMap((result) => result.modelCalls ?? []), ...modelCalls];
  const passed = checks.length > 0 && checks.every((check) => check.passed);
  const confidence = checks.length === 0 ? 0 : checks.reduce((sum, check) => sum + check.score, 0) / checks.length;
  return { method, passed, confidence, checks, ...(calls.length > 0 ? { modelCalls: calls } : {}) };
}
