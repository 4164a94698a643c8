/**
 * Reasoner quality gains, learned from measurements rather than set by hand (issue 15.2).
 *
 * The cost model reads quality = q + g·(1 − q) (units.ts), g the gain of the candidate's reasoner
 * for the intent's primary class: the share of a one-shot answer's headroom the reasoner closes.
 * g is estimated here, per (reasoner, intent class), as a sample-weighted mean
 *
 *   g = (k · target + m · fitted + n · observed) / (k + m + n)
 *
 *   target   = config costmodel.reasoner_gains when set (an operator's measurement), else 0, weighed as
 *              k = PRIOR_RUNS samples: nothing unmeasured is preferred over one shot on a prior alone
 *              (session 23's hand-set 0.2 made plan_worker_critic win every goal on a free loopback tier)
 *   fitted   = the shipped table FITTED_REASONER_GAINS, weighed by the m questions it was fitted on
 *              (dropped when a table is configured: the configured one replaces it whole)
 *   observed = per model tier, (aᵣ − a₀) / (1 − a₀): the share of single_shot's failures the reasoner
 *              turned into successes, with a the Laplace-smoothed success rate of the planner's
 *              accuracy observations (verification passed, or the answer cites: cost-estimator.ts)
 *              of that reasoner (aᵣ) and of single_shot (a₀) on the same intent class and tier,
 *              averaged over tiers weighted by n = min(runs of the reasoner, runs of single_shot)
 *
 * `observed` is the quality formula read backwards, with single_shot's observed success rate in
 * place of q. Runs of the two reasoners answer different questions of the class (the planner chose
 * them), so an observed gain carries that selection; PRIOR_RUNS keeps a few lucky runs from moving
 * the planner.
 *
 * This module owns a reasoner's quality gain: learned-v2 learns accuracy from single_shot runs only
 * (observation-learner.ts, accuracyShape), so the same runs never add the gain a second time.
 */
import type { IntentClass } from '../types';
import { BASELINE_REASONER, reasonerOfShape } from './observation-learner';

/** Samples the target counts for: twenty runs (or fitted questions) of a reasoner move its gain halfway. */
export const PRIOR_RUNS = 20;
/** Grid a resolved gain is rounded to: gains are in the plan-cache key, so a finer grid re-plans after nearly every run. */
export const GAIN_STEP = 0.01;
export { BASELINE_REASONER };

/** A shipped gain with the answers it was fitted on. */
export interface FittedGain {
  readonly gain: number;
  /** Questions answered by both single_shot and the reasoner that the gain was fitted on. */
  readonly questions: number;
}

/**
 * Fitted by bench/answers/reasoner-gain-fit.ts on the tune halves (odd positions) of musique-train100
 * and hotpotqa-train100 pooled, single_shot vs decomposition with the offline reader (F1 ratio → gain at
 * the extractive tier's quality prior 0.45; printed: multi_hop 97 questions, F1 2.55 → 2.70, gain 0.0436;
 * conceptual 3 questions, F1 6.22 → 7.70, gain 0.0800): bench/answers/RESULTS.md, "Reasoner gains
 * learned from observations". Held-out halves were not used. Only classes fitted on at least
 * MIN_SHIPPED_QUESTIONS questions are shipped: the conceptual gain, shrunk to 0.01, still made the
 * planner pick the decomposition for compound conceptual questions ("Which commit fixed …, and what
 * was wrong …?"), whose answer hop then quoted the bridge hop's item instead of the answer (freight dev
 * set: 3 of 20 key facts lost; bench/answers/RESULTS.md, session 31). The mixtures and tool_loop have no
 * entry: nothing offline can run them, so they start at 0 until runs (or an operator's config) say otherwise.
 */
export const MIN_SHIPPED_QUESTIONS = PRIOR_RUNS;
export const FITTED_REASONER_GAINS: Readonly<Record<string, Readonly<Partial<Record<IntentClass, FittedGain>>>>> = {
  decomposition: { multi_hop: { gain: 0.0436, questions: 97 } },
};

