import { describe, expect, it } from 'vitest';
import { truncateCommitText } from './commit-diff-truncation';
import { countWords } from './word-token-counter';

const fileDiff = (path: string, lines: number) =>
  [`diff --git a/${path} b/${path}`, `--- a/${path}`, `+++ b/${path}`, '@@ -1,1 +1,1 @@', ...Array.from({ length: lines }, (_, index) => `+${path} line ${index}`)].join('\n');

const commit = (diffs: string[]) => ['commit abc', 'Author: A <a@x>', '', '    Change things', '', ' 2 files changed', '', ...diffs].join('\n');

describe('truncateCommitText', () => {
  it('returns a commit under budget unchanged', () => {
    const text = commit([fileDiff('a.yaml', 3)]);
    expect(truncateCommitText(text, countWords, 1000)).toEqual({ text, truncated: false });
  });

  it('shares the budget so a huge first file does not hide a small second one', () => {
    const text = commit([fileDiff('package-lock.json', 400), fileDiff('deployment.yaml', 4)]);
    const { text: cut, truncated } = truncateCommitText(text, countWords, 300);
    expect(truncated).toBe(true);
    expect(countWords(cut)).toBeLessThanOrEqual(300);
    expect(cut).toContain('+deployment.yaml line 3');
    expect(cut).toMatch(/\[… \d+ more diff lines of package-lock\.json truncated\]/);
    expect(cut.startsWith('commit abc\nAuthor: A <a@x>')).toBe(true);
  });

  it('lists the files it had no room for', () => {
    const text = commit(['one', 'two', 'three', 'four'].map((name) => fileDiff(name, 60)));
    const { text: cut } = truncateCommitText(text, countWords, 140);
    expect(countWords(cut)).toBeLessThanOrEqual(140);
    expect(cut).toMatch(/\[… diff of \d+ more file\(s\) omitted: .*four\]/);
  });
});
