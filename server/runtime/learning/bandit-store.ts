/**
 * Where the learning loop keeps its state. A port of the learning package (the runtime's contracts
 * folder is frozen for this change); server/adapters/db/pg-bandit-store.ts implements it in Postgres.
 */
import type { ArmState } from './lin-ucb';

export interface StoredArm extends ArmState {
  readonly contextSum: readonly number[];
}

export interface DecisionRecord {
  readonly runId: string;
  readonly policy: string;
  readonly arm: string;
  readonly context: readonly number[];
  readonly explored: boolean;
  readonly judgedQuality: number;
  readonly penalty: number;
  readonly reward: number;
}

export type Thumb = 'up' | 'down';

export interface FeedbackTally {
  readonly up: number;
  readonly down: number;
}

/** What observing a finished run needs to know first, read at once. */
export interface ObservationState {
  /** The run's decision is already stored: it was observed before (a resumed or repeated report). */
  readonly decided: boolean;
  readonly feedback: FeedbackTally;
}

export interface BanditStorePort {
  loadArms(policy: string, dimension: number): Promise<readonly StoredArm[]>;
  /** Arm and decision in one transaction, so a crash never counts a run in one and not the other. */
  saveObservation(policy: string, arm: StoredArm, decision: DecisionRecord): Promise<void>;
  decisionOf(runId: string): Promise<DecisionRecord | undefined>;
  /** Whether the run was observed already and its votes so far, in one read (every run asks both). */
  observationStateOf(runId: string): Promise<ObservationState>;
  /** Upserts one person's vote on a run; returns the run's tally after it. */
  recordFeedback(runId: string, user: string, thumb: Thumb): Promise<FeedbackTally>;
  feedbackOf(runId: string): Promise<FeedbackTally>;
}
