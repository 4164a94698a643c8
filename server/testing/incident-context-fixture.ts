import type { ContextItem, Hit, SourceKind } from '../runtime/types';

/**
 * A realistic incident context for model-path tests: checkout-api pods were OOMKilled after a
 * commit lowered their memory limit, and the limit was later reverted. Items 1–4 carry the
 * evidence from four different sources; 5 and 6 are plausible retrieval noise.
 */
interface FixtureItem {
  readonly sourceName: string;
  readonly sourceKind: SourceKind;
  readonly title: string;
  readonly locator?: string;
  readonly text: string;
}

const FIXTURE: readonly FixtureItem[] = [
  {
    sourceName: 'k8s-events',
    sourceKind: 'events',
    title: 'Events in namespace shop',
    locator: 'line 12',
    text: [
      '2024-05-14T02:11:52Z Warning OOMKilling node/ip-10-0-3-17 Memory cgroup out of memory: Killed process 4121 (node) in pod checkout-api-7d9f6c5b8-x2kq9',
      '2024-05-14T02:11:53Z Normal Pulled pod/checkout-api-7d9f6c5b8-x2kq9 Container image "registry.shop/checkout-api:2.14.0" already present on machine',
      '2024-05-14T02:11:54Z Warning BackOff pod/checkout-api-7d9f6c5b8-x2kq9 Back-off restarting failed container checkout-api (last state: Terminated, reason: OOMKilled, exit code 137)',
      '2024-05-14T02:12:31Z Warning BackOff pod/checkout-api-7d9f6c5b8-m4wzt Back-off restarting failed container checkout-api (last state: Terminated, reason: OOMKilled, exit code 137)',
    ].join('\n'),
  },
  {
    sourceName: 'git-deploy',
    sourceKind: 'git',
    title: 'commit 3f2a9c1 checkout-api: lower memory limit',
    locator: 'commit 3f2a9c1',
    text: 'Lower the checkout-api memory limit from 512Mi to 256Mi to fit more replicas per node. Requests stay at 256Mi. Deployed to production on 2024-05-13 at 22:40 UTC.',
  },
  {
    sourceName: 'checkout-logs',
    sourceKind: 'logs',
    title: 'checkout-api container log',
    locator: 'line 8812',
    text: [
      '2024-05-14T02:11:40Z WARN heap usage 243Mi of 256Mi limit while building cart totals for 1,930 open sessions',
      '2024-05-14T02:11:51Z ERROR FATAL ERROR: Reached heap limit Allocation failed - JavaScript heap out of memory',
      '2024-05-14T02:11:58Z INFO checkout-api listening on :8080',
    ].join('\n'),
  },
  {
    sourceName: 'git-deploy',
    sourceKind: 'git',
    title: 'commit 8b41e07 Revert "checkout-api: lower memory limit"',
    locator: 'commit 8b41e07',
    text: 'This reverts commit 3f2a9c1. The checkout-api pods restarted 41 times overnight because 256Mi is below peak heap during the nightly cart recalculation. The memory limit is back at 512Mi.',
  },
  {
    sourceName: 'runbooks',
    sourceKind: 'docs',
    title: 'Payments latency runbook',
    locator: 'section 2',
    text: 'When p99 latency of payments-api rises above 800 ms, check the connection pool of the ledger database first. Scale the pool before adding replicas.',
  },
  {
    sourceName: 'checkout-logs',
    sourceKind: 'logs',
    title: 'checkout-api container log',
    locator: 'line 9020',
    text: '2024-05-14T03:02:17Z INFO cart recalculation finished: 1,930 sessions in 48.2 s',
  },
];

const countWords = (text: string) => text.split(/\s+/).filter(Boolean).length;

/** The fixture as numbered ContextItems (refs 1…6). `tokens` is a word count: these tests never price it. */
export function incidentContext(): ContextItem[] {
  return FIXTURE.map((item, index) => {
    const hit: Hit = {
      chunkId: `chunk-${item.sourceName}-${index + 1}`,
      sourceName: item.sourceName,
      sourceKind: item.sourceKind,
      sourceVersionId: `${item.sourceName}@v1`,
      title: item.title,
      text: item.text,
      score: 1 / (index + 1),
      rank: index + 1,
      method: 'bm25',
      locator: item.locator,
      tokens: countWords(item.text),
    };
    return { ref: index + 1, hit, text: item.text, tokens: hit.tokens, compressed: false };
  });
}

export const INCIDENT_QUESTION = 'Why did the checkout-api pods keep restarting last night?';
