import { generateText, streamText } from 'ai';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { buildContextPrompt, parseCitations } from '../../runtime/reasoner/context-prompt';
import type { ContextItem } from '../../runtime/types';
import { incidentContext, INCIDENT_QUESTION } from '../../testing/incident-context-fixture';
import { createExtractiveLanguageModel } from './extractive-language-model';
import { countMessageTokens, countTokens } from './token-counter';

function promptFor(question: string) {
  const [system, user] = buildContextPrompt(question, incidentContext());
  return { system: system.content, messages: [{ role: 'user' as const, content: user.content }], all: [system, user] };
}

afterEach(() => vi.unstubAllGlobals());

describe('extractive language model', () => {
  it('implements LanguageModelV3 as context-runtime/extractive-v1', () => {
    const model = createExtractiveLanguageModel();
    expect(model).toMatchObject({ specificationVersion: 'v3', provider: 'context-runtime', modelId: 'extractive-v1' });
  });

  it('answers an incident question from several sources, citing each selected sentence', async () => {
    // No network: any fetch would fail the call.
    vi.stubGlobal('fetch', () => Promise.reject(new Error('network used')));
    const prompt = promptFor(INCIDENT_QUESTION);
    const result = await generateText({ model: createExtractiveLanguageModel(), system: prompt.system, messages: prompt.messages });
    const lines = result.text.split('\n');
    expect(lines[0]).toBe('Evidence on "Why did the checkout-api pods keep restarting last night" from 4 context items:');
    const citations = parseCitations(result.text, incidentContext());
    const refs = new Set(citations.map((citation) => citation.ref));
    // The cause (revert note), the symptom (OOMKilled events), the change (limit commit) and the heap error.
    expect([...refs].sort()).toEqual([1, 2, 3, 4]);
    expect(result.text).toContain('256Mi is below peak heap');
    expect(result.text).toContain('reason: OOMKilled, exit code 137) [1]');
    expect(result.text).toContain('from 512Mi to 256Mi to fit more replicas per node [2].');
    expect(result.text).toContain('JavaScript heap out of memory [3]');
    // Noise stays out: the payments runbook and the "listening" line share no evidence.
    expect(result.text).not.toContain('payments');
    expect(result.text).not.toContain('listening');
    // Every line after the opening carries a citation.
    for (const line of lines.slice(1)) expect(line).toMatch(/\[\d+\]\.?$/);
  });

  it('reports usage counted with tiktoken and a stop finish reason', async () => {
    const prompt = promptFor(INCIDENT_QUESTION);
    const result = await generateText({ model: createExtractiveLanguageModel(), system: prompt.system, messages: prompt.messages });
    expect(result.usage.inputTokens).toBe(countMessageTokens(prompt.all));
    expect(result.usage.outputTokens).toBe(countTokens(result.text));
    expect(result.finishReason).toBe('stop');
  });

  it('is deterministic', async () => {
    const prompt = promptFor('What changed in the checkout-api memory limit?');
    const model = createExtractiveLanguageModel();
    const first = await generateText({ model, system: prompt.system, messages: prompt.messages });
    const second = await generateText({ model, system: prompt.system, messages: prompt.messages });
    expect(second.text).toBe(first.text);
    expect(first.text.split('\n')[1]).toBe('- Lower the checkout-api memory limit from 512Mi to 256Mi to fit more replicas per node [2].');
  });

  it('says it found no evidence, without citations, when nothing matches', async () => {
    const prompt = promptFor('What is the capital of France?');
    const result = await generateText({ model: createExtractiveLanguageModel(), system: prompt.system, messages: prompt.messages });
    expect(result.text).toBe('I found no evidence in the provided context for "What is the capital of France".');
    expect(parseCitations(result.text, incidentContext())).toEqual([]);
  });

  it('answers a plain prompt without context as no evidence', async () => {
    const result = await generateText({ model: createExtractiveLanguageModel(), prompt: 'Why is the sky blue?' });
    expect(result.text).toBe('I found no evidence in the provided context for "Why is the sky blue".');
  });

  it('cuts the answer to maxOutputTokens and reports finish reason length', async () => {
    const prompt = promptFor(INCIDENT_QUESTION);
    const result = await generateText({ model: createExtractiveLanguageModel(), system: prompt.system, messages: prompt.messages, maxOutputTokens: 60 });
    expect(result.finishReason).toBe('length');
    expect(result.usage.outputTokens).toBeLessThanOrEqual(60);
    expect(result.text.startsWith('Evidence on')).toBe(true);
  });

  it('streams the same text in several chunks with the same usage', async () => {
    const prompt = promptFor(INCIDENT_QUESTION);
    const model = createExtractiveLanguageModel();
    const generated = await generateText({ model, system: prompt.system, messages: prompt.messages });
    const streamed = streamText({ model, system: prompt.system, messages: prompt.messages });
    const chunks: string[] = [];
    for await (const delta of streamed.textStream) chunks.push(delta);
    expect(chunks.length).toBeGreaterThan(5);
    expect(chunks.join('')).toBe(generated.text);
    expect((await streamed.usage).outputTokens).toBe(generated.usage.outputTokens);
  });

  it('honours an already-aborted signal', async () => {
    const [system, user] = buildContextPrompt(INCIDENT_QUESTION, incidentContext());
    const call = createExtractiveLanguageModel().doGenerate({
      prompt: [{ role: 'system', content: system.content }, { role: 'user', content: [{ type: 'text', text: user.content }] }],
      abortSignal: AbortSignal.abort(),
    });
    await expect(call).rejects.toMatchObject({ name: 'AbortError' });
  });
});

