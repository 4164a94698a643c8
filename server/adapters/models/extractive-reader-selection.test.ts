import { describe, expect, it } from 'vitest';
import { withIntermediateAnswer } from '../../runtime/reasoner/intermediate-answer';
import { answerFromContext, contextItem } from './testing/extractive-reader-answers';

/**
 * Sentence selection on a corpus the reader was not shaped on (issue 10): the retriever's order within
 * a source, a bar for weak sentences of further items, and the named item answering for itself.
 * A small made-up ops corpus (a print spooler), not the billing example, so the rules are not fitted to it.
 */
const answer = answerFromContext;

const item = contextItem;

describe('extractive reader sentence selection', () => {
  it('leads with the section the retriever ranked first, not later sections repeating the question identifier', () => {
    const items = [
      item(1, 'Spooler runbook › When print.jobs does not drain', 'ops-docs', 'Is the spooler daemon up? Run `systemctl status spoolerd` on prn-01 and compare the consumer count with the expected six. If it restarts in a loop, read its journal.'),
      item(2, 'Spooler runbook › Re-driving failed jobs', 'ops-docs', 'spoolerd requeue --from print.jobs.dlq --to print.jobs --batch 200'),
      item(3, 'Spooler runbook › Dead letters', 'ops-docs', 'A job lands in `print.jobs.dlq` after three failed attempts; `print.jobs.dlq` is drained by the requeue tool into `print.jobs`.'),
      item(4, 'Spooler runbook › Healthy', 'ops-docs', '`print.jobs` depth falls to 0 by 02:00.'),
    ];
    const text = answer('The print.jobs queue is not draining during the nightly run. What should on-call check?', items);
    expect(text.split('\n')[1]).toContain('systemctl status spoolerd');
  });

  it('answers "what time on <day>" from the record of that day, not a timeline line of another day sharing the words', () => {
    const items = [
      item(1, 'Postmortem: labels missing › Timeline (UTC)', 'ops-docs', 'May 6 16:53 — all four spooler workers fail with PrinterRefused and the failed jobs pile up.'),
      item(2, 'spoolerd.log lines 40–41', 'ops-logs', '[2026-05-09 08:14:22,397] INFO Restarting 4 of 4 workers for queue print.jobs (onlyFailed=true)'),
    ];
    const text = answer('At what time on 9 May 2026 was the restart of the failed spooler workers requested, and how many workers were restarted?', items);
    expect(text.split('\n')[1]).toContain('08:14:22');
  });

  it('quotes a second rule of the best item rather than a weak sentence of another item sharing a word', () => {
    const items = [
      item(1, 'Spool archive › Retention', 'ops-docs', 'Printed job files in `spool-archive` are kept for ninety days, as the print audit policy requires. Failed jobs are kept for a year.'),
      item(2, 'Runbook: stuck sessions', 'ops-docs', 'Long exports are the usual blockers. Cancelling the query keeps the session, terminating it ends the session.'),
      item(3, 'Spooler overview', 'ops-docs', 'spoolerd renders each document and sends it to the printer pool over IPP.'),
    ];
    const text = answer('How long are printed job files kept?', items);
    expect(text).toContain('kept for ninety days');
    expect(text).not.toContain('[2]');
    expect(text).not.toContain('[3]');
  });

  it('answers "which team" with sentences that name a team, not lines that only name the system', () => {
    const items = [
      item(1, 'Ownership', 'ops-docs', 'spoolerd belongs to team documents.'),
      item(2, 'Paging', 'ops-docs', 'Alerts of spoolerd page team documents.'),
      item(3, 'Runbooks', 'ops-docs', 'Team documents keeps the spoolerd runbooks.'),
      item(4, 'Upgrades', 'ops-docs', 'Team documents plans the spoolerd upgrades.'),
      item(5, 'Rotations', 'ops-docs', 'The ipp-gateway, the badge readers, the office VLANs and the wifi controllers of every floor belong to team network.'),
      item(6, 'Logs', 'ops-docs', 'ipp-gateway logs go to Loki.'),
      item(7, 'Metrics', 'ops-docs', 'ipp-gateway exports its error ratio to Grafana.'),
      item(8, 'Hosts', 'ops-docs', 'ipp-gateway runs on prn-gw-1 and prn-gw-2.'),
    ];
    const text = answer('Which team owns spoolerd and which team owns ipp-gateway?', items);
    expect(text).toContain('team network');
    expect(text).toContain('team documents');
  });

  it('does not quote a markdown heading as a claim, even when it restates the question', () => {
    const items = [
      item(1, 'Runbook: printer firmware updates on prn-01', 'ops-docs', '# Runbook: printer firmware updates on prn-01\n\nprn-01 serves every floor, and a firmware update that reboots it stops all printing.'),
      item(2, 'Runbook: printer firmware updates on prn-01 › Rules', 'ops-docs', 'Updates are applied by a person from the vendor tool, never by the printer itself. Every update first drains the queue with `spoolctl pause prn-01`.'),
    ];
    const text = answer('How should a firmware update be applied to prn-01?', items);
    expect(text).not.toContain('# Runbook');
    expect(text).toContain('spoolctl pause prn-01');
  });

  it('still cites a weak line of another item when it names the identifier a quoted sentence names', () => {
    const items = [
      item(1, 'Spooler operations', 'ops-docs', 'Each spoolerd worker renders SPOOL_WORKERS documents at once, four by default. Set SPOOL_WORKERS in the unit environment and restart spoolerd.'),
      item(2, 'spoolerd unit', 'ops-repo', '[Service]\nEnvironment=SPOOL_WORKERS=4\nRestart=always'),
      item(3, 'Team onboarding', 'wiki', 'New engineers get a printer badge in their first week.'),
    ];
    const text = answer('How do I configure the number of spoolerd render workers?', items);
    expect(text).toMatch(/Environment=SPOOL_WORKERS=4 .*\[2\]/);
    expect(text).not.toContain('[3]');
  });

  it('answers a question naming a commit from that commit, not from other commits sharing its words', () => {
    const commit = (ref: number, sha: string, subject: string, body: string) =>
      item(ref, `commit ${sha}: ${subject}`, 'ops-git', `commit ${sha}0000000000000000000000000000000000\n\n    ${subject}\n\n    ${body}`, `commit ${sha}`);
    const items = [
      commit(1, 'b41c9e2', 'spoolerd: render in four workers', 'Rendering was single-threaded; four workers keep the nightly run under two hours.'),
      commit(2, '9d02aa7', 'Bump spoolerd image to 1.4.2', 'No other changes since 1.4.1.'),
    ];
    const text = answer('What did commit b41c9e2 change?', items);
    expect(text).toContain('[1]');
    expect(text).not.toContain('[2]');
  });

  it('does not read a short product name with a digit as the name of the one item whose title holds it', () => {
    const items = [
      item(1, 'Spooler runbook › Draining the P2 queue', 'ops-docs', 'Never purge the P2 queue by hand: purged jobs are lost for good. Pause the printers before moving P2 jobs.'),
      item(2, 'On-call handbook › Alerts that page', 'ops-docs', '| `PrintQueueBacklog` | print queue above 500 jobs for 20 min | print-oncall |'),
    ];
    const text = answer('How many queued jobs does the P2 queue need, and for how long, before the backlog alert pages on-call?', items);
    expect(text).toContain('above 500 jobs for 20 min');
  });

  it('answers "what do I do if it has?" with the conditional step written after the check it quotes', () => {
    const items = [
      item(1, 'Spooler runbook › Before restarting after a long stop', 'ops-docs',
        'If spoolerd was stopped for more than a day, raise the queue retention first so that no more jobs expire. ' +
          'A spooler that was stopped for a long time may resume after jobs the queue has already expired. ' +
          'Compare the oldest job id in the queue with the last printed id: `spoolctl status --oldest` and `spoolctl history --last`. ' +
          'If the last printed id is below the oldest queued id, jobs are already lost: open a SEV-3 ticket before anything else, then restart.'),
      item(2, 'Postmortem: spooler stopped over the weekend', 'ops-docs', 'From Friday evening spoolerd was stopped: its certificate had expired. The queue expired the jobs it never printed after a day. On Monday the spooler was restarted and resumed after the expired jobs.'),
      item(3, 'Spooler overview', 'ops-docs', 'spoolerd renders each document and sends it to the printer pool over IPP. The queue keeps jobs for one day before they expire.'),
    ];
    const text = answer('The spooler has been stopped since Friday. Before I restart it, how do I check whether the queue expired jobs it never printed, and what do I do if it has?', items);
    expect(text).toContain('spoolctl status --oldest');
    expect(text).toContain('open a SEV-3 ticket');
  });

  it('answers "what has to happen before …" with the sentence stating the order, not a sentence that only names the same thing', () => {
    const items = [
      item(1, 'Spooler runbook › Never', 'ops-docs',
        'Do not delete and re-add a printer queue to "clear" it: a new printer queue starts empty and every held job in production is printed twice. ' +
          'Do not purge the held jobs in production without a second person from print-ops: a purge of held jobs cannot be undone. ' +
          'The printer queue must be paused first (`spoolctl pause <queue>`), or the purge is undone by the next poll.'),
      item(2, 'Spooler runbook › Held jobs', 'ops-docs', 'A colleague may purge held jobs in staging at any time. Held jobs in production expire after a day; purging them early is rarely needed.'),
      item(3, 'Postmortem: jobs printed twice', 'ops-docs', 'On-call purged the held jobs in production on their own and a colleague re-added the queue; every held job was printed twice.'),
      item(4, 'Print-ops handbook › Production', 'ops-docs', 'Purging held jobs in production is a print-ops task: a colleague from print-ops reviews every purge of held jobs in production.'),
      item(5, 'Spooler FAQ', 'ops-docs', 'A purge of the held jobs of a printer queue in production touches the jobs of every owner, so a colleague suggests it rarely.'),
      item(6, 'Printer queues', 'ops-docs', 'Each printer queue in production holds the held jobs of its owners; a colleague on print-ops can list the held jobs of a printer queue.'),
      item(7, 'Print-ops rota', 'ops-docs', 'A colleague on the print-ops rota answers for every printer queue in production and its held jobs.'),
    ];
    const text = answer('A colleague suggests purging the held jobs in production. Am I allowed to do that on my own, and what has to happen to the printer queue before the jobs are touched?', items);
    expect(text).toContain('must be paused first');
  });

  it('finds the line of the moment the question names, written in another notation', () => {
    const items = [
      item(1, 'spoolerd log', 'ops-logs', '2026-05-03T23:30:04Z spoolerd INFO queued jobs=12 printers=6\n2026-05-04T00:00:05Z spoolerd INFO queued jobs=41 printers=6\n2026-05-04T00:30:04Z spoolerd INFO queued jobs=9 printers=6'),
    ];
    const text = answer('How many jobs were queued in spoolerd at midnight at the start of 4 May 2026?', items);
    expect(text.split('\n')[1]).toContain('jobs=41 ');
  });

  it('answers what a measure read at a named instant from the row stamped with it, not from a timeline line repeating the names', () => {
    const items = [
      item(1, 'Postmortem: label queue lost jobs, 2-4 May › Timeline', 'ops-docs',
        '- Apr 20 — `label-jobs` retention on queue-2 lowered to one day to relieve the disk of queue-2, while the label-printer sink kept reading.\n' +
          '- May 2 18:10 — the `label-printer` sink stops: its certificate expired, and queue-2 keeps `label-jobs` for one day only.'),
      item(2, 'ops-metrics.csv rows 4–6', 'ops-metrics',
        'timestamp,service,metric,value,unit,threshold\n2026-05-03T06:00:00Z,queue,"disk_used_pct{host=""queue-2""}",71.0,%,85\n' +
          '2026-05-03T12:00:00Z,queue,"disk_used_pct{host=""queue-2""}",64.2,%,85\n2026-05-03T12:00:00Z,printer,"sink_tasks_running{sink=""label-printer""}",0,tasks,4'),
    ];
    const text = answer("How full was queue-2's disk at noon UTC on 3 May, while the label-printer sink was stopped?", items);
    expect(text.split('\n')[1]).toContain('64.2');
  });
  it('does not take a line stamped in the window asked about for a reading when it states no amount of the measure asked', () => {
    const items = [
      item(1, 'commit 4e1a9c0: Shorten label-jobs retention to one day', 'ops-git', 'commit 4e1a9c00000000000000000000000000000000\nAuthor: Ana Ruiz <ana@example.com>\nDate:   2026-04-20T10:00:00+02:00\n\n    Shorten label-jobs retention to one day\n\n    The data disk of queue-2 is at 91 % and label-jobs holds most of its bytes.\n', 'commit 4e1a9c0'),
      item(2, 'Postmortem: label queue lost jobs › Timeline', 'ops-docs',
        '- Apr 20 — `label-jobs` retention on queue-2 lowered to one day to relieve the disk of queue-2.\n' +
          '- May 2 16:10 — the `label-printer` sink stops on queue-2: its certificate expired.\n- May 2 16:40 — the label-printer sink is paged for queue-2.'),
      item(3, 'ops-metrics.csv rows 7–9', 'ops-metrics',
        'timestamp,service,metric,value,unit,threshold\n2026-05-02T18:00:00Z,queue,"disk_used_pct{host=""queue-2""}",48.0,%,85\n2026-05-02T18:00:00Z,printer,"sink_tasks_running{sink=""label-printer""}",0,tasks,4'),
    ];
    const text = answer("queue-2's disk was why label-jobs retention was cut in April. How full was that disk according to the change that cut it, and how full did monitoring show it on the afternoon of 2 May, before the sink stopped?", items);
    expect(text.split('\n')[1]).toContain('91 %');
    expect(text).not.toContain('certificate expired');
  });

  it('quotes two readings of one series at different moments, not the first as if the second repeated it', () => {
    const items = [
      item(1, 'ops-metrics.csv rows 2–4', 'ops-metrics',
        'timestamp,service,metric,value,unit,threshold\n2026-05-04T12:00:00Z,spooler,"cache_used_bytes{instance=""spool-cache-0""}",1200000000,bytes,4000000000\n' +
          '2026-05-04T18:00:00Z,spooler,"cache_used_bytes{instance=""spool-cache-0""}",3100000000,bytes,4000000000'),
    ];
    const text = answer('How much memory was the spool cache using on the evening of 4 May, and which change from that afternoon explains the jump?', items);
    expect(text).toContain('3100000000');
  });

  it('quotes a status line logged again later, when the question asks how far a count had gone, not only its first reading', () => {
    const items = [
      item(1, 'Spooler runbook › Is the cache evicting?', 'ops-docs', 'Check `evicted_jobs` in the cache health line; it must stay at 0.'),
      item(2, 'spooler.log lines 12–14', 'ops-logs', '2026-05-04T06:40:51Z INFO spoold CacheHealth: spool-cache used=3.1G max=4.0G policy=evict-oldest evicted_jobs=1873'),
      item(3, 'spooler.log lines 96–98', 'ops-logs', '2026-05-04T11:16:10Z INFO spoold CacheHealth: spool-cache used=3.2G max=4.0G policy=reject evicted_jobs=41392 (settings reloaded at 11:13:02)'),
    ];
    const text = answer('By the time spool-cache finally picked up its new settings on 4 May, how many jobs had it evicted in total, going by the spooler log?', items);
    expect(text).toContain('evicted_jobs=41392');
  });

  it('quotes a failure logged again a minute later once for a why-question: the repeat explains nothing new', () => {
    const items = [
      item(1, 'exporter log', 'ops-logs', '[2026-05-04T02:40:07Z] WARN nightly_export upload of part 1 to bucket ops-archive failed: Access Denied\n[2026-05-04T02:41:07Z] WARN nightly_export upload of part 2 to bucket ops-archive failed: Access Denied'),
      item(2, 'Postmortem: missing exports', 'ops-docs', 'The exporter role lost write access to ops-archive when the bucket policy was replaced on 3 May.'),
    ];
    const lines = answer('Why did the nightly_export uploads to ops-archive fail on 4 May?', items).split('\n').slice(1);
    expect(lines.filter((line) => line.includes('Access Denied'))).toHaveLength(1);
  });

  it('answers "on 4 May, when was … merged" with a line stating the time, not a sentence repeating the day and the words', () => {
    const items = [
      item(1, 'commit 9f1e2d3', 'ops-git', 'spooler: back to 200 jobs (commit 9f1e2d3, Ana Lima, 2026-05-06 07:30 UTC)\nThe backlog on 4 May was the printer pool, not the limit; 400 jobs changed nothing (commit 9f1e2d3, Ana Lima).'),
      item(2, 'commit 1a2b3c4', 'ops-git', 'spooler: raise the job limit to 400 jobs (commit 1a2b3c4, Ana Lima, 2026-05-04 08:20 UTC)'),
    ];
    const text = answer('On 4 May, when was the change raising the spooler to 400 jobs merged?', items);
    expect(text.split('\n')[1]).toContain('08:20');
  });

  it('answers "what time" with a line stamped with a time of day, not a runbook step repeating the question words', () => {
    const items = [
      item(1, 'Runbook: re-running the nightly export › Several days', 'ops-docs', 'For several failed nightly_export runs in a row use a backfill, which retries them one after another: exportctl backfill nightly_export --from 2026-05-01 --to 2026-05-03.'),
      item(2, 'exporter log', 'ops-logs', '[2026-05-04T02:41:07Z] INFO nightly_export try 3 of 3 exited with code 1\n[2026-05-04T02:41:08Z] ERROR nightly_export marked FAILED, no retries left'),
    ];
    const text = answer('What time did the last retry of the 3 May nightly_export run fail, so that the exporter stopped retrying?', items);
    expect(text.split('\n')[1]).toContain('02:41');
  });
});

