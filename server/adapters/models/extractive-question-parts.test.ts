import { describe, expect, it } from 'vitest';
import { questionParts } from './extractive-question-parts';
import { answerFromContext, contextItem, importedFileItem } from './testing/extractive-reader-answers';

/** Passages of the made-up print platform about other things: they make the question's words rarer, as a real context does. */
const unrelatedItems = (firstRef: number) => [
  contextItem(firstRef, 'Label service', 'ops-docs', 'label-api answers with a plain label when its templates are missing. Templates are refreshed every hour.'),
  contextItem(firstRef + 1, 'On-call handbook', 'ops-docs', 'The depot team owns the gateway. Page the spooler rotation for queue problems.'),
];

const parts = (question: string) => questionParts(question)?.map((part) => [...part.distinctive].sort());

describe('the parts of a compound question', () => {
  it('splits coordinated questions and keeps the words only each part has', () => {
    expect(parts('During the outage a lag page went out on Friday evening. When did it fire, and why did the on-call not act on it?')).toEqual([['fire'], ['act', 'call', 'on-call']]);
    expect(parts('Which commit fixed the IAM policy and what was wrong with the policy?')).toEqual([['commit', 'fix', 'iam'], ['wrong']]);
  });

  it('reads a part whose wh-word heads a prepositional phrase ("by when", "at what time", "in which")', () => {
    expect(parts('The label team wants to rename a field. can they just ship that, and by when must the staging models be adjusted?')).toEqual([['ship'], ['adjust', 'model', 'stage']]);
    expect(parts('After the first try of print_export failed, in which state did the scheduler put the job, and at what time did that try end?')).toEqual([['job', 'put', 'schedul', 'state'], ['end', 'time']]);
    expect(questionParts('Through which mechanism does the spooler get its credentials, and at what time did it first use them?')).toHaveLength(2);
    // "in how many steps", "by how much": the same with "how" (fresh f314).
    expect(parts('Ops wants to rename a queue. How does the spooler treat a rename, and in how many steps should it be done?')).toEqual([['spooler', 'treat'], ['done', 'mani', 'step']]);
  });

  it('keeps a part that asks what to do in the case already described, though all its words are function words', () => {
    const found = questionParts('The spooler was down all weekend. How do I check whether jobs expired from the queue, and what do I do if they have?');
    expect(found?.map((part) => part.asksConditionalStep ?? false)).toEqual([false, true]);
    // A part of function words that asks no step is still not kept.
    expect(questionParts('How do I check whether jobs expired, and was it?')?.map((part) => part.asksConditionalStep ?? false)).toEqual([false]);
  });

  it('reads a yes/no part opened by "am" or "should", and marks a part asking what comes before a step', () => {
    const found = questionParts('A colleague suggests purging the held jobs. Am I allowed to do that on my own, and what has to happen to the queue before the jobs are touched?');
    expect(found?.map((part) => part.asksPrecondition ?? false)).toEqual([false, true]);
    expect(questionParts('Should I pause the queue, and which team owns it?')).toHaveLength(2);
  });

  it('reads two things asked for by name in one clause as two parts, a set-aside lead-in or not', () => {
    expect(parts('What IOPS and throughput are provisioned on the spooler disks?')).toEqual([['iop'], ['throughput']]);
    expect(parts('Apart from size, which retention and partition count does the print-jobs topic have?')).toEqual([['retent'], ['count', 'partit']]);
    expect(parts('What retention does the print-jobs topic have?')).toBeUndefined();
  });

  it('reads a question that asks one thing as one part', () => {
    expect(parts('Why did billing-worker stop producing invoices on 2025-11-30?')).toBeUndefined();
    expect(parts('How do I re-run warehouse_daily_load for one day after fixing a dbt model?')).toBeUndefined();
    expect(parts('The sink was down since Friday. How do I restart it?')).toBeUndefined();
  });

  it('reads a hedged part ("roughly how many …") as a count part, and quotes the sentence stating the count beside a stronger one for the other part', () => {
    const question = 'roughly how many printers are in the depot, and how often does a busy printer send a status ping?';
    expect(questionParts(question)?.map((part) => [...(part.counted ?? [])])).toEqual([['printer'], []]);
    const text = answerFromContext(question, [
      contextItem(1, 'Print platform › Data flow', 'ops-docs', '**print-gateway** receives status pings from the printers (one every 5 s while busy, about 2 million a day) and sends them as Avro to the topic `printer-status`.'),
      contextItem(2, 'Print platform', 'ops-docs', 'Acme Print runs about 1,300 printers. The platform collects what the spooler and the label service emit.'),
      contextItem(3, 'Spooler runbook', 'ops-docs', 'The spooler keeps jobs for two days. A stopped spooler loses nothing while the queue still holds the jobs.'),
      ...unrelatedItems(4),
    ]);
    expect(text).toContain('one every 5 s');
    expect(text).toContain('1,300 printers');
  });

  it("answers a part in an operator's words by the runbook sentence saying it otherwise ('bounce' → restart)", () => {
    const text = answerFromContext('I bumped max_jobs in spooler.conf and merged it. How does the change reach the print box, and do I have to bounce the spooler?', [
      contextItem(1, 'commit 3a4b5c6: spooler: limit 400', 'ops-git', 'spooler: limit 400 (commit 3a4b5c6, Ana Ruiz). The spooler hit its limit at 06:41 UTC after the label queue piled up.', 'commit 3a4b5c6'),
      contextItem(2, 'Spooler runbook › Is the spooler full?', 'ops-docs', 'Is the spooler full?: spoolctl -h spooler.internal status # which queues grew'),
      contextItem(3, 'Spooler runbook › Relieve', 'ops-docs', 'Raise the limit in the print-infra repository (the VM has 32 GB). Applied by Ansible within 10 minutes, no restart needed.'),
      ...unrelatedItems(4),
      contextItem(6, 'Print platform', 'ops-docs', 'Acme Print runs about 1,300 printers. The platform collects what the printers emit and keeps it for two weeks.'),
    ]);
    expect(text).toContain('no restart needed');
  });

  it('answers "which module does it come from?" by the import of the name a quoted line uses (fresh f334)', () => {
    expect(questionParts('Which hook does the print_export job call on failure, and which module does it come from?')?.map((part) => part.asksModule ?? false)).toEqual([false, true]);
    const text = answerFromContext('Which hook does the print_export job register to page on a failure, and which module does it come from?', [
      importedFileItem(1, '4d5e6f7', 'jobs/print_export.py', [
        'from datetime import timedelta',
        '',
        'from acme.paging import page_on_failure',
        '',
        'job = Job(',
        '    name="print_export",',
        '    on_failure=page_on_failure("#print-oncall"),',
        '    retries=2,',
        ')',
      ]),
      contextItem(2, 'On-call handbook › Pages', 'ops-docs', '`PrintExportFailed` pages `#print-oncall` with the run id; the job registers its own failure hook.'),
      ...unrelatedItems(3),
    ]);
    expect(text).toContain('from acme.paging import page_on_failure');
  });

  it("answers a part naming its own instant with the row stamped then, not a stronger line of another moment (fresh f353)", () => {
    expect(questionParts('How many jobs were queued at the 06:00 UTC sample on 14 April, and what did the health check report at 06:40?')?.map((part) => [...(part.instants ?? [])])).toEqual([['04-14t06:00'], []]);
    const text = answerFromContext("how much memory was spool-cache using at the 06:00 UTC sample on 14 April, and what used_memory did printd's SpoolCacheHealth check report at 06:40?", [
      contextItem(1, 'print-metrics.csv rows 4–6', 'ops-metrics',
        'timestamp,service,metric,value,unit,threshold\n' +
          ['10', '11', '12', '13', '14'].map((day, index) => `2026-04-${day}T06:00:00Z,spool-cache,"cache_memory_used_bytes{instance=""spool-cache-0""}",${[6210000000, 6700000000, 7180000000, 7630000000, 8560000000][index]},bytes,`).join('\n') +
          '\n2026-04-14T06:00:00Z,spool-cache,"cache_dropped_jobs_per_min{instance=""spool-cache-0""}",0,jobs/min,0\n2026-04-14T06:00:00Z,printd,print_static_label_pct,0.4,%,5'),
      contextItem(2, 'printd.log lines 10–12', 'ops-logs',
        '2026-04-14T06:40:51.413Z INFO 1 --- [printd] [health-1] c.a.print.cache.SpoolCacheHealth : printd spool-cache memory health check report: used_memory=8.00G maxmemory=8.00G policy=drop-oldest dropped=1288 (was 0 at 06:35)\n' +
          '2026-04-14T06:45:00.020Z INFO 1 --- [printd] [stats-1] c.a.print.PrintStats : last 5m: jobs=10416 p99=118ms'),
      ...unrelatedItems(3),
    ]);
    expect(text).toContain('used_memory=8.00G');
    expect(text).toContain('8560000000');
  });

  it('answers "at what time did X pass again" with the record of X passing that day, not a metric row nor the START line (fresh f351)', () => {
    const check = 'not_null_print_jobs_printed_at';
    expect(questionParts(`At what time on 24 March did ${check} pass again in the manual re-run, and which hourly sample of the check_failing_rows metric shows 0 rows after it?`)?.map((part) => part.asksEventTime !== undefined)).toEqual([true, false]);
    const row = (stamp: string, value: number) => `${stamp},printing,"check_failing_rows{check=""${check}""}",${value},rows,0`;
    const run = (stamp: string, text: string) => `[2026-03-24T${stamp}.089+0000] {subprocess.py:93} INFO - ${stamp}  ${text}`;
    const text = answerFromContext(`At what time on 24 March did ${check} pass again in the manual re-run, and which hourly sample of the check_failing_rows metric is the first to show 0 failing rows after it?`, [
      contextItem(1, 'print-metrics.csv rows 4–6', 'ops-metrics', ['timestamp,service,metric,value,unit,threshold', row('2026-03-24T06:00:00Z', 18342), row('2026-03-24T09:00:00Z', 18342), row('2026-03-24T12:00:00Z', 18342), row('2026-03-24T13:00:00Z', 18342), row('2026-03-24T14:00:00Z', 0)].join('\n')),
      contextItem(2, 'nightly_print.log lines 40–44', 'ops-logs', [run('04:04:09', `9 of 15 START check ${check} ........ [RUN]`), run('04:04:13', `9 of 15 FAIL 18342 ${check} ........ [FAIL 18342 in 4.10s]`)].join('\n')),
      contextItem(3, 'nightly_print.log lines 270–272', 'ops-logs', [run('13:02:49', `9 of 15 START check ${check} ........ [RUN]`), run('13:02:54', `9 of 15 PASS ${check} ........ [PASS in 4.60s]`), run('13:02:54', '10 of 15 START check not_null_print_jobs_printer_id ........ [RUN]')].join('\n')),
      contextItem(4, 'commit d035b0f: print_jobs: read printed_at_utc', 'ops-git', `commit d035b0f${'0'.repeat(33)}\n\n    print_jobs: read printed_at_utc\n\n    Since label-service 5.2 (23 March ~14:00 UTC) printed_at is NULL, so ${check} failed the nightly_print run of 23 March.`, 'commit d035b0f'),
      ...unrelatedItems(5),
    ]);
    expect(text).toContain('13:02:54  9 of 15 PASS');
  });

  it('answers "the names of the two X" with the key listing them, and "which of its fields" with a field (fresh f310)', () => {
    const question = 'What are the names of the two spool queues that the label_reprints view is keyed by, and which of its fields holds the number of reprints over 30 days?';
    expect(questionParts(question)?.map((part) => part.member)).toEqual(['queue', 'field']);
    const file = 'spool/label_views.py';
    const lines = ['printer = Queue(name="printer", join_keys=["printer_id"])', 'tray = Queue(name="tray", join_keys=["tray_id"])', '', 'label_reprints = JobView(', '    name="label_reprints",', '    queues=[printer, tray],', '    ttl=timedelta(days=30),', '    schema=[', '        Field(name="mean_wait_seconds", dtype=Float32),', '        Field(name="reprints_30d", dtype=Int64),', '    ],', ')'];
    const commit = [
      `commit 7a8b9c0${'0'.repeat(33)}`, '', '    spool: label_reprints view for routing v2', '',
      '    Per printer and tray: reprint count and mean wait over 30 days. About 900 printers and 40 trays, sparse, so', '    ~6,000 queue keys in the spool store.', '',
      `diff --git a/${file} b/${file}`, 'new file mode 100644', '--- /dev/null', `+++ b/${file}`, `@@ -0,0 +1,${lines.length} @@`, ...lines.map((line) => `+${line}`),
    ].join('\n');
    const text = answerFromContext(question, [contextItem(1, 'commit 7a8b9c0: spool: label_reprints view for routing v2', 'ops-git', commit, 'commit 7a8b9c0'), ...unrelatedItems(2)]);
    expect(text).toContain('queues=[printer, tray]');
    expect(text).toContain('reprints_30d');
  });

  it('does not hold "the run for 22 March" to that day: the run is logged the day after (fresh f320)', () => {
    const question = 'At what time did render_labels of the label_export run for 22 March 2026 finish, and how many hours old was label_report at 06:00 UTC on 23 March 2026 according to the metrics?';
    expect(questionParts(question)?.map((part) => (part.asksEventTime ? [...part.asksEventTime.days] : undefined))).toEqual([[], undefined]);
    const row = (stamp: string, value: number) => `${stamp},printing,"report_age_hours{report=""label_report""}",${value},h,26`;
    const text = answerFromContext(question, [
      contextItem(1, 'print-metrics.csv rows 4–8', 'ops-metrics', ['timestamp,service,metric,value,unit,threshold', row('2026-03-22T06:00:00Z', 2.6), row('2026-03-22T12:00:00Z', 8.6), row('2026-03-23T00:00:00Z', 20.6), row('2026-03-23T06:00:00Z', 2.5), row('2026-03-23T12:00:00Z', 8.5)].join('\n')),
      contextItem(2, 'label_export.log lines 40–42', 'ops-logs', [
        '[2026-03-23T03:37:20.107+0000] {runner.py:1206} INFO - Marking job as SUCCESS. queue=label_export, job_id=render_labels, run_id=scheduled__2026-03-22T03:30:00+00:00',
        '[2026-03-23T03:37:20.116+0000] {runner.py:243} INFO - Job exited with return code 0',
      ].join('\n')),
      contextItem(3, 'commit d035b0f: label_report: read printed_at_utc', 'ops-git', `commit d035b0f${'0'.repeat(33)}\n\n    label_report: read printed_at_utc\n\n    Since label-service 5.2 (23 March ~14:00 UTC) printed_at is NULL, so the label_export run of 23 March failed its checks; label_report was skipped.`, 'commit d035b0f'),
      ...unrelatedItems(4),
    ]);
    expect(text).toContain('03:37:20');
  });
});
