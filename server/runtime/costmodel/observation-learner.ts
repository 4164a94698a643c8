/**
 * learned-v2: corrects the heuristic-v1 estimates with what the runs actually cost. The heuristic
 * stays the prior; this learns the residual (actual vs v1 estimate, in log space for amounts) per
 * field, intent class and plan shape, and turns it into a corrected value with a p05–p95 interval.
 * Formulas and constants: units.ts ("LEARNED ESTIMATOR").
 */
import type { Observation } from '../contracts/observation-store';
import type { CandidatePlan, Estimate, EstimatedField, IntentClass } from '../types';
import { conformalBounds, conformalRadius, studentTQuantile } from './calibration-math';
import { type LinearFit, adjustment, fitResiduals, leverage } from './feature-regression';
import { type RequestFeatures, featureVector } from './request-features';
import { CONFORMAL_MIN_SAMPLES, INTERVAL_ALPHA, LEARNING_WINDOW, LOG_FLOORS, PRIOR_DEGREES_OF_FREEDOM, PRIOR_PSEUDO_SAMPLES, Z_90, clampProbability } from './units';
import { EstimateRange } from './plan-records';

export const LEARNED_ESTIMATOR = 'learned-v2';

/** An observation with the plan shape it came from (persisted beside the contract's fields). */
export interface LearningObservation extends Observation {
  readonly shape?: string;
  /** Goal length, source size and top_k of the request (absent on runs recorded before issue 16.3). */
  readonly features?: RequestFeatures;
}

export type LearnedGroup = 'prior' | 'all' | 'intent' | 'intent+reasoner' | 'intent+shape';

export interface LearnedEstimate {
  readonly estimate: Estimate;
  /** Observations behind the correction (0 = the prior alone). */
  readonly samples: number;
  readonly group: LearnedGroup;
  readonly method: 'prior' | 'bayes' | 'conformal';
}

/** Tier, reasoner and retrieval mix: what moves tokens, cost and latency most for a given intent. */
export function planShape(choice: Pick<CandidatePlan, 'modelTier' | 'reasoning' | 'retrieval'>): string {
  return `${choice.modelTier}/${choice.reasoning}/${methodsKey(choice.retrieval)}`;
}

/** The generator hands every candidate of one retrieval set the same array: sort and join it once (the planner asks ~1,000 times a goal). */
const methodsKeys = new WeakMap<readonly string[], string>();
function methodsKey(methods: readonly string[]): string {
  let key = methodsKeys.get(methods);
  if (key === undefined) methodsKeys.set(methods, (key = [...methods].sort().join('+')));
  return key;
}

/**
 * The reasoner of a plan shape ("tier/reasoner/methods"): a reasoner's quality gain and its extra
 * calls hold across tiers and retrievals, so runs of one reasoner teach its estimates on any of them
 * (REASONER_GAIN and MIXTURE_MODEL_ROUNDS are only the prior).
 */
export const reasonerOfShape = (shape: string): string | undefined => shape.split('/')[1] || undefined;

/** The reasoner every quality gain is measured against (reasoner-gains.ts): its gain is 0 by definition. */
export const BASELINE_REASONER = 'single_shot';

/**
 * The group an accuracy residual is learned in and read from: the shape's tier and retrieval with the
 * baseline reasoner in place of its own. A reasoner's quality gain is owned by reasoner-gains.ts,
 * which the heuristic's accuracy already carries; a residual of a non-baseline run is measured
 * against an estimate that held the gain of its day, so learning it here would add the same gain a
 * second time (and keep adding the gain the tally has since absorbed). Baseline runs' estimates
 * hold no gain, so their residuals never go stale: what they teach (grounding, the tier's quality)
 * applies to every reasoner on that tier and retrieval.
 */
export function accuracyShape(shape: string | undefined): string | undefined {
  if (!shape) return undefined;
  let known = accuracyShapes.get(shape);
  if (known === undefined) {
    const [tier, , methods] = shape.split('/');
    known = `${tier}/${BASELINE_REASONER}/${methods ?? ''}`;
    if (accuracyShapes.size >= MEMO_LIMIT) accuracyShapes.clear();
    accuracyShapes.set(shape, known);
  }
  return known;
}
const accuracyShapes = new Map<string, string>();

