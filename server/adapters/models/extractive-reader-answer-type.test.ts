import { describe, expect, it } from 'vitest';
import { askedSettingKeys, askedTypeTerms, keysAskedSetting, timesDoneSettingKeys } from './extractive-answer-type';
import { answerFromContext, contextItem, importedFileItem } from './testing/extractive-reader-answers';

/**
 * What kind of answer the question asks for (issue 10, freight corpus tune half: a count, a
 * procedure's steps, an incident's dates). A made-up print spooler corpus, not an example corpus,
 * so the rules are not fitted to one.
 */
const answer = answerFromContext;

const item = contextItem;

describe('the answer type the question asks for', () => {
  it('answers "how many" with a sentence that binds a number to the counted noun, not ones that only repeat it', () => {
    const items = [
      item(1, 'Spooler runbook › spoolerd workers in production', 'ops-docs', 'If spoolerd workers in production fall behind, look at the render queue before adding workers. Workers that run out of memory in production restart on their own.'),
      item(2, 'Spooler runbook › Scaling', 'ops-docs', 'Production spoolerd workers run behind the print gateway; more workers rarely help a slow printer.'),
      item(3, 'commit 5e1d2c0: spoolerd: back to 3 workers', 'ops-git', 'commit 5e1d2c0000000000000000000000000000000000\n\n    spoolerd: back to 3 workers\n\n    The slow nights were the printer firmware.', 'commit 5e1d2c0'),
    ];
    const text = answer('How many spoolerd workers run in production?', items);
    expect(text.split('\n')[1]).toContain('back to 3 workers');
  });

  it('answers a measure question ("what speed") with the sentence stating a speed, not the one repeating "speed" beside minutes', () => {
    const items = [
      item(1, 'Router runbook › Route features', 'ops-docs', 'route-api reads the route features of the van (average speed over 15 and 60 minutes, stops done, current street) from route-cache when it has no fresh ping.'),
      item(2, 'Architecture › route-api', 'ops-docs', 'route-api serves arrival estimates. Without features it does not fail: it estimates distance / 45 km/h plus the planned stops.'),
    ];
    const text = answer('When route-api has no route features for a van, what average speed does it assume for the arrival estimate?', items);
    expect(text).toContain('45 km/h');
  });

  it('answers a how-to question with the step that does it first, before a statement sharing more of its words', () => {
    const items = [
      item(1, 'Route cache runbook › Relieve', 'ops-docs', 'Do **not** `FLUSHALL`: route-api would serve static estimates for every van until the next hourly refresh of the route features.'),
      item(2, 'Route cache runbook › Is the refresh running?', 'ops-docs', 'In the scheduler, `route_features_hourly` should succeed every hour.\n\nBy hand, from the `route-runner` pod:\n\n```bash\nroutes refresh-incremental --now\n```'),
    ];
    const text = answer('How do I push fresh van route features into the cache by hand instead of waiting for the next hourly refresh?', items);
    expect(text.split('\n')[1]).toContain('routes refresh-incremental --now');
  });

  it('answers each part of a compound question: the sentence saying why the page was ignored joins the lines about the outage', () => {
    const items = [
      item(1, 'Postmortem: labels missing › Summary', 'ops-docs', 'On Friday evening the label-printer outage began because the spooler crashed: the queue page went blank for every label-printer job.'),
      item(2, 'spooler log', 'ops-logs', '2026-03-06 18:02 ERROR label-printer queue outage: page render failed due to an expired certificate, Friday evening batch went out empty.'),
      item(3, 'Queue dashboard', 'ops-metrics', 'label-printer queue depth during the outage on Friday evening: 4,200 jobs after the spooler OOMKilled, page count 0.'),
      item(4, 'Postmortem: labels missing › Impact', 'ops-docs', 'The label-printer outage stopped every queue on Friday evening because the spooler crashed; no page went out until Monday.'),
      item(5, 'Postmortem: labels missing › Timeline', 'ops-docs', 'Mar 6 18:21 — `QueueLagHigh` fired and was acknowledged by the weekend on-call, who read it as part of the planned patching.'),
    ];
    const text = answer('During the label-printer outage a queue page went out on Friday evening. When did it fire, and why did the on-call not act on it?', items);
    expect(text).toContain('18:21');
    expect(text).toContain('patching');
  });

  it('answers "what was changed" with the change record, not a sentence that only uses the word', () => {
    const items = [
      item(1, 'commit 2c7f3a8', 'ops-git', 'commit 2c7f3a8000000000000000000000000000000000\nAuthor: Dev Ruiz <dev@example.com>\n\n    route-api: back to 4 replicas\n\n    The error ratio on 14 April was route-cache evicting keys, not load; 6 replicas of route-api changed nothing in the route-cache configuration.', 'commit 2c7f3a8'),
      item(2, 'route-api log', 'ops-logs', '2026-04-14T11:16:10Z INFO route-api: route-cache INFO used_memory=8.59G maxmemory=16.00G policy=noeviction (configuration changed at 11:13)'),
      item(3, 'commit cc208f1', 'ops-git', 'commit cc208f1000000000000000000000000000000000\nAuthor: Lena Brandt <lena@example.com>\n\n    route-cache: maxmemory 16gb, noeviction\n\n    16gb fits both views with room.', 'commit cc208f1'),
    ];
    const text = answer('What was changed in the route-cache configuration after the route-api incident of 14 April 2026?', items);
    expect(text.split('\n')[1]).toContain('maxmemory 16gb, noeviction');
  });

  it('answers a part whose own words are nowhere in the context with its best sentence not quoted yet ("what was wrong with the policy")', () => {
    const items = [
      item(1, 'commit f726b40', 'ops-git', 'commit f726b40000000000000000000000000000000000\nAuthor: Mei Chen <mei@example.com>\n\n    Fix printer-writer policy: label-jobs prefix\n\n    Every upload of label-jobs was denied (403) since the printer-writer role change on Friday.\n\n    The printer-writer policy allowed spool/label_jobs/* (underscore); the spooler writes to spool/label-jobs/*.', 'commit f726b40'),
      item(2, 'commit fd84e05', 'ops-git', 'commit fd84e05000000000000000000000000000000000\nAuthor: Mei Chen <mei@example.com>\n\n    Move spooler uploads to the printer-writer IAM role\n\n    Uploads now use the printer-writer IAM role, limited to two prefixes.', 'commit fd84e05'),
      item(3, 'Postmortem › Timeline', 'ops-docs', 'Mar 9 08:05 — printer-writer IAM policy fixed by commit f726b40 of the printer-writer role.'),
    ];
    const text = answer('Which commit fixed the printer-writer IAM policy, and what was wrong with the policy?', items);
    expect(text).toContain('(underscore)');
  });

  it('quotes both steps of the procedure after two sentences of the same section (a regression guard: the old discount also kept them here)', () => {
    const items = [
      item(1, 'Loader runbook › Re-run a failed night', 'ops-docs', 'A re-run of nightly_load reprocesses only the failed night, so a re-run is safe. A re-run of one night takes about ten minutes of nightly_load. Clear the failed night and the tasks after it:\n\n    flowctl tasks clear nightly_load --start 2026-03-23 --end 2026-03-23 --yes\n\nFor several failed nights run a backfill instead:\n\n    flowctl backfill nightly_load --start 2026-03-20 --end 2026-03-23 --yes'),
      item(2, 'Loader runbook › Failed nights', 'ops-docs', 'A failed night of nightly_load leaves the reports at the night before.'),
    ];
    const text = answer('How do I re-run nightly_load for a failed night?', items);
    expect(text).toContain('flowctl tasks clear nightly_load');
    expect(text).toContain('flowctl backfill nightly_load');
  });

  it('does not quote a line of another system that shares only a day of the month with the question (a regression guard)', () => {
    const items = [
      item(1, 'Postmortem: scans missing from the archive, 6-8 March', 'ops-docs', 'Every upload of scanner-gateway was denied (403) after the role change on Friday.'),
      item(2, 'cluster events', 'shop-events', 'Warning FailedScheduling pod/report-exporter: 0/6 nodes are available: 2 node(s) had untolerated taint, 4 Insufficient cpu.'),
    ];
    const text = answer('Why are scans from 6 to 8 March missing from the archive?', items);
    expect(text).toContain('[1]');
    expect(text).not.toContain('[2]');
  });
});

