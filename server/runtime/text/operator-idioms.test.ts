import { describe, expect, it } from 'vitest';
import { idiomTerms } from './operator-idioms';

describe('operator idioms', () => {
  it('adds the runbook word for what an operator says otherwise', () => {
    expect(idiomTerms('Do I have to bounce the spooler?')).toEqual(['restart']);
    expect(idiomTerms('How does the change reach the print box?')).toEqual(['appli']);
    expect(idiomTerms('Can I kick the spooler pod?')).toEqual(['restart']);
  });

  it('adds nothing for the same words in other senses', () => {
    expect(idiomTerms('How many jobs were printed after the fix kicked in?')).toEqual([]);
    expect(idiomTerms('When did we reach the queue limit?')).toEqual([]);
  });
});