export type GainSource = 'prior' | 'fitted' | 'configured' | 'observed';

/** One resolved gain and what decided it: what EXPLAIN prints. */
export interface ResolvedGain {
  readonly gain: number;
  /** The shrinkage target: configured, or 0. */
  readonly target: number;
  readonly targetSource: 'configured' | 'prior';
  /** The shipped fitted gain and the questions behind it (absent when a table is configured or the pair has none). */
  readonly fitted?: FittedGain;
  /** Observed runs behind the observed part (0: the target alone decided). */
  readonly runs: number;
  /** 'observed' when runs moved the estimate, else 'fitted' when the shipped table did, else the target's source. */
  readonly source: GainSource;
}

export type ReasonerGainTable = Readonly<Record<string, Readonly<Partial<Record<IntentClass, ResolvedGain>>>>>;

/** What an accuracy observation contributes: intent class, plan shape ("tier/reasoner/methods") and outcome. */
export interface OutcomeObservation {
  readonly field: string;
  readonly intentClass: IntentClass;
  readonly shape?: string;
  readonly actual: number;
}

/** Running success counts per (intent class, tier, reasoner), from the planner's accuracy observations. */
export class ReasonerOutcomeTally {
  private readonly tallies = new Map<string, { runs: number; successes: number }>();

  add(observation: OutcomeObservation): void {
    if (observation.field !== 'accuracy' || !observation.shape || !Number.isFinite(observation.actual)) return;
    const [tier] = observation.shape.split('/');
    const reasoner = reasonerOfShape(observation.shape);
    if (!tier || !reasoner) return;
    const key = `${observation.intentClass}|${tier}|${reasoner}`;
    const tally = this.tallies.get(key) ?? { runs: 0, successes: 0 };
    tally.runs += 1;
    tally.successes += Math.max(0, Math.min(1, observation.actual));
    this.tallies.set(key, tally);
  }

  /** (intent class, reasoner) pairs with runs, the baseline excluded. */
  pairs(): { readonly reasoner: string; readonly intentClass: IntentClass }[] {
    const seen = new Map<string, { reasoner: string; intentClass: IntentClass }>();
    for (const key of this.tallies.keys()) {
      const [intentClass, , reasoner] = key.split('|') as [IntentClass, string, string];
      if (reasoner !== BASELINE_REASONER) seen.set(`${reasoner}|${intentClass}`, { reasoner, intentClass });
    }
    return [...seen.values()];
  }

  /** The observed gain of a reasoner on an intent class and the runs behind it (0 runs: nothing comparable observed). */
  observed(reasoner: string, intentClass: IntentClass): { readonly gain: number; readonly runs: number } {
    let weighted = 0;
    let runs = 0;
    for (const [key, tally] of this.tallies) {
      const [keyClass, tier, keyReasoner] = key.split('|');
      if (keyClass !== intentClass || keyReasoner !== reasoner) continue;
      const baseline = this.tallies.get(`${intentClass}|${tier}|${BASELINE_REASONER}`);
      if (!baseline) continue;
      const weight = Math.min(tally.runs, baseline.runs);
      const rate = (successes: number, count: number) => (successes + 1) / (count + 2);
      const baseRate = rate(baseline.successes, baseline.runs);
      const gain = (rate(tally.successes, tally.runs) - baseRate) / (1 - baseRate);
      weighted += weight * Math.max(-1, Math.min(1, gain));
      runs += weight;
    }
    return { gain: runs === 0 ? 0 : weighted / runs, runs };
  }
}

type ConfiguredGains = Readonly<Record<string, Readonly<Partial<Record<string, number>>>>>;

// toFixed: 7 · 0.01 is 0.07000000000000001, which the plan-cache key and EXPLAIN would carry.
const round = (gain: number) => Number((Math.round(gain / GAIN_STEP) * GAIN_STEP).toFixed(6));

/**
 * Every pair with a target or observed runs, resolved. A configured table (costmodel.reasoner_gains)
 * replaces the shipped one whole, so a bench that fits gains on one set never mixes in the shipped fit.
 */
