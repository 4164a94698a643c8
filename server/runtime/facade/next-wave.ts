/**
 * What one job of a queued run executes (execution.engine graphile_worker): the engine has no DAGs,
 * so the runtime hands it the Execution Graph a wave at a time (facade/queued-run.ts).
 */
import type { RunRecord } from '../contracts/run-store';
import type { Schedule } from '../contracts/scheduler';
import type { ExecutionGraph } from '../ir/graph';

/**
 * Node kinds that compute in memory from their inputs (no model; compress at most looks up and keeps
 * one compressed-context row, an indexed read and an insert): not worth a job of their own.
 */
const IN_MEMORY_KINDS: ReadonlySet<string> = new Set(['fuse', 'compress', 'assemble', 'merge', 'branch']);

/**
 * Nodes the scheduler will skip without executing, by its own rules (wave-scheduler.ts): a branch
 * target its branch did not take, and a node whose inputs were all skipped, transitively. A gate's
 * untaken retry attempt is five waves of such nodes: each was a job of its own (a queue round trip
 * and a run read for nothing; bench:workers, 2026-12-02: 9 jobs a run, 4 of them only skipping).
 */
function skippedAhead(schedule: Schedule, record: Pick<RunRecord, 'nodeOutcomes' | 'skipped'>, graph: ExecutionGraph): ReadonlySet<string> {
  const nodes = new Map(graph.nodes.map((node) => [node.id, node]));
  const skipped = new Set(record.skipped);
  for (const [nodeId, outcome] of record.nodeOutcomes) {
    const node = nodes.get(nodeId);
    if (node?.kind !== 'branch' || !outcome.takenBranch) continue;
    for (const target of [...node.whenTrue, ...node.whenFalse]) if (!outcome.takenBranch.includes(target)) skipped.add(target);
  }
  for (const wave of schedule.waves) {
    for (const nodeId of wave) {
      const inputs = nodes.get(nodeId)?.inputs ?? [];
      if (!record.nodeOutcomes.has(nodeId) && inputs.length > 0 && inputs.every((input) => skipped.has(input))) skipped.add(nodeId);
    }
  }
  return skipped;
}

/**
 * The schedule cut after the first wave holding a node that will execute (earlier waves are all
 * done or skipped, and the scheduler passes over them), and whether waves remain after it. Waves of
 * in-memory nodes right after it join the same job: each job costs a queue round trip (measured
 * 1–3 s on a loaded 2-core machine, bench:workers) for nodes that take a millisecond. `work` is
 * false when nothing remains but skips: the caller finishes those in the job it is in.
 */
export function nextWave(schedule: Schedule, record: Pick<RunRecord, 'nodeOutcomes' | 'skipped'>, graph: ExecutionGraph): { schedule: Schedule; more: boolean; work: boolean } {
  const skipped = skippedAhead(schedule, record, graph);
  const settled = (nodeId: string) => record.nodeOutcomes.has(nodeId) || skipped.has(nodeId);
  const kinds = new Map(graph.nodes.map((node) => [node.id, node.kind]));
  let end = schedule.waves.findIndex((wave) => wave.some((nodeId) => !settled(nodeId)));
  if (end < 0) return { schedule, more: false, work: false };
  while (end + 1 < schedule.waves.length && schedule.waves[end + 1].every((nodeId) => IN_MEMORY_KINDS.has(kinds.get(nodeId) ?? '') || settled(nodeId))) end += 1;
  return { schedule: { ...schedule, waves: schedule.waves.slice(0, end + 1) }, more: end + 1 < schedule.waves.length, work: true };
}
