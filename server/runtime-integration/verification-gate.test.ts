/**
 * Verification that gates (issue 15, point 4), end to end over a real HTTP model: a scripted
 * loopback model answers correctly, wrongly or without grounds, and plays a strict judge. A failed
 * required verdict runs the next attempt (the gate's false branch); when every attempt fails the
 * run ends `unverified` with the reasons; a passing gate skips the attempts after it.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { DEMO_QUESTION } from '../ingest/demo-corpus';
import { startLoopbackOpenAIServer, type LoopbackOpenAIServer } from '../testing/loopback-openai-server';
import { openRuntimeFixture, type RuntimeFixture } from '../testing/runtime-fixture';
import { isJudgeCall, scriptedAnswer, scriptedJudgement, type ScriptedKind } from '../testing/scripted-answer-model';

let server: LoopbackOpenAIServer;
let fixture: RuntimeFixture;

/** Scripts the model: the answering calls return `kinds[n]` for the n-th answer (the last repeats); the judge judges. */
function script(kinds: readonly ScriptedKind[], answerText?: (body: Record<string, unknown>) => string) {
  let answers = 0;
  const calls = { answers: 0, judges: 0 };
  server.script((body) => {
    if (isJudgeCall(body)) {
      calls.judges += 1;
      return { text: scriptedJudgement(body) };
    }
    calls.answers += 1;
    const kind = kinds[Math.min(answers++, kinds.length - 1)];
    return { text: answerText ? answerText(body) : scriptedAnswer(kind, body, 0) };
  });
  return calls;
}

const statusOf = (result: Awaited<ReturnType<RuntimeFixture['runtime']['run']>>, nodeId: string) => result.explain.analyze?.nodes.find((node) => node.nodeId === nodeId)?.status;

describe('verification that gates', () => {
  beforeAll(async () => {
    server = await startLoopbackOpenAIServer();
    fixture = await openRuntimeFixture({
      config: {
        models: { tiers: [{ name: 'model', provider: 'openai-compatible', base_url: server.baseURL, model: 'loop-1', quality_prior: 0.9, input_usd_per_million: 1, output_usd_per_million: 2 }, { name: 'local', provider: 'extractive' }] },
        scheduler: { backoff_ms: 0 },
      },
    });
  });

  afterAll(async () => {
    await fixture?.close();
    await server?.close();
  });

  it('plans a judge, a gate and a second attempt for required verification', async () => {
    const explain = await fixture.runtime.explain({ goal: DEMO_QUESTION });
    const byId = new Map(explain.graph.nodes.map((node) => [node.id, node]));
    expect(byId.get('judge')).toMatchObject({ kind: 'verify', method: 'llm_judge', tier: 'model', inputs: ['reason', 'assemble', 'verify'], required: true });
    expect(byId.get('gate')).toMatchObject({ kind: 'branch', inputs: ['judge'], condition: 'judge.passed', loop: { maxIterations: 2 } });
    const retryReason = byId.get('reason-retry2');
    expect(retryReason).toMatchObject({ kind: 'reason', inputs: ['assemble-retry2'] });
    const firstRetrieve = explain.graph.nodes.find((node) => node.kind === 'retrieve')!;
    const retryRetrieve = explain.graph.nodes.find((node) => node.id.startsWith('retrieve-retry2-'))!;
    expect(retryRetrieve.kind === 'retrieve' && firstRetrieve.kind === 'retrieve' && retryRetrieve.k).toBe(firstRetrieve.kind === 'retrieve' ? firstRetrieve.k * 2 : -1);
  });

  it('a correct answer completes on the first attempt; the second is skipped', async () => {
    const calls = script(['correct']);
    const result = await fixture.runtime.run({ goal: DEMO_QUESTION });
    expect(result.verification?.checks.filter((check) => !check.passed)).toEqual([]);
    expect(result.status).toBe('completed');
    expect(result.verification?.passed).toBe(true);
    expect(result.verification?.checks.find((check) => check.name === 'llm_judge')?.passed).toBe(true);
    expect(calls).toEqual({ answers: 1, judges: 1 });
    expect(statusOf(result, 'judge')).toBe('done');
    expect(statusOf(result, 'reason-retry2')).toBe('skipped');
    // The judge is its own node with its own model cost.
    expect(result.explain.analyze?.nodes.find((node) => node.nodeId === 'judge')?.actual?.costUsd).toBeGreaterThan(0);
  });

  it('a wrong answer the lexical checks pass is caught by the judge, retried, and ends unverified with the reasons', async () => {
    const calls = script(['wrong']);
    const result = await fixture.runtime.run({ goal: DEMO_QUESTION });
    expect(result.status).toBe('unverified');
    expect(calls).toEqual({ answers: 2, judges: 2 });
    expect(statusOf(result, 'reason-retry2')).toBe('done');
    const judge = result.verification?.checks.find((check) => check.name === 'llm_judge');
    expect(judge?.passed).toBe(false);
    expect(judge?.detail).toMatch(/unsupported/);
    expect(result.caveats[0]).toMatch(/^Not a verified answer: verification failed on all 2 attempts — llm_judge: /);
    expect(result.answer?.length).toBeGreaterThan(0);
  });

  it('an ungrounded answer fails the cheap checks: the judge is not asked', async () => {
    const calls = script(['ungrounded']);
    const result = await fixture.runtime.run({ goal: DEMO_QUESTION });
    expect(result.status).toBe('unverified');
    expect(calls).toEqual({ answers: 2, judges: 0 });
    expect(result.verification?.checks.find((check) => check.name === 'citation_coverage')?.passed).toBe(false);
  });

  it('a failed first attempt is rescued by the second: the run completes with the second answer', async () => {
    const calls = script(['wrong', 'correct']);
    const result = await fixture.runtime.run({ goal: DEMO_QUESTION });
    expect(result.status).toBe('completed');
    expect(calls).toEqual({ answers: 2, judges: 2 });
    expect(result.verification?.passed).toBe(true);
    expect(result.caveats.some((caveat) => caveat.startsWith('Not a verified answer'))).toBe(false);
  });

  it('output_schema: asked of the model as structured output and checked on the answer, naming the failing path', async () => {
    const schema = { type: 'object', properties: { cause: { type: 'string' }, confidence: { type: 'number' } }, required: ['cause', 'confidence'] };
    script(['correct'], () => JSON.stringify({ cause: 'the pod ran out of memory', confidence: 'high' }));
    const result = await fixture.runtime.run({ goal: DEMO_QUESTION, output_schema: schema });
    const answering = server.requests.filter((request) => !isJudgeCall(request.body)).at(-1)!;
    // An openai-compatible endpoint is asked for a JSON object (the AI SDK sends the schema itself only to providers that declare structured outputs).
    expect(answering.body.response_format).toMatchObject({ type: 'json_object' });
    const check = result.verification?.checks.find((entry) => entry.name === 'output_schema');
    expect(check?.passed).toBe(false);
    expect(check?.detail).toMatch(/confidence: /);
    expect(result.status).toBe('unverified');
  });

  it('a schema zod cannot read is refused by field before anything runs', async () => {
    await expect(fixture.runtime.run({ goal: DEMO_QUESTION, output_schema: 'a string' as never })).rejects.toMatchObject({ code: 'INVALID_INPUT', field: 'output_schema' });
  });
});