describe('a question asking how a value is worked out', () => {
  it('quotes the sentence stating the arithmetic before sentences sharing more of its words (fresh f240)', () => {
    const items = [
      item(1, 'Label runbook', 'ops-docs', 'label-api prints from the online templates of the printer (`printer_templates`: fonts, tray sizes, current roll) read from template-cache. A plain label means the templates for that printer were not in template-cache.'),
      item(2, 'Label runbook › Relieve', 'ops-docs', 'template-cache empty or evicting: label-api prints plain labels for every printer with missing online templates (worse, still a label).'),
      item(3, 'Architecture › label-api', 'ops-docs', 'When templates are missing it does not fail: it prints the *plain label* (page width / 8 characters plus the address lines) and counts it.'),
    ];
    const text = answer('How does label-api compute the plain label when online templates are missing?', items);
    expect(text.split('\n')[1]).toContain('page width / 8 characters');
  });
});

describe('a document section the question names by its heading', () => {
  it("quotes the section's first sentence, whose words the heading took, before sentences repeating the question (dev d41)", () => {
    const items = [
      item(1, 'commit 7c8d9e0: Move the label sinks to the print-writer role', 'ops-git', 'commit 7c8d9e0000000000000000000000000000000000\n\n    Move the label sinks to the print-writer role\n\n    The sinks now get credentials from the print-writer role; the static key is removed.', 'commit 7c8d9e0'),
      item(2, 'Postmortem: labels missing › Action items', 'ops-docs', 'Respect the Friday change freeze for roles (reminder sent). Move the label sinks back only with a second reviewer.'),
      item(3, 'Postmortem: labels missing › Timeline', 'ops-docs', 'Mar 6 16:40 — change "Move the label sinks to the print-writer role" merged; the static key of the label sinks is removed.'),
      item(4, 'On-call handbook', 'ops-docs', '## Change freeze\n\nNo changes to queues, sinks or roles on Fridays after 15:00 Europe/Warsaw, except fixes for a live incident.', '§ Change freeze'),
    ];
    const text = answer("Was the switch of the label sinks to the print-writer role merged inside the team's Friday change freeze?", items);
    expect(text).toContain('after 15:00');
  });

  it('a heading shaped as a question ("Who to ask") is named by a question asking the same with its words, and its opening is quoted though it shares none (fresh f158)', () => {
    const items = [
      item(1, 'Changing a label template', 'ops-docs', 'Printer teams register their label templates in template-registry. A template change that adds a field with a default is compatible.', '§ Changing a label template'),
      item(2, 'Changing a label template', 'ops-docs', '## Who to ask\n\n`#print-platform`, or the print-platform engineer on call for anything urgent.', '§ Who to ask'),
      item(3, 'Label runbook', 'ops-docs', 'A template change that removes a field breaks the label printers of every depot.'),
    ];
    const text = answer('The depot team wants to change a field of their label template and is not sure it is a compatible change. Who should they ask, and what if it cannot wait?', items);
    expect(text).toContain('#print-platform');
  });
});

