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
 * The schedule cut after the first wave holding a node without a saved outcome (earlier waves are
 * all done or skipped, and the scheduler passes over them), and whether waves remain after it.
 * Waves of in-memory nodes right after it join the same job: each job costs a queue round trip
 * (measured 1–3 s on a loaded 2-core machine, bench:workers) for nodes that take a millisecond.
 */
export function nextWave(schedule: Schedule, record: Pick<RunRecord, 'nodeOutcomes' | 'skipped'>, graph: ExecutionGraph): { schedule: Schedule; more: boolean } {
  const settled = new Set([...record.nodeOutcomes.keys(), ...record.skipped]);
  const kinds = new Map(graph.nodes.map((node) => [node.id, node.kind]));
  let end = schedule.waves.findIndex((wave) => wave.some((nodeId) => !settled.has(nodeId)));
  if (end < 0) return { schedule, more: false };
  while (end + 1 < schedule.waves.length && schedule.waves[end + 1].every((nodeId) => IN_MEMORY_KINDS.has(kinds.get(nodeId) ?? ''))) end += 1;
  return { schedule: { ...schedule, waves: schedule.waves.slice(0, end + 1) }, more: end + 1 < schedule.waves.length };
}
