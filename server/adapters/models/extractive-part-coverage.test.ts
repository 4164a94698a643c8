import { describe, expect, it } from 'vitest';
import { pickDiverse } from './extractive-diverse-pick';
import { questionParts } from './extractive-question-parts';
import { unitsOf } from './extractive-units';
import { answerFromContext, contextItem } from './testing/extractive-reader-answers';

const POLICY_LINES = ['resources = ["arn:aws:s3:::print-lake/labels/*"]', 'actions = ["s3:PutObject", "s3:AbortMultipartUpload"]', 'sid = "WriteLabels"', 'name = "label-writer"'];

describe('a part of a compound question is spoken to by its own rare words, not by a common one', () => {
  it('quotes what applies a merge, though a quoted timeline line says "change" and "merged" (fresh f169, f191)', () => {
    const question = 'I need to widen the label-writer policy. Which file in print-infra defines it, and what actually applies the change once I merge to main?';
    const text = answerFromContext(question, [
      ...POLICY_LINES.map((line, index) => contextItem(index + 1, 'commit 1a2b3c4: Move spoolers to the label-writer role', 'ops-git', `terraform/iam-label-writer.tf › policy label_writer: ${line}`, 'commit 1a2b3c4 · terraform/iam-label-writer.tf')),
      contextItem(5, 'Label outage postmortem › Timeline', 'ops-docs', 'May 6 16:40 — print-infra change "Move spoolers to the label-writer role" merged; the static key of the spoolers is removed.'),
      contextItem(6, 'Print platform › Changes', 'ops-docs', 'A merge to `main` is applied by CI within about ten minutes: queues by `queue-ops`, Terraform by Atlantis.'),
      contextItem(7, 'Spooler runbook', 'ops-docs', 'The spooler keeps jobs for two days. A stopped spooler loses nothing while the queue still holds the jobs.'),
      contextItem(8, 'commit 5d6e7f8: Change the label-writer policy', 'ops-git', 'Change the label-writer policy for the queue (commit 5d6e7f8, Ana Ruiz). The change was merged after the May outage.', 'commit 5d6e7f8'),
      contextItem(9, 'commit 9a8b7c6: Fix label-writer policy', 'ops-git', 'Fix label-writer policy: labels prefix (commit 9a8b7c6, Ana Ruiz). The policy allowed labels_raw/*, the spoolers write labels-raw/*.', 'commit 9a8b7c6'),
      contextItem(10, 'Label outage postmortem › Cause', 'ops-docs', 'The new label-writer policy allows `labels_raw/*`, not the real prefix `labels-raw/*`, so every upload of the spoolers was denied.'),
      contextItem(11, 'Print platform › Policies', 'ops-docs', 'The label-writer policy is defined in print-infra, in the file `terraform/iam-label-writer.tf`; widen it there.'),
      contextItem(12, 'Print platform › Queues', 'ops-docs', 'Queues are defined in print-infra, in the file `queues/queues.yaml`; each queue names its owner.'),
      contextItem(13, 'Print platform › Repos', 'ops-docs', 'Everything is defined in the print-infra repository: Terraform, queue definitions and spooler configs.'),
    ]);
    expect(text).toContain('Terraform by Atlantis');
  });

  it('quotes what the commit a relative clause names says, not a line naming that commit again (fresh f321)', () => {
    const question = 'Through which mechanism does the commit that moved the print sinks to the label-writer role say they get their cloud credentials, and at what time on 6 May does the spooler log first show print-sink-labels assuming that role?';
    const parts = questionParts(question) ?? [];
    expect([...(parts[0].identifying ?? [])]).toEqual(expect.arrayContaining(['commit', 'move', 'label-writer']));
    const units = unitsOf([
      { ref: 1, header: 'spooler.log', text: '[2026-05-06 16:52:40,058] INFO [print-sink-labels|task-0] TokenProvider: assumed role arn:aws:iam::1234:role/label-writer' },
      { ref: 2, header: 'postmortem', text: 'May 6 16:40 — print-infra change "Move print sinks to the label-writer role" merged; the static key of the print sinks is removed.' },
      { ref: 3, header: 'commit 1a2b3c4', text: 'The sinks now get cloud credentials from the label-writer role through workload identity.' },
    ]);
    // The log line leads on the question's words; the credentials sentence shares fewer of them than the timeline line.
    const scored = units.map((unit, index) => ({ unit, score: [12, 10, 2.5][index] }));
    const picked = pickDiverse(scored, { named: new Set(), supports: () => false, procedural: false, parts, stampedLinesAreReadings: true, askedValues: new Set(), askedIds: [], termWeight: () => 1 });
    expect(picked.map((entry) => entry.unit.ref)).toContain(3);
  });
});
