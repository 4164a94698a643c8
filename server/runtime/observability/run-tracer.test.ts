import { afterEach, describe, expect, it, vi } from 'vitest';
import { TRACE_SINK_CONTRACT, type Span, type TraceSinkPlugin } from '../contracts/trace-sink';
import { RunTracer, SPAN_BATCH_INTERVAL_MS } from './run-tracer';

/** Records what reaches each of the sink's two doors. */
function recordingSink(withExport = true) {
  const written: Span[] = [];
  const exported: Span[] = [];
  const sink: TraceSinkPlugin = {
    contract: TRACE_SINK_CONTRACT,
    write: async (spans) => void written.push(...spans),
    spansOf: async () => written,
    ...(withExport ? { exportOnly: async (spans: readonly Span[]) => void exported.push(...spans) } : {}),
  };
  return { sink, written, exported };
}

describe('RunTracer', () => {
  afterEach(() => vi.useRealTimers());

  it('writes a checkpoint batch only once an interval has passed since spans were last taken; flush always writes', async () => {
    vi.useFakeTimers({ toFake: ['Date'] });
    const { sink, written } = recordingSink();
    const tracer = new RunTracer('run-1', sink);
    tracer.record('retrieve', 'node', 1);
    await tracer.flushBatched();
    expect(written).toEqual([]);
    vi.setSystemTime(Date.now() + SPAN_BATCH_INTERVAL_MS);
    await tracer.flushBatched();
    expect(written.map((span) => span.name)).toEqual(['retrieve']);
    tracer.record('reason', 'node', 1);
    await tracer.flushBatched();
    expect(written).toHaveLength(1);
    await tracer.flush();
    expect(written.map((span) => span.name)).toEqual(['retrieve', 'reason']);
  });

  it('stamps every span of a sensitive run, also those recorded before it knew', async () => {
    const { sink, written } = recordingSink();
    const tracer = new RunTracer('run-1', sink);
    tracer.record('planner.intent', 'planner', 2);
    await tracer.flush();
    tracer.record('planner.chosen', 'planner', 0, { candidate: 'c1' });
    tracer.markSensitive();
    tracer.start('run', 'run', undefined, { goal: 'g' }).end();
    await tracer.flush();
    expect(written.map((span) => [span.name, span.attributes.sensitive])).toEqual([
      ['planner.intent', undefined],
      ['planner.chosen', true],
      ['run', true],
    ]);
  });

  it('sends the spans of a decision without a run to exportOnly, never to the store', async () => {
    const { sink, written, exported } = recordingSink();
    const tracer = new RunTracer('decision-1', sink, { transient: true });
    tracer.start('explain', 'explain').end();
    await tracer.flush();
    expect(written).toEqual([]);
    expect(exported.map((span) => span.name)).toEqual(['explain']);
  });

  it('drops transient spans when the sink has no exporter', async () => {
    const { sink, written } = recordingSink(false);
    const tracer = new RunTracer('decision-2', sink, { transient: true });
    tracer.start('simulate', 'simulate').end();
    await tracer.flush();
    expect(written).toEqual([]);
  });

  it('writes the spans flushed while a write is under way in one batch, each caller waiting for its own', async () => {
    const batches: string[][] = [];
    let release: () => void = () => undefined;
    const sink: TraceSinkPlugin = {
      contract: TRACE_SINK_CONTRACT,
      write: async (spans) => {
        batches.push(spans.map((span) => span.name));
        if (batches.length === 1) await new Promise<void>((resolve) => (release = resolve));
      },
      spansOf: async () => [],
    };
    const tracer = new RunTracer('run-2', sink);
    tracer.record('node.a', 'node', 1);
    const first = tracer.flush();
    tracer.record('node.b', 'node', 1);
    const second = tracer.flush();
    tracer.record('node.c', 'node', 1);
    let thirdDone = false;
    const third = tracer.flush().then(() => (thirdDone = true));
    await new Promise((resolve) => setTimeout(resolve, 10));
    expect(batches).toEqual([['node.a']]);
    expect(thirdDone).toBe(false);
    release();
    await Promise.all([first, second, third]);
    expect(batches).toEqual([['node.a'], ['node.b', 'node.c']]);
  });

  it('fails every flush whose spans were in a failed batch, and writes later spans afresh', async () => {
    let calls = 0;
    const written: string[] = [];
    const sink: TraceSinkPlugin = {
      contract: TRACE_SINK_CONTRACT,
      write: async (spans) => {
        calls++;
        if (calls === 2) throw new Error('database gone');
        written.push(...spans.map((span) => span.name));
      },
      spansOf: async () => [],
    };
    const tracer = new RunTracer('run-3', sink);
    tracer.record('node.a', 'node', 1);
    const first = tracer.flush();
    tracer.record('node.b', 'node', 1);
    const second = tracer.flush();
    tracer.record('node.c', 'node', 1);
    const third = tracer.flush();
    await expect(first).resolves.toBeUndefined();
    await expect(second).rejects.toThrow('database gone');
    await expect(third).rejects.toThrow('database gone');
    tracer.record('node.d', 'node', 1);
    await tracer.flush();
    expect(written).toEqual(['node.a', 'node.d']);
  });
});
