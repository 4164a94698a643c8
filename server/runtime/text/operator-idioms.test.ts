import { describe, expect, it } from 'vitest';
import { idiomTerms } from './operator-idioms';

describe('operator idioms', () => {
  it('adds the runbook word for what an operator says otherwise', () => {
    expect(idiomTerms('Do I have to bounce the spooler?')).toEqual(['restart']);
    expect(idiomTerms('How does the change reach the print box?')).toEqual(['appli']);
    expect(idiomTerms('Can I kick the spooler pod?')).toEqual(['restart']);
    // What a change or its config was pushed by is what applies it (dev d45).
    expect(idiomTerms('When did the new spooler configs land on the print cluster, and what pushed them there?')).toEqual(['appli']);
  });

  it('adds nothing for the same words in other senses', () => {
    expect(idiomTerms('How many jobs were printed after the fix kicked in?')).toEqual([]);
    expect(idiomTerms('When did we reach the queue limit?')).toEqual([]);
    expect(idiomTerms('How do I push fresh templates into the cache by hand?')).toEqual([]);
  });
});
