/**
 * The learner's in-memory state per observation store and estimator: loaded from the store on
 * first use (so a restart resumes from Postgres) and then extended run by run, so a run pays for
 * one append rather than a full re-read. Another process writing the same store is picked up
 * after RELOAD_AFTER_MS.
 */
import type { ObservationStorePlugin } from '../contracts/observation-store';
import type { EstimatedField, IntentClass } from '../types';
import { summarize, type FieldStatistics } from './cost-estimator';
import { RunningSummary } from './running-summary';
import { ObservationLearner, type LearningObservation } from './observation-learner';
import { ReasonerOutcomeTally } from './reasoner-gains';

/** A CLI run against the server's database shows up in the server's learner within a minute. */
const RELOAD_AFTER_MS = 60_000;

export interface LearningState {
  readonly learner: ObservationLearner;
  /** Run outcomes per intent class, tier and reasoner: what reasoner gains are learned from (reasoner-gains.ts). */
  readonly outcomes: ReasonerOutcomeTally;
  /** The estimator's observations, oldest first. */
  readonly observations: readonly LearningObservation[];
  record(observations: readonly LearningObservation[]): void;
  /** Calibration of one field for one intent class (count 0 when never observed). */
  calibration(field: EstimatedField, intentClass: IntentClass): FieldStatistics;
}

const cache = new WeakMap<ObservationStorePlugin, Map<string, { readonly loadedAt: number; readonly state: Promise<LearningState> }>>();

async function load(store: ObservationStorePlugin, estimator: string): Promise<LearningState> {
  const observations = (await store.all({ estimator })).filter((observation) => observation.estimator === estimator) as LearningObservation[];
  const learner = ObservationLearner.from(observations);
  const outcomes = new ReasonerOutcomeTally();
  // Each field × intent class's running summary, extended as observations come: EXPLAIN ANALYZE
  // reads a run's fields after every run, and summarising the whole history each time (a filter
  // and a sort) grew with it (bench:loc: ~1.3 ms a run after ~250 runs, and without bound after).
  const cellOf = (field: EstimatedField, intentClass: IntentClass) => `${field}\u0000${intentClass}`;
  const grouped = new Map<string, LearningObservation[]>();
  for (const observation of observations) {
    outcomes.add(observation);
    const key = cellOf(observation.field, observation.intentClass);
    const cell = grouped.get(key);
    if (cell) cell.push(observation);
    else grouped.set(key, [observation]);
  }
  const cells = new Map([...grouped].map(([key, cell]) => [key, RunningSummary.from(cell)]));
  const index = (observation: LearningObservation) => {
    const key = cellOf(observation.field, observation.intentClass);
    const cell = cells.get(key) ?? new RunningSummary();
    cells.set(key, cell);
    cell.add(observation);
  };
  return {
    learner,
    outcomes,
    observations,
    record(added) {
      for (const observation of added) {
        observations.push(observation);
        learner.add(observation);
        outcomes.add(observation);
        index(observation);
      }
    },
    calibration(field, intentClass) {
      return cells.get(cellOf(field, intentClass))?.statistics(field, intentClass, estimator) ?? summarize(field, intentClass, [], estimator);
    },
  };
}

export function learningStateFor(store: ObservationStorePlugin, estimator: string): Promise<LearningState> {
  const perStore = cache.get(store) ?? new Map();
  cache.set(store, perStore);
  const cached = perStore.get(estimator);
  if (cached && Date.now() - cached.loadedAt < RELOAD_AFTER_MS) return cached.state;
  const state = load(store, estimator);
  // A failed load must not poison the cache: the next call retries.
  state.catch(() => perStore.delete(estimator));
  perStore.set(estimator, { loadedAt: Date.now(), state });
  return state;
}
