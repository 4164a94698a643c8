import { describe, expect, it } from 'vitest';
import { splitSentences } from './sentence-splitter';
import { contentTerms, stem } from './text-terms';

describe('splitSentences', () => {
  it('splits prose at sentence ends but not inside versions, hosts or abbreviations', () => {
    expect(splitSentences('Deploy v1.2.3 to checkout.svc now. Then watch it, e.g. Grafana. Done!')).toEqual([
      'Deploy v1.2.3 to checkout.svc now.',
      'Then watch it, e.g. Grafana.',
      'Done!',
    ]);
  });

  it('starts a sentence at a code span or a bold name after a sentence end (dev d57)', () => {
    expect(splitSentences('A failed run leaves the labels of the day before; nothing is lost. `RenderFailed` posts to `#print-alerts`.')).toEqual([
      'A failed run leaves the labels of the day before; nothing is lost.',
      '`RenderFailed` posts to `#print-alerts`.',
    ]);
    expect(splitSentences('The spooler keeps jobs. **print-gw** forwards them.')).toHaveLength(2);
    expect(splitSentences('Use `lpr -P label-01` here, e.g. `lpr -P label-02` there.')).toHaveLength(1);
  });

  it('keeps each log line and event row whole, even with periods inside', () => {
    const text = [
      '2024-05-14T02:11:51Z ERROR Killed process 4121. Memory cgroup out of memory.',
      '5m          Warning   BackOff   pod/checkout-7d9f   Back-off restarting failed container. Exit 137.',
      'Normal Scheduled pod/checkout-7d9f Successfully assigned shop/checkout-7d9f to node-3. Ready.',
    ].join('\n');
    expect(splitSentences(text)).toHaveLength(3);
  });

  it('never runs a record too long to quote whole into the next record', () => {
    const tail = ' currentLeader=LeaderAndEpoch{leader=Optional[queue-2.lab.internal:9092 (id: 2 rack: eu-1b)], epoch=33}'.repeat(5);
    const first = `[2026-05-09 08:14:31,738] INFO [label-sink|task-3] Resetting offset for partition label-jobs-19${tail} (org.example.SubscriptionState:399)`;
    const second = `[2026-05-09 08:14:31,751] INFO [label-sink|task-3] Fetch position is out of range for partition label-jobs-20${tail} (org.example.AbstractFetch:338)`;
    const units = splitSentences(`${first}\n${second}`);
    expect(units.some((unit) => unit.includes('SubscriptionState:399') && unit.includes('08:14:31,751'))).toBe(false);
    expect(units.filter((unit) => unit.startsWith('[2026-05-09 08:14:31'))).toHaveLength(2);
  });

  it('keeps nested config keys together so a value stays with its key', () => {
    const manifest = 'resources:\n  limits:\n    memory: 256Mi\nenv:\n  - name: DB_POOL_SIZE\n    value: "20"\n  - name: DB_POOL_TIMEOUT_MS\n    value: "5000"';
    expect(splitSentences(manifest)).toEqual([
      'resources: limits: memory: 256Mi',
      'env:',
      'name: DB_POOL_SIZE; value: "20"',
      'name: DB_POOL_TIMEOUT_MS; value: "5000"',
    ]);
  });

  it('rejoins hard-wrapped prose and list items so a sentence is never cut at a line break', () => {
    const markdown = [
      '- Invoice PDFs in `tallybox-invoices` are kept for seven years (object lock, compliance mode),',
      '  as required by the German and French bookkeeping rules.',
      '',
      'Above that Paystream answers HTTP 429. The limit is per merchant account, not per',
      'caller: the three instances share it. The eight billing-worker',
      'consumers normally drain the queue in 50 to 70 minutes.',
      '## Next',
      '| a | b |',
    ].join('\n');
    expect(splitSentences(markdown)).toEqual([
      'Invoice PDFs in `tallybox-invoices` are kept for seven years (object lock, compliance mode), as required by the German and French bookkeeping rules.',
      'Above that Paystream answers HTTP 429.',
      'The limit is per merchant account, not per caller: the three instances share it.',
      'The eight billing-worker consumers normally drain the queue in 50 to 70 minutes.',
      '## Next',
      '| a | b |',
    ]);
  });

  it('rejoins a timeline item that opens with a stamp, while a log line stays one record', () => {
    const timeline = [
      '- Jun 2 09:14 — tallybox change "Route refunds through the new gateway" merged; the',
      '  old gateway key is revoked. Refunds failed from then on.',
      'Jun  2 09:15:01 tallybox-1 refund-worker[311]: gateway timeout',
      '  (retrying)',
    ].join('\n');
    expect(splitSentences(timeline)).toEqual([
      'Jun 2 09:14 — tallybox change "Route refunds through the new gateway" merged; the old gateway key is revoked.',
      'Refunds failed from then on.',
      'Jun  2 09:15:01 tallybox-1 refund-worker[311]: gateway timeout',
      '(retrying)',
    ]);
  });

  it('rejoins the day a wrapped item carries onto its indented next line, but not an indented log record', () => {
    const items = ['- Spool disks grown to 2 TB, queue limit back to 400 jobs (done', '  2026-05-10).', '- Alert on stuck queues (open).'].join('\n');
    expect(splitSentences(items)).toEqual(['Spool disks grown to 2 TB, queue limit back to 400 jobs (done 2026-05-10).', 'Alert on stuck queues (open).']);
    const records = ['2026-05-10 09:15:01 spoolerd: queue full (limit', '  2026-05-10 09:15:02 spoolerd: dropping job 18'].join('\n');
    expect(splitSentences(records)).toHaveLength(2);
  });

  it('drops list markers, blank and decoration-only lines', () => {
    expect(splitSentences('## Steps\n\n- Check the pool.\n1. Scale it.\n---\n')).toEqual(['## Steps', 'Check the pool.', 'Scale it.']);
  });
});

describe('contentTerms', () => {
  it('keeps identifiers whole and in parts, stems inflections, drops stopwords', () => {
    const terms = contentTerms('Why did the checkout-api pods restart after the limits were lowered?');
    expect(terms).toEqual(['checkout-api', 'checkout', 'api', 'pod', 'restart', 'after', 'limit', 'lower']);
    expect(stem('caused')).toBe(stem('cause'));
    expect(stem('restarting')).toBe('restart');
  });
});
