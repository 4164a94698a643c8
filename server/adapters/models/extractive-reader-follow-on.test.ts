import { describe, expect, it } from 'vitest';
import { answerFromContext as answer, contextItem as item } from './testing/extractive-reader-answers';

/**
 * A sentence quoted for what it answers brings along what completes it: the commit subject naming the
 * fix whose body it quotes, and the next sentence of a passage saying what has to come first. On a
 * made-up print-spooler corpus, not the freight or billing examples.
 */
describe('extractive reader: what completes a quoted sentence', () => {
  it('names the fix asked for by the subject of the commit whose body is quoted', () => {
    const items = [
      item(1, 'commit 7c3d2e1: label-renderer 2.4.1 for the nightly batch', 'ops-git', 'commit 7c3d2e1000000000000000000000000000000000\nAuthor: Ana Ruiz <ana@example.com>\nDate:   2026-05-12T10:00:00+02:00\n\n    label-renderer 2.4.1 for the nightly batch\n\n    Fixes the font cache leak of 2.4.0 (renderer pods were OOM-killed after ~30 batches).\n', 'commit 7c3d2e1'),
      item(2, 'Spooler runbook › Renderer', 'ops-docs', 'The renderer pods run the nightly batch at 01:00 and take 20 minutes.'),
    ];
    const text = answer('Before May the renderer pods kept getting OOM-killed. What was causing that and how was it fixed?', items);
    expect(text).toContain('font cache leak');
    expect(text).toContain('label-renderer 2.4.1');
  });

  it('quotes what has to come first when the passage goes on to say it', () => {
    const items = [
      item(1, 'Spooler runbook › Never', 'ops-docs', '- Do not purge the label queue in production without a second person from ops: purged jobs are gone for good, and customers reprint by hand. The spooler must be paused first (`spoolctl pause`), or the purge is overwritten.'),
      item(2, 'Spooler runbook › 2. Look at the queue', 'ops-docs', 'If the label queue has been stuck for more than an hour, raise the queue limit first so that no job expires while you work.'),
    ];
    const text = answer('I think I need to purge the label queue in production. What has to be in place before I run that?', items);
    expect(text).toContain('second person');
    expect(text).toContain('paused first');
  });

  it('in answer to why, quotes the sentence before another item\'s explanation, where its cause is stated', () => {
    const items = [
      item(1, 'Postmortem › Timeline', 'ops-docs', 'Fri 16:53 — all uploads of the print-jobs spool sink were rejected from Friday evening on: every sink task fails with AccessDenied on each upload.'),
      item(2, 'commit 9e8f7a6: Fix spool-writer policy: print-jobs prefix', 'ops-git', 'commit 9e8f7a6000000000000000000000000000000000\nAuthor: Ana Ruiz <ana@example.com>\nDate:   2026-05-15T08:05:00+02:00\n\n    Fix spool-writer policy: print-jobs prefix\n\n    The policy allowed labels/print_jobs/* (underscore); the sink writes to labels/print-jobs/*.\n    Every upload of the print-jobs spool sink was denied (403 AccessDenied) since the role change on Friday.\n', 'commit 9e8f7a6'),
    ];
    const text = answer('Why were all uploads of the print-jobs spool sink rejected starting on Friday evening?', items);
    expect(text).toContain('Every upload of the print-jobs spool sink was denied');
    expect(text).toContain('(underscore)');
  });
});
