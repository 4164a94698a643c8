/**
 * Timeouts and cancels that reach the wire (issue 13, point 2): against real loopback HTTP servers,
 * a timed-out or abandoned model call is aborted (the server sees its connection closed), the next
 * tier starts only after that, and the per-tier concurrency cap holds across routers (runs).
 */
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import type { TierConfig } from '../../runtime/config/config-schema';
import type { ModelRequest } from '../../runtime/contracts/model';
import { ContextRuntimeError } from '../../runtime/errors';
import { startLoopbackOpenAIServer, type LoopbackOpenAIServer } from '../../testing/loopback-openai-server';
import { createModelPlugin } from './ai-sdk-model';
import { guardSensitiveContent } from './sensitive-model-guard';
import { createRouterFromConfig, createTieredRouter } from './tiered-router';
import { preloadTokenEncoder } from './token-counter';

const request: ModelRequest = { messages: [{ role: 'user', content: 'Why did checkout-api fail?' }], maxOutputTokens: 50, timeoutMs: 10_000 };


/**
 * The client closes the timed-out socket before it sends the fallback, but a server in this process
 * may handle the fallback's request before the old socket's close event: measured over 20 calls
 * under load 20, the close was seen up to 35.6 ms after the fallback arrived (p50 0.6 ms). Without
 * the abort the old call stays open for seconds, far beyond this slack.
 */
const SERVER_EVENT_SLACK_MS = 100;
let slow: LoopbackOpenAIServer;
let fast: LoopbackOpenAIServer;

beforeAll(async () => {
  preloadTokenEncoder();
  [slow, fast] = await Promise.all([startLoopbackOpenAIServer({ text: 'slow answer' }), startLoopbackOpenAIServer({ text: 'fast answer' })]);
});
afterAll(() => Promise.all([slow.close(), fast.close()]));
beforeEach(() => {
  slow.reply({ delayMs: 10_000, status: 200 });
  fast.reply({ delayMs: 0, status: 200 });
});

const tiers = (slowTier: Partial<TierConfig> = {}): TierConfig[] => [
  { name: 'slow', provider: 'openai-compatible', model: 'slow-model', base_url: slow.baseURL, ...slowTier },
  { name: 'fast', provider: 'openai-compatible', model: 'fast-model', base_url: fast.baseURL },
];

async function until(what: string, probe: () => boolean, timeoutMs = 5_000): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  while (!probe()) {
    if (Date.now() > deadline) throw new Error(`timed out waiting for ${what}`);
    await new Promise((resolve) => setTimeout(resolve, 10));
  }
}

describe('model calls that time out or are abandoned', () => {
  it('aborts a tier that passed its timeout and starts the fallback tier only after the server saw the connection close', async () => {
    // Long enough for the request to reach the server on a loaded machine, far short of its 10 s reply.
    const router = createRouterFromConfig(tiers({ timeout_ms: 1_500 }), {});
    const [slowBefore, fastBefore] = [slow.calls.length, fast.calls.length];
    const result = await router.complete('slow', request);
    expect(result).toMatchObject({ text: 'fast answer', tier: 'fast', fallbacks: [{ tier: 'slow', error: expect.stringMatching(/^TIMEOUT: .*within 1500 ms/) }] });
    const timedOut = slow.calls.slice(slowBefore);
    const fallback = fast.calls.slice(fastBefore);
    expect(timedOut).toHaveLength(1);
    expect(fallback).toHaveLength(1);
    await until('the slow call to end', () => timedOut[0].ended !== undefined);
    expect(timedOut[0].ended).toBe('aborted');
    expect(timedOut[0].endedAt! - timedOut[0].arrivedAt).toBeLessThan(3_000);
    expect(fallback[0].arrivedAt).toBeGreaterThanOrEqual(timedOut[0].endedAt! - SERVER_EVENT_SLACK_MS);
  });

  it('aborts the call when its caller gives up (a node timeout) and starts no other tier', async () => {
    const router = createRouterFromConfig(tiers(), {});
    const [slowBefore, fastBefore] = [slow.calls.length, fast.calls.length];
    const node = new AbortController();
    const reason = new ContextRuntimeError('TIMEOUT', 'node reason timed out after 400 ms', { details: { nodeId: 'reason' } });
    const completing = router.complete('slow', { ...request, signal: node.signal });
    await until('the call to reach the server', () => slow.calls.length > slowBefore);
    const abortedAt = Date.now();
    node.abort(reason);
    await expect(completing).rejects.toBe(reason);
    expect(Date.now() - abortedAt).toBeLessThan(2_000);
    await until('the slow call to end', () => slow.calls.at(-1)!.ended !== undefined);
    expect(slow.calls.slice(slowBefore).map((call) => call.ended)).toEqual(['aborted']);
    // Nobody waits for an answer any more: no fallback is sent.
    await new Promise((resolve) => setTimeout(resolve, 200));
    expect(fast.calls.length).toBe(fastBefore);
  });

  it('starts nothing for a caller that already gave up', async () => {
    const router = createRouterFromConfig(tiers(), {});
    const [slowBefore, fastBefore] = [slow.calls.length, fast.calls.length];
    await expect(router.complete('slow', { ...request, signal: AbortSignal.abort(new ContextRuntimeError('CONFLICT', 'run cancelled')) })).rejects.toMatchObject({ code: 'CONFLICT' });
    expect([slow.calls.length, fast.calls.length]).toEqual([slowBefore, fastBefore]);
  });

  it('does not climb past a policy refusal: the next tier would be sent what policy held back', async () => {
    const [hosted, next] = tiers().map((tier) => ({ ...tier, local: false }));
    const router = createTieredRouter([guardSensitiveContent(createModelPlugin(hosted, {}), 'local_only'), createModelPlugin(next, {})]);
    const [slowBefore, fastBefore] = [slow.calls.length, fast.calls.length];
    const leaking: ModelRequest = { ...request, messages: [{ role: 'user', content: 'Mail the on-call, ops.lead@example.com, about checkout-api.' }] };
    await expect(router.complete('slow', leaking)).rejects.toMatchObject({ code: 'FORBIDDEN', details: { rule: 'policy.sensitive_content' } });
    expect([slow.calls.length, fast.calls.length]).toEqual([slowBefore, fastBefore]);
  });

  it('keeps a tier’s calls under max_concurrency across every router of the process (one per run)', async () => {
    slow.reply({ delayMs: 150 });
    // Separate routers, as separate runtimes or runs would build: the limiter is shared by the model, not by the router.
    const routers = [0, 1, 2].map(() => createRouterFromConfig(tiers({ max_concurrency: 2, model: 'capped-model' }), {}));
    const before = slow.calls.length;
    const peakBefore = slow.peakInFlight;
    const results = await Promise.all(Array.from({ length: 7 }, (_, index) => routers[index % 3].complete('slow', request)));
    expect(results.every((result) => result.tier === 'slow')).toBe(true);
    const calls = slow.calls.slice(before);
    expect(calls).toHaveLength(7);
    // At most two open at any arrival: count the calls still open when each one arrived.
    const overlapping = calls.map((call) => calls.filter((other) => other.arrivedAt <= call.arrivedAt && (other.endedAt ?? Infinity) > call.arrivedAt).length);
    expect(Math.max(...overlapping)).toBe(2);
    expect(peakBefore).toBeLessThanOrEqual(2);
    expect(slow.peakInFlight).toBeLessThanOrEqual(2);
  });
});
