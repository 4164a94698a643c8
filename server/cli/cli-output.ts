/** Human output for the CLI: answers with numbered citations, progress bars, tables. */
import type { RunResult, SimulateResult } from '../runtime/explain/explain-types';
import { renderExplainTree } from '../runtime/explain/explain-tree';

export function renderRun(result: RunResult): string {
  const lines: string[] = [`Run ${result.runId}: ${result.status}`];
  if (result.answer) lines.push('', result.answer);
  if (result.citations.length) {
    lines.push('', 'Citations:');
    for (const citation of result.citations) lines.push(`  [${citation.ref}] ${citation.sourceName}${citation.locator ? `, ${citation.locator}` : ''}: ${citation.quote.replace(/\s+/g, ' ').slice(0, 160)}`);
  }
  if (result.verification) lines.push('', `Verification ${result.verification.method}: ${result.verification.passed ? 'passed' : 'FAILED'} (confidence ${result.verification.confidence.toFixed(2)})`);
  for (const caveat of result.caveats) lines.push(`Caveat: ${caveat}`);
  if (result.pendingApproval) lines.push('', `Waiting for approval at node ${result.pendingApproval.nodeId}: ${result.pendingApproval.reason}`, `  context-runtime approve ${result.runId} ${result.pendingApproval.nodeId} --decision approved --by <name>`);
  if (result.error) lines.push(`Error: ${result.error}`);
  lines.push('', `Plan ${result.explain.planHash} — see: context-runtime explain "${result.explain.goal.replace(/"/g, '\\"')}"`);
  return lines.join('\n');
}

export function renderSimulate(simulation: SimulateResult): string {
  const interval = (label: string, estimate: { value: number; low: number; high: number }, digits: number, unit = '') =>
    `  ${label.padEnd(10)} ${estimate.value.toFixed(digits)}${unit}  [${estimate.low.toFixed(digits)} – ${estimate.high.toFixed(digits)}]${unit}`;
  return [
    `Quote for plan ${simulation.planHash} (based on ${simulation.basedOnSamples} observed runs${simulation.basedOnSamples === 0 ? ': prior only, intervals are wide' : ''})`,
    interval('cost', simulation.expected.costUsd, 6, ' USD'),
    interval('latency', simulation.expected.latencySeconds, 3, ' s'),
    interval('tokens', simulation.expected.tokens, 0),
    interval('confidence', simulation.expectedConfidence, 2),
    `  models     ${simulation.expectedModels.join(', ')}`,
    `  retrieval  ${simulation.expectedRetrieval.join(' + ')}`,
  ].join('\n');
}

export { renderExplainTree };

/** A one-line progress bar on stderr (only when it is a terminal: logs stay clean). */
export function progressBar(stream: NodeJS.WriteStream = process.stderr) {
  return (done: number, total: number) => {
    const width = 30;
    const filled = total === 0 ? width : Math.round((done / total) * width);
    const text = `ingesting [${'#'.repeat(filled)}${'.'.repeat(width - filled)}] ${done}/${total}`;
    if (stream.isTTY) stream.write(`\r${text}${done >= total ? '\n' : ''}`);
    else if (done >= total) stream.write(`${text}\n`);
  };
}
