import { describe, expect, it } from 'vitest';
import type { Database } from '../../../db/client';
import { createModelPlugin } from '../models/ai-sdk-model';
import { mentionsOf } from './openie-extractor';
import { parseEntities, parseTriples } from './openie-prompts';
import { parseServerEnv } from '../../config/env';
import { openIeModelOf, setupOpenIe } from './openie-setup';

const extractive = createModelPlugin({ name: 'local', provider: 'extractive' }, {});
const keyless = createModelPlugin({ name: 'cheap', provider: 'openai', api_key_env: 'NO_SUCH_KEY' }, {});
const hosted = createModelPlugin({ name: 'premium', provider: 'anthropic', api_key_env: 'KEY' }, { KEY: 'sk-x' });
const selfHosted = createModelPlugin({ name: 'ollama', provider: 'openai-compatible', model: 'qwen', base_url: 'http://127.0.0.1:11434/v1' }, {});
/** Never queried: setupOpenIe only hands it to the indexing it returns. */
const database = {} as Database;

describe('OpenIE setup', () => {
  it('uses the first reachable language-model tier, never the extractive reader', () => {
    expect(openIeModelOf([extractive, keyless, hosted])?.tier).toBe('premium');
    expect(openIeModelOf([extractive, selfHosted, hosted])?.tier).toBe('ollama');
    expect(openIeModelOf([extractive, keyless])).toBeUndefined();
    expect(setupOpenIe(database, [extractive, keyless])).toBeUndefined();
    expect(setupOpenIe(database, [extractive, hosted])?.model.tier).toBe('premium');
  });

  it('takes the per-run budget CONTEXT_RUNTIME_OPENIE_MAX_PASSAGES as parsed at start; 0 turns OpenIE off', () => {
    expect(parseServerEnv({}).openIeMaxPassages).toBeUndefined();
    expect(parseServerEnv({ CONTEXT_RUNTIME_OPENIE_MAX_PASSAGES: '25' }).openIeMaxPassages).toBe(25);
    expect(setupOpenIe(database, [hosted], { maxPassagesPerRun: parseServerEnv({ CONTEXT_RUNTIME_OPENIE_MAX_PASSAGES: '0' }).openIeMaxPassages })).toBeUndefined();
    expect(() => parseServerEnv({ CONTEXT_RUNTIME_OPENIE_MAX_PASSAGES: '-1' })).toThrow(/whole number/);
    expect(() => parseServerEnv({ CONTEXT_RUNTIME_OPENIE_MAX_PASSAGES: 'lots' })).toThrow(/whole number/);
  });

  it('parses HippoRAG-shaped replies and spells their names as graph nodes', () => {
    expect(parseEntities('Here you go:\n```json\n{"named_entities": ["Radio City", "India", "", 7, "India"]}\n```')).toEqual(['Radio City', 'India']);
    expect(() => parseEntities('{"entities": ["x"]}')).toThrow(/named_entities/);
    expect(() => parseTriples('no json here')).toThrow(/no JSON object/);
    const triples = parseTriples('{"triples": [["Radio City", "located in", "India"], ["Radio City", "started on"], ["The Radio City", "founded", 2001], ["a", "", "b"]]}');
    expect(triples).toEqual([['Radio City', 'located in', 'India'], ['The Radio City', 'founded', '2001']]);
    expect(mentionsOf(['India', 'Hindi'], triples)).toEqual([{ name: 'radio city', count: 2 }, { name: '2001', count: 1 }, { name: 'hindi', count: 1 }, { name: 'india', count: 1 }]);
  });
});
