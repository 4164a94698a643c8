import { describe, expect, it } from 'vitest';
import { parseCitations } from '../../runtime/reasoner/context-prompt';
import type { ContextItem } from '../../runtime/types';
import { groundedCitationVerifier } from '../../runtime/verification/citation-verifiers';
import { composeAnswer, renderCitedSentence } from './extractive-answer-text';
import { withIntermediateAnswer } from '../../runtime/reasoner/intermediate-answer';
import { answerFromContext } from './testing/extractive-reader-answers';
import demoIncident from './testing/demo-incident-context.json';

/** The context the runtime assembled for the demo goal (retrieval output, copied verbatim). */
const demo = demoIncident as { goal: string; items: ContextItem[] };

const answer = answerFromContext;

const refOfLine = (line: string) => Number(/\[(\d+)\]\.?$/.exec(line)?.[1]);

describe('extractive reader on the demo incident context', () => {
  const text = answer(demo.goal, demo.items);
  const lines = text.split('\n');
  // The OOMKilled event is in the context twice, as a Kubernetes event and as a log line; either is the cause evidence.
  const oomItems = demo.items.filter((item) => item.text.includes('was OOMKilled'));
  const commit = demo.items.find((item) => item.hit.sourceName === 'demo-git' && item.hit.locator === 'commit 48d4188');

  it('leads with the cause evidence and the change: the OOMKilled event and the commit subject', () => {
    expect(oomItems.length).toBeGreaterThan(0);
    expect(commit).toBeTruthy();
    expect(lines[0]).toMatch(/^Evidence on "Explain why deployment checkout-api failed" from \d context items:$/);
    const leads = lines.slice(1, 3).map(refOfLine);
    expect(leads).toContain(commit!.ref);
    expect(leads.filter((ref) => oomItems.some((item) => item.ref === ref))).toHaveLength(1);
    expect(text).toContain(`- Lower checkout-api memory limit to 256Mi to cut cluster cost (commit 48d4188, Carol Nguyen, 2025-06-02 16:41 UTC) [${commit!.ref}]`);
    expect(text).toContain('Container checkout-api was OOMKilled: memory usage reached the limit of 256Mi (exit code 137)');
    const cited = parseCitations(text, demo.items).map((citation) => `${citation.sourceName} ${citation.locator}`);
    expect(cited.some((citation) => oomItems.some((item) => citation === `${item.hit.sourceName} ${item.hit.locator}`))).toBe(true);
    expect(cited).toContain('demo-git commit 48d4188');
  });

  it('adds at most two supporting lines, and never a diff header, a bare CSV row or a waiting line', () => {
    expect(lines.length).toBeLessThanOrEqual(5);
    expect(text).not.toMatch(/diff --git|^- index |^- (---|\+\+\+|@@) /m);
    expect(text).not.toContain('timestamp,service');
    expect(text).not.toContain('Waiting for deployment');
    for (const line of lines.slice(1)) expect(line).toMatch(/^- .+ \[\d+\]\.?$/);
  });

  it('is grounded in the items it cites, and deterministic', () => {
    const verdict = groundedCitationVerifier.verify({ goal: demo.goal, answer: text, citations: parseCitations(text, demo.items), context: demo.items });
    expect(verdict.passed).toBe(true);
    expect(answer(demo.goal, demo.items)).toBe(text);
  });
});

const item = (ref: number, title: string, sourceName: string, locator: string, text: string): ContextItem => ({
  ref, text, tokens: 0, compressed: false,
  hit: { chunkId: `c${ref}`, sourceName, sourceKind: 'docs', sourceVersionId: 'v1', title, text, score: 1, rank: ref, method: 'bm25', tokens: 0, locator },
});

/** Another incident in other words (a nil dereference after a code change), so the rules are not tuned to one corpus. */
const panicIncident: ContextItem[] = [
  item(1, 'event 7: Warning BackOff pod/orders-worker-6c9d7f-abcde', 'k8s-events', 'event 7', 'Warning BackOff pod/orders-worker-6c9d7f-abcde (prod): Back-off restarting failed container orders-worker in pod orders-worker-6c9d7f-abcde count=14 source=kubelet'),
  item(2, 'event 5: Warning Unhealthy pod/orders-worker-6c9d7f-abcde', 'k8s-events', 'event 5', 'Warning Unhealthy pod/orders-worker-6c9d7f-abcde (prod): Liveness probe failed: Get "http://10.1.2.3:8080/healthz": connection refused'),
  item(3, 'orders-worker.log lines 120–123', 'worker-logs', 'lines 120–123', [
    '2025-03-01T11:02:14.100Z INFO orders-worker starting, version 4.2.0',
    '2025-03-01T11:02:15.390Z ERROR panic: runtime error: invalid memory address or nil pointer dereference in applyCoupon (internal/orders/coupon.go:88)',
    '2025-03-01T11:02:15.391Z INFO orders-worker shutting down',
  ].join('\n')),
  item(4, 'commit 9f1e2d3: orders-worker: skip the coupon existence check when the cache is warm', 'orders-repo', 'commit 9f1e2d3', [
    'commit 9f1e2d37a0b4c5d6e7f8091a2b3c4d5e6f708192',
    'Author: Dana Park <dana@example.com>',
    'Date:   2025-03-01T10:40:00+01:00',
    '',
    '    orders-worker: skip the coupon existence check when the cache is warm',
    '',
    '    applyCoupon now trusts the coupon cache and no longer returns',
    '    ErrCouponNotFound for a missing entry; the lookup cost 4 ms per order.',
    '',
    'diff --git a/internal/orders/coupon.go b/internal/orders/coupon.go',
    'index 1a2b3c4..5d6e7f8 100644',
    '--- a/internal/orders/coupon.go',
    '+++ b/internal/orders/coupon.go',
    '@@ -84,7 +84,4 @@ func applyCoupon(order *Order) error {',
    ' \tcoupon := cache.Get(order.CouponID)',
    '-\tif coupon == nil {',
    '-\t\treturn ErrCouponNotFound',
    '-\t}',
    ' \torder.Total -= coupon.Amount',
  ].join('\n')),
  item(5, 'Deploy runbook › Rollback', 'runbooks', '§ Rollback', 'If a rollout fails, run kubectl rollout undo for the deployment. Check the deployment events before retrying the rollout.'),
  item(6, 'deploy-orders-worker.log lines 30–31', 'deploy-logs', 'lines 30–31', '2025-03-01T11:06:00Z Waiting for deployment "orders-worker" rollout to finish: 1 of 4 updated replicas are available...\n2025-03-01T11:12:00Z error: deployment "orders-worker" exceeded its progress deadline'),
];