describe('a table in a document', () => {
  it('answers which rotation a threshold pages from the table row that names its columns, not a check command repeating the question words', () => {
    const items = [
      item(1, 'Spooler runbook › 2. Is the spool disk full?', 'ops-docs', 'Is the spool disk full?: df -h /var/spool/print | grep spool'),
      item(2, 'On-call handbook › Alerts that page', 'ops-docs', '| Alert | Fires when | Rotation |\n|---|---|---|\n| `SpoolerQueueStuck` | print.jobs depth above 500 for 10 min | print-oncall |\n| `SpoolDiskFull` | spool disk used above 85 % of its size | docs-oncall |'),
    ];
    const text = answer('How full does the spool disk have to get before someone is paged, and which rotation gets that page?', items);
    expect(text).toContain('85 %');
    expect(text).toContain('Rotation: docs-oncall');
  });
});

describe('what a document says', () => {
  it('answers "why does the runbook say not to" from the runbook, not from a log line or a commit sharing its words', () => {
    const items = [
      item(1, 'label-sink.log lines 164–165', 'ops-logs', '[2026-05-09 08:14:31,738] INFO [label-sink|task-3] Resetting offset for partition label-jobs-19 of consumer group connect-label-sink to the earliest position after a reset', 'lines 164–165'),
      item(2, 'Runbook: the label sink is failed › Never', 'ops-docs', 'Do not delete and re-create the sink to reset it: a new sink name is a new consumer group, which starts from the earliest offset and writes every label twice.'),
      item(3, 'commit 47eaa83: Page on failed sink tasks', 'ops-git', 'The failed label-sink tasks never paged because the alert only matched one sink; reset and re-create attempts went unnoticed.', 'commit 47eaa83'),
    ];
    const text = answer('A colleague wants to delete the stuck label sink and create it again to reset it. Why does the runbook say not to?', items);
    expect(text.split('\n')[1]).toContain('new consumer group');
  });

  it('reads the reason the runbook gives, not a step of another section that carries failure words but none of the question', () => {
    const items = [
      item(1, 'runbook-label-sink.md § Never', 'ops-docs', 'Do not delete and re-create the sink to reset it: a new sink name is a new consumer group, which starts from the earliest offset and writes every label twice.'),
      item(
        2,
        'runbook-label-sink.md § 2. Before restarting: is the data still in the queue?',
        'ops-docs',
        'A sink that was down for a long time may restart at a position the queue has already deleted.\n\nCompare the committed offsets with the log start offsets:\n\n```bash\nqueue-consumer-groups --describe --group connect-label-sink\n```\n\nIf the sink has been down for more than half the topic retention, raise the retention first so that no more data is deleted and lost.',
      ),
    ];
    const text = answer('A colleague wants to delete the stuck label sink and create it again to reset it. Why does the runbook say not to?', items);
    expect(text.split('\n')[1]).toContain('new consumer group');
  });
});