describe('a question asking for a file', () => {
  const nightlyCommit = [
    `commit 9a8b7c6${'0'.repeat(33)}`,
    'Author: Ada Lind <ada@print.example>',
    'Date:   2026-02-02T10:00:00+00:00',
    '',
    '    Move label_nightly to 03:30',
    '',
    'diff --git a/dags/label_nightly.py b/dags/label_nightly.py',
    '@@ -3,4 +3,4 @@ with DAG(',
    '     dag_id="label_nightly",',
    '-    schedule="0 2 * * *",',
    '+    schedule="30 3 * * *",',
  ].join('\n');

  it('is answered by a changed line shown with its file (fresh f288)', () => {
    const items = [
      item(1, 'Print architecture › label_nightly', 'ops-docs', 'label_nightly renders the labels of the next day. It starts at 03:30 UTC and takes about 20 minutes.'),
      item(2, 'commit 9a8b7c6: Move label_nightly to 03:30', 'ops-git', nightlyCommit, 'commit 9a8b7c6'),
      item(3, 'Spooler runbook › Restarts', 'ops-docs', 'The spooler restarts a label printer when a render of label_nightly fails twice.'),
    ];
    const text = answer('How do I change the start time of label_nightly: which file in print-infra do I edit, and which schedule is set there today?', items);
    expect(text).toContain('dags/label_nightly.py');
  });

  it('"which files" holds a sentence naming no path to the bar of an untyped answer, so the changed line with its file is quoted (fresh f287)', () => {
    const commit = [`commit 5d4c3b2${'0'.repeat(33)}`, '', '    shipping-label template v7', '', 'diff --git a/templates/shipping-label.json b/templates/shipping-label.json', '@@ -1,3 +1,3 @@', ' {', '-  "version": 6,', '+  "version": 7,'].join('\n');
    const items = [
      item(1, 'Print templates › Ownership', 'ops-docs', 'The shipping-label template and its queue setting are owned by the print team; a new template version needs the queue drained first.'),
      item(2, 'commit 5d4c3b2: shipping-label template v7', 'ops-git', commit, 'commit 5d4c3b2'),
    ];
    expect(answer('Which files in print-infra hold the shipping-label template and its queue setting?', items)).toContain('templates/shipping-label.json');
  });

  it('"where … are X kept" asks for a path as "which file" does (fresh f192)', () => {
    const items = [
      item(1, 'Print on-call handbook › Alerts that page', 'ops-docs', 'The printer alert rules page the print on-call rotation when a printer is stuck.'),
      item(2, 'Print architecture › Monitoring', 'ops-docs', 'Alert rules are in `print-infra/monitoring/alerts/`, one file per service, applied by CI.'),
    ];
    expect([...(askedTypeTerms('Where in print-infra are the printer alert rules kept?') ?? [])]).toEqual(['file']);
    expect([...(askedTypeTerms('Where do I find the log of one try of the render task?') ?? [])]).toEqual(['file']);
    expect(askedTypeTerms('Where did the render task fail, and why?')).toBeUndefined();
    const text = answer('We want to tune the PrinterStuck alert. Where in print-infra are the printer alert rules kept?', items);
    expect(text.split('\n')[1]).toContain('print-infra/monitoring/alerts/');
  });
});

