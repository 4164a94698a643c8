import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import type { PlannedSource } from '../../ingest/ingest-path';
import { planDemoCorpus } from '../../ingest/demo-corpus';
import { createTokenCounter } from '../models/token-counter';
import { type ExtractedFact, extractFacts } from './fact-extractor';
import { workloadOf } from './fact-subjects';
import { normalizeCpu, normalizeMemory } from './fact-values';

const chunkOf = (sourceKind: string, uri: string, title: string, text: string, metadata: Record<string, unknown> = {}) => ({ sourceKind, uri, title, text, metadata });
const brief = (facts: readonly ExtractedFact[]) =>
  facts.map((fact) => `${fact.subject} | ${fact.attribute} | ${fact.value}${fact.validFrom ? ` from ${fact.validFrom.toISOString()}` : ''}${fact.validTo ? ` until ${fact.validTo.toISOString()}` : ''}`).sort();

describe('fact values and subjects', () => {
  it('normalises memory and CPU quantities so equal amounts agree', () => {
    expect(['256Mi', '256 MiB', '0.25Gi', '262144Ki', '256MB'].map(normalizeMemory)).toEqual(['256Mi', '256Mi', '256Mi', '256Mi', '256Mi']);
    expect(normalizeMemory('500M')).toBe('500000000B');
    expect(normalizeMemory('lots')).toBeUndefined();
    expect(['1', '1000m', '0.25', '250m', '2 cores'].map(normalizeCpu)).toEqual(['1000m', '1000m', '250m', '250m', '2000m']);
  });

  it('folds pods and ReplicaSets into their workload but keeps real names', () => {
    expect(workloadOf('checkout-api-7d9f8b6c5-x2k4p')).toBe('checkout-api');
    expect(workloadOf('checkout-api-7d9f8b6c5')).toBe('checkout-api');
    expect(workloadOf('checkout-api')).toBe('checkout-api');
    expect(workloadOf('cart-service')).toBe('cart-service');
  });
});

describe('extractFacts', () => {
  it('reads a manifest by path, names the setting and skips identity keys', () => {
    const manifest = ['apiVersion: apps/v1', 'kind: Deployment', 'metadata:', '  name: checkout-api', '  labels:', '    team: checkout', 'spec:', '  replicas: 3', '  template:', '    spec:', '      containers:', '        - name: checkout-api', '          image: "registry/checkout-api:{{ .tag }}"', '          env:', '            - name: LOG_LEVEL', '              value: info', '          resources:', '            requests:', '              cpu: 250m', '              memory: 384Mi', '            limits:', '              cpu: "1"', '              memory: 512Mi # sized from the load test'].join('\n');
    expect(brief(extractFacts(chunkOf('docs', 'k8s/deploy/deployment.yaml', 'deployment.yaml', manifest)))).toEqual([
      'checkout-api | cpu limit | 1000m',
      'checkout-api | cpu request | 250m',
      'checkout-api | env LOG_LEVEL | info',
      'checkout-api | memory limit | 512Mi',
      'checkout-api | memory request | 384Mi',
      'checkout-api | replicas | 3',
    ]);
  });

  it('reads key = value config files under their section', () => {
    const text = '# payments\n[retry]\nmax_attempts = 3\nbackoff_ms=200\n';
    expect(brief(extractFacts(chunkOf('docs', 'payments/retry.ini', 'retry.ini', text)))).toEqual(['payments | retry.backoff_ms | 200', 'payments | retry.max_attempts | 3']);
  });

  it('does not read prose "X: Y" lines as settings, only the attribute patterns', () => {
    const text = 'Language: TypeScript on Node.js 20.\n\nThe container was sized for a 512Mi memory limit, with 3 replicas.';
    expect(brief(extractFacts(chunkOf('docs', 'overview.md', 'checkout-api overview', text)))).toEqual(['checkout-api | memory limit | 512Mi', 'checkout-api | replicas | 3']);
  });

  it('dates what a commit adds (valid from) and removes (valid until), and reads its message', () => {
    const commit = [
      'commit 48d41880bf3eee1abd857898052a9410a6ea68b9',
      'Date:   2025-06-02T18:41:00+02:00',
      '',
      '    Lower checkout-api memory limit to 256Mi to cut cluster cost',
      '',
      'diff --git a/k8s/checkout-api/deployment.yaml b/k8s/checkout-api/deployment.yaml',
      '--- a/k8s/checkout-api/deployment.yaml',
      '+++ b/k8s/checkout-api/deployment.yaml',
      '@@ -45,10 +45,10 @@ spec:',
      '           resources:',
      '             limits:',
      '               cpu: "1"',
      '-              memory: 512Mi',
      '+              memory: 256Mi',
    ].join('\n');
    const facts = extractFacts(chunkOf('git', 'commit 48d4188', 'commit 48d4188: Lower checkout-api memory limit', commit, { date: '2025-06-02T18:41:00+02:00' }));
    expect(brief(facts)).toEqual(['checkout-api | memory limit | 256Mi from 2025-06-02T16:41:00.000Z', 'checkout-api | memory limit | 512Mi until 2025-06-02T16:41:00.000Z']);
    // The diff line and the message say the same; the manifest line wins as the more reliable evidence.
    expect(facts.find((fact) => fact.value === '256Mi')?.origin).toBe('diff');
  });

  it('finds the demo incident facts where they really are', async () => {
    const workDir = mkdtempSync(path.join(tmpdir(), 'cr-facts-demo-'));
    try {
      const planned: PlannedSource[] = await planDemoCorpus({ countTokens: createTokenCounter(), workDir });
      const facts = planned.flatMap((source) => source.chunks.flatMap((chunk) => extractFacts(chunkOf(source.kind, chunk.uri, chunk.title, chunk.text, chunk.metadata)).map((fact) => ({ source: source.name, ...fact }))));
      const memoryLimits = facts.filter((fact) => fact.subject === 'checkout-api' && fact.attribute === 'memory limit');
      const valuesBySource = (value: string, current: boolean) => [...new Set(memoryLimits.filter((fact) => fact.value === value && (fact.validTo === undefined) === current).map((fact) => fact.source))].sort();
      // 48d4188 lowers 512Mi → 256Mi; logs and events see 256Mi; the overview doc still says 512Mi.
      expect(valuesBySource('256Mi', true)).toEqual(['demo-events', 'demo-git', 'demo-logs']);
      expect(valuesBySource('512Mi', true)).toEqual(['demo-docs']);
      expect(valuesBySource('512Mi', false)).toEqual(['demo-git']);
      // The metrics CSV's per-ReplicaSet thresholds are not claims about the deployment's setting.
      expect(facts.filter((fact) => fact.source === 'demo-metrics')).toEqual([]);
      const tags = facts.filter((fact) => fact.attribute === 'image tag' && fact.validTo === undefined).map((fact) => `${fact.source}:${fact.value}`);
      expect(new Set(tags)).toEqual(new Set(['demo-git:2.14.0', 'demo-git:2.14.1', 'demo-logs:2.14.1', 'demo-events:2.14.1']));
    } finally {
      rmSync(workDir, { recursive: true, force: true });
    }
  });
});
