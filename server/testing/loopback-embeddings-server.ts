import { createServer } from 'node:http';
import { listenOnLoopback, readBody, writeJson } from './loopback-http';

/**
 * A real HTTP server on 127.0.0.1 speaking the OpenAI embeddings wire protocol
 * (POST /v1/embeddings, `input` a string or an array, `encoding_format` float or base64), for
 * tests of the provider path that must not leave the machine. Vectors are a hashed bag of words,
 * so texts sharing words are close and the tests can check ranking, not just plumbing.
 */
export interface LoopbackEmbeddingsOptions {
  readonly dimensions: number;
  /** HTTP status; anything but 200 answers with an OpenAI-style error body. */
  readonly status: number;
  /** Report usage in the response (Ollama's OpenAI-compatible endpoint omits it for some models). */
  readonly usage: boolean;
  /** Milliseconds before a valid request is answered: a call left in flight, for tests that abort it. */
  readonly delayMs: number;
}

export interface RecordedEmbeddingsRequest {
  readonly path: string;
  readonly headers: Readonly<Record<string, string | string[] | undefined>>;
  /** The request body exactly as received (every byte the client sent after the headers). */
  readonly raw: string;
  readonly body: { readonly model?: string; readonly input?: string | string[]; readonly encoding_format?: string; readonly [key: string]: unknown };
}

export interface LoopbackEmbeddingsServer {
  /** Base URL including /v1, as OpenAI clients expect it. */
  readonly baseURL: string;
  readonly requests: readonly RecordedEmbeddingsRequest[];
  /** Requests whose client closed the connection before they were answered (an aborted call). */
  readonly abandoned: number;
  configure(next: Partial<LoopbackEmbeddingsOptions>): void;
  close(): Promise<void>;
}

/** FNV-1a over UTF-16 units: stable across runs and platforms. */
function fnv1a(text: string): number {
  let hash = 0x811c9dc5;
  for (let index = 0; index < text.length; index += 1) {
    hash ^= text.charCodeAt(index);
    hash = Math.imul(hash, 0x01000193) >>> 0;
  }
  return hash;
}

/** Unit-length hashed bag of lower-case words (the "hashing trick", Weinberger et al. 2009). */
export function hashedBagOfWords(text: string, dimensions: number): number[] {
  const vector = new Array<number>(dimensions).fill(0);
  for (const word of text.toLowerCase().match(/[\p{L}\p{N}]+/gu) ?? []) {
    const hash = fnv1a(word);
    vector[hash % dimensions] += hash & 0x80000000 ? -1 : 1;
  }
  const norm = Math.hypot(...vector);
  return norm > 0 ? vector.map((value) => value / norm) : vector.map((_, index) => (index === 0 ? 1 : 0));
}



const encode = (vector: readonly number[], format: string | undefined): number[] | string =>
  format === 'base64' ? Buffer.from(Float32Array.from(vector).buffer).toString('base64') : [...vector];

export async function startLoopbackEmbeddingsServer(initial: Partial<LoopbackEmbeddingsOptions> = {}): Promise<LoopbackEmbeddingsServer> {
  let current: LoopbackEmbeddingsOptions = { dimensions: 8, status: 200, usage: true, delayMs: 0, ...initial };
  const requests: RecordedEmbeddingsRequest[] = [];
  let abandoned = 0;
  const server = createServer(async (request, response) => {
    response.on('close', () => {
      if (!response.writableFinished) abandoned += 1;
    });
    const path = (request.url ?? '/').split('?')[0];
    const raw = await readBody(request);
    let body: RecordedEmbeddingsRequest['body'];
    try {
      body = JSON.parse(raw || '{}') as RecordedEmbeddingsRequest['body'];
    } catch {
      writeJson(response, 400, { error: { message: 'body is not JSON', type: 'invalid_request_error', code: null } });
      return;
    }
    requests.push(Object.freeze({ path, headers: { ...request.headers }, raw, body }));
    if (request.method !== 'POST' || !/^(\/v1)?\/embeddings$/.test(path)) {
      writeJson(response, 404, { error: { message: `no route ${request.method} ${path}`, type: 'invalid_request_error', code: null } });
      return;
    }
    if (current.status !== 200) {
      writeJson(response, current.status, { error: { message: `loopback status ${current.status}`, type: 'server_error', code: null } });
      return;
    }
    const inputs = typeof body.input === 'string' ? [body.input] : Array.isArray(body.input) ? body.input : [];
    if (inputs.length === 0 || inputs.some((input) => typeof input !== 'string' || input.length === 0)) {
      writeJson(response, 400, { error: { message: "'input' must be a non-empty string or array of non-empty strings", type: 'invalid_request_error', code: null } });
      return;
    }
    if (current.delayMs > 0) {
      // Ends early when the client goes away: nothing is left to answer.
      await new Promise<void>((resolve) => {
        const timer = setTimeout(resolve, current.delayMs);
        response.on('close', () => {
          clearTimeout(timer);
          resolve();
        });
      });
      if (response.destroyed) return;
    }
    const tokens = inputs.reduce((sum, input) => sum + input.split(/\s+/).filter(Boolean).length, 0);
    writeJson(response, 200, {
      object: 'list',
      data: inputs.map((input, index) => ({ object: 'embedding', index, embedding: encode(hashedBagOfWords(input, current.dimensions), body.encoding_format) })),
      model: body.model ?? 'loopback-embedding',
      ...(current.usage ? { usage: { prompt_tokens: tokens, total_tokens: tokens } } : {}),
    });
  });
  const listening = await listenOnLoopback(server);
  return {
    ...listening,
    requests,
    get abandoned() {
      return abandoned;
    },
    configure(next) {
      current = { ...current, ...next };
    },
  };
}
