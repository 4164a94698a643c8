/** Contract version of the TraceSink plugin. */
export const TRACE_SINK_CONTRACT = 'trace-sink/v1' as const;

/** One span: a planner decision or a node execution. */
export interface Span {
  readonly id: string;
  readonly runId: string;
  readonly parentId?: string;
  readonly name: string;
  /** "planner" | "node" | "model" | "run". */
  readonly category: string;
  readonly startedAt: string;
  readonly endedAt: string;
  readonly durationMs: number;
  readonly tokens: number;
  readonly costUsd: number;
  readonly status: 'ok' | 'error';
  readonly attributes: Readonly<Record<string, unknown>>;
}

/** Where spans go (Postgres for the learning loop; OpenTelemetry export optional). */
export interface TraceSinkPlugin {
  readonly contract: typeof TRACE_SINK_CONTRACT;
  write(spans: readonly Span[]): Promise<void>;
  spansOf(runId: string): Promise<readonly Span[]>;
}