/** Accuracy observations of a non-baseline reasoner teach its gain (reasoner-gains.ts), not learned-v2. */
const ownedByReasonerGain = (field: EstimatedField, shape: string | undefined): boolean => {
  const reasoner = field === 'accuracy' && shape ? reasonerOfShape(shape) : undefined;
  return reasoner !== undefined && reasoner !== BASELINE_REASONER;
};
const reasonerKey = (shape: string | undefined): string | undefined => {
  const reasoner = shape && reasonerOfShape(shape);
  return reasoner ? `reasoner:${reasoner}` : undefined;
};

export const isAmountField = (field: EstimatedField): boolean => field in LOG_FLOORS;

/** The space residuals are learned in: log ratio for amounts, plain difference for probabilities. */
export function toResidualSpace(field: EstimatedField, value: number): number {
  return toResidual(logFloorOf(field), value);
}

export function fromResidualSpace(field: EstimatedField, value: number): number {
  return fromResidual(logFloorOf(field), value);
}

/** An amount field's log floor, undefined for a probability (learned as a plain difference). */
const logFloorOf = (field: EstimatedField): number | undefined => (isAmountField(field) ? LOG_FLOORS[field] : undefined);

const toResidual = (floor: number | undefined, value: number): number => (floor === undefined ? value : Math.log(Math.max(0, value) + floor));

function fromResidual(floor: number | undefined, value: number): number {
  if (floor === undefined) return clampProbability(value);
  const amount = Math.exp(value) - floor;
  // exp(ln(floor)) − floor is ±1e-22, not 0: snap round-off so a $0 estimate stays exactly $0.
  return amount <= floor * 1e-9 ? 0 : amount;
}

/** Prior standard deviation: the v1 band read as a 90% interval, with a floor so a point prior is not certain. */
function priorScale(field: EstimatedField, prior: Estimate): number {
  const width = toResidualSpace(field, prior.high) - toResidualSpace(field, prior.low);
  return Math.max(width / (2 * Z_90), isAmountField(field) ? 0.1 : 0.05);
}

const groupKey = (field: EstimatedField, intentClass: IntentClass | '*', shape: string) => `${field}|${intentClass}|${shape}`;

export class ObservationLearner {
  private readonly residuals = new Map<string, number[]>();
  /** Log feature vectors parallel to `residuals` (undefined where the run stored none). */
  private readonly features = new Map<string, (readonly number[] | undefined)[]>();
  /** The groups each (field, intent class, shape) may read, most specific first: fixed by the names alone, never stale. */
  private readonly levelsByField = new Map<EstimatedField, Map<IntentClass, Map<string, readonly GroupLevel[]>>>();
  private levelCount = 0;
  /**
   * Each group's correction (what of it holds for any prior) by the group's own key: it depends on
   * that group's residuals alone, so add() drops only the groups it appended to. Dropping every
   * resolution on each add made the plan after every run refit and re-resolve what its ~1,000
   * candidates read (the demo stream, learning on: plan() p50 7.1 ms right after a run, 2.6 ms
   * for a second plan without a run between).
   */
  private readonly fittedGroups = new Map<string, Resolved>();

  static from(observations: readonly LearningObservation[]): ObservationLearner {
    const learner = new ObservationLearner();
    for (const observation of observations) learner.add(observation);
    return learner;
  }

  add(observation: LearningObservation): void {
    const residual = toResidualSpace(observation.field, observation.actual) - toResidualSpace(observation.field, observation.estimate);
    if (!Number.isFinite(residual) || ownedByReasonerGain(observation.field, observation.shape)) return;
    const keys = [groupKey(observation.field, '*', '*'), groupKey(observation.field, observation.intentClass, '*')];
    if (observation.shape) keys.push(groupKey(observation.field, observation.intentClass, observation.shape));
    const reasoner = reasonerKey(observation.shape);
    if (reasoner) keys.push(groupKey(observation.field, observation.intentClass, reasoner));
    const vector = observation.features ? featureVector(observation.features) : undefined;
    for (const key of keys) {
      this.fittedGroups.delete(key);
      const list = this.residuals.get(key) ?? [];
      const vectors = this.features.get(key) ?? [];
      list.push(residual);
      vectors.push(vector);
      if (list.length > LEARNING_WINDOW) {
        list.shift();
        vectors.shift();
      }
      this.residuals.set(key, list);
      this.features.set(key, vectors);
    }
  }