describe('causes that are conditions, and answers to how-to questions', () => {
  it('answers a why-question with the expiry that started it, not only the failures that followed', () => {
    const items = [
      item(1, 'Postmortem: scans lost on 2026-03-02 › Timeline', 'ops-docs', '- 01:00 — the certificate of `queue.lab.internal` expires. Open connections stay up.\n- 01:20 — scanner-gateway reconnects; every handshake fails.\n- 06:10 — the buffer disk is full and new scans are dropped.\n- 08:00 — scanner-gateway reconnects after the renewal.'),
      item(2, 'scanner-gateway log', 'ops-logs', '2026-03-02 06:10:02 scanner-gateway WARN buffer at 100%, dropping scan batch=771'),
    ];
    const text = answer('Why did scanner-gateway drop scans on 2026-03-02?', items);
    expect(text).toContain('the certificate of `queue.lab.internal` expires');
  });

  it('does not read an expiry as the answer to a question that asks what a code means', () => {
    const items = [
      item(1, 'Provider codes', 'ops-docs', 'Code PX-77 means the provider rate limit was exceeded; the caller must back off.'),
      item(2, 'Incident notes', 'ops-docs', 'On 2026-01-04 the revoked key stayed in memory and calls failed with PX-10 until a restart.'),
    ];
    const text = answer('What does provider code PX-77 mean?', items);
    expect(text.split('\n')[1]).toContain('rate limit was exceeded');
    expect(text).not.toContain('revoked key');
  });

  it('answers "how do I" with the instruction and its command rather than log records of the same job', () => {
    const items = [
      item(1, 'Spooler runbook › Re-driving failed jobs', 'ops-docs', 'Once the printer is back, move the failed jobs back onto the queue with the spooler tool:\n\n    spoolerd requeue --from print.jobs.dlq --to print.jobs\n\nCheck afterwards that the DLQ is empty.'),
      item(2, 'spoolerd log', 'ops-logs', '2026-02-01T03:10:05Z prn-01 spoolerd level=error msg="failed jobs moved to dead-letter queue" queue=print.jobs.dlq count=12'),
      item(3, 'spoolerd log', 'ops-logs', '2026-02-01T03:12:00Z prn-01 spoolerd level=warn msg="failed jobs waiting in queue" queue=print.jobs.dlq count=12'),
    ];
    const text = answer('How do I put failed print jobs back on the queue?', items);
    expect(text.split('\n')[1]).toContain('with the spooler tool: spoolerd requeue --from print.jobs.dlq --to print.jobs');
  });

  it('keeps two instructions whose commands share most words: one day and several days are two answers', () => {
    const items = [
      item(1, 'Loader runbook › Re-run a failed day', 'ops-docs', 'Clear the failed task for the day that failed:\n\n    flowctl tasks clear nightly_load --start 2026-03-23 --end 2026-03-23 --yes\n\nFor several days in a row run a backfill instead:\n\n    flowctl backfill nightly_load --start 2026-03-20 --end 2026-03-23 --yes'),
    ];
    const text = answer('How do I re-run nightly_load for a failed day?', items);
    expect(text).toContain('flowctl tasks clear nightly_load');
    expect(text).toContain('flowctl backfill nightly_load');
  });

  it('reads "what command do I run to …" as a how-to question: the command, not a log record of the failure', () => {
    const items = [
      item(1, 'nightly_load log', 'ops-logs', '2026-03-24T03:49:56Z flowctl ERROR nightly_load failed for the day 2026-03-23; the run command returned exit code 1 and the day was not loaded.'),
      item(2, 'Loader runbook › Re-run a failed day', 'ops-docs', 'Clear the failed task for the day that failed:\n\n    flowctl tasks clear nightly_load --start 2026-03-23 --end 2026-03-23 --downstream --yes'),
    ];
    const text = answer('nightly_load failed for one day and the fix is merged. What command do I run to load that day again?', items);
    expect(text.split('\n')[1]).toContain('flowctl tasks clear nightly_load');
  });

  it('leads an answer to "what is the safe way to …" with the sentence in the imperative, not a statement sharing its words', () => {
    const items = [
      item(1, 'Label signing overview', 'ops-docs', 'The label signing key of the printers is rotated by the label team, and the printers reload the signing key at midnight.'),
      item(2, 'Label signing runbook', 'ops-docs', 'Rotate the signing key of the printers with `labelctl rotate-key --grace 24h`, so both keys stay valid for a day.'),
    ];
    const text = answer('What is the safe way to rotate the signing key of the label printers?', items);
    expect(text.split('\n')[1]).toContain('labelctl rotate-key --grace 24h');
  });
});

