import { describe, expect, it } from 'vitest';
import { asksForList } from './extractive-list-siblings';
import { answerFromContext, contextItem, importedFileItem } from './testing/extractive-reader-answers';

/** A made-up print platform's feature repo, not an example corpus (fresh f183). */
const importedFile = (path: string, lines: readonly string[]) => importedFileItem(2, '4d5e6f7', path, lines);

describe('a question asking for a whole list', () => {
  it('reads "the full list", "all the …" and "what <things> are …" as asking for a list, and other questions not', () => {
    expect(asksForList('What fields are in the label_job_features view? I need the full list.')).toBe(true);
    expect(asksForList('Which topics does the label sink read?')).toBe(true);
    expect(asksForList('What TTL is configured on the label_job_features view?')).toBe(false);
    expect(asksForList('Besides tray_id, which fields of the print-jobs Avro schema are nullable with a default of null?')).toBe(true);
  });

  it('quotes the entries that meet the question as the quoted one does, not those it sets aside nor the rest of the list', () => {
    const items = [
      contextItem(1, 'Schema guide', 'ops-docs', 'A field added with a default keeps old readers working. Remove a field only when it has a default.'),
      importedFile('schemas/print-jobs-value.avsc', [
        '{',
        '  "type": "record",',
        '  "name": "PrintJob",',
        '  "fields": [',
        '    {"name": "job_id", "type": "string"},',
        '    {"name": "printed_at", "type": "long"},',
        '    {"name": "tray_id", "type": ["null", "string"], "default": null},',
        '    {"name": "toner_level", "type": ["null", "int"], "default": null},',
        '    {"name": "failure_reason", "type": ["null", "string"], "default": null}',
        '  ]',
        '}',
      ]),
    ];
    const text = answerFromContext('Besides tray_id, which fields of the print-jobs Avro schema are nullable with a default of null?', items);
    expect(text).toContain('toner_level');
    expect(text).toContain('failure_reason');
    expect(text).not.toContain('"job_id"');
    expect(text).not.toContain('tray_id"');
  });

  it('quotes every entry of the list a quoted line belongs to, and not the other keys of its block', () => {
    const items = [
      contextItem(1, 'Label features runbook', 'ops-docs', 'The label_job_features view feeds label-api. Its fields come from the nightly job stats.'),
      importedFile('features/label_features.py', [
        'label_job_features = FeatureView(',
        '    name="label_job_features",',
        '    ttl=timedelta(hours=6),',
        '    schema=[',
        '        Field(name="pages_printed_today", dtype=Int64),',
        '        Field(name="toner_left_pct", dtype=Float32),',
        '        Field(name="jams_last_hour", dtype=Int64),',
        '        Field(name="minutes_since_last_job", dtype=Float32),',
        '        Field(name="current_tray_id", dtype=String),',
        '    ],',
        ')',
      ]),
    ];
    const text = answerFromContext('What fields are in the label_job_features view? I need the full list.', items);
    for (const field of ['pages_printed_today', 'toner_left_pct', 'jams_last_hour', 'minutes_since_last_job', 'current_tray_id']) expect(text).toContain(field);
    expect(text).not.toContain('ttl=timedelta');
  });

  it('quotes the entries meeting the words every quoted entry meets, not only the first one quoted (fresh f391)', () => {
    const items = [
      contextItem(1, 'commit 7a8b9c0: spool: label_waits view', 'ops-git', `commit 7a8b9c0${'0'.repeat(33)}\n\n    spool: label_waits view\n\n    Per printer and tray: median and p90 wait time over 30 days.`, 'commit 7a8b9c0'),
      importedFile('features/label_waits.py', [
        'label_waits = FeatureView(',
        '    name="label_waits",',
        '    ttl=timedelta(days=30),',
        '    schema=[',
        '        Field(name="median_tray_seconds", dtype=Float32),',
        '        Field(name="p90_tray_seconds", dtype=Float32),',
        '        Field(name="waits_30d", dtype=Int64),',
        '    ],',
        ')',
      ]),
    ];
    const text = answerFromContext('Which fields does the label_waits view define for the median and the 90th-percentile tray wait, and which dtype do those two fields use?', items);
    expect(text).toContain('median_tray_seconds');
    expect(text).toContain('p90_tray_seconds');
  });

  it('quotes every key of a map named by the plural asked for, but the one set aside (fresh f332)', () => {
    const items = [
      contextItem(1, 'Spooler guide', 'ops-docs', 'Queue retention is kept in `print-infra/spooler/queue-retention.yaml`; a queue not listed there keeps the default.'),
      contextItem(2, 'commit 7a8b9c0: spooler: invoice-jobs keeps 30 days for the audit', 'ops-git', [
        `commit 7a8b9c0${'0'.repeat(33)}`, '', '    spooler: invoice-jobs keeps 30 days for the audit', '',
        'diff --git a/spooler/queue-retention.yaml b/spooler/queue-retention.yaml', 'index 1111111..2222222 100644', '--- a/spooler/queue-retention.yaml', '+++ b/spooler/queue-retention.yaml',
        '@@ -1,5 +1,5 @@', ' # Retention per queue, applied to the spooler by CI.', ' queues:', '   label-jobs: 14d', '-  invoice-jobs: 14d', '+  invoice-jobs: 30d', '   badge-jobs: 14d', '   manifest-jobs: 7d', '   customs-jobs: 7d',
      ].join('\n'), 'commit 7a8b9c0 · spooler/queue-retention.yaml'),
    ];
    const text = answerFromContext('Apart from invoice-jobs, which queues have their retention pinned in spooler/queue-retention.yaml?', items);
    expect(text).toContain('label-jobs');
    expect(text).toContain('badge-jobs');
    expect(text).toContain('customs-jobs');
    expect(text).not.toContain('invoice-jobs: 30d');
  });
});