describe('askedTypeTerms: the head noun of a "which/what <noun>" question', () => {
  it.each([
    ['Which team owns spoolerd and which team owns ipp-gateway?', ['team']],
    ['Which commit fixed the spooler policy, and what was wrong with it?', ['commit']],
    ['Which print-infra change was merged before the outage?', ['chang']],
    ['What retention does print.jobs have?', ['retent']],
  ])('%s → %j', (question, stems) => {
    expect([...(askedTypeTerms(question) ?? [])]).toEqual(stems);
  });

  it('a commit answers "which change/commit" by what it is: its subject line', () => {
    const items = [
      item(1, 'Spooler runbook › Static pages', 'ops-docs', 'When render-api answers with the static page, the spooler cache changed nothing and a restart changed nothing either.'),
      item(2, 'commit 7d1e2a9: render: font cache 4gb', 'ops-git', `commit 7d1e2a9${'0'.repeat(33)}\n\n    render: font cache 4gb\n\n    More fonts for the new label printers.`, 'commit 7d1e2a9'),
    ];
    const text = answer('Which print-infra change was merged before render-api started answering with the static page?', items);
    expect(text).toContain('render: font cache 4gb');
  });

  it('a verb does not name a change: "3 workers changed nothing" is no answer to "which change was merged"', () => {
    const items = [
      item(1, 'commit 9a8b7c6: spoolerd: back to 3 workers', 'ops-git', `commit 9a8b7c6${'0'.repeat(33)}\n\n    spoolerd: back to 3 workers\n\n    The blank labels in May were render-cache evicting fonts, not load: 6 workers changed nothing.`, 'commit 9a8b7c6'),
      item(2, 'commit 1f2e3d4: render-cache: fonts ttl 2 days', 'ops-git', `commit 1f2e3d4${'0'.repeat(33)}\n\n    render-cache: fonts ttl 2 days\n\n    Keep the label fonts for two days.`, 'commit 1f2e3d4'),
    ];
    const lines = answer('Which print-infra change was merged a few days before render-api started printing blank labels in May?', items).split('\n');
    expect(lines[1]).not.toContain('changed nothing');
  });

  it.each(['What was changed in the spooler configuration?', 'What is the memory limit of spoolerd?', 'Which of the printers failed?', 'What time does the nightly reprint start?', 'Why did spoolerd stop?'])('%s → no head noun', (question) => {
    expect(askedTypeTerms(question)).toBeUndefined();
  });
});

