import { resolve } from 'node:path';
import { describe, expect, it } from 'vitest';
import { ContextRuntimeError } from '../errors';
import { loadConfigFile, parseConfig } from './load-config';

const refusal = (raw: unknown): ContextRuntimeError => {
  try {
    parseConfig(raw);
  } catch (error) {
    return error as ContextRuntimeError;
  }
  throw new Error('expected the config to be refused');
};

describe('config', () => {
  it('accepts the documented example file, and it states the defaults', () => {
    const example = loadConfigFile(resolve(__dirname, '../../../context-runtime.example.yaml'), { required: true });
    const defaults = parseConfig({});
    expect(example.retrieval).toEqual(defaults.retrieval);
    expect(example.embeddings).toEqual(defaults.embeddings);
    expect(defaults.embeddings).toEqual({ provider: 'sif' });
  });

  it('takes an Ollama embedder and hybrid weights', () => {
    const config = parseConfig({
      embeddings: { provider: 'openai-compatible', name: 'ollama', base_url: 'http://127.0.0.1:11434/v1', model: 'nomic-embed-text' },
      retrieval: { hybrid: { dense_weight: 0.3 } },
    });
    expect(config.embeddings).toMatchObject({ provider: 'openai-compatible', model: 'nomic-embed-text' });
    expect(config.retrieval).toMatchObject({ top_k: 20, hybrid: { dense_weight: 0.3 } });
  });

  it('takes rm3 options, unset keys left to the retriever', () => {
    expect(parseConfig({ retrieval: { rm3: { feedback_documents: 2 } } }).retrieval.rm3).toEqual({ feedback_documents: 2 });
    expect(parseConfig({}).retrieval.rm3).toEqual({});
    expect(refusal({ retrieval: { rm3: { original_weight: 1.5 } } }).field).toBe('retrieval.rm3.original_weight');
    expect(refusal({ retrieval: { rm3: { feedback_documents: 0 } } }).field).toBe('retrieval.rm3.feedback_documents');
    expect(refusal({ retrieval: { rm3: { documents: 1 } } }).message).toContain('retrieval.rm3');
  });

  it('names the key and what was expected', () => {
    expect(refusal({ embeddings: { provider: 'openai-compatible', base_url: 'http://127.0.0.1:11434/v1' } }).message).toContain('embeddings.model: openai-compatible embeddings need model');
    expect(refusal({ embeddings: { provider: 'cohere' } }).field).toBe('embeddings.provider');
    expect(refusal({ embeddings: { name: 'has space' } }).message).toContain('embeddings.name: letters, digits');
    expect(refusal({ retrieval: { hybrid: { dense_weight: -1 } } }).field).toBe('retrieval.hybrid.dense_weight');
    expect(refusal({ retrieval: { hybrid: { weight: 1 } } }).message).toContain('retrieval.hybrid');
  });

  it('takes measured reasoner gains for some intent classes and names a bad one', () => {
    expect(parseConfig({}).costmodel.reasoner_gains).toEqual({});
    expect(parseConfig({ costmodel: { reasoner_gains: { decomposition: { multi_hop: 0.05 } } } }).costmodel.reasoner_gains).toEqual({ decomposition: { multi_hop: 0.05 } });
    expect(refusal({ costmodel: { reasoner_gains: { decomposition: { multi_hop: 2 } } } }).field).toBe('costmodel.reasoner_gains.decomposition.multi_hop');
    expect(refusal({ costmodel: { reasoner_gains: { decomposition: { bridge: 0.1 } } } }).message).toContain('costmodel.reasoner_gains.decomposition');
  });

  it('takes a tier’s provider limits and names a bad one', () => {
    const tier = { name: 'cheap', provider: 'openai', model: 'gpt-4.1-mini' };
    const config = parseConfig({ models: { tiers: [{ ...tier, max_concurrency: 8, rpm: 500, tpm: 200_000 }] } });
    expect(config.models.tiers[0]).toMatchObject({ max_concurrency: 8, rpm: 500, tpm: 200_000 });
    expect(refusal({ models: { tiers: [{ ...tier, rpm: 0 }] } }).field).toBe('models.tiers.0.rpm');
    expect(refusal({ models: { tiers: [{ ...tier, max_concurrency: 2.5 }] } }).field).toBe('models.tiers.0.max_concurrency');
  });
});
