/** A tool loop's steps in EXPLAIN ANALYZE's tree: each model call with its tool calls, tokens and cost, against the expected steps. */
import type { AnalyzedToolLoop } from './explain-types';

const usd = (value: number) => `$${value.toFixed(6)}`;

export function toolLoopText(loop: AnalyzedToolLoop): string {
  const steps = loop.steps.map((step) => `step ${step.step} ${step.finish === 'answer' ? 'answer' : step.tools.join('+')} ${step.tokens} tokens ${usd(step.costUsd)} ${step.latencyMs} ms`);
  const expected = `est ${loop.stepsEstimated} steps × ${loop.estimatePerStep.tokens} tokens ${usd(loop.estimatePerStep.costUsd)}`;
  return `[tool loop: ${loop.steps.length} of at most ${loop.maxSteps} steps (${expected}): ${steps.join('; ')}; ended by ${loop.end}]`;
}