describe('a value kind asks for the setting keyed by it ("what instance type", "what type of volume")', () => {
  it('reads the kind and the nouns it qualifies, in either order', () => {
    const keys = askedSettingKeys('What EC2 instance type do the print servers run on, and what type of disk volume holds the spool?');
    expect(keys.map((key) => [key.kind, [...key.qualifiers]])).toEqual([['type', ['instanc']], ['type', ['disk', 'volum']]]);
    expect(askedSettingKeys('Which log level does spoolerd run at?').map((key) => [key.kind, [...key.qualifiers]])).toEqual([['level', ['log']]]);
    expect(askedSettingKeys('How many spoolerd workers run?')).toEqual([]);
  });

  it('matches a key and the blocks it sits in, never the value', () => {
    const keys = askedSettingKeys('What type of disk volume holds the spool?');
    expect(keysAskedSetting('terraform/print.tf › spool_volume: type = "gp3"', keys)).toBe(true);
    expect(keysAskedSetting('terraform/print.tf › spool_volume: size_gb = 500', keys)).toBe(false);
    expect(keysAskedSetting('terraform/print.tf: comment = "volume type gp3"', keys)).toBe(false);
  });

  it("quotes the diff's unchanged settings keyed so before the commit's own subject", () => {
    const diff = ['commit 3c4d5e6' + '0'.repeat(33), '', '    print servers: spool volumes 1 TB', '', '    Label jobs grew; the spool must hold a weekend of them.', '', 'diff --git a/terraform/print-servers.tf b/terraform/print-servers.tf', '@@ -5,7 +5,7 @@ module "print_servers" {', '   instance_type = "m6i.large"', '   spool_volume = {', '     type       = "gp3"', '-    size_gb = 500', '+    size_gb = 1000', '   }'].join('\n');
    const items = [
      item(1, 'commit 3c4d5e6: print servers: spool volumes 1 TB', 'ops-git', diff, 'commit 3c4d5e6'),
      item(2, 'Architecture › Print servers', 'ops-docs', 'The print servers prn-01 and prn-02 keep their spool volumes at most half full.'),
    ];
    const lines = answer('What EC2 instance type do the print servers run on, and what type of volume holds their spool?', items).split('\n');
    expect(lines[1]).toContain('instance_type = "m6i.large"');
    expect(lines[2]).toContain('type = "gp3"');
  });
});

/** Item 3: an initial import's part creating one file, as a setting lookup places it. */
const importedFile = (shortSha: string, path: string, lines: readonly string[]) => importedFileItem(3, shortSha, path, lines);

describe('a behaviour "how long" describes asks for the setting that configures it', () => {
  it('quotes the timeout of the service the question names, though prose shares more of its words', () => {
    const items = [
      item(1, 'Print gateway runbook › Static labels', 'ops-docs', 'print-gw prints each job from its spooled label (template, fonts, barcode, ...) read from spool-cache, and a job print-gw may not wait for prints a static label. A static label means the job was not in spool-cache when print-gw asked for it.'),
      item(2, 'Print gateway runbook › Alerts', 'ops-docs', 'When print-gw gives up on spool-cache it prints a static label; more than 5 % of them for 15 minutes page the on-call.'),
      importedFile('7a8b9c0', 'helm/print-gw/values.yaml', ['replicaCount: 3', 'env:', '  SPOOL_FETCH_TIMEOUT_MS: "40"']),
    ];
    const text = answer('How long may print-gw wait on spool-cache for a job before it gives up and prints a static label?', items);
    expect(text).toContain('SPOOL_FETCH_TIMEOUT_MS: "40"');
  });
});

