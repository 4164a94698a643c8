import { describe, expect, it } from 'vitest';
import { askedRecordOrdinal } from './extractive-ordinal-record';
import { answerFromContext, contextItem } from './testing/extractive-reader-answers';

const record = (stamp: string, state: string, run: string) => `[${stamp}+0000] {runner.py:1206} INFO - Marking job as ${state}. queue=label_export, job_id=render_labels, run_id=scheduled__${run}`;

describe('a question about the first try', () => {
  it('reads "the first try / attempt" as asking for the first record', () => {
    expect(askedRecordOrdinal('After the first try of render_labels failed, at what time did that try end?')?.ordinal).toBe('first');
    expect(askedRecordOrdinal('At what time did the last try of render_labels end?')?.ordinal).toBe('last');
    expect(askedRecordOrdinal("When did the spooler log its last 'toner low' warning?")?.ordinal).toBe('last');
    expect(askedRecordOrdinal('How many pages did the spooler print in the last hour?')).toBeUndefined();
  });

  it("quotes the day's earliest record of the kind of a quoted one, not the record of the day before (fresh f275)", () => {
    const question = 'After the first try of render_labels in the label_export run for 23 March 2026 failed, in which state did the scheduler put the job, and at what time did that try end?';
    const text = answerFromContext(question, [
      contextItem(1, 'label_export.log', 'ops-logs', [record('2026-03-23T03:37:20.107', 'SUCCESS', '2026-03-22'), record('2026-03-24T03:49:56.331', 'UP_FOR_RETRY', '2026-03-23'), record('2026-03-24T04:04:54.436', 'FAILED', '2026-03-23')].join('\n'), 'label_export.log lines 40-60'),
      contextItem(2, 'label_export.log', 'ops-logs', '[2026-03-24T03:45:02.100+0000] {runner.py:88} INFO - Starting attempt 2 of 3 for render_labels of label_export run scheduled__2026-03-23', 'label_export.log lines 30-31'),
      contextItem(6, 'label_export.log', 'ops-logs', '[2026-03-24T04:00:00.500+0000] {runner.py:88} INFO - Starting attempt 3 of 3 for render_labels of label_export run scheduled__2026-03-23', 'label_export.log lines 50-51'),
      contextItem(7, 'label_export.log', 'ops-logs', '[2026-03-24T03:30:04.200+0000] {runner.py:88} INFO - Starting attempt 1 of 3 for render_labels of label_export run scheduled__2026-03-23', 'label_export.log lines 8-9'),
      contextItem(8, 'label_export.log', 'ops-logs', record('2026-03-24T03:34:59.262', 'UP_FOR_RETRY', '2026-03-23'), 'label_export.log lines 10-12'),
      contextItem(3, 'Spooler runbook', 'ops-docs', 'A failed render_labels try is retried twice, ten minutes apart. Read the log of the last try first.'),
      contextItem(4, 'Label export postmortem', 'ops-docs', 'The label_export run for 23 March 2026 failed: render_labels failed its tries, and the scheduler put the job in state FAILED after the last try.'),
      contextItem(5, 'Label export postmortem › Timeline', 'ops-docs', 'Mar 24 04:04 — render_labels of the label_export run for 23 March fails its last try; the scheduler marks the job FAILED.'),
    ]);
    expect(text).toContain('03:34:59');
  });

  it("quotes the day's last record of a kind the question quotes, not a record that only says \"last\" (fresh f345)", () => {
    const warning = (stamp: string, printer: string) => `${stamp}Z  WARN 1 --- [spooler] [worker-3] c.k.spool.TonerWatch : toner low on printer=${printer} tray=2 (4% left); queueing jobs for the next printer`;
    const stats = (stamp: string, jobs: number) => `${stamp}Z  INFO 1 --- [spooler] [stats-1] c.k.spool.SpoolStats : last 5m: jobs=${jobs} pages=${jobs * 3} failed=0`;
    const text = answerFromContext("When did the spooler log its last 'toner low' warning on 14 April, and for which printer?", [
      contextItem(1, 'spooler.log', 'ops-logs', [stats('2026-04-14T11:40:00.525', 120), warning('2026-04-14T09:05:56.140', 'PRN-015')].join('\n'), 'spooler.log lines 300-301'),
      contextItem(2, 'spooler.log', 'ops-logs', [warning('2026-04-14T10:05:14.150', 'PRN-231'), warning('2026-04-14T10:22:51.006', 'PRN-117'), warning('2026-04-14T10:45:39.564', 'PRN-144')].join('\n'), 'spooler.log lines 120-121'),
      contextItem(3, 'spooler.log', 'ops-logs', [warning('2026-04-14T11:27:16.235', 'PRN-402'), warning('2026-04-14T11:29:09.072', 'PRN-509'), stats('2026-04-14T11:30:00.096', 101)].join('\n'), 'spooler.log lines 280-282'),
      contextItem(4, 'Spooler runbook', 'ops-docs', 'A toner low warning queues the jobs of a printer for the next printer; the last printer of a floor pages the on-call.'),
    ]);
    expect(text).toContain('11:29:09');
  });
});
