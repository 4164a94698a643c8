/** Human output for the CLI: answers with numbered citations, progress bars, tables. */
import { relative, isAbsolute } from 'node:path';
import type { AuditVerification } from '../runtime/contracts/run-store';
import type { IngestReport, IngestSkipped } from '../runtime/contracts/store';
import type { FieldStatistics } from '../runtime/costmodel/cost-estimator';
import { CONFORMAL_MIN_SAMPLES } from '../runtime/costmodel/units';
import type { RunResult, SimulateResult } from '../runtime/explain/explain-types';
import { renderExplainTree } from '../runtime/explain/explain-tree';

/** Skipped files listed one per line up to this many; --json lists them all. */
export const MAX_SKIPPED_LINES = 20;

export function renderRun(result: RunResult): string {
  const lines: string[] = [`Run ${result.runId}: ${result.status}`];
  // Said before the answer, so no one reads the answer as checked.
  if (result.status === 'unverified') lines.push('NOT A VERIFIED ANSWER: its required verification failed on every attempt (reasons below).');
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

export function renderIngest(report: IngestReport): string {
  if (report.sources.length === 0) return `nothing ingested${report.skipped.length > 0 ? ` (${report.skipped.length} skipped, see below)` : ''}`;
  return report.sources.map((result) => `${result.source}: ${result.changed ? `version ${result.versionId}` : 'unchanged'} — ${result.documents} documents, ${result.chunks} chunks`).join('\n');
}

/** "warning: skipped <path>: <reason>" per file, paths relative to `cwd` when inside it; capped. */
export function renderSkipped(skipped: readonly IngestSkipped[], cwd: string): string[] {
  const shown = (path: string) => {
    const inside = relative(cwd, path);
    return inside !== '' && !inside.startsWith('..') && !isAbsolute(inside) ? inside : path;
  };
  const lines = skipped.slice(0, MAX_SKIPPED_LINES).map((entry) => `warning: skipped ${shown(entry.path)}: ${entry.reason}`);
  if (skipped.length > MAX_SKIPPED_LINES) lines.push(`warning: … and ${skipped.length - MAX_SKIPPED_LINES} more skipped (--json lists all)`);
  return lines;
}

/**
 * One `stats` line. Coverage on a handful of runs is noise (one miss in two reads 0.50), so below
 * the learned estimator's own threshold for a conformal interval it says so instead of a figure.
 */
export function renderStatisticsRow(row: FieldStatistics): string {
  const coverage = row.count < CONFORMAL_MIN_SAMPLES ? `too few samples (n=${row.count}, needs ${CONFORMAL_MIN_SAMPLES})` : `coverage=${row.intervalCoverage.toFixed(2)}`;
  return `${row.field.padEnd(24)} ${row.intentClass.padEnd(11)} n=${String(row.count).padEnd(5)} MAE=${row.meanAbsoluteError.toPrecision(3).padEnd(9)} ${coverage} p90=[${row.p90Interval.map((value) => value.toPrecision(3)).join(', ')}]`;
}

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

/** `audit verify`: the verdict first, then each broken row, then the head to keep elsewhere. */
export function renderAuditVerification(verification: AuditVerification): string {
  const lines = [verification.intact ? `approval log intact: ${verification.rows} rows chained` : `approval log BROKEN: ${verification.problems.length} problem(s) in ${verification.rows} rows`];
  for (const { id, problem } of verification.problems) lines.push(`  row ${id}: ${problem}`);
  lines.push(`head ${verification.head || '(empty log)'}`);
  return lines.join('\n');
}
