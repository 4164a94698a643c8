/**
 * A goal naming an instant, on the real runtime and database (issue 10, freight dev d22): a metrics
 * file of hourly rows for two print queues over a month, and a runbook that talks about the same
 * queue, are ingested beside the demo. Asked for the backlog at 09:00 on one day, the plan searches
 * the rows stamped around that instant and the answer quotes the 09:00 row, not a runbook sentence
 * or another hour's row.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { openRuntimeFixture, type RuntimeFixture } from '../testing/runtime-fixture';

const GOAL = 'How far behind (in jobs) was the print-gw spool queue at 09:00 UTC on Saturday 2 May 2026?';
let fixture: RuntimeFixture;

/** A month of hourly rows per queue from 1 May 00:00: print-gw's backlog at hour h is 1000 + 37·h, except 2 May 09:00. */
function metricsCsv(): string {
  const rows = ['timestamp,service,metric,value,unit,threshold'];
  for (let hour = 0; hour < 24 * 30; hour++) {
    const at = new Date(Date.UTC(2026, 4, 1, hour)).toISOString().replace('.000Z', 'Z');
    const backlog = at === '2026-05-02T09:00:00Z' ? 86421 : 1000 + 37 * hour;
    rows.push(`${at},print-gw,"spool_queue_backlog{queue=""print-gw""}",${backlog},jobs,5000`);
    rows.push(`${at},label-gw,"spool_queue_backlog{queue=""label-gw""}",${200 + hour},jobs,5000`);
  }
  return `${rows.join('\n')}\n`;
}

beforeAll(async () => {
  fixture = await openRuntimeFixture();
  const runbook = fixture.writeSource('print-docs', 'print-gw-runbook.md', [
    '# print-gw spool queue runbook',
    '',
    'The print-gw spool queue falls behind when the label printers in hall 3 go offline.',
    'A backlog of jobs above 5000 pages the on-call; the queue drains at about 900 jobs an hour once the printers are back.',
    '',
  ].join('\n'));
  await fixture.runtime.ingest(runbook, { source: 'print-docs' });
  await fixture.runtime.ingest(fixture.writeSource('print-metrics', 'spool.csv', metricsCsv()), { source: 'print-metrics' });
}, 120_000);

afterAll(async () => {
  await fixture?.close();
});

describe('a goal naming an instant', () => {
  it('searches the rows stamped around it and answers with the 09:00 row', async () => {
    const explain = await fixture.runtime.explain({ goal: GOAL });
    const hop = explain.graph.nodes.find((node) => node.kind === 'retrieve' && node.within !== undefined);
    expect(hop).toMatchObject({ method: 'bm25', within: [{ from: '2026-05-02T08:30', to: '2026-05-02T09:30' }] });
    expect(hop?.kind === 'retrieve' && hop.sources).toContain('print-metrics');

    const result = await fixture.runtime.run({ goal: GOAL });
    expect(result.status).toBe('completed');
    expect(result.answer).toContain('86421');
  }, 120_000);

  it('a plan cached for one instant is not served for another: each searches its own window', async () => {
    const first = await fixture.runtime.explain({ goal: 'What was the print-gw spool queue backlog at 10:00 UTC on Sunday 3 May 2026?' });
    const second = await fixture.runtime.explain({ goal: 'What was the print-gw spool queue backlog at 11:00 UTC on Sunday 3 May 2026?' });
    const windowOf = (explain: typeof first) => explain.graph.nodes.flatMap((node) => (node.kind === 'retrieve' && node.within ? node.within : []));
    expect(windowOf(first)).toEqual([{ from: '2026-05-03T09:30', to: '2026-05-03T10:30' }]);
    expect(windowOf(second)).toEqual([{ from: '2026-05-03T10:30', to: '2026-05-03T11:30' }]);
    expect(second.planCache.status).not.toBe('hit');
  });

  it('a goal naming a day without a time of day gets no time-window search', async () => {
    const explain = await fixture.runtime.explain({ goal: 'How far behind was the print-gw spool queue on Saturday 2 May 2026?' });
    expect(explain.graph.nodes.some((node) => node.kind === 'retrieve' && node.within !== undefined)).toBe(false);
  });
});
