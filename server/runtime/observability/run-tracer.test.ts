import { describe, expect, it } from 'vitest';
import { TRACE_SINK_CONTRACT, type Span, type TraceSinkPlugin } from '../contracts/trace-sink';
import { RunTracer } from './run-tracer';

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
});
