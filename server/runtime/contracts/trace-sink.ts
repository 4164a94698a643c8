/** Contract version of the TraceSink plugin. */
export const TRACE_SINK_CONTRACT = 'trace-sink/v1' as const;

/** One span: a planner decision or a node execution. */
export interface Span {
  readonly id: string;
  readonly runId: string;
  readonly parentId?: string;
  readonly name: string;
  /** "planner" | "node" | "model" | "run" | "retrieval" | "explain" | "simulate" | "build_context". */
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
  /**
   * Spans of a decision that made no run (EXPLAIN, SIMULATE, build_context): handed to the exporters where
   * observability is configured, never stored (no run exists to read them back for). Optional:
   * a sink without exporters ignores them.
   */
  exportOnly?(spans: readonly Span[]): Promise<void>;
}

/**
 * Attribute every span of a run the policy keeps local (a sensitive goal or source) carries: an
 * exporter sends such spans without goal, passage or error text.
 */
export const SENSITIVE_SPAN_ATTRIBUTE = 'sensitive' as const;
