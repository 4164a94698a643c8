import { describe, expect, it } from 'vitest';
import type { IngestDocument } from '../runtime/contracts/store';
import { addRemovedLines, commitFileParts } from './commit-file-parts';
import { countWords } from './word-token-counter';

const importText = [
  'commit 2973ab6b1c3f9ebee8a10ef2f67d454261430675',
  'Author: Amara Okafor <amara@example.com>',
  'Date:   2026-01-12T10:04:00+01:00',
  '',
  '    Initial import of kdp-infra',
  '',
  '    Topics, connectors and service configuration.',
  '',
  ' helm/eta-api/values-production.yaml | 4 ++++',
  ' kafka/topics.yaml                   | 3 +++',
  ' 2 files changed, 7 insertions(+)',
  '',
  'diff --git a/helm/eta-api/values-production.yaml b/helm/eta-api/values-production.yaml',
  'new file mode 100644',
  'index 0000000..1111111',
  '--- /dev/null',
  '+++ b/helm/eta-api/values-production.yaml',
  '@@ -0,0 +1,4 @@',
  '+replicaCount: 3',
  '+resources:',
  '+  limits: {memory: 3Gi}',
  '+  requests: {cpu: "1"}',
  'diff --git a/kafka/topics.yaml b/kafka/topics.yaml',
  'new file mode 100644',
  'index 0000000..2222222',
  '--- /dev/null',
  '+++ b/kafka/topics.yaml',
  '@@ -0,0 +1,3 @@',
  '+- name: eta-requests-audit',
  '+  partitions: 6',
  '+  config: {retention.ms: 259200000}',
].join('\n');

const importCommit: IngestDocument = {
  uri: 'commit 2973ab6b1c3f9ebee8a10ef2f67d454261430675',
  title: 'commit 2973ab6: Initial import of kdp-infra',
  text: importText,
  metadata: { sha: '2973ab6b1c3f9ebee8a10ef2f67d454261430675', shortSha: '2973ab6', subject: 'Initial import of kdp-infra' },
};

/** A later commit: 3 → 4 replicas. */
const scaleText = [
  'commit d812cf60ffdd53693dd20a36d05dc82f0160d24b',
  'Author: Lena Brandt <lena@example.com>',
  'Date:   2026-01-27T15:30:00+01:00',
  '',
  '    eta-api: 4 replicas',
  '',
  'diff --git a/helm/eta-api/values-production.yaml b/helm/eta-api/values-production.yaml',
  'index 1111111..3333333 100644',
  '--- a/helm/eta-api/values-production.yaml',
  '+++ b/helm/eta-api/values-production.yaml',
  '@@ -1,2 +1,2 @@',
  '-replicaCount: 3',
  '+replicaCount: 4',
  ' resources:',
].join('\n');

describe('commitFileParts', () => {
  it('gives each file of the commit a lookup-only part that reads as the commit: its header, the diff header and the hunk', () => {
    const parts = commitFileParts(importCommit, countWords);
    expect(parts.map((part) => part.locator)).toEqual(['commit 2973ab6 · helm/eta-api/values-production.yaml', 'commit 2973ab6 · kafka/topics.yaml']);
    expect(parts.every((part) => part.lookupOnly === true && part.uri === importCommit.uri)).toBe(true);
    expect(parts.map((part) => part.ordinal)).toEqual([1, 2]);
    const [values] = parts;
    expect(values.title).toBe('commit 2973ab6: Initial import of kdp-infra · helm/eta-api/values-production.yaml');
    expect(values.text).toMatch(/^commit 2973ab6b1c3f9ebee8a10ef2f67d454261430675\nAuthor: Amara Okafor <amara@example.com>\nDate: {3}2026-01-12T10:04:00\+01:00\n\n {4}Initial import of kdp-infra\n\ndiff --git a\/helm\/eta-api\/values-production.yaml/);
    expect(values.text).toContain('--- /dev/null\n+++ b/helm/eta-api/values-production.yaml\n@@ -0,0 +1,4 @@\n+replicaCount: 3\n+resources:\n+  limits: {memory: 3Gi}');
    // The other file's lines and the message's body and --stat stay in the commit's own chunk.
    expect(values.text).not.toContain('partitions');
    expect(values.text).not.toContain('Topics, connectors');
    expect(values.metadata).toMatchObject({ file: 'helm/eta-api/values-production.yaml', shortSha: '2973ab6' });
    expect(values.tokens).toBe(countWords(values.text));
  });

  it('leaves out a line a later commit removed, so a part never states a value no longer in force', () => {
    const removedLater = new Map<string, Set<string>>();
    addRemovedLines(scaleText, removedLater);
    expect(removedLater.get('helm/eta-api/values-production.yaml')).toEqual(new Set(['replicaCount: 3']));
    const [values] = commitFileParts(importCommit, countWords, removedLater);
    expect(values.text).not.toContain('replicaCount');
    expect(values.text).toContain('+  limits: {memory: 3Gi}');
  });

  it('splits a long file into parts under the budget, each opening with the hunk header', () => {
    const long = { ...importCommit, text: importText.replace('+  requests: {cpu: "1"}', Array.from({ length: 40 }, (_, index) => `+  setting_${index}: value ${index} of the long file`).join('\n')) };
    const parts = commitFileParts(long, countWords, new Map(), 60).filter((part) => part.locator?.endsWith('values-production.yaml'));
    expect(parts.length).toBeGreaterThan(3);
    for (const part of parts) {
      expect(part.text).toContain('diff --git a/helm/eta-api/values-production.yaml');
      expect(part.text).toContain('@@ -0,0 +1,4 @@');
    }
    expect(parts.map((part) => part.text).join('\n')).toContain('setting_39: value 39');
  });

  it('gives nothing for a commit without a diff hunk (a binary file, a mode change)', () => {
    const binary = { ...importCommit, text: `${importText.split('diff --git')[0]}diff --git a/logo.png b/logo.png\nnew file mode 100644\nBinary files /dev/null and b/logo.png differ` };
    expect(commitFileParts(binary, countWords)).toEqual([]);
  });
});
