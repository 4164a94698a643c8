/**
 * What a priced loopback tier "bills": each answered chat call at the usage the loopback server
 * reports (whitespace words of the prompt and of the reply, server/testing/loopback-openai-server.ts)
 * times the tier's configured prices — the provider's view of a run's spend, independent of the
 * runtime's own accounting. A call the client aborted, or the server refused, is billed nothing here;
 * the runtime's budget books an aborted call at its prompt, so this view is never above its own.
 */
import type { LoopbackOpenAIServer } from '../../server/testing/loopback-openai-server';

export interface PricedServer {
  readonly server: LoopbackOpenAIServer;
  readonly inputUsdPerMillion: number;
  readonly outputUsdPerMillion: number;
}

const words = (text: string) => text.split(/\s+/).filter(Boolean).length;

function promptWords(body: Record<string, unknown>): number {
  const messages = Array.isArray(body.messages) ? (body.messages as { content?: unknown }[]) : [];
  return messages.reduce((sum, message) => sum + (typeof message.content === 'string' ? words(message.content) : 0), 0);
}

/** Where each server's call list stands now: bill what arrives after it. */
export const billingMark = (servers: readonly PricedServer[]) => servers.map((priced) => priced.server.calls.length);

/**
 * The USD billed for calls since `mark`, given the reply text each server answered each call with
 * (undefined: it answered with an error status, which bills nothing). Chat calls and recorded requests line up
 * one to one: every request these runs send is a chat call.
 */
export function billedSince(servers: readonly PricedServer[], mark: readonly number[], replyOf: (priced: PricedServer, body: Record<string, unknown>) => string | undefined): number {
  let usd = 0;
  servers.forEach((priced, index) => {
    const { calls, requests } = priced.server;
    for (let call = mark[index]; call < calls.length; call++) {
      const reply = replyOf(priced, requests[call].body);
      if (reply === undefined || calls[call].ended !== 'answered') continue;
      usd += (promptWords(requests[call].body) * priced.inputUsdPerMillion + words(reply) * priced.outputUsdPerMillion) / 1_000_000;
    }
  });
  return usd;
}

export function percentile(values: readonly number[], share: number): number {
  const sorted = [...values].sort((a, b) => a - b);
  return sorted.length === 0 ? Number.NaN : sorted[Math.min(sorted.length - 1, Math.max(0, Math.ceil(share * sorted.length) - 1))];
}

/** A seeded generator (mulberry32): the same scenarios every time the bench runs. */
export function seeded(seed: number): () => number {
  let state = seed >>> 0;
  return () => {
    state = (state + 0x6d2b79f5) >>> 0;
    let mixed = Math.imul(state ^ (state >>> 15), 1 | state);
    mixed = (mixed + Math.imul(mixed ^ (mixed >>> 7), 61 | mixed)) ^ mixed;
    return ((mixed ^ (mixed >>> 14)) >>> 0) / 4_294_967_296;
  };
}
