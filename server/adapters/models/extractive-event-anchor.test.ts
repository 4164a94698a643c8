import { describe, expect, it } from 'vitest';
import { answerFromContext as answer, contextItem as item } from './testing/extractive-reader-answers';

/** A reading asked at the moment of another event (issue 10; made-up label-printer corpus, not an example corpus). */
describe('a reading anchored to an event the context dates', () => {
  const timeline = item(1, 'Postmortem: label queue stalled, 2-4 May › Timeline', 'ops-docs',
    '- Apr 20 — `label-jobs` retention on queue-2 lowered to one day, which relieved the disk of the label queue.\n' +
      '- May 2 16:10 — the `label-printer` sink stops: its certificate expired. `LabelQueueDeep` paged at 17:40 and was acknowledged by the weekend on-call.\n' +
      '- May 3 09:00 — the label queue keeps growing while nobody reads it.');
  const rows = item(2, 'ops-metrics.csv rows 1–6', 'ops-metrics',
    'timestamp,service,metric,value,unit,threshold\n' +
      '2026-05-02T15:00:00Z,printer,"queue_depth{queue=""label-jobs""}",1200,jobs,50000\n' +
      '2026-05-02T15:00:00Z,printer,"queue_depth{queue=""invoice-jobs""}",300,jobs,50000\n' +
      '2026-05-02T18:00:00Z,printer,"queue_depth{queue=""label-jobs""}",64100,jobs,50000\n' +
      '2026-05-02T18:00:00Z,printer,"queue_depth{queue=""invoice-jobs""}",280,jobs,50000\n' +
      '2026-05-03T00:00:00Z,printer,"queue_depth{queue=""label-jobs""}",210000,jobs,50000');

  it('quotes the moment the event happened and the subject\'s reading stamped nearest it', () => {
    const text = answer('How deep was the label-jobs queue around the time LabelQueueDeep paged on 2 May, and at what time did it page?', [timeline, rows]);
    expect(text).toContain('17:40');
    expect(text).toContain('64100');
    expect(text).not.toContain('210000');
  });

  it('reads "right before" as the last reading before the event', () => {
    const text = answer('Right before LabelQueueDeep paged on 2 May, how many jobs were in the label-jobs queue?', [timeline, rows]);
    expect(text).toContain('1200');
    expect(text).not.toContain('64100');
  });
});
