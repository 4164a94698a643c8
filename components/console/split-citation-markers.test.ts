import { describe, expect, it } from 'vitest';
import { splitCitationMarkers } from './split-citation-markers';

describe('splitCitationMarkers', () => {
  const known = new Set([1, 2, 3]);

  it('turns known markers into citation segments between text', () => {
    expect(splitCitationMarkers('Pods were OOMKilled [1] after commit a1b2 [2, 3].', known)).toEqual([
      { kind: 'text', text: 'Pods were OOMKilled ' },
      { kind: 'cite', refs: [1] },
      { kind: 'text', text: ' after commit a1b2 ' },
      { kind: 'cite', refs: [2, 3] },
      { kind: 'text', text: '.' },
    ]);
  });

  it('leaves bracketed numbers that cite nothing as text', () => {
    expect(splitCitationMarkers('Released in [2024], see [2][9]', known)).toEqual([
      { kind: 'text', text: 'Released in [2024], see ' },
      { kind: 'cite', refs: [2] },
      { kind: 'text', text: '[9]' },
    ]);
  });

  it('returns one text segment when there are no markers', () => {
    expect(splitCitationMarkers('No evidence found.', known)).toEqual([{ kind: 'text', text: 'No evidence found.' }]);
  });
});
