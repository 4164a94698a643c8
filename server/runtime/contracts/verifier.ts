import type { VerifyMethod } from '../ir/graph';
import type { Citation, ContextItem, VerificationMethod } from '../types';
import type { RoutedResult } from './router';

/** Contract version of the Verifier plugin. */
export const VERIFIER_CONTRACT = 'verifier/v1' as const;

export interface VerificationCheck {
  readonly name: string;
  readonly passed: boolean;
  /** 0–1. */
  readonly score: number;
  readonly detail: string;
}

export interface VerificationResult {
  /** The last verify node's method; its checks include those of the verify nodes it read (a chain folds its verdicts). */
  readonly method: VerifyMethod;
  readonly passed: boolean;
  readonly confidence: number;
  readonly checks: readonly VerificationCheck[];
  /** A judge's model calls (llm_judge), for cost, tokens and fallbacks; absent when no model was asked. */
  readonly modelCalls?: readonly RoutedResult[];
}

/** A result is incomplete until it passes its verification policy. */
export interface VerifierPlugin {
  readonly contract: typeof VERIFIER_CONTRACT;
  readonly method: VerificationMethod;
  /** Prior confidence this verifier gives when it passes (cost model input). */
  readonly confidencePrior: number;
  verify(input: { readonly goal: string; readonly answer: string; readonly citations: readonly Citation[]; readonly context: readonly ContextItem[] }): VerificationResult;
}
