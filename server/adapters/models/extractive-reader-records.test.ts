import { describe, expect, it } from 'vitest';
import { answerFromContext, contextItem } from './testing/extractive-reader-answers';

/**
 * Records and changes as answers (issue 10): when a how-to question is answered by an alert's expression
 * or a log record rather than by recorded rows, when two lines of one template are two answers, and when a
 * question about a value before a change is answered by the changed line. A made-up print spooler corpus.
 */
const answer = answerFromContext;
const item = contextItem;

describe('records and changes as answers', () => {
  it('reads "which metric do I query" as a how-to question: the alert\'s expression, not recorded rows of a metric (fresh f341)', () => {
    const items = [
      item(1, 'ops-metrics.csv rows 7–9', 'ops-metrics',
        'timestamp,service,metric,value,unit,threshold\n2026-05-06T18:00:00Z,spooler,"printer_jobs_queued{printer=""label-printer""}",0,count,4\n' +
          '2026-05-07T00:00:00Z,spooler,"printer_jobs_queued{printer=""label-printer""}",0,count,4\n2026-05-07T06:00:00Z,spooler,"printer_jobs_queued{printer=""label-printer""}",0,count,4'),
      item(2, 'commit 5c6d7e8: Alert on jammed workers of every printer', 'ops-git', [
        `commit 5c6d7e8${'0'.repeat(33)}`, 'Author: Ana Ruiz <ana@example.com>', 'Date:   2026-05-08T10:00:00+02:00', '',
        '    Alert on jammed workers of every printer', '', '    PrinterWorkerJammed only matched badge-printer, so the jammed label-printer workers never paged.', '',
        'diff --git a/monitoring/alerts/spooler.yaml b/monitoring/alerts/spooler.yaml', 'index 1111111..2222222 100644', '--- a/monitoring/alerts/spooler.yaml', '+++ b/monitoring/alerts/spooler.yaml',
        '@@ -3,5 +3,5 @@', '   - name: spooler', '     rules:', '       - alert: PrinterWorkerJammed', '-        expr: spooler_worker_state{printer="badge-printer", state="jammed"} == 1', '+        expr: spooler_worker_state{state="jammed"} == 1', '         for: 10m',
      ].join('\n'), 'commit 5c6d7e8'),
    ];
    const text = answer('I want to run the same Prometheus query the PrinterWorkerJammed alert uses to list jammed spooler workers. Which metric do I query?', items);
    expect(text).toContain('spooler_worker_state{state="jammed"}');
    expect(text.split('\n')[1]).not.toContain('printer_jobs_queued');
  });

  it('answers "how do I get … straight from its logs?" with the log record carrying it (fresh f340)', () => {
    const stats = (stamp: string, jobs: number) => `2026-04-14T${stamp}Z  INFO 1 --- [printd] [stats-1] c.a.print.PrintStats : last 5m: jobs=${jobs} p50=14ms p99=41ms static_label=0.4%`;
    const items = [
      item(1, 'Print runbook › Alerts', 'ops-docs', 'Alert: `StaticLabelRatioHigh` (more than 5 % of labels are static labels for 15 minutes).'),
      item(2, 'printd.log lines 1–3', 'ops-logs', [stats('06:00:00.417', 10975), stats('06:05:00.632', 10597)].join('\n')),
      item(3, 'Print runbook › Dashboards', 'ops-docs', 'Grafana folder *Print*: job count per printer, p99 of label rendering, static label share per 5 minutes.'),
      item(4, 'Print architecture › printd', 'ops-docs', 'When templates are missing printd does not fail: it prints a *static label* and counts it in `static_label_total`.'),
    ];
    const text = answer("how do I get printd's job count, p99 and static-label share per 5 minutes straight from its logs?", items);
    expect(text).toContain('c.a.print.PrintStats : last 5m');
  });

  it('answers "before v3, what format did X have?" with the changed line\'s old value, not only the commit\'s sentences (fresh f356)', () => {
    const diff = ['diff --git a/schemas/print-jobs-value.avsc b/schemas/print-jobs-value.avsc', 'index 1111111..2222222 100644', '--- a/schemas/print-jobs-value.avsc', '+++ b/schemas/print-jobs-value.avsc', '@@ -8,3 +8,3 @@',
      '     {"name": "printed_at", "type": ["null", "string"], "default": null,',
      '-     "doc": "When the label was printed, local time of the depot, RFC 2822 without zone."},',
      '+     "doc": "When the label was printed, UTC. Replaces printed_at (local time) from v3."},'].join('\n');
    const items = [
      item(1, 'commit c0562cf: print-jobs v3: printed_at becomes printed_at_utc', 'ops-git', [`commit c0562cf${'0'.repeat(33)}`, 'Author: Rafa Souza <rafa@example.com>', 'Date:   2026-03-19T16:20:00+01:00', '', '    print-jobs v3: printed_at becomes printed_at_utc', '',
        '    The label service now records the print time in UTC (LBL-412). printed_at held the local time of the depot and was wrong near a border.', '', '    The subject is set to NONE so that v3 can be registered; it goes back to BACKWARD afterwards.', '', diff].join('\n'), 'commit c0562cf'),
      item(2, 'commit d035b0f: print_report: read printed_at_utc (v3), fall back to printed_at', 'ops-git', `commit d035b0f${'0'.repeat(33)}\n\n    print_report: read printed_at_utc (v3), fall back to printed_at\n`, 'commit d035b0f'),
    ];
    const text = answer('before v3, what format did printed_at have in the print-jobs schema?', items);
    expect(text).toContain('RFC 2822');
  });

  it('quotes the line of the worker the question names, not only the same failure of another worker a minute apart (fresh f343)', () => {
    const failed = (stamp: string, worker: string, file: string) => `[2026-05-06 ${stamp},019] WARN [label-sink|${worker}] Failed to upload part 1 of labels/day=06/${file}.pdf to bucket acme-labels: Access Denied (c.a.sink.Upload:142)`;
    const items = [
      item(1, 'label-sink.log lines 90–92', 'ops-logs', [failed('16:53:08', 'worker-2', 'labels+3+0916438231'), '[2026-05-06 16:53:08,185] ERROR [label-sink|worker-2] Worker is being killed and will not recover until restarted.'].join('\n')),
      item(2, 'label-sink.log lines 70–72', 'ops-logs', '[2026-05-06 16:44:00,015] INFO [label-sink|worker-0] Files committed to the bucket.'),
      item(4, 'label-sink.log lines 60–61', 'ops-logs', '[2026-05-06 16:40:34,111] INFO [label-sink|worker-1] Files committed to the bucket.'),
      item(5, 'label-sink.log lines 50–51', 'ops-logs', '[2026-05-06 16:39:06,101] INFO [label-sink|worker-1] Starting commit and rotation for labels-10.'),
      item(6, 'label-sink.log lines 95–96', 'ops-logs', '[2026-05-06 16:53:11,311] INFO [label-sink|worker-3] Stopping the consumer of labels.'),
      item(3, 'label-sink.log lines 80–82', 'ops-logs', [failed('16:53:05', 'worker-1', 'labels+11+0917536719'), '[2026-05-06 16:53:05,023] ERROR [label-sink|worker-1] Worker is being killed and will not recover until restarted.'].join('\n')),
    ];
    const text = answer('6 May, label sink: when exactly did worker-1 die, and which pdf file was it uploading at that moment?', items);
    expect(text).toContain('labels+11+0917536719');
  });
});