export function resolveReasonerGains(configured: ConfiguredGains, tally?: ReasonerOutcomeTally): ReasonerGainTable {
  const useConfigured = Object.keys(configured).length > 0;
  const table: Record<string, Partial<Record<IntentClass, ResolvedGain>>> = {};
  const pairs = new Map<string, { reasoner: string; intentClass: IntentClass }>();
  const targets = useConfigured ? configured : FITTED_REASONER_GAINS;
  for (const [reasoner, byClass] of Object.entries(targets)) for (const intentClass of Object.keys(byClass)) pairs.set(`${reasoner}|${intentClass}`, { reasoner, intentClass: intentClass as IntentClass });
  for (const pair of tally?.pairs() ?? []) pairs.set(`${pair.reasoner}|${pair.intentClass}`, pair);
  for (const { reasoner, intentClass } of [...pairs.values()].sort((a, b) => `${a.reasoner}|${a.intentClass}`.localeCompare(`${b.reasoner}|${b.intentClass}`))) {
    const configuredGain = useConfigured ? configured[reasoner]?.[intentClass] : undefined;
    const fitted = useConfigured ? undefined : FITTED_REASONER_GAINS[reasoner]?.[intentClass];
    const target = configuredGain ?? 0;
    const targetSource = configuredGain !== undefined ? 'configured' : 'prior';
    const questions = fitted?.questions ?? 0;
    const observed = tally?.observed(reasoner, intentClass) ?? { gain: 0, runs: 0 };
    const gain = round((PRIOR_RUNS * target + questions * (fitted?.gain ?? 0) + observed.runs * observed.gain) / (PRIOR_RUNS + questions + observed.runs));
    const source = observed.runs > 0 ? 'observed' : questions > 0 ? 'fitted' : targetSource;
    (table[reasoner] ??= {})[intentClass] = Object.freeze({ gain, target, targetSource, ...(fitted ? { fitted } : {}), runs: observed.runs, source });
  }
  return table;
}

/** The gains alone, as the cost model reads them (PlanningContext.reasonerGains) and the plan-cache key hashes them. */
export function gainValues(table: ReasonerGainTable): Record<string, Partial<Record<IntentClass, number>>> {
  const values: Record<string, Partial<Record<IntentClass, number>>> = {};
  for (const [reasoner, byClass] of Object.entries(table)) for (const [intentClass, resolved] of Object.entries(byClass)) (values[reasoner] ??= {})[intentClass as IntentClass] = resolved!.gain;
  return values;
}

/** EXPLAIN's line for the chosen reasoner: which estimate decided its gain and on how many samples. */
export function gainText(reasoner: string, intentClass: IntentClass, resolved: ResolvedGain | undefined): string {
  if (reasoner === BASELINE_REASONER) return `${reasoner} is the baseline (gain 0 by definition)`;
  if (!resolved) return `${reasoner}/${intentClass} gain 0 (prior: nothing measured, no runs observed)`;
  const sign = resolved.gain >= 0 ? '+' : '';
  const target = resolved.targetSource === 'configured' ? `configured ${resolved.target.toFixed(3)}` : 'prior 0';
  const fitted = resolved.fitted ? `fitted ${resolved.fitted.gain.toFixed(3)} on ${resolved.fitted.questions} questions, ` : '';
  return `${reasoner}/${intentClass} gain ${sign}${resolved.gain.toFixed(2)} (${resolved.source}: ${resolved.runs} runs observed, ${fitted}${target} weighed as ${PRIOR_RUNS} runs)`;
}

/** EXPLAIN's reasonerGain section for a chosen reasoner. */
export function reasonerGainExplain(table: ReasonerGainTable, reasoner: string, intentClass: IntentClass): { readonly reasoner: string; readonly intentClass: IntentClass; readonly text: string } & Partial<ResolvedGain> {
  const resolved = table[reasoner]?.[intentClass];
  return { reasoner, intentClass, ...resolved, text: gainText(reasoner, intentClass, resolved) };
}