  count(field: EstimatedField, intentClass?: IntentClass, shape?: string): number {
    const group = field === 'accuracy' ? accuracyShape(shape) : shape;
    return this.residuals.get(groupKey(field, intentClass ?? '*', intentClass && group ? group : '*'))?.length ?? 0;
  }

  /** The prior corrected by its group's mean residual, moved along the group's regression on the request's features. */
  predict(field: EstimatedField, intentClass: IntentClass, planShapeKey: string | undefined, prior: Estimate, features?: RequestFeatures): LearnedEstimate {
    const shape = field === 'accuracy' ? accuracyShape(planShapeKey) : planShapeKey;
    const correction = this.correction(field, intentClass, shape, priorScale(field, prior));
    const center = toResidualSpace(field, prior.value) + adjustment(correction.fit, features && featureVector(features));
    return build(field, center + correction.shift, center + correction.low, center + correction.high, correction.samples, correction.group, correction.method);
  }

  /**
   * What predict() adds to the prior's value for a field in one (intent class, shape), or undefined
   * when no observation applies (the prior stands). The value never depends on the prior's band
   * (only the interval does), so the planner's hot loop applies it to point values
   * (applyValueCorrection), ~1,000 candidates a goal.
   */
  valueCorrection(field: EstimatedField, intentClass: IntentClass, planShapeKey: string | undefined): ValueCorrection | undefined {
    return this.resolve(field, intentClass, field === 'accuracy' ? accuracyShape(planShapeKey) : planShapeKey).value;
  }

  /** The correction for a group: fixed by its residuals, or (fewer than 9 of them) a Bayes predictive around the prior's band. */
  private correction(field: EstimatedField, intentClass: IntentClass, shape: string | undefined, priorSigma: number): Correction {
    const resolved = this.resolve(field, intentClass, shape);
    if (resolved.fixed) return resolved.fixed;
    // Fewer than 9: the Normal-Inverse-Gamma predictive, its prior scale the heuristic's band, so a
    // handful of runs still quotes a wide interval.
    const { shift, halfWidth } = bayesPredictive(resolved.residuals, priorSigma);
    return { shift, low: shift - halfWidth, high: shift + halfWidth, samples: resolved.samples, group: resolved.group, method: resolved.samples === 0 ? 'prior' : 'bayes', fit: resolved.fit };
  }

  /**
   * Which group a (field, intent class, shape) reads — the most specific one with enough residuals
   * for a conformal interval, else the largest (possibly empty) — and everything of its correction
   * that does not depend on the prior. The planner asks once per plan shape and field (~200 times a
   * plan): the choice is a few size lookups, the fit is kept per group until the group grows.
   */
  private resolve(field: EstimatedField, intentClass: IntentClass, shape: string | undefined): Resolved {
    const levels = this.levelsOf(field, intentClass, shape);
    let chosen: GroupLevel | undefined;
    let largest = levels[0];
    let largestSize = this.sizeOf(largest.key);
    for (const level of levels) {
      const size = this.sizeOf(level.key);
      if (size >= CONFORMAL_MIN_SAMPLES) {
        chosen = level;
        break;
      }
      if (size > largestSize) {
        largest = level;
        largestSize = size;
      }
    }
    const { group, key } = chosen ?? largest;
    // Every empty group resolves alike (the prior stands): one entry per field.
    const fittedKey = key !== undefined && this.sizeOf(key) > 0 ? key : `${field}|empty`;
    let fitted = this.fittedGroups.get(fittedKey);
    if (!fitted) {
      if (this.fittedGroups.size >= MEMO_LIMIT) this.fittedGroups.clear();
      fitted = this.fitGroup(field, group, (key && this.residuals.get(key)) || [], (key && this.features.get(key)) || []);
      this.fittedGroups.set(fittedKey, fitted);
    }
    return fitted;
  }

  private sizeOf(key: string | undefined): number {
    return key === undefined ? 0 : (this.residuals.get(key)?.length ?? 0);
  }

