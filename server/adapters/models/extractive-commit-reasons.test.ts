import { describe, expect, it } from 'vitest';
import { asksWhenCommitted } from './extractive-commit-reasons';
import { answerFromContext, contextItem } from './testing/extractive-reader-answers';

/**
 * When a commit was made and what it said (issue 10): its subject line carries the date, its body the
 * reason. A made-up print spooler corpus.
 */
const answer = answerFromContext;
const item = contextItem;

describe('a commit asked about by when it was made or what it said', () => {
  it('answers "what time was it committed?" with the commit subject, which carries its date, beside a body sentence stating another time (fresh f141)', () => {
    const commit = (sha: string, author: string, date: string, subject: string, body: string) =>
      `commit ${sha}${'0'.repeat(33)}\nAuthor: ${author} <x@example.com>\nDate:   ${date}\n\n    ${subject}\n\n    ${body}`;
    const items = [
      item(1, 'commit 4be01c2', 'ops-git', commit('4be01c2', 'Lena Brandt', 'Tue Apr 14 13:05:00 2026 +0200', 'maxjobs 16000, reject-new for the label cache', 'spool-cache reached maxjobs at 06:41 UTC after the label_cache jobs piled up since 9 April.'), 'commit 4be01c2'),
      item(2, 'commit 2c7f3a8', 'ops-git', commit('2c7f3a8', 'Dev Patel', 'Thu Apr 16 09:30:00 2026 +0200', 'print-gw: back to 4 replicas after the spool-cache fix', 'The drops on 14 April were spool-cache rejecting jobs, not load; 6 replicas queued the same jobs.'), 'commit 2c7f3a8'),
      item(3, 'spoold.log', 'ops-logs', '2026-04-14T11:16:10Z INFO spoold: spool-cache health: jobs queued=7412 maxjobs=16000 (config changed at 11:13:02)', 'lines 1-1'),
      item(4, 'spoold.log', 'ops-logs', '2026-04-14T11:21:10Z INFO spoold: spool-cache health: jobs queued=7480 of the active printers back, maxjobs=16000', 'lines 2-2'),
      item(5, 'spoold.log', 'ops-logs', '2026-04-14T11:26:10Z INFO spoold: spool-cache health: jobs queued=7502 of the active printers back after the fix kicked in', 'lines 3-3'),
      item(6, 'printd.log', 'ops-logs', '2026-04-14T11:31:10Z INFO printd: spool-cache jobs queued=7520 for the active printers, back after the spool-cache fix kicked in', 'lines 4-4'),
      item(7, 'Postmortem › Timeline', 'ops-docs', '14 April 11:40 — jobs queued in spool-cache are back for the active printers a bit after the fix kicked in.'),
      item(8, 'Print handbook › Queues', 'ops-docs', 'At 11:50 UTC on 14 April the jobs queued in spool-cache were counted for the active printers after the fix.'),
    ];
    const text = answer("Lena's spool-cache fix on 14 April: what time (UTC) was it committed, and how many jobs were queued a bit after it kicked in?", items);
    expect(text).toContain('2026-04-14 11:05 UTC');
  });

  it('reads "who put it back, and on which date?" as asking when a commit was made: its subject carries the date (fresh f390)', () => {
    expect(asksWhenCommitted('How many pods does the last reading show, and who put it back to the normal size, and on which date?')).toBe(true);
    expect(asksWhenCommitted('When was the retry fix merged?')).toBe(true);
    expect(asksWhenCommitted('Which date format does the label export write?')).toBe(false);
  });

  it('answers "what did the commit that … say about it?" with its body, whatever its words, and keeps the leading sentence (fresh f322)', () => {
    const commit = (sha: string, date: string, subject: string, body: string) => `commit ${sha}${'0'.repeat(33)}\nAuthor: Ana Ruiz <x@example.com>\nDate:   ${date}\n\n    ${subject}\n\n    ${body}`;
    const items = [
      item(1, 'commit 021b0b6', 'ops-git', commit('021b0b6', 'Wed Mar 25 10:00:00 2026 +0100', 'print-jobs-value back to BACKWARD', 'label-service 5.2 is live at every depot. LBL-412 done.'), 'commit 021b0b6'),
      item(2, 'commit c0562cf', 'ops-git', commit('c0562cf', 'Thu Mar 19 16:20:00 2026 +0100', 'print-jobs v7: printed_at becomes printed_at_utc', 'The subject is set to NONE so that v7 can be registered; it goes back to BACKWARD once label-service 5.2 runs everywhere.'), 'commit c0562cf'),
      item(3, 'commit d035b0f', 'ops-git', commit('d035b0f', 'Tue Mar 24 13:40:00 2026 +0100', 'stg_jobs: read printed_at_utc (v7), fall back to printed_at', 'Since label-service 5.2 the subject of print-jobs carries printed_at_utc only.'), 'commit d035b0f'),
      item(4, 'Spooler runbook', 'ops-docs', 'The spooler keeps jobs for two days. A stopped spooler loses nothing while the queue still holds the jobs.'),
    ];
    const text = answer('The print-jobs v7 commit said the print-jobs-value subject would go back to BACKWARD once a condition was met. What was that condition, and what did the commit that switched the subject back on 25 March 2026 say about it?', items);
    expect(text).toContain('runs everywhere');
    expect(text).toContain('live at every depot');
  });
});

describe('the files a commit changed', () => {
  const commit = (sha: string, subject: string, files: readonly string[]) => [
    `commit ${sha}${'0'.repeat(33)}`, 'Author: Ana Ruiz <ana.ruiz@print.example>', 'Date:   2026-04-14T13:05:00+02:00', '', `    ${subject}`, '',
    '    The spooler filled its disk after the label jobs piled up since 9 April.', '',
    ...files.map((file) => ` ${file} | 2 +-`), ` ${files.length} files changed, 2 insertions(+), 2 deletions(-)`,
  ].join('\n');
  const items = [
    item(1, 'commit 7a8b9c0: spool-cache: maxmemory 16gb; label_jobs ttl 3 days', 'ops-git', commit('7a8b9c0', 'spool-cache: maxmemory 16gb; label_jobs ttl 3 days', ['spool/label_views.py', 'redis/spool-cache.conf']), 'commit 7a8b9c0'),
    item(2, 'commit 1b2c3d4: print-gw: 6 replicas', 'ops-git', commit('1b2c3d4', 'print-gw: 6 replicas', ['helm/print-gw/values.yaml', 'helm/print-gw/Chart.yaml']), 'commit 1b2c3d4'),
    item(3, 'Spooler runbook', 'ops-docs', 'The spool-cache fix of 14 April raised its memory; the spool-cache keeps label jobs for three days now.'),
  ];

  it('lists them, as the diffstat does, when the question asks which files it changed (fresh f417)', () => {
    expect(answer('Which two files did the spool-cache fix of 14 April change, and what is its short SHA?', items)).toContain('spool/label_views.py, redis/spool-cache.conf');
  });

  it('does not quote the list for a question about anything else', () => {
    expect(answer('Why did the spool-cache fill up on 14 April?', items)).not.toContain('files changed');
  });
});
