/**
 * For router tests: a whole RuntimePort whose members fail loudly unless the test supplies them,
 * so a fake names only what it uses yet still type-checks against the full port (no casts).
 */
import { DEFAULT_LIMITS } from '../runtime/config/limits-schema';
import type { RuntimePort } from './runtime-port';

const unused = (member: string) => () => Promise.reject(new Error(`runtime.${member} is not used by this test`));

export function fakeRuntimePort(overrides: Partial<RuntimePort> = {}): RuntimePort {
  return {
    config: { limits: DEFAULT_LIMITS },
    run: unused('run'),
    submit: unused('submit'),
    runEditedPlan: unused('runEditedPlan'),
    evidence: unused('evidence'),
    explain: unused('explain'),
    simulate: unused('simulate'),
    contextFor: unused('contextFor'),
    approve: unused('approve'),
    cancel: unused('cancel'),
    getRun: unused('getRun'),
    listRuns: unused('listRuns'),
    pendingApprovals: unused('pendingApprovals'),
    waitingRunsOf: unused('waitingRunsOf'),
    recentAnswers: unused('recentAnswers'),
    approvalLog: unused('approvalLog'),
    verifyApprovalLog: unused('verifyApprovalLog'),
    sources: unused('sources'),
    ingestServerPath: unused('ingestServerPath'),
    ingestUpload: unused('ingestUpload'),
    statistics: unused('statistics'),
    applyRetention: unused('applyRetention'),
    calibration: unused('calibration'),
    // A Knowledge plugin without a graph, and no plan cache: what a minimal runtime really has.
    knowledge: async () => ({}),
    planCache: () => undefined,
    learning: () => {
      throw new Error('runtime.learning is not used by this test');
    },
    ...overrides,
  };
}
