import { describe, expect, it } from 'vitest';
import { asksForFirstRecord } from './extractive-first-record';
import { answerFromContext, contextItem } from './testing/extractive-reader-answers';

const record = (stamp: string, state: string, run: string) => `[${stamp}+0000] {runner.py:1206} INFO - Marking job as ${state}. queue=label_export, job_id=render_labels, run_id=scheduled__${run}`;

describe('a question about the first try', () => {
  it('reads "the first try / attempt" as asking for the first record', () => {
    expect(asksForFirstRecord('After the first try of render_labels failed, at what time did that try end?')).toBe(true);
    expect(asksForFirstRecord('At what time did the last try of render_labels end?')).toBe(false);
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
});
