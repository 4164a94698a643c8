/**
 * The TraceSink when observability is configured: spans go to Postgres first (the store the console
 * and the learning loop read, whose failure the runtime must see) and then to the OpenTelemetry
 * exporters, which batch and send in the background. An exporter's trouble is logged by the SDK and
 * never fails a run.
 */
import { TRACE_SINK_CONTRACT, type Span, type TraceSinkPlugin } from '../../runtime/contracts/trace-sink';
import type { OtelSpanEmitter } from './otel-span-emitter';

export class OtelTraceSink implements TraceSinkPlugin {
  readonly contract = TRACE_SINK_CONTRACT;

  constructor(
    private readonly store: TraceSinkPlugin,
    private readonly emitter: OtelSpanEmitter,
  ) {}

  async write(spans: readonly Span[]): Promise<void> {
    await this.store.write(spans);
    this.emitter.emit(spans);
  }

  spansOf(runId: string): Promise<readonly Span[]> {
    return this.store.spansOf(runId);
  }

  async exportOnly(spans: readonly Span[]): Promise<void> {
    this.emitter.emit(spans);
  }
}
