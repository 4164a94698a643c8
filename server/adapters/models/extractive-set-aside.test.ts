import { describe, expect, it } from 'vitest';
import { answerFromContext as answer, contextItem as item } from './testing/extractive-reader-answers';

/** What a question sets aside ("besides S3 access, …") is what the asker knows, not what the answer quotes; a made-up print platform. */
describe('what the question sets aside', () => {
  it('quotes the answer though sentences naming an id the question sets aside ("besides S3 access") share more of its words (fresh f184)', () => {
    const policy = (line: string) => `terraform/iam-label-writer.tf › data aws_iam_policy_document label_writer: ${line}`;
    const items = [
      item(1, 'commit fd84e05: Move spoolers to the label-writer role', 'ops-git', 'Move spoolers to the label-writer role. The spoolers now get S3 access from the label-writer role; files are encrypted with the label KMS key.', 'commit fd84e05'),
      item(2, 'terraform/iam-label-writer.tf', 'ops-git', policy('actions = ["s3:PutObject", "s3:GetObject"]'), 'commit fd84e05 · terraform/iam-label-writer.tf'),
      item(3, 'terraform/iam-label-writer.tf', 'ops-git', policy('actions = ["kms:GenerateDataKey", "kms:Decrypt"]'), 'commit fd84e05 · terraform/iam-label-writer.tf'),
      item(4, 'Spooler runbook', 'ops-docs', 'S3 access of the spoolers is granted by the label-writer role; the role grants S3 access to the two label prefixes only.'),
      item(5, 'Spooler runbook › Keys', 'ops-docs', 'The spoolers read S3 access keys from the label-writer role and never from files.'),
    ];
    const text = answer('Besides S3 access, what KMS permissions does the label-writer role grant the spoolers?', items);
    expect(text).toContain('kms:GenerateDataKey');
  });
});