describe('extractive language model on a non-incident corpus', () => {
  const item = (ref: number, title: string, sourceName: string, text: string): ContextItem => ({
    ref, text, tokens: 0, compressed: false,
    hit: { chunkId: `c${ref}`, sourceName, sourceKind: 'docs', sourceVersionId: 'v1', title, text, score: 1, rank: ref, method: 'bm25', tokens: 0 },
  });
  const items = [
    item(1, 'Ledger database operations', 'runbooks', 'The ledger database accepts at most 200 connections. Each payments-api replica opens a pool of DB_POOL_SIZE connections, 20 by default. Set DB_POOL_SIZE in the deployment environment; keep replicas × pool size below 180 to leave room for migrations.'),
    item(2, 'payments-api deployment', 'payments-repo', 'env:\n  - name: DB_POOL_SIZE\n    value: "20"\n  - name: DB_POOL_TIMEOUT_MS\n    value: "5000"'),
    item(3, 'payments-api access log', 'payments-logs', '2024-06-02T10:14:03Z ERROR request req-8f3a2c failed: timeout acquiring connection from pool after 5000 ms\n2024-06-02T10:14:04Z INFO request req-77aa01 completed 200 in 41 ms'),
    item(4, 'Team onboarding', 'wiki', 'New engineers get access to the staging cluster in their first week. Lunch is at noon.'),
  ];
  const ask = async (question: string) => {
    const [system, user] = buildContextPrompt(question, items);
    return (await generateText({ model: createExtractiveLanguageModel(), system: system.content, messages: [{ role: 'user', content: user.content }] })).text;
  };

  it('answers a how-to question from the runbook and the config, with the key and value together', async () => {
    const answer = await ask('How do I configure the connection pool size for the ledger database?');
    expect(answer).toContain('Set DB_POOL_SIZE in the deployment environment');
    expect(answer).toContain('- name: DB_POOL_SIZE; value: "20" [2]');
    expect(answer).not.toContain('[4]');
  });

  it('finds the one log line of an exact request id', async () => {
    const answer = await ask('What happened to request req-8f3a2c?');
    expect(answer.split('\n')).toEqual([
      'Evidence on "What happened to request req-8f3a2c" from 1 context item:',
      '- 2024-06-02T10:14:03Z ERROR request req-8f3a2c failed: timeout acquiring connection from pool after 5000 ms [3]',
    ]);
  });

  it('does not pull in error lines that share only a header word with the question', async () => {
    const answer = await ask('When do new engineers get staging access?');
    expect(answer.split('\n').slice(1)).toEqual(['- New engineers get access to the staging cluster in their first week [4].']);
  });
});