describe("self-ask's last step", () => {
  it("does not let self-ask's bridge names lift the sentence they were read from above the item answering the question", () => {
    const items = [
      item(1, 'Move the spooler to the print-writer service account', 'ops-git', 'Audit finding AUD-17: no shared passwords on the spooler hosts. The spooler now signs in as the print-writer service account.'),
      item(2, 'spoolerd journal', 'ops-logs', '[2026-05-04 09:12:40] INFO spoolerd: signed in to the print server as svc-print-writer@corp-4471 (ticket granted for 10 hours)'),
    ];
    const question = withIntermediateAnswer('When spoolerd restarted with its new credentials in May, which account did it actually sign in as?', ['Audit', 'AUD-17']);
    const text = answer(question, items);
    expect(text).toContain('svc-print-writer@corp-4471');
  });
});


describe('why a change was made', () => {
  it("quotes the first sentence of the commit's body beside its subject, though it names no failure", () => {
    const items = [
      item(1, 'Postmortem: label printing stopped › Timeline', 'ops-docs',
        '- May 4 09:10 — ops-infra change "Move spoolerd to the print-writer service account" merged; the shared password of the spooler hosts is removed.\n' +
          '- May 4 09:20 — every spoolerd job fails with `Unauthorized` after the move to the print-writer service account.'),
      item(2, 'commit 7c1d2e9: Move spoolerd to the print-writer service account', 'ops-git',
        'commit 7c1d2e9000000000000000000000000000000000\nAuthor: Ana Ruiz <ana@example.com>\nDate:   2026-05-04T11:10:00+02:00\n\n    Move spoolerd to the print-writer service account\n\n' +
          '    Audit finding AUD-17: no secrets kept on the print hosts. The spooler daemon spoolerd now signs in as the print-writer service account\n    and the shared password in /etc/spooler/auth.conf is removed.\n',
        'commit 7c1d2e9'),
    ];
    const text = answer('Why was spoolerd moved from a shared password to the print-writer service account in May?', items);
    expect(text).toContain('Audit finding AUD-17');
  });

  it('answers why one option was judged better with the sentence weighing the two, not the lines of the incident', () => {
    // The journal lines repeat the question's words; a log record says what happened once, not what happens if.
    const items = [
      item(1, 'spoolerd journal lines 40–42', 'ops-logs', '2026-05-02T09:00:01Z WARN spoolerd: spool disk full (100%), dropping old job job-881; spool disk fills up again', 'lines 40–42'),
      item(2, 'spoolerd journal lines 90–92', 'ops-logs', '2026-05-02T09:20:11Z WARN spoolerd: spool disk full (100%), dropping old job job-907; spool disk fills up again', 'lines 90–92'),
      item(3, 'Spooler runbook › Is the spool disk full or dropping jobs?', 'ops-docs', 'Is the spool disk full or dropping old jobs?\n```\ndf -h /var/spool && journalctl -u spoolerd | grep dropping\n```'),
      item(4, 'commit 7c1e9a2', 'ops-git', 'spoolerd: reject new jobs when the spool disk is full. On 2 May the disk filled and spoolerd dropped the oldest queued jobs. Rejecting makes the client retry and raises SpoolFull (which pages) instead of silently losing queued contracts.', 'commit 7c1e9a2'),
    ];
    const text = answer('Since May spoolerd no longer drops old jobs when its spool disk is full. What happens now if the disk fills up again, and why was that judged better than dropping?', items);
    expect(text.split('\n')[1]).toContain('instead of silently losing');
    expect(text).not.toContain('job-881');
  });

  it('answers a question about a setting nobody changed from the unchanged line a commit shows around its change', () => {
    const show = ['commit 5e1f0a9c2b7d4e8f9a0b1c2d3e4f5a6b7c8d9e0f', 'Author: Ana Ruiz <ana@print.example>', 'Date:   2026-05-03T10:00:00+02:00', '', '    print servers: spool volumes 200 GB', '', '    The spool disk of prn-01 filled on 2 May.', '', 'diff --git a/terraform/print-servers.tf b/terraform/print-servers.tf', 'index 1a2b3c4..5d6e7f8 100644', '--- a/terraform/print-servers.tf', '+++ b/terraform/print-servers.tf', '@@ -3,7 +3,7 @@ module "print_servers" {', '   instance_type = "m6i.large"', '   spool_volume = {', '     type    = "gp3"', '-    size_gb = 100', '+    size_gb = 200', '   }'].join('\n');
    const items = [
      item(1, 'commit 5e1f0a9', 'ops-git', show, 'commit 5e1f0a9'),
      item(2, 'Spooler overview', 'ops-docs', 'The print servers prn-01 and prn-02 run spoolerd and send each document to the printer pool over IPP.'),
    ];
    expect(answer('What instance type do the print servers run on?', items)).toContain('terraform/print-servers.tf: instance_type = "m6i.large" [1]');
  });

  it('does not let a command step outweigh the cause in a why-question: an instruction explains nothing', () => {
    const items = [
      item(1, 'Spooler runbook › Is spoolerd stopped because the spool disk is full?', 'ops-docs', 'Check whether spoolerd stopped because the spool disk of prn-01 is full:\n```\nsystemctl status spoolerd && df -h /var/spool\n```'),
      item(2, 'Postmortem PM-12 › Cause', 'ops-docs', 'The rotation job had been disabled in April, so spool files of prn-01 were never deleted and its disk ran out of space.'),
      item(3, 'Spooler overview', 'ops-docs', 'spoolerd on prn-01 sends each document to the printer pool over IPP.'),
    ];
    expect(answer('Why did spoolerd on prn-01 stop on 2 May?', items)).toContain('rotation job had been disabled');
  });

  it('answers each half of a "how long, and how many" question, and not from the things "besides" sets aside', () => {
    const items = [
      item(1, 'Spooler overview', 'ops-docs', 'prn-01 serves the queues print.jobs (8 partitions, kept 7 days) and scan.jobs (4 partitions, kept 14 days).'),
      item(2, 'queues/spool-broker.yaml', 'ops-git', 'diff --git a/queues/spool-broker.yaml b/queues/spool-broker.yaml\n@@ -9,5 +9,5 @@\n fax.audit:\n   partitions: 3\n   retention_hours: 72\n-  owner: ops\n+  owner: print-ops'),
      item(3, 'Spooler runbook › Disk', 'ops-docs', 'The spool disk of prn-01 holds 500 GB. Old jobs are deleted by the rotation job every night. The broker runs on prn-02.'),
      item(4, 'Spooler runbook › Restarts', 'ops-docs', 'Restart spoolerd with systemctl restart spoolerd. It drains its queues before it stops. Requests wait in the broker meanwhile.'),
    ];
    const text = answer('Besides print.jobs and scan.jobs there is a third queue that audits fax requests. How long does it keep its data, and how many partitions does it have?', items);
    expect(text).toContain('fax.audit: partitions: 3');
  });

  it('quotes the sentence that carries an explanation on after the leading one, without dropping another item', () => {
    const items = [
      item(1, 'Postmortem › Summary', 'ops-docs', 'From Tuesday afternoon the labels of every depot were missing from the archive: each archive write ended in `EACCES` and both workers stopped. The spool kept finished labels for six hours only, so when the writer came back on Wednesday they had been purged.'),
      item(2, 'label-archiver log', 'ops-logs', '2026-05-05T13:40:12Z ERROR label-archiver write /srv/share/2026/05/05/job-88121.zpl failed: EACCES (permission denied) after 3 retries on worker w2'),
      item(3, 'Spooler runbook › Reprints', 'ops-docs', 'Reprints are made from the depot terminal.'),
      item(4, 'Spooler runbook › Workers', 'ops-docs', 'Both archive workers restart on their own after a crash.'),
      item(5, 'Depot handbook', 'ops-docs', 'Labels are archived for audits on Tuesday nights.'),
    ];
    const text = answer('Why are the labels from Tuesday afternoon missing from the archive?', items);
    expect(text).toContain('EACCES');
    expect(text).toContain('six hours only');
    expect(text).toContain('[2]');
  });
});