  private levelsOf(field: EstimatedField, intentClass: IntentClass, shape: string | undefined): readonly GroupLevel[] {
    let byClass = this.levelsByField.get(field);
    if (!byClass) this.levelsByField.set(field, (byClass = new Map()));
    let byShape = byClass.get(intentClass);
    if (!byShape) byClass.set(intentClass, (byShape = new Map()));
    let levels = byShape.get(shape ?? '');
    if (!levels) {
      if (this.levelCount >= MEMO_LIMIT) {
        this.levelsByField.clear();
        this.levelCount = 0;
        return this.levelsOf(field, intentClass, shape);
      }
      const reasoner = reasonerKey(shape);
      levels = [
        { group: 'intent+shape', key: shape ? groupKey(field, intentClass, shape) : undefined },
        { group: 'intent+reasoner', key: reasoner ? groupKey(field, intentClass, reasoner) : undefined },
        { group: 'intent', key: groupKey(field, intentClass, '*') },
        { group: 'all', key: groupKey(field, '*', '*') },
      ];
      byShape.set(shape ?? '', levels);
      this.levelCount++;
    }
    return levels;
  }

  /** A group's correction from its residuals: conformal from CONFORMAL_MIN_SAMPLES on, else (the largest group's) shrunk mean. */
  private fitGroup(field: EstimatedField, level: LearnedGroup, residuals: readonly number[], features: readonly (readonly number[] | undefined)[]): Resolved {
    if (residuals.length >= CONFORMAL_MIN_SAMPLES) {
      const shift = shrunkMean(residuals);
      const fit = amountRegression(field, residuals, features);
      const scores = leaveOneOutScores(residuals, features, shift, fit);
      const bounds = conformalBounds(scores.sort((a, b) => a - b), INTERVAL_ALPHA)!;
      const fixed: Correction = { shift, low: shift + bounds[0], high: shift + bounds[1], samples: residuals.length, group: level, method: 'conformal', fit };
      return { samples: fixed.samples, group: fixed.group, fit, fixed, residuals, value: { shift, fit, floor: logFloorOf(field) } };
    }
    const samples = residuals.length;
    const fit = amountRegression(field, residuals, features);
    const group = samples === 0 ? 'prior' : level;
    const pooledShift = shrunkMean(residuals);
    // From 9 residuals one symmetric conformal rank exists: an interval that covers 1 − α on average
    // whatever the residuals' shape. The Bayes interval below was widened to the residuals' [min, max]
    // for bimodal residuals, and its prior band still dominated at 10 runs: it over-covered
    // (bench:calibration at 10 training runs: latency 0.973, priced cost 0.960 against 0.85–0.95).
    const radius = conformalRadius(leaveOneOutScores(residuals, features, pooledShift, fit).map(Math.abs).sort((a, b) => a - b), INTERVAL_ALPHA);
    const fixed: Correction | undefined = radius !== undefined ? { shift: pooledShift, low: pooledShift - radius, high: pooledShift + radius, samples, group, method: 'conformal', fit } : undefined;
    const value = samples === 0 ? undefined : { shift: fixed ? fixed.shift : bayesShift(residuals), fit, floor: logFloorOf(field) };
    return { samples, group, fit, residuals, value, ...(fixed ? { fixed } : {}) };
  }
}

/** One group a (field, intent class, shape) may read: its name in EXPLAIN and its residual key. */
interface GroupLevel {
  readonly group: LearnedGroup;
  readonly key: string | undefined;
}

/** What resolve() keeps per group. */
interface Resolved {
  readonly samples: number;
  readonly group: LearnedGroup;
  readonly fit?: LinearFit;
  /** The whole correction when it does not depend on the prior's band (every conformal case). */
  readonly fixed?: Correction;
  /** The group's residuals: what the Bayes predictive reads besides the prior's scale. */
  readonly residuals: readonly number[];
  /** What the point value moves by (absent: no observation, the prior stands). */
  readonly value?: ValueCorrection;
}

/** A learned correction of a point value: the residual-space shift and the regression on the request's features. */
export interface ValueCorrection {
  readonly shift: number;
  readonly fit?: LinearFit;
  /** The field's log floor (an amount), or undefined (a probability): its residual space. */
  readonly floor: number | undefined;
}

