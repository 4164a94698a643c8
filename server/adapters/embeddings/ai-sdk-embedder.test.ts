import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { hashedBagOfWords, type LoopbackEmbeddingsServer, startLoopbackEmbeddingsServer } from '../../testing/loopback-embeddings-server';
import { createAiSdkEmbedder } from './ai-sdk-embedder';

let server: LoopbackEmbeddingsServer;
beforeAll(async () => {
  server = await startLoopbackEmbeddingsServer({ dimensions: 12 });
});
afterAll(() => server?.close());

const cosine = (left: Float32Array, right: Float32Array) => left.reduce((sum, value, index) => sum + value * right[index], 0);

describe('AiSdkEmbedder over the OpenAI embeddings wire protocol (loopback)', () => {
  it('openai provider: posts the batch to /v1/embeddings, takes the dimension from the first response', async () => {
    const embedder = createAiSdkEmbedder({ provider: 'openai', model: 'text-embedding-3-small', baseURL: server.baseURL, apiKey: 'sk-test' });
    expect([embedder.id, embedder.dimensions, embedder.local]).toEqual(['openai:text-embedding-3-small', 0, false]);
    const before = server.requests.length;
    const vectors = await embedder.embed(['pod restarts after memory limit', 'memory limit restarts the pod', 'quarterly revenue grew']);
    expect(embedder.dimensions).toBe(12);
    expect(vectors.map((vector) => vector.length)).toEqual([12, 12, 12]);
    expect(Array.from(vectors[0])).toEqual(hashedBagOfWords('pod restarts after memory limit', 12).map(Math.fround));
    expect(cosine(vectors[0], vectors[1])).toBeGreaterThan(cosine(vectors[0], vectors[2]));
    const request = server.requests[before];
    expect(request.path).toBe('/v1/embeddings');
    expect(request.body).toMatchObject({ model: 'text-embedding-3-small', input: ['pod restarts after memory limit', 'memory limit restarts the pod', 'quarterly revenue grew'] });
    expect(request.headers.authorization).toBe('Bearer sk-test');
  });

  it('openai-compatible provider (Ollama-style, no key, no usage): local on loopback, named in its id', async () => {
    server.configure({ usage: false });
    const embedder = createAiSdkEmbedder({ provider: 'openai-compatible', name: 'ollama', model: 'nomic-embed-text', baseURL: server.baseURL });
    expect([embedder.id, embedder.local]).toEqual(['ollama:nomic-embed-text', true]);
    const [vector] = await embedder.embed(['hello world']);
    expect(vector).toHaveLength(12);
    expect(server.requests.at(-1)?.headers.authorization).toBeUndefined();
    server.configure({ usage: true });
  });

  it('replaces empty texts (OpenAI rejects them) and returns [] for no texts without a request', async () => {
    const embedder = createAiSdkEmbedder({ provider: 'openai', model: 'm', baseURL: server.baseURL, apiKey: 'k' });
    const before = server.requests.length;
    expect(await embedder.embed([])).toEqual([]);
    expect(server.requests.length).toBe(before);
    expect(await embedder.embed(['', 'text'])).toHaveLength(2);
  });

  it('refuses a provider that changes dimension mid-way', async () => {
    const embedder = createAiSdkEmbedder({ provider: 'openai', model: 'm', baseURL: server.baseURL, apiKey: 'k' });
    await embedder.embed(['one']);
    server.configure({ dimensions: 16 });
    try {
      await expect(embedder.embed(['two'])).rejects.toMatchObject({ code: 'MODEL_UNAVAILABLE', details: { before: 12, after: 16 } });
    } finally {
      server.configure({ dimensions: 12 });
    }
  });

  it('maps HTTP errors to MODEL_UNAVAILABLE with the status', async () => {
    server.configure({ status: 401 });
    try {
      const embedder = createAiSdkEmbedder({ provider: 'openai', model: 'm', baseURL: server.baseURL, apiKey: 'bad' });
      await expect(embedder.embed(['x'])).rejects.toMatchObject({ code: 'MODEL_UNAVAILABLE', details: { statusCode: 401 } });
    } finally {
      server.configure({ status: 200 });
    }
  });

  it("aborts the request in flight when the caller's signal is aborted, with the caller's reason", async () => {
    server.configure({ delayMs: 30_000 });
    try {
      const embedder = createAiSdkEmbedder({ provider: 'openai', model: 'm', baseURL: server.baseURL, apiKey: 'k' });
      const before = { requests: server.requests.length, abandoned: server.abandoned };
      const controller = new AbortController();
      const started = performance.now();
      const call = embedder.embed(['an ingest cancelled mid-way'], { signal: controller.signal });
      call.catch(() => undefined);
      await expect.poll(() => server.requests.length).toBeGreaterThan(before.requests);
      const reason = new Error('ingest cancelled');
      controller.abort(reason);
      await expect(call).rejects.toBe(reason);
      // Well before the server's 30 s answer (and the embedder's 60 s timeout), and the connection is gone.
      expect(performance.now() - started).toBeLessThan(10_000);
      await expect.poll(() => server.abandoned).toBe(before.abandoned + 1);
      // An already-aborted signal sends nothing.
      await expect(embedder.embed(['never sent'], { signal: controller.signal })).rejects.toBe(reason);
      expect(server.requests.length).toBe(before.requests + 1);
    } finally {
      server.configure({ delayMs: 0 });
    }
  });

  it('rejects configurations that cannot work', () => {
    expect(() => createAiSdkEmbedder({ provider: 'openai-compatible', model: 'nomic-embed-text' })).toThrow(/base_url/);
    expect(() => createAiSdkEmbedder({ provider: 'openai', model: ' ' })).toThrow(/model/);
  });
});
