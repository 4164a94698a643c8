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

  it('answers "when did it last … before the event" with the subject\'s last record before it, not a nearer line sharing one word nor one sharing the day\'s number', () => {
    const log = item(3, 'labeld.log lines 10–15', 'ops-logs',
      '[2026-05-02 16:40:02,110] INFO [label-printer|worker-2] Label batch printed to tray 2. Next batch 4411\n' +
        '[2026-05-02 16:48:31,501] INFO [label-printer|worker-1] Label batch printed to tray 5. Next batch 4412\n' +
        '[2026-05-02 16:49:40,220] INFO [label-printer|worker-1] Loaded tray 2 profile 7\n' +
        '[2026-05-02 16:50:05,001] WARN [label-printer|worker-0] Printing of batch 4413 refused: certificate expired 1 day ago');
    const text = answer('On 2 May, when did the label-printer last get a label batch printed before printing was refused?', [log]);
    expect(text).toContain('16:48:31');
    expect(text).not.toContain('16:40:02');
  });

  it("answers a day's first warning with the earliest record of the subject that day, though a later one ranks first", () => {
    const later = item(4, 'spoold.log lines 20–22', 'ops-logs',
      '2026-05-02T07:11:30Z WARN spoold tray jammed on printer=P-21 (tray 2); holding the label batch\n' +
        '2026-05-02T08:05:04Z WARN spoold tray jammed on printer=P-08 (tray 1); holding the label batch');
    const earlier = item(5, 'spoold.log lines 1–3', 'ops-logs',
      '2026-05-02T05:50:00Z INFO spoold stats: trays=6 jammed=0\n2026-05-02T06:47:13Z WARN spoold tray jammed on printer=P-19 (tray 2); holding the label batch');
    const text = answer('At what time on 2 May did the spooler log its first warning about a jammed tray, and on which printer?', [later, earlier]);
    expect(text.split('\n')[1]).toContain('P-19');
    expect(text).not.toContain('P-21');
  });

  it("answers when a field first passed a value with the earliest record passing it, not the day's first record", () => {
    const stats = item(6, 'spoold.log lines 1–4', 'ops-logs',
      '2026-05-02T05:50:00Z INFO spoold stats: jobs=900 p50=12ms p99=90ms\n2026-05-02T06:45:00Z INFO spoold stats: jobs=950 p50=14ms p99=180ms\n' +
        '2026-05-02T07:20:00Z INFO spoold stats: jobs=980 p50=16ms p99=265ms\n2026-05-02T08:30:00Z INFO spoold stats: jobs=990 p50=15ms p99=410ms');
    const text = answer('At what time on 2 May did the p99 latency of spoold first exceed 250 ms?', [stats]);
    expect(text.split('\n')[1]).toContain('07:20:00');
  });
});

