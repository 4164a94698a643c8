/** Contract version of the Retention plugin (deleting old runs, spans and observations). */
export const RETENTION_CONTRACT = 'retention/v1' as const;

/** Ages in days past which rows are deleted; null keeps that kind forever. */
export interface RetentionPolicy {
  readonly runsDays: number | null;
  readonly spansDays: number | null;
  readonly observationsDays: number | null;
}

export interface RetentionReport {
  /** When the policy was applied; each cutoff is this minus the kind's days. */
  readonly appliedAt: string;
  readonly deletedRuns: number;
  readonly deletedSpans: number;
  readonly deletedObservations: number;
  /**
   * Runs old enough to go but kept: waiting at an approval gate or still running (a decision or
   * an execution is pending on them), or named by the append-only approval audit log.
   */
  readonly keptRuns: number;
}

/** Applies a retention policy to the stored runs, spans and observations. */
export interface RetentionPlugin {
  readonly contract: typeof RETENTION_CONTRACT;
  apply(policy: RetentionPolicy, now?: Date): Promise<RetentionReport>;
}
