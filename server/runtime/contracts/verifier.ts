import type { Citation, ContextItem, VerificationMethod } from '../types';

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
  readonly method: VerificationMethod;
  readonly passed: boolean;
  readonly confidence: number;
  readonly checks: readonly VerificationCheck[];
}

/** A result is incomplete until it passes its verification policy. */
export interface VerifierPlugin {
  readonly contract: typeof VERIFIER_CONTRACT;
  readonly method: VerificationMethod;
  /** Prior confidence this verifier gives when it passes (cost model input). */
  readonly confidencePrior: number;
  verify(input: { readonly goal: string; readonly answer: string; readonly citations: readonly Citation[]; readonly context: readonly ContextItem[] }): VerificationResult;
}
