import type { Intent } from '../types';

/** Contract version of the IntentAnalyzer planner stage. */
export const INTENT_ANALYZER_CONTRACT = 'intent-analyzer/v1' as const;

/** "What is wanted?" — classifies a goal and extracts entities; cheap, deterministic, cacheable. */
export interface IntentAnalyzerPlugin {
  readonly contract: typeof INTENT_ANALYZER_CONTRACT;
  analyze(goal: string): Intent;
}