describe('extractive reader on another incident', () => {
  it('leads with the panic and the commit that removed the nil check, not the runbook that repeats the question', () => {
    const lines = answer('Why did the orders-worker rollout fail?', panicIncident).split('\n');
    expect(new Set(lines.slice(1, 3).map(refOfLine))).toEqual(new Set([3, 4]));
    expect(lines).toContain('- orders-worker: skip the coupon existence check when the cache is warm (commit 9f1e2d3, Dana Park, 2025-03-01 09:40 UTC) [4]');
    expect(lines.join('\n')).not.toContain('kubectl rollout undo');
    expect(lines.join('\n')).not.toContain('diff --git');
  });
});

describe('renderCitedSentence', () => {
  it('puts the marker before a closing full stop but after an ellipsis', () => {
    expect(renderCitedSentence({ ref: 2, text: 'The limit is back at 512Mi.', score: 1 })).toBe('- The limit is back at 512Mi [2].');
    expect(renderCitedSentence({ ref: 2, text: '0 of 3 updated replicas are available...', score: 1 })).toBe('- 0 of 3 updated replicas are available... [2]');
  });
});

describe('extractive reader on a commit the question names by id', () => {
  const show = [
    'commit 744c0b5af741bca35c6798724bf3f683aa423715',
    'Author: Jonas Keller <jonas.keller@tallybox.example>',
    'Date:   Mon Dec 1 11:15:00 2025 +0100',
    '',
    '    billing-worker: stop migrating on start, lock_timeout for migrations',
    '',
    '    On 2025-11-30 migration 0042 waited for an ACCESS EXCLUSIVE lock on invoices behind the',
    '    ledger-export month-end query. Also halve upload concurrency.',
    '',
    'diff --git a/services/billing-worker/config.yaml b/services/billing-worker/config.yaml',
    '--- a/services/billing-worker/config.yaml',
    '+++ b/services/billing-worker/config.yaml',
    '@@ -9,6 +9,9 @@ database:',
    ' upload:',
    '-  concurrency: 16',
    '-migrate_on_start: true',
    '+  concurrency: 8',
    '+# Migrations are applied by hand (runbook: schema changes). Migrating at start',
    '+# turned a lock wait into a restart loop on 2025-11-30.',
    '+migrate_on_start: false',
    '+migrations:',
    '+  lock_timeout: 3s',
  ].join('\n');
  const item = (ref: number, locator: string, title: string, text: string): ContextItem => ({
    ref, text, tokens: 120, compressed: false,
    hit: { chunkId: `c${ref}`, sourceName: 'billing-git', sourceKind: 'git', sourceVersionId: 'v1', title, text, score: 1, rank: ref, method: 'bm25', locator, tokens: 120 },
  });
  const other = item(2, 'commit aa9f295', 'commit aa9f295: Bump checkout-api image to 2.14.1', 'commit aa9f2954d7f48277261be7ae1e96d053b772a3ea\n\n    Bump checkout-api image to 2.14.1\n\n    No other changes since 2.14.0.');
  const text = answer('What did commit 744c0b5 change?', [item(1, 'commit 744c0b5', 'commit 744c0b5: billing-worker: stop migrating on start, lock_timeout for migrations', show), other]);

  it('lists every changed key of the named commit, old and new value together', () => {
    expect(text).toContain('migrate_on_start: true → false [1]');
    expect(text).toContain('concurrency: 16 → 8 [1]');
    expect(text).toContain('lock_timeout: 3s [1]');
  });

  it('quotes a comment wrapped over two changed lines as one sentence', () => {
    expect(text).toContain('Migrating at start turned a lock wait into a restart loop on 2025-11-30 [1].');
    expect(text).not.toMatch(/Migrating at start \[1\]/);
  });
});

describe("the extractive answer's opening line", () => {
  it("restates the user's question without self-ask's intermediate answer", () => {
    const answer = composeAnswer(withIntermediateAnswer('Who wrote the change that moved the sinks?', ['fd84e05']), [{ ref: 1, text: 'Move the sinks (commit fd84e05, Mei Chen).', score: 1 }]);
    expect(answer.split('\n')[0]).toBe('Evidence on "Who wrote the change that moved the sinks" from 1 context item:');
  });
});
