import { describe, expect, it } from 'vitest';
import type { Citation } from '@/server/runtime/types';
import { numberCitations } from './number-citations';

const cite = (ref: number, quote = `quote ${ref}`): Citation => ({ ref, chunkId: `chunk-${ref}`, sourceName: `source-${ref}`, quote });

describe('numberCitations', () => {
  it('numbers 1..n in the order the answer cites them, whatever the context refs', () => {
    const answer = 'OOMKilled [5]. The commit [7] lowered it; usage hit 255 MiB [8]; back-off [3].';
    const { entries, numberOfRef } = numberCitations(answer, [cite(3), cite(5), cite(7), cite(8)]);
    expect(entries.map((entry) => [entry.number, entry.ref])).toEqual([
      [1, 5],
      [2, 7],
      [3, 8],
      [4, 3],
    ]);
    expect(numberOfRef.get(3)).toBe(4);
  });

  it('gives one number per cited item: two quotes of one chunk share it', () => {
    const { entries } = numberCitations('A [2] and B [2, 4].', [cite(2, 'first'), cite(2, 'second'), cite(4)]);
    expect(entries.map((entry) => entry.number)).toEqual([1, 2]);
    expect(entries[0].quotes).toEqual(['first', 'second']);
  });

  it('puts citations the answer never marks after the cited ones', () => {
    const { entries } = numberCitations('Only [9].', [cite(1), cite(9)]);
    expect(entries.map((entry) => [entry.number, entry.ref])).toEqual([
      [1, 9],
      [2, 1],
    ]);
  });
});
