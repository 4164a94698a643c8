/**
 * The priced tier of bench:calibration (issue 16 point 4): a real OpenAI-compatible HTTP server on
 * loopback, billed by the tier's config prices per token, so cost coverage is measured on non-zero
 * actuals instead of $0 = $0. What a hosted model varies, it varies, from a seeded PRNG:
 *   latency       lognormal, median LATENCY.medianMs, log-sd LATENCY.sigma (provider latency is
 *                 right-skewed; lognormal is the usual fit for service times)
 *   reply length  lognormal words, median REPLY_WORDS.median, log-sd REPLY_WORDS.sigma, a verbatim
 *                 run of the first context passage's words citing it, so the answer is grounded
 * The groundedness judge's calls (the verification gate asks one model call per answer) are
 * answered too, by the strict scripted judge, and billed and delayed like any call: without a
 * verdict the gate failed nearly every answer and retried it, so 358 of 360 priced runs ended
 * `unverified` after two answering calls, and the bench measured the retry path instead of the
 * normal one (as bench:durability's loopback answers its judge).
 * Usage is the server's own count (whitespace words of prompt and reply), as a provider's
 * tokenizer is its own: the runtime bills what the server reports, like an invoice.
 */
import { parseContextPrompt } from '../../server/runtime/reasoner/context-prompt';
import { startLoopbackOpenAIServer, type LoopbackOpenAIServer } from '../../server/testing/loopback-openai-server';
import { isJudgeCall, scriptedJudgement } from '../../server/testing/scripted-answer-model';
import { seededRandom } from '../planner-goals';

export const PRICED_TIER = Object.freeze({ name: 'priced', model: 'loop-priced', inputUsdPerMillion: 0.5, outputUsdPerMillion: 1.5 });
export const LATENCY = Object.freeze({ medianMs: 120, sigma: 0.5 });
export const REPLY_WORDS = Object.freeze({ median: 40, sigma: 0.6 });

/** A standard normal draw (Box–Muller) from a uniform PRNG. */
export function normalDraw(random: () => number): number {
  const u = Math.max(random(), Number.MIN_VALUE);
  return Math.sqrt(-2 * Math.log(u)) * Math.cos(2 * Math.PI * random());
}

export const lognormalDraw = (random: () => number, median: number, sigma: number): number => median * Math.exp(sigma * normalDraw(random));

function userText(body: Record<string, unknown>): string {
  const messages = Array.isArray(body.messages) ? (body.messages as { role?: unknown; content?: unknown }[]) : [];
  const user = messages.find((message) => message.role === 'user');
  return typeof user?.content === 'string' ? user.content : '';
}

/**
 * The first `count` words of the first context passage, verbatim (a passage shorter than `count`
 * gives all its words: cycling them would say what the passage does not), citing it. The question
 * stands in when the prompt has no context.
 */
export function replyFrom(prompt: string, count: number): string {
  const parsed = parseContextPrompt(prompt);
  const first = parsed?.blocks[0];
  const words = (first?.text ?? parsed?.question ?? '').split(/\s+/).filter(Boolean);
  const picked = (words.length > 0 ? words : ['context']).slice(0, Math.max(1, count)).join(' ').replace(/[\s.!?:;,]+$/, '');
  return `${picked} [${first?.ref ?? 1}].`;
}

export interface PricedTier {
  readonly server: LoopbackOpenAIServer;
  /** The runtime config's `models` section: this tier only, so every completed run is billed. */
  readonly models: Record<string, unknown>;
  close(): Promise<void>;
}

export async function startPricedTier(seed: number): Promise<PricedTier> {
  const random = seededRandom(seed);
  const server = await startLoopbackOpenAIServer({
    vary: (body) => {
      const delayMs = Math.round(lognormalDraw(random, LATENCY.medianMs, LATENCY.sigma));
      if (isJudgeCall(body)) return { delayMs, text: scriptedJudgement(body) };
      return { delayMs, text: replyFrom(userText(body), Math.round(lognormalDraw(random, REPLY_WORDS.median, REPLY_WORDS.sigma))) };
    },
  });
  const tier = {
    name: PRICED_TIER.name,
    provider: 'openai-compatible',
    base_url: server.baseURL,
    model: PRICED_TIER.model,
    // Above the extractive reader's 0.45, as a hosted model would be, so the planner chooses it.
    quality_prior: 0.9,
    input_usd_per_million: PRICED_TIER.inputUsdPerMillion,
    output_usd_per_million: PRICED_TIER.outputUsdPerMillion,
  };
  return { server, models: { tiers: [tier] }, close: () => server.close() };
}
