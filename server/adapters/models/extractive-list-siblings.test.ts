import { describe, expect, it } from 'vitest';
import { asksForList } from './extractive-list-siblings';
import { answerFromContext, contextItem } from './testing/extractive-reader-answers';

/** A made-up print platform's feature repo, not an example corpus (fresh f183). */
function importedFile(path: string, lines: readonly string[]) {
  const diff = [`commit 4d5e6f7${'0'.repeat(33)}`, '', '    Initial import of print-infra', '', `diff --git a/${path} b/${path}`, 'new file mode 100644', '--- /dev/null', `+++ b/${path}`, `@@ -0,0 +1,${lines.length} @@`, ...lines.map((line) => `+${line}`)];
  return contextItem(2, 'commit 4d5e6f7: Initial import of print-infra', 'ops-git', diff.join('\n'), `commit 4d5e6f7 · ${path}`);
}

describe('a question asking for a whole list', () => {
  it('reads "the full list", "all the …" and "what <things> are …" as asking for a list, and other questions not', () => {
    expect(asksForList('What fields are in the label_job_features view? I need the full list.')).toBe(true);
    expect(asksForList('Which topics does the label sink read?')).toBe(true);
    expect(asksForList('What TTL is configured on the label_job_features view?')).toBe(false);
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
});