describe('"how many times does X <do>" asks for the count keyed by what is done', () => {
  it('quotes the retries and the retry delay of the DAG the question names, two keys of one block', () => {
    const items = [
      item(1, 'Scheduler runbook › Re-run the failed night', 'ops-docs', 'Clear the failed render task of label_nightly and everything after it:\n\n```bash\nscheduler tasks clear label_nightly --task-regex render --downstream --yes\n```'),
      item(2, 'Scheduler runbook › Several nights', 'ops-docs', 'For several failed nights of label_nightly use a backfill of the render task instead:\n\n```bash\nscheduler dags backfill label_nightly --reset-dagruns --yes\n```'),
      importedFile('4d5e6f7', 'scheduler/dags/nightly/label_nightly.py', ['default_args = {', '    "owner": "print-platform",', '    "retries": 2,', '    "retry_delay": timedelta(minutes=10),', '}']),
    ];
    const text = answer('If the render task of label_nightly fails, how many times does the scheduler retry it on its own, and how long does it wait between tries?', items);
    expect(text).toContain('"retries": 2');
    expect(text).toContain('"retry_delay": timedelta(minutes=10)');
  });

  it('reads the count a key holds from the verb, qualified by the names the question gives', () => {
    const keys = timesDoneSettingKeys('If the render task of label_nightly fails, how many times does the scheduler retry it?');
    expect(keys.map((key) => [key.kind, [...key.qualifiers]])).toEqual([['retri', ['label', 'night']]]);
    expect(keysAskedSetting('scheduler/dags/nightly/label_nightly.py › default_args: "retries": 2,', keys)).toBe(true);
    expect(keysAskedSetting('dags/spool_hourly.py › default_args: "retries": 3,', keys)).toBe(false);
    expect(timesDoneSettingKeys('How many times does the scheduler retry a failed run?')).toEqual([]);
  });

});

