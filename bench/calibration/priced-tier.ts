/**
 * The priced tier of bench:calibration (issue 16 point 4): a real OpenAI-compatible HTTP server on
 * loopback, billed by the tier's config prices per token, so cost coverage is measured on non-zero
 * actuals instead of $0 = $0. What a hosted model varies, it varies, from a seeded PRNG:
 *   latency       lognormal, median LATENCY.medianMs, log-sd LATENCY.sigma (provider latency is
 *                 right-skewed; lognormal is the usual fit for service times)
 *   reply length  lognormal words, median REPLY_WORDS.median, log-sd REPLY_WORDS.sigma, taken from
 *                 the prompt's own words so the answer stays about the context
 * Usage is the server's own count (whitespace words of prompt and reply), as a provider's
 * tokenizer is its own: the runtime bills what the server reports, like an invoice.
 */
import { startLoopbackOpenAIServer, type LoopbackOpenAIServer } from '../../server/testing/loopback-openai-server';
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

function promptText(body: Record<string, unknown>): string {
  const messages = Array.isArray(body.messages) ? (body.messages as { content?: unknown }[]) : [];
  return messages.map((message) => (typeof message.content === 'string' ? message.content : '')).join(' ');
}

/** `count` words of the prompt (cycled), ending with a citation of the first passage. */
export function replyFrom(prompt: string, count: number): string {
  const words = prompt.split(/\s+/).filter((word) => /^[\p{L}\p{N}-]+$/u.test(word));
  const source = words.length > 0 ? words : ['context'];
  const picked = Array.from({ length: Math.max(1, count) }, (_, index) => source[index % source.length]);
  return `${picked.join(' ')} [1].`;
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
    vary: (body) => ({
      delayMs: Math.round(lognormalDraw(random, LATENCY.medianMs, LATENCY.sigma)),
      text: replyFrom(promptText(body), Math.round(lognormalDraw(random, REPLY_WORDS.median, REPLY_WORDS.sigma))),
    }),
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
