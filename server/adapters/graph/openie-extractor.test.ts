import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startLoopbackOpenAIServer, type LoopbackOpenAIServer } from '../../testing/loopback-openai-server';
import { createModelPlugin } from '../models/ai-sdk-model';
import { DEFAULT_OPENIE_OPTIONS, extractOpenIe } from './openie-extractor';

let server: LoopbackOpenAIServer;
beforeAll(async () => {
  // Slower than any test waits: only an abort ends a call.
  server = await startLoopbackOpenAIServer({ text: '{"named_entities": ["Orion Gateway"]}', delayMs: 60_000 });
});
afterAll(() => server?.close());

describe('OpenIE extraction when its ingest is cancelled', () => {
  it('aborts the model call in flight with the signal and makes no second call', async () => {
    const model = createModelPlugin({ name: 'ollama', provider: 'openai-compatible', model: 'qwen', base_url: server.baseURL }, {});
    const controller = new AbortController();
    const before = server.calls.length;
    const extraction = extractOpenIe(model, { title: 'Orion Gateway', body: 'The Orion Gateway routes payment traffic.' }, DEFAULT_OPENIE_OPTIONS, controller.signal);
    extraction.catch(() => undefined);
    await expect.poll(() => server.calls.length).toBe(before + 1);
    const started = performance.now();
    const reason = new Error('ingest cancelled');
    controller.abort(reason);
    await expect(extraction).rejects.toThrow(/ingest cancelled|abort/i);
    expect(performance.now() - started).toBeLessThan(10_000);
    // The NER call's connection was closed, and the triples call never started.
    await expect.poll(() => server.calls[before]?.ended).toBe('aborted');
    expect(server.calls.length).toBe(before + 1);
  });
});
