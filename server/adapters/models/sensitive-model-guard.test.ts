import { describe, expect, it } from 'vitest';
import type { ModelPlugin, ModelRequest } from '../../runtime/contracts/model';
import { MODEL_CONTRACT } from '../../runtime/contracts/model';
import { guardSensitiveContent } from './sensitive-model-guard';

function recordingModel(local: boolean): ModelPlugin & { readonly seen: ModelRequest[] } {
  const seen: ModelRequest[] = [];
  return {
    contract: MODEL_CONTRACT,
    tier: local ? 'local' : 'hosted',
    available: true,
    seen,
    capabilities: () => ({ provider: 'test', modelId: 'm', contextWindow: 1000, inputUsdPerMillion: 1, outputUsdPerMillion: 1, local, firstTokenSeconds: 0, secondsPerOutputToken: 0, qualityPrior: 0.5, maxOutputTokens: 100 }),
    countTokens: (text: string) => text.length,
    async complete(request) {
      seen.push(request);
      return { text: 'ok', usage: { inputTokens: 1, outputTokens: 1 }, costUsd: 0, latencyMs: 0, modelId: 'm', tier: this.tier };
    },
  };
}

const request = (content: string): ModelRequest => ({ messages: [{ role: 'system', content: 'grade' }, { role: 'user', content }], maxOutputTokens: 10, timeoutMs: 1000 });
const SECRET = 'deploy with AKIAIOSFODNN7EXAMPLE and mail ops@example.com';

describe('guardSensitiveContent', () => {
  it('refuses a non-local call carrying a secret under local_only, naming the kinds but not the text', async () => {
    const model = recordingModel(false);
    const guarded = guardSensitiveContent(model, 'local_only');
    const error = (await guarded.complete(request(SECRET)).then(() => undefined, (caught: unknown) => caught)) as Error & { code: string };
    expect(error).toMatchObject({ code: 'FORBIDDEN' });
    expect(error.message).toContain('api_key, email');
    expect(error.message).not.toContain('AKIA');
    expect(model.seen).toEqual([]);
  });

  it('sends a redacted copy under redact', async () => {
    const model = recordingModel(false);
    await guardSensitiveContent(model, 'redact').complete(request(SECRET));
    expect(model.seen[0].messages[1].content).toBe('deploy with [REDACTED api_key] and mail [REDACTED email]');
  });

  it('passes clean calls through and keeps the model’s own fields', async () => {
    const model = recordingModel(false);
    const guarded = guardSensitiveContent(model, 'local_only');
    expect(guarded.tier).toBe('hosted');
    expect(guarded.capabilities().local).toBe(false);
    await guarded.complete(request('why did checkout-api restart?'));
    expect(model.seen).toHaveLength(1);
  });

  it('wraps a frozen plugin (as createModelPlugin returns them)', async () => {
    const model = recordingModel(false);
    const guarded = guardSensitiveContent(Object.freeze(model), 'redact');
    await guarded.complete(request('card 4111 1111 1111 1111'));
    expect(model.seen[0].messages[1].content).toBe('card [REDACTED card_number]');
  });

  it('leaves a local model unwrapped', () => {
    const model = recordingModel(true);
    expect(guardSensitiveContent(model, 'local_only')).toBe(model);
  });
});