describe('an extreme asked in other words', () => {
  it('answers "how stale did it get" with the series peak in hours, a word the question does not use', () => {
    const items = [
      item(1, 'Export runbook › Re-run the failed night', 'ops-docs', 'Clear the failed task and everything after it. A full rebuild takes about 40 minutes and needs the large warehouse.'),
      item(2, 'print-metrics.csv: reports spool_report_age_hours (hours)', 'ops-metrics', 'Metric series reports spool_report_age_hours (h, hours): 5 samples from 2026-03-23T06:00:00Z to 2026-03-25T06:00:00Z. Lowest 0.8 h at 2026-03-24T14:00:00Z (row 4); highest 31.5 h at 2026-03-24T12:00:00Z (row 3); last 2.1 h at 2026-03-25T06:00:00Z (row 5).', 'series reports/spool_report_age_hours'),
      item(3, 'commit 7f0c1d2: spool_report: read printed_at_utc', 'ops-git', 'commit 7f0c1d2000000000000000000000000000000000\n\n    spool_report: read printed_at_utc\n\n    The nightly export of 23 March failed on not_null_printed_at; spool_report was skipped.', 'commit 7f0c1d2'),
    ];
    const text = answer('How stale did spool_report get on 24 March?', items);
    expect(text).toContain('highest 31.5 h');
  });

  describe('"is X turned on?" beside another question (fresh f97)', () => {
    const conf = ['diff --git a/spool/spoold.conf b/spool/spoold.conf', 'new file mode 100644', '@@ -0,0 +1,4 @@', '+maxjobs 8000', '+keepjobs no', '+snapshot 900 1', '+protected-mode yes'].join('\n');
    const question = 'If the spool-box restarts, what survives on disk? Is keep-jobs (KJ) persistence turned on?';
    const health = item(1, 'spoold.log', 'ops-logs', '2026-04-14T11:16:10Z INFO spoold: spool-box health: jobs=7412 maxjobs=8000 policy=reject dropped=4187 (config changed at 11:13:02)\n2026-04-14T10:00:51Z INFO spoold: spool-box health: jobs=8000 maxjobs=8000 policy=drop-oldest dropped=3146', 'lines 1-2');
    const check = item(3, 'Runbook: spool box › 2. Is the spool box full?', 'ops-docs', 'Is spool-box full or dropping jobs?: spoolctl -h spool-box INFO jobs | grep -E "jobs|maxjobs|policy" spoolctl -h spool-box INFO stats | grep dropped');
    const commits = [
      item(5, 'commit cc208f1', 'ops-git', `commit cc208f1${'0'.repeat(33)}\nAuthor: Lena Brandt <lena@example.com>\n\n    spool-box: maxjobs 16000, reject\n\n    spool-box reached maxjobs at 06:41 after the label jobs piled up; with drop-oldest spool-box dropped the oldest jobs.`, 'commit cc208f1'),
      item(6, 'commit 2c7f3a8', 'ops-git', `commit 2c7f3a8${'0'.repeat(33)}\nAuthor: Dev Ruiz <dev@example.com>\n\n    spoold: back to 4 workers\n\n    The drops on 14 April were spool-box rejecting jobs, not load.`, 'commit 2c7f3a8'),
      item(2, 'commit 2973ab6', 'ops-git', `commit 2973ab6${'0'.repeat(33)}\nAuthor: Ana Lima <ana@example.com>\n\n    Initial import of spool-infra\n\n${conf}`, 'commit 2973ab6'),
    ];

    it('answers the other part with its own line, though it states no on/off', () => {
      const text = answer(question, [health, check, ...commits]);
      expect(text).toContain('keepjobs no');
      expect(text).toContain('snapshot 900 1');
    });

    it('reads the switch from the unchanged lines of a commit changing the .conf file (fresh f309)', () => {
      const change = ['diff --git a/spool/spoold.conf b/spool/spoold.conf', 'index 1111111..2222222 100644', '--- a/spool/spoold.conf', '+++ b/spool/spoold.conf', '@@ -1,4 +1,4 @@', '-maxjobs 8000', '+maxjobs 16000', ' keepjobs no', ' snapshot 900 1', ' protected-mode yes'].join('\n');
      const tuned = item(5, 'commit cc208f1', 'ops-git', `commit cc208f1${'0'.repeat(33)}\nAuthor: Lena Brandt <lena@example.com>\n\n    spool-box: maxjobs 16000, reject\n\n    spool-box reached maxjobs at 06:41 after the label jobs piled up.\n\n${change}`, 'commit cc208f1');
      const text = answer(question, [health, check, tuned, commits[1]]);
      expect(text).toContain('keepjobs no');
    });

    it('quotes the line keyed by what it switches when sentences about the restart outscore it', () => {
      const restarts = item(7, 'Runbook: spool box › Restarts', 'ops-docs', 'When spool-box restarts, spoold reconnects to spool-box within a minute and resumes the queue. A spool-box restart reads the disk before it takes jobs. The spool-box disk is 40 GB.');
      expect(answer(question, [health, check, restarts, ...commits])).toContain('keepjobs no');
    });
  });

  it('quotes first the setting keyed by the listed noun asked for, outscored by sentences repeating the question (fresh f126)', () => {
    const tf = ['diff --git a/terraform/iam-printer-writer.tf b/terraform/iam-printer-writer.tf', 'new file mode 100644', '--- /dev/null', '+++ b/terraform/iam-printer-writer.tf', '@@ -0,0 +1,6 @@', '+# IAM role assumed by the spooler workers (IRSA, service account print/spooler)', '+data "aws_iam_policy_document" "printer_writer" {', '+  statement {', '+    actions   = ["s3:PutObject", "s3:AbortMultipartUpload"]', '+  }', '+}'].join('\n');
    const items = [
      item(1, 'commit fd84e05', 'ops-git', `commit fd84e05${'0'.repeat(33)}\nAuthor: Mei Chen <mei@example.com>\n\n    Move spooler uploads to the printer-writer IAM role\n\n    The spooler workers now get credentials from the printer-writer role through IRSA, and the static key of the workers is removed.\n\n${tf}`, 'commit fd84e05'),
      item(2, 'Postmortem › Timeline', 'ops-docs', 'Mar 6 16:40 — change "Move spooler uploads to the printer-writer IAM role" merged; the static key of the spooler workers is removed.'),
      item(3, 'commit f726b40', 'ops-git', `commit f726b40${'0'.repeat(33)}\nAuthor: Mei Chen <mei@example.com>\n\n    Fix printer-writer policy: labels prefix\n\n    The printer-writer role policy allowed spool/label_jobs/* (underscore); the spooler workers write to spool/label-jobs/*.`, 'commit f726b40'),
    ];
    items.push(
      item(4, 'Runbook: spooler uploads › Credentials', 'ops-docs', 'The spooler workers assume the printer-writer role with their Kubernetes service account; the role is the only way the spooler workers write to S3.'),
      item(5, 'Security review SEC-88', 'ops-docs', 'No static keys on the spooler workers: every S3 write of the spooler goes through an assumed IAM role and its service account.'),
    );
    const text = answer("Which Kubernetes service account do the spooler workers use to assume the printer-writer role, and what S3 write actions does that role's policy grant?", items);
    expect(text).toContain('s3:PutObject');
  });

  it('quotes each of two values asked for by name in one clause, not only the first', () => {
    const items = [
      item(1, 'commit 7a1c2e0: spooler disks', 'ops-git', 'commit 7a1c2e0000000000000000000000000000000000\n\n    Provision the spooler data disks\n\n--- a/terraform/spooler.tf\n+++ b/terraform/spooler.tf\n+module spooler {\n+  data_volume = {\n+    size_gb    = 500\n+    iops       = 3000\n+    throughput = 250\n+  }\n+}\n', 'commit 7a1c2e0'),
      item(2, 'Spooler runbook › Disks', 'ops-docs', 'The spooler data disks are provisioned by Terraform; spooler disks full means jobs stop. Provisioned spooler disks are watched in Grafana.'),
      item(3, 'Architecture › Spooler', 'ops-docs', 'Each spooler node has its data disks provisioned in the same zone as the printers it serves.'),
    ];
    const text = answer('What IOPS and throughput are provisioned on the spooler data disks?', items);
    expect(text).toMatch(/iops\s+= 3000/);
    expect(text).toContain('throughput = 250');
  });

  it('quotes the lines defining the labels a question names by id ("P2: …"), though lines about the incident share more words', () => {
    const items = [
      item(1, 'labeld.log lines 4–6', 'ops-logs', '[2026-05-04 08:19:59] INFO [label-printer|worker-1] Label outage backlog printed to tray 2 after the label-printer outage\n[2026-05-04 08:22:33] INFO [label-printer|worker-1] Label outage backlog printed to tray 2 after the label-printer outage'),
      item(2, 'commit 5b1e2a0: label-printer outage follow-up', 'ops-git', 'commit 5b1e2a0000000000000000000000000000000000\n\n    label-printer: outage follow-up, filed in the label outage postmortem\n', 'commit 5b1e2a0'),
      item(3, 'On-call handbook › Priority', 'ops-docs', '- P1: customers get no labels for more than 15 minutes.\n- P2: labels were lost in the past, or the queue is more than a day behind.\n- P3: a batch failed and can be re-run.'),
    ];
    const text = answer('The May label-printer outage postmortem was filed as P2. Which of our priority rules puts it there, and why was it not P1?', items);
    expect(text).toContain('labels were lost in the past');
    expect(text).toContain('no labels for more than 15 minutes');
  });

  it("quotes a tool's setting asked for by what it does ('run the missed days' → catchup), over runbook sentences sharing the question's words", () => {
    const items = [
      item(1, 'Label export runbook › Re-run', 'ops-docs', 'If label_export stays paused, unpause it and clear the days it missed: the scheduler will run them one after another. Runs of label_export for missed days go in order.'),
      importedFile('3c4d5e6', 'scheduler/dags/label_export.py', ['with DAG(', '    "label_export",', '    schedule="0 2 * * *",', '    catchup=False,', '    max_active_runs=1,', ') as dag:']),
    ];
    const text = answer('If label_export stays paused for a few days and I unpause it, will the scheduler run the missed days on its own? And can two runs of it ever overlap?', items);
    expect(text).toContain('catchup=False');
    expect(text).toContain('max_active_runs=1');
  });

  it('answers "which counter …?" with the sentence naming a metric, though runbook steps share more of its words (fresh f177)', () => {
    const items = [
      item(1, 'Spooler runbook › Is the refresh running?', 'ops-docs', 'label-api hands out a plain label every time its templates are stale; refresh them by hand, from the `label-runner` pod:\n\n```bash\nlabel-templates refresh-incremental --now\n```\n\nIn the scheduler, `label_templates_hourly` should succeed every hour; until then label-api hands out plain labels instead of templated ones.'),
      item(2, 'Label runbook › Relieve', 'ops-docs', 'Do **not** flush the template cache: label-api would hand out plain labels every time until the next hourly refresh. Shorten the ttl of the templates that grew, then run the incremental refresh once by hand.'),
      item(3, 'Architecture › label-api', 'ops-docs', 'label-api prints labels for the depots. When the template is missing it does not fail: it prints the *plain label* and counts the print in `label_plain_total`.'),
    ];
    const text = answer('Which counter does label-api increment every time it hands out a plain label instead of a templated one?', items);
    expect(text).toContain('label_plain_total');
  });
});
