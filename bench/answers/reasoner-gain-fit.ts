/**
 * Reasoner gains fitted from answers, for the planner's cost model (config costmodel.reasoner_gains):
 * fitted on one question set and applied to another (out of fold), so the planner's choice on the
 * reported set never saw its answers.
 *
 * The cost model multiplies a plan's accuracy by quality = q + g·(1 − q) (units.ts), q the tier's
 * quality prior. A reasoner whose answers reach F1 ratio r = F1(reasoner) / F1(single_shot) over the
 * same questions should move quality by the same ratio: q + g·(1 − q) = r·q, so g = q·(r − 1)/(1 − q).
 * Each intent class is fitted from its own questions, and both of its F1 means get PRIOR_QUESTIONS
 * pseudo-questions at the pooled baseline F1 (additive smoothing): a class seen a few times, or
 * whose F1 is near zero, claims little — a ratio of two near-zero means is noise (MuSiQue's six
 * conceptual questions, F1 0.3% vs 0.8%, gave a gain of 0.43 when only the ratio was shrunk).
 */

/** Pseudo-questions at the pooled baseline F1 added to each side of a class's ratio. */
export const PRIOR_QUESTIONS = 10;

export interface AnsweredQuestion {
  readonly id: string;
  readonly mode: string;
  readonly intent: string;
  readonly f1: number;
}

export interface FittedGain {
  readonly reasoner: string;
  readonly intent: string;
  readonly questions: number;
  readonly baselineF1: number;
  readonly reasonerF1: number;
  readonly gain: number;
}

const mean = (values: readonly number[]) => (values.length === 0 ? 0 : values.reduce((sum, value) => sum + value, 0) / values.length);

/** Gains of every non-baseline mode over `baseline`, per intent class, from questions answered in both. */
export function fitReasonerGains(answers: readonly AnsweredQuestion[], qualityPrior: number, baseline = 'single_shot'): FittedGain[] {
  if (!(qualityPrior > 0 && qualityPrior < 1)) throw new Error(`qualityPrior must be in (0, 1), got ${qualityPrior}`);
  const base = new Map(answers.filter((answer) => answer.mode === baseline).map((answer) => [answer.id, answer]));
  const fitted: FittedGain[] = [];
  const modes = [...new Set(answers.map((answer) => answer.mode))].filter((mode) => mode !== baseline && mode !== 'planner');
  for (const mode of modes) {
    // The intent class is the baseline run's: both modes plan the same goal, so they classify it alike.
    const pairs = answers.filter((answer) => answer.mode === mode && base.has(answer.id)).map((answer) => ({ intent: base.get(answer.id)!.intent, base: base.get(answer.id)!.f1, mode: answer.f1 }));
    const pooled = mean(pairs.map((pair) => pair.base));
    for (const intent of [...new Set(pairs.map((pair) => pair.intent))].sort()) {
      const group = pairs.filter((pair) => pair.intent === intent);
      const baselineF1 = mean(group.map((pair) => pair.base));
      const reasonerF1 = mean(group.map((pair) => pair.mode));
      const prior = PRIOR_QUESTIONS * pooled;
      // No baseline signal anywhere: nothing to scale by, so no gain is claimed.
      const ratio = baselineF1 * group.length + prior > 0 ? (reasonerF1 * group.length + prior) / (baselineF1 * group.length + prior) : 1;
      const gain = Math.max(-1, Math.min(1, (qualityPrior * (ratio - 1)) / (1 - qualityPrior)));
      fitted.push({ reasoner: mode, intent, questions: group.length, baselineF1, reasonerF1, gain });
    }
  }
  return fitted;
}

/** The config value: reasoner → intent class → gain. */
export function gainsConfig(fitted: readonly FittedGain[]): Record<string, Record<string, number>> {
  const config: Record<string, Record<string, number>> = {};
  for (const gain of fitted) (config[gain.reasoner] ??= {})[gain.intent] = Number(gain.gain.toFixed(4));
  return config;
}
