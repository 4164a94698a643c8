import { describe, expect, it } from 'vitest';
import { AiSdkEmbedder } from './ai-sdk-embedder';
import { resolveEmbedder } from './embedder-factory';
import { SifEmbedder } from './sif-embedder';

describe('resolveEmbedder', () => {
  it('defaults to the offline SIF embedder without touching the word vectors', () => {
    const resolved = resolveEmbedder({}, {});
    expect(resolved.available && resolved.embedder).toBeInstanceOf(SifEmbedder);
    expect(resolved.available && resolved.embedder.id).toBe('sif-sg-100d');
  });

  it('reports a missing key instead of switching vector space', () => {
    expect(resolveEmbedder({ provider: 'openai' }, {})).toEqual({ available: false, embedderId: 'openai:text-embedding-3-small', unavailableReason: 'OPENAI_API_KEY is not set' });
    expect(resolveEmbedder({ provider: 'openai', api_key_env: 'MY_KEY', model: 'text-embedding-3-large' }, { MY_KEY: ' ' })).toMatchObject({ available: false, unavailableReason: 'MY_KEY is not set' });
    expect(resolveEmbedder({ provider: 'openai-compatible', name: 'ollama' }, {})).toMatchObject({ available: false, unavailableReason: 'openai-compatible embeddings need base_url and model' });
  });

  it('builds AI SDK embedders for openai and a keyless local openai-compatible server', () => {
    const openai = resolveEmbedder({ provider: 'openai' }, { OPENAI_API_KEY: 'sk-x' });
    expect(openai.available && openai.embedder).toBeInstanceOf(AiSdkEmbedder);
    const ollama = resolveEmbedder({ provider: 'openai-compatible', name: 'ollama', model: 'nomic-embed-text', base_url: 'http://127.0.0.1:11434/v1' }, {});
    expect(ollama.available && [ollama.embedder.id, (ollama.embedder as AiSdkEmbedder).local]).toEqual(['ollama:nomic-embed-text', true]);
  });
});
