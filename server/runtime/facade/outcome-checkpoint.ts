/**
 * When a run's node outcomes (and the spans with them) are written. Each write is a statement,
 * and a statement costs about a millisecond of the one thread embedded Postgres runs on whatever
 * it holds (bench:loc: `select 1` through the driver, ~1.2 ms of CPU); writing each of a run's 8
 * nodes and their spans on its own made 17 of a run's ~40 statements.
 *
 * An outcome is kept so a resumed run need not do the work again. Work that costs money or a
 * person's decision (a model call, an approval, a node with a compensation to undo) starts only
 * once the outcomes before it are written, and its own is written as soon as it is done: a crash
 * during a model call resumes at that call. Cheap, repeatable work (retrieval without a model,
 * fusion, compression, assembly, verification, branches) waits for such a write or for the end of
 * the scheduler's pass; a crash in between only repeats it.
 *
 * A skipped node (a branch not taken) is written with the next batch too: the scheduler derives a
 * skip again from the branch's outcome (or from inputs that were all skipped) on resume, so a skip
 * lost with the outcomes it follows from is decided again, never wrongly.
 */
import type { RunStatus, RunStatusUpdate, RunStorePlugin, SavedNodeOutcome } from '../contracts/run-store';
import type { NodeOutcome } from '../contracts/scheduler';
import type { GraphNode } from '../ir/graph';

/** Node kinds whose outcome is cheap to compute again: retrieval, fusion, reranking without a model, packing, checking. */
const REPEATABLE_KINDS: ReadonlySet<GraphNode['kind']> = new Set(['retrieve', 'fuse', 'rerank', 'compress', 'assemble', 'verify', 'branch', 'merge']);

/** True for a node whose work costs money, a decision or a side effect: repeating it is not free. */
export const isCostlyToRepeat = (node: GraphNode): boolean => !REPEATABLE_KINDS.has(node.kind) || node.compensation !== undefined;

/** True when losing this outcome to a crash would cost money, a decision or a side effect again (an LLM reranker's spend included). */
export function mustKeepAtOnce(node: GraphNode, outcome: NodeOutcome): boolean {
  return isCostlyToRepeat(node) || outcome.actual.costUsd > 0 || (outcome.actual.modelTokens ?? 0) > 0;
}

export class OutcomeCheckpoint {
  private pending: SavedNodeOutcome[] = [];
  private pendingSkips: string[] = [];

  constructor(
    private readonly runStore: RunStorePlugin,
    private readonly runId: string,
    /** Writes the spans recorded so far, as the run's tracer batches them (RunTracer.flushBatched). */
    private readonly flushSpans: () => Promise<void>,
  ) {}

  /** Called before a node executes: a costly one starts only once what it builds on is written. */
  async before(node: GraphNode): Promise<void> {
    // Skips alone are not written here: the scheduler decides them again on resume.
    if (!isCostlyToRepeat(node) || this.pending.length === 0) return;
    await this.write();
    await this.flushSpans();
  }

  /** Records a finished node; writes it (and what waited) at once when it must not be lost. */
  async done(node: GraphNode, outcome: NodeOutcome, attempts: number): Promise<void> {
    this.pending.push({ nodeId: node.id, outcome, attempts });
    if (!mustKeepAtOnce(node, outcome)) return;
    await this.write();
    await this.flushSpans();
  }

  /** Records a skipped node; written with the next outcomes. */
  skipped(nodeId: string): void {
    this.pendingSkips.push(nodeId);
  }

  /** Writes every outcome and skip still waiting, in completion order: before the run's status changes, it pauses or another worker takes it. */
  async write(): Promise<void> {
    const { entries, skips } = this.take();
    if (entries.length === 0 && skips.length === 0) return;
    if (this.runStore.saveNodeOutcomes) return this.runStore.saveNodeOutcomes(this.runId, entries, skips);
    for (const entry of entries) await this.runStore.saveNodeOutcome(this.runId, entry.nodeId, entry.outcome, entry.attempts);
    for (const nodeId of skips) await this.runStore.markSkipped(this.runId, nodeId);
  }

  /**
   * Sets the run's status with every outcome still waiting written first — in the same statement
   * where the store can (a finished run's last batch was a statement of its own on every run).
   * What waits here is repeatable work only (costly outcomes were written as they ended), so the
   * status write may come after other work (the answer composed and recorded): a crash before it
   * leaves the run `running`, and its resume repeats only that cheap work.
   */
  async writeWithStatus(status: RunStatus, fields: RunStatusUpdate): Promise<boolean | void> {
    if (this.runStore.setStatusWithOutcomes) {
      const { entries, skips } = this.take();
      return this.runStore.setStatusWithOutcomes(this.runId, status, fields, entries, skips);
    }
    await this.write();
    return this.runStore.setStatus(this.runId, status, fields);
  }

  private take(): { readonly entries: readonly SavedNodeOutcome[]; readonly skips: readonly string[] } {
    const taken = { entries: this.pending, skips: this.pendingSkips };
    this.pending = [];
    this.pendingSkips = [];
    return taken;
  }
}
