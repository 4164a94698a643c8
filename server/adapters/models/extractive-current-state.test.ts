import { describe, expect, it } from 'vitest';
import { asksCurrentState, withPresentStateFirst } from './extractive-current-state';
import { unitsOf } from './extractive-units';
import { answerFromContext, contextItem } from './testing/extractive-reader-answers';

describe('a question about the present, against the states a corpus kept', () => {
  it('reads which questions ask for the present', () => {
    expect(asksCurrentState('The runbook says the spooler keeps 7 days. Is that still true?')).toBe(true);
    expect(asksCurrentState('What queue limit does spoolerd run with at the moment?')).toBe(true);
    expect(asksCurrentState("What's the current queue limit of spoolerd?")).toBe(true);
    // A named day asks for that day's state; a role named "current" asks nothing about the present.
    expect(asksCurrentState('What queue limit did spoolerd run with on 4 May, and is it still the same?')).toBe(false);
    expect(asksCurrentState('Ana Lima is the current owner of a printer in which building?')).toBe(false);
    expect(asksCurrentState('What queue limit does spoolerd run with?')).toBe(false);
  });

  it('lowers a superseded statement and raises the latest, a commit standing for its best line', () => {
    const items = [
      contextItem(1, 'commit 1a2b3c4: spoolerd: queue limit 100', 'ops-git', 'commit 1a2b3c4000000000000000000000000000000000\nDate: 2026-02-03T10:00:00Z\n\n    spoolerd: queue limit 100\n\n    The spool disk of prn-01 is at 87 %, so spoolerd runs with a queue limit of 100 jobs until the disks grow.', 'commit 1a2b3c4'),
      contextItem(2, 'Postmortem › Action items', 'ops-docs', '- spoolerd queue limit back to 400 jobs, spool disks grown to 2 TB (done 2026-03-10).'),
    ];
    const text = answerFromContext('Is a queue limit of 100 jobs still what spoolerd runs with?', items);
    expect(text.split('\n')[1]).toContain('back to 400 jobs');
    const units = unitsOf([{ ref: 1, header: 'a — s, l', text: 'Limit 100 (done 2026-02-03).' }, { ref: 2, header: 'b — s, l', text: 'Limit 400 (done 2026-03-10).' }]);
    const [older, later] = withPresentStateFirst([{ unit: units[0], score: 10 }, { unit: units[1], score: 8 }]);
    expect(later.score).toBeGreaterThan(older.score);
  });
});
