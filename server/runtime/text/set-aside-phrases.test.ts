import { describe, expect, it } from 'vitest';
import { excludedTerms, withoutSetAside } from './set-aside-phrases';

describe('what a question sets aside', () => {
  it('sets aside the things a "besides" or "other than" phrase names, unless the asking clause uses them too', () => {
    expect([...excludedTerms('Besides print.jobs and scan.jobs there is a third queue on prn-01 that audits fax requests. How long does it keep its messages?')]).toEqual(expect.arrayContaining(['print.jobs', 'scan.jobs']));
    expect(excludedTerms('Besides print.jobs and scan.jobs there is a third queue on prn-01. How long does it keep its messages?')).not.toContain('queue');
    expect([...excludedTerms('Which queues other than print.jobs failed on 3 May?')]).toEqual(['print.jobs', 'print', 'job']);
    expect(excludedTerms('Other than print.jobs, which print queue failed?')).not.toContain('print');
    expect(excludedTerms('How long does print.jobs keep its messages?').size).toBe(0);
  });

  it('searches without the set-aside phrase, and leaves a question with none as it is', () => {
    expect(withoutSetAside('Besides print.jobs and scan.jobs, which other queues did spoolerd drop on 3 May?')).toBe('which other queues did spoolerd drop on 3 May?');
    expect(withoutSetAside('Which queues other than print.jobs failed on 3 May?')).toBe('Which queues failed on 3 May?');
    expect(withoutSetAside('How long does print.jobs keep its messages?')).toBe('How long does print.jobs keep its messages?');
  });
});