/** predict()'s value for a prior value: the same expression, without the interval. `vector`: featureVector(features). */
export function applyValueCorrection(correction: ValueCorrection, priorValue: number, vector: readonly number[] | undefined): number {
  return fromResidual(correction.floor, toResidual(correction.floor, priorValue) + adjustment(correction.fit, vector) + correction.shift);
}

interface Correction {
  readonly shift: number;
  readonly low: number;
  readonly high: number;
  readonly samples: number;
  readonly group: LearnedGroup;
  readonly method: LearnedEstimate['method'];
  /** Slopes on the log request features (absent: the group mean alone). */
  readonly fit?: LinearFit;
}

/** Tokens, cost and latency scale with the request; probabilities (accuracy, risk…) keep the group mean. */
function amountRegression(field: EstimatedField, residuals: readonly number[], features: readonly (readonly number[] | undefined)[]): LinearFit | undefined {
  return isAmountField(field) ? fitResiduals(residuals, features) : undefined;
}

/**
 * Conformal scores around the regression line (what the features explain is not spread), each as if
 * its run had been left out of the fit: the in-sample residual ÷ (1 − h), h its leverage on the
 * shrunk mean, 1/(n + PRIOR_PSEUDO_SAMPLES), plus on the slopes. In-sample residuals are smaller
 * than a new run's error by about (1 − h) — the fit has already moved toward each of them — so
 * split-conformal bounds taken from them under-cover, most in small groups (jackknife prediction
 * intervals: Barber, Candès, Ramdas & Tibshirani 2021, "Predictive inference with the jackknife+").
 */
function leaveOneOutScores(residuals: readonly number[], features: readonly (readonly number[] | undefined)[], shift: number, fit: LinearFit | undefined): number[] {
  const meanLeverage = 1 / (residuals.length + PRIOR_PSEUDO_SAMPLES);
  return residuals.map((residual, index) => {
    const x = features[index];
    const kept = 1 - meanLeverage - leverage(fit, x);
    // Ridge leverages stay below 1 − 1/n; the floor only guards against round-off.
    return (residual - shift - adjustment(fit, x)) / Math.max(kept, 1e-3);
  });
}

/** Distinct conformal corrections (field, group) kept between observations. */
const MEMO_LIMIT = 4096;

function shrunkMean(residuals: readonly number[]): number {
  const sum = residuals.reduce((total, residual) => total + residual, 0);
  return sum / (residuals.length + PRIOR_PSEUDO_SAMPLES);
}

/** Normal-Inverse-Gamma posterior predictive (BDA3 §3.3) with prior mean 0 and prior scale σ0. */
function bayesPredictive(residuals: readonly number[], priorSigma: number): { shift: number; halfWidth: number } {
  const count = residuals.length;
  const sampleMean = meanOf(residuals);
  const squares = residuals.reduce((total, residual) => total + (residual - sampleMean) ** 2, 0);
  const kappa = PRIOR_PSEUDO_SAMPLES + count;
  const nu = PRIOR_DEGREES_OF_FREEDOM + count;
  const variance = (PRIOR_DEGREES_OF_FREEDOM * priorSigma ** 2 + squares + (PRIOR_PSEUDO_SAMPLES * count * sampleMean ** 2) / kappa) / nu;
  const scale = Math.sqrt(variance * (1 + 1 / kappa));
  return { shift: (count * sampleMean) / kappa, halfWidth: studentTQuantile(Z_90, nu) * scale };
}

const meanOf = (residuals: readonly number[]): number => (residuals.length === 0 ? 0 : residuals.reduce((total, residual) => total + residual, 0) / residuals.length);

/** bayesPredictive's shift alone (it does not depend on the prior's scale). */
function bayesShift(residuals: readonly number[]): number {
  return (residuals.length * meanOf(residuals)) / (PRIOR_PSEUDO_SAMPLES + residuals.length);
}

function build(field: EstimatedField, value: number, low: number, high: number, samples: number, group: LearnedGroup, method: LearnedEstimate['method']): LearnedEstimate {
  const estimate = Object.freeze(new EstimateRange(fromResidualSpace(field, value), fromResidualSpace(field, low), fromResidualSpace(field, high)));
  return Object.freeze({ estimate, samples, group, method });
}
