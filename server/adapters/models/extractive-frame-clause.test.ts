import { describe, expect, it } from 'vitest';
import { askedTerms, frameOnlyTerms } from './extractive-frame-clause';
import { contentTerms } from '../../runtime/text/text-terms';

describe('frame clauses of a question', () => {
  it('finds the words of a clause that dates the question by another event', () => {
    const terms = frameOnlyTerms("How full was queue-2's disk at noon UTC on 3 May, while the label-printer sink was stopped?");
    expect(terms).toContain('sink');
    expect(terms).toContain('stop');
    expect(terms).not.toContain('disk');
    expect([...frameOnlyTerms('After the retention fix was merged, at what time did queue-2 apply the new value?')]).toEqual(expect.arrayContaining(['retent', 'fix', 'merg']));
  });

  it('keeps the words the asking clause also uses, and reads no frame in a question that is one clause', () => {
    expect(frameOnlyTerms('After the sink restarted, what did the sink log?')).not.toContain('sink');
    expect(frameOnlyTerms('When did the sink fail?').size).toBe(0);
    expect(frameOnlyTerms('How long after the merge did the change go live?').size).toBe(0);
    expect(frameOnlyTerms('Before I restart it, how do I check the queue?').size).toBe(0);
  });

  it('does not read "during" or "when" as a frame: they name the event asked about', () => {
    expect(frameOnlyTerms('During the Saturday patching, which broker was taken down?').size).toBe(0);
    expect(frameOnlyTerms('When queue-3 was shut down, how many jobs moved?').size).toBe(0);
  });

  it('does not count what a "besides" phrase sets aside as asked', () => {
    expect(askedTerms('Apart from prn-01, which server runs spoolerd?')).not.toContain('prn-01');
    expect(askedTerms('Apart from prn-01, which server runs spoolerd?')).toContain('spoolerd');
  });
});


describe('the terms a question asks about', () => {
  it('asks for a hyphenated pair of words joined too, as a key writes it ("append-only" → appendonly; fresh f97)', () => {
    expect(askedTerms('Is append-only persistence turned on for spool-cache?')).toEqual(expect.arrayContaining([...contentTerms('appendonly'), ...contentTerms('spoolcache')]));
    expect(askedTerms('Which server runs spoolerd?')).not.toContain('serverrun');
  });

  it('leaves out adverbs of aspect: "still" says a state goes on, not what it is about', () => {
    const terms = askedTerms('label-api ran 3 workers in April. Is that still the case, or is it currently 4?');
    expect(terms).toEqual(expect.arrayContaining(['label-api', 'worker']));
    expect(terms).not.toContain('still');
    expect(terms).not.toContain('current');
  });
});
