/**
 * console.start/follow and console.evidence over the real runtime (embedded PGlite, demo corpus): the
 * progress callback is threaded from run() through the scheduler, and a citation opens its chunk.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { DEMO_QUESTION } from '../../ingest/demo-corpus';
import type { RunResult } from '../../runtime/explain/explain-types';
import type { RunProgressEvent } from '../../runtime/facade/run-progress';
import { openRuntimeFixture, type RuntimeFixture } from '../../testing/runtime-fixture';
import { createCaller } from '../root-router';
import type { ConsoleRunEvent } from './console-router';

let fixture: RuntimeFixture;
let events: RunProgressEvent[];
let result: RunResult;
let caller: ReturnType<typeof createCaller>;

describe('console router on the real runtime', () => {
  beforeAll(async () => {
    fixture = await openRuntimeFixture();
    caller = createCaller({ runtime: async () => fixture.runtime, principal: { user: 'ada', roles: ['operator'] } });
    const received: ConsoleRunEvent[] = [];
    const { runId } = await caller.console.start({ goal: DEMO_QUESTION });
    for await (const envelope of await caller.console.follow({ runId })) received.push((envelope as unknown as [string, ConsoleRunEvent])[1]);
    events = received.flatMap((item) => (item.type === 'progress' ? [item.event] : []));
    const last = received.at(-1);
    if (last?.type !== 'result') throw new Error('the stream did not end with the result');
    result = last.result;
  });

  afterAll(async () => {
    await fixture?.close();
  });

  it('announces the whole graph, then every node finishes after all of its inputs', () => {
    expect(result.status).toBe('completed');
    const [first] = events;
    expect(first.type).toBe('run_started');
    const graph = result.explain.graph;
    expect(first.type === 'run_started' && first.nodes.map((node) => node.nodeId)).toEqual(graph.nodes.map((node) => node.id));
    const settledAt = new Map(events.flatMap((event, index) => (event.type === 'node_finished' || event.type === 'node_skipped' ? [[event.nodeId, index] as const] : [])));
    for (const node of graph.nodes) {
      if (!settledAt.has(node.id)) continue;
      for (const input of node.inputs) expect(settledAt.get(input), `${input} before ${node.id}`).toBeLessThan(settledAt.get(node.id)!);
    }
    for (const event of events) if (event.type === 'node_finished') expect(events.findIndex((other) => other.type === 'node_started' && other.nodeId === event.nodeId)).toBeLessThan(events.indexOf(event));
  });

  it('streams the same actuals EXPLAIN ANALYZE reports, and the model that answered', () => {
    const analyzed = new Map(result.explain.analyze!.nodes.map((node) => [node.nodeId, node]));
    const finished = events.filter((event) => event.type === 'node_finished');
    expect(finished.length).toBeGreaterThan(2);
    for (const event of finished) expect(event.actual).toEqual(analyzed.get(event.nodeId)?.actual);
    const reasoned = finished.find((event) => event.kind === 'reason');
    expect(reasoned?.models.length).toBeGreaterThan(0);
  });

  it('opens a cited chunk with its source version', async () => {
    const citation = result.citations[0];
    const chunk = await caller.console.evidence({ runId: result.runId, chunkId: citation.chunkId });
    expect(chunk.sourceName).toBe(citation.sourceName);
    expect(chunk.text.length).toBeGreaterThan(0);
    expect(chunk.versionNo).toBe(1);
    expect(chunk.superseded).toBe(false);
  });

  it("lists the run in its user's history only", async () => {
    expect((await caller.console.history()).map((run) => run.id)).toContain(result.runId);
    const other = createCaller({ runtime: async () => fixture.runtime, principal: { user: 'bob', roles: ['viewer'] } });
    expect((await other.console.history()).map((run) => run.id)).not.toContain(result.runId);
  });
});
